package tidbsim

import (
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/tiform/tiform/version"
)

// What TiDB's definition of a variable does beyond its type, for variables
// whose facts (scope, type, default, range) come from the generated table
// (upstream.go): the Validation and SetGlobal functions of their entries in
// pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/sysvar.go (cited below
// as sysvar.go), which the differential suite checks against the real
// server of that commit. Each applies in every version that has the
// variable: the code read is the master of 2025-11-26; where a release
// behaved otherwise before, its entry says so.

// behaviour is a variable's validation, SetGlobal hook, and the value a
// read-only variable takes from the server.
type behaviour struct {
	validate    func(c *varCtx, normalized, original string) (string, error)
	onSetGlobal func(c *varCtx, value string) error
	readServer  func(t VarTarget) string
}

// withBehaviour gives d the behaviour TiDB's definition of it has, if any.
func withBehaviour(d *SysVarDef) *SysVarDef {
	if b, ok := sysVarBehaviours[d.Name]; ok {
		d.validate, d.onSetGlobal, d.readServer = b.validate, b.onSetGlobal, b.readServer
	}
	if masked[d.Name] && d.readGlobal == nil {
		d.readGlobal = maskPassword
	}
	return d
}

// masked are the variables whose GetGlobal shows MaskPwd ("******") for
// any value but the empty one: the LDAP bind passwords
// (pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/sysvar.go,
// AuthenticationLDAPSASLBindRootPWD and AuthenticationLDAPSimpleBindRootPWD,
// GetGlobal; MaskPwd). SHOW VARIABLES, SELECT @@ and VARIABLES_INFO all
// read through it.
var masked = map[string]bool{
	"authentication_ldap_sasl_bind_root_pwd":   true,
	"authentication_ldap_simple_bind_root_pwd": true,
}

func maskPassword(_ version.Version, stored string) string {
	if stored == "" {
		return ""
	}
	return "******"
}

// hostname is the host's name, which tidb-server reads at start
// (pkg/sessionctx/variable/tidb_vars.go DefHostname: os.Hostname).
var hostname = sync.OnceValue(func() string {
	h, _ := os.Hostname()
	return h
})

// serverVariables are the NONE-scope variables tidb-server sets from its
// build, host and listener (cmd/tidb-server/main.go setGlobalVars;
// sysvar.go VersionComment, VersionCompileOs, VersionCompileMachine).
var serverVariables = map[string]func(t VarTarget) string{
	"version_comment": func(t VarTarget) string {
		mysql := "8.0"
		if t.Version.MySQLPrefix() != "8.0.11" {
			mysql = "5.7"
		}
		return "TiDB Server (Apache License 2.0) Community Edition, MySQL " + mysql + " compatible"
	},
	"version_compile_os":      func(VarTarget) string { return runtime.GOOS },
	"version_compile_machine": func(VarTarget) string { return runtime.GOARCH },
	"hostname":                func(VarTarget) string { return hostname() },
	"port": func(t VarTarget) string {
		if _, port, err := net.SplitHostPort(t.Instance); err == nil {
			return port
		}
		return "4000"
	},
	// the default of the config item plugin.dir (pkg/config/config.go)
	"plugin_dir": func(VarTarget) string { return "/data/deploy/plugin" },
}

func init() {
	for name, read := range serverVariables {
		b := sysVarBehaviours[name]
		b.readServer = read
		sysVarBehaviours[name] = b
	}
}

// errDeprecatedSimple is ErrWarnDeprecatedSyntaxSimpleMsg's code, 1681
// (sysvar.go's deprecation notes without a replacement).
const errDeprecatedSimple = 1681

// simpleDeprecation warns with text on every change.
func simpleDeprecation(text string) func(c *varCtx, normalized, _ string) (string, error) {
	return func(c *varCtx, normalized, _ string) (string, error) {
		c.warnings = append(c.warnings, Warning{Level: "Warning", Code: errDeprecatedSimple, Message: text})
		return normalized, nil
	}
}

// alwaysOn: OFF is accepted with a warning and stored as ON (or, with keep,
// stored as given).
func alwaysOn(code uint16, text string, keep bool) func(c *varCtx, normalized, _ string) (string, error) {
	return func(c *varCtx, normalized, _ string) (string, error) {
		if normalized == "OFF" {
			c.warnings = append(c.warnings, Warning{Level: "Warning", Code: code, Message: text})
		}
		if keep {
			return normalized, nil
		}
		return "ON", nil
	}
}

// executorConcurrency is appendDeprecationWarning(…, TiDBExecutorConcurrency)
// (sysvar.go: every per-operator concurrency).
func executorConcurrency(name string) behaviour {
	return behaviour{validate: func(c *varCtx, normalized, _ string) (string, error) {
		c.deprecated(name, "tidb_executor_concurrency")
		return normalized, nil
	}}
}

// isolation is checkIsolationLevel (pkg/sessionctx/variable/varsutil.go):
// SERIALIZABLE and READ-UNCOMMITTED are error 8048 unless
// tidb_skip_isolation_level_check is ON, then a warning.
func isolation(c *varCtx, normalized, _ string) (string, error) {
	if normalized != "SERIALIZABLE" && normalized != "READ-UNCOMMITTED" {
		return normalized, nil
	}
	err := NewError(8048, "HY000", "The isolation level '%s' is not supported. Set tidb_skip_isolation_level_check=1 to skip this error", normalized)
	if c.globalValue("tidb_skip_isolation_level_check") != "ON" {
		return normalized, err
	}
	c.warnings = append(c.warnings, Warning{Level: "Warning", Code: err.Code, Message: err.Message})
	return normalized, nil
}

var sysVarBehaviours = map[string]behaviour{
	// SEM first, then the connection (sysvar.go RequireSecureTransport).
	"require_secure_transport": {validate: func(c *varCtx, normalized, _ string) (string, error) {
		if normalized != "ON" {
			return normalized, nil
		}
		if c.target.SEM {
			return normalized, ErrGeneric("require_secure_transport can not be set to ON with SEM(security enhanced mode) enabled")
		}
		if !c.target.Secure {
			return normalized, ErrGeneric("require_secure_transport can only be set to ON if the connection issuing the change is secure")
		}
		return normalized, nil
	}},
	// ON needs config.CheckTableBeforeDrop, false in a release build
	// (sysvar.go TiDBEvolvePlanBaselines).
	"tidb_evolve_plan_baselines": {validate: func(_ *varCtx, normalized, _ string) (string, error) {
		if normalized == "ON" {
			return normalized, ErrGeneric("Cannot enable baseline evolution feature, it is not generally available now")
		}
		return normalized, nil
	}},
	// sysvar.go TiDBEnablePlanReplayerContinuousCapture
	"tidb_enable_plan_replayer_continuous_capture": {validate: func(c *varCtx, normalized, _ string) (string, error) {
		if normalized == "ON" && c.globalValue("tidb_enable_historical_stats") != "ON" {
			return normalized, ErrGeneric("tidb_enable_historical_stats should be enabled before enabling tidb_enable_plan_replayer_continuous_capture")
		}
		return normalized, nil
	}},
	// The only TiDB cannot stop being a DDL owner (sysvar.go TiDBEnableDDL,
	// pkg/ddl/ddl.go: ErrDDLSetting 8246).
	"tidb_enable_ddl": {onSetGlobal: func(c *varCtx, value string) error {
		if value == "OFF" && c.target.TiDBInstances <= 1 && c.globalValue("tidb_enable_ddl") == "ON" {
			return NewError(8246, "HY000", "Error happened when disabling DDL: can not disable ddl owner when it is the only one tidb instance")
		}
		return nil
	}},
	"transaction_isolation": {validate: isolation},
	"tx_isolation":          {validate: isolation},
	// sysvar.go TiDBEnableListTablePartition: a warning on every change,
	// OFF refused.
	"tidb_enable_list_partition": {validate: func(c *varCtx, normalized, _ string) (string, error) {
		c.warnings = append(c.warnings, Warning{Level: "Warning", Code: errDeprecatedSimple, Message: "tidb_enable_list_partition is deprecated and will be removed in a future release."})
		if normalized != "ON" {
			return normalized, ErrGeneric("tidb_enable_list_partition is now always on, and cannot be turned off")
		}
		return normalized, nil
	}},
	"tidb_enable_auto_analyze_priority_queue": {validate: simpleDeprecation("tidb_enable_auto_analyze_priority_queue will be removed in the future and TiDB will always use priority queue to execute auto analyze.")},
	// stored as given, read as ON (sysvar.go TiDBEnableColumnTracking:
	// GetGlobal returns ON)
	"tidb_enable_column_tracking": {validate: func(c *varCtx, _, _ string) (string, error) {
		c.warnings = append(c.warnings, Warning{Level: "Warning", Code: errDeprecatedSimple, Message: "The 'tidb_enable_column_tracking' variable is deprecated and will be removed in future versions of TiDB. It is always set to 'ON' now."})
		return "ON", nil
	}},
	"tidb_enable_exchange_partition":          {validate: alwaysOn(1105, "tidb_enable_exchange_partition is always turned on. This variable has been deprecated and will be removed in the future releases", false)},
	"tidb_enable_tiflash_read_for_write_stmt": {validate: alwaysOn(1105, "tidb_enable_tiflash_read_for_write_stmt is always turned on. This variable has been deprecated and will be removed in the future releases", false)},
	"tidb_enable_global_index":                {validate: alwaysOn(1105, "tidb_enable_global_index is always turned on. This variable has been deprecated and will be removed in the future releases", true)},
	// errWarnDeprecatedSyntax(Off, On)
	"tidb_enable_new_cost_interface": {validate: alwaysOn(1287, "'OFF' is deprecated and will be removed in a future release. Please use ON instead", false)},
	"tidb_enable_fast_analyze": {validate: func(c *varCtx, normalized, _ string) (string, error) {
		if normalized == "ON" {
			c.warnings = append(c.warnings, Warning{Level: "Warning", Code: 1105, Message: "the fast analyze feature has already been removed in TiDB v7.5.0, so this will have no effect"})
		}
		return normalized, nil
	}},
	"tidb_enable_clustered_index": {validate: func(c *varCtx, normalized, _ string) (string, error) {
		if normalized == "INT_ONLY" {
			c.warn(1287, "'%s' is deprecated and will be removed in a future release. Please use %s instead", normalized, "'ON' or 'OFF'")
		}
		return normalized, nil
	}},
	// PartitionPruneMode.Update maps the -only spellings; SetGlobal warns
	// (sysvar.go TiDBPartitionPruneMode).
	"tidb_partition_prune_mode": {
		validate: func(_ *varCtx, normalized, _ string) (string, error) {
			return strings.TrimSuffix(strings.ToLower(normalized), "-only"), nil
		},
		onSetGlobal: func(c *varCtx, value string) error {
			switch value {
			case "static":
				c.warnings = append(c.warnings, Warning{Level: "Warning", Code: errDeprecatedSimple, Message: "static prune mode is deprecated and will be removed in the future release."})
			case "dynamic":
				c.warnings = append(c.warnings, Warning{Level: "Warning", Code: 1105, Message: "Please analyze all partition tables again for consistency between partition and global stats"})
			}
			return nil
		},
	},
	"tidb_index_lookup_concurrency":             executorConcurrency("tidb_index_lookup_concurrency"),
	"tidb_index_lookup_join_concurrency":        executorConcurrency("tidb_index_lookup_join_concurrency"),
	"tidb_hash_join_concurrency":                executorConcurrency("tidb_hash_join_concurrency"),
	"tidb_projection_concurrency":               executorConcurrency("tidb_projection_concurrency"),
	"tidb_hashagg_partial_concurrency":          executorConcurrency("tidb_hashagg_partial_concurrency"),
	"tidb_hashagg_final_concurrency":            executorConcurrency("tidb_hashagg_final_concurrency"),
	"tidb_window_concurrency":                   executorConcurrency("tidb_window_concurrency"),
	"tidb_merge_join_concurrency":               executorConcurrency("tidb_merge_join_concurrency"),
	"tidb_streamagg_concurrency":                executorConcurrency("tidb_streamagg_concurrency"),
	"tidb_index_merge_intersection_concurrency": executorConcurrency("tidb_index_merge_intersection_concurrency"),
	// ErrWarnDeprecatedSyntaxNoReplacement (sysvar.go
	// TiDBAutoAnalyzePartitionBatchSize)
	"tidb_auto_analyze_partition_batch_size": {validate: simpleDeprecation("Updating 'tidb_auto_analyze_partition_batch_size' is deprecated. It will be made read-only in a future release.")},
	// the value as written must stay below the maximum (sysvar.go
	// TiDBGOGCTunerMinValue; the clamp warning comes first)
	"tidb_gogc_tuner_min_value": {validate: func(c *varCtx, _, original string) (string, error) {
		n, err := strconv.ParseInt(original, 10, 64)
		if err != nil {
			n = 100 // TidbOptInt64's default, DefTiDBGOGCMinValue
		}
		if max, err := strconv.ParseInt(c.globalValue("tidb_gogc_tuner_max_value"), 10, 64); err == nil && n >= max {
			return "", ErrGeneric("tidb_gogc_tuner_min_value should be less than tidb_gogc_tuner_max_value")
		}
		return original, nil
	}},
	// stored as written, past the clamp of its range (sysvar.go
	// TiDBGOGCTunerMaxValue: Validation returns the original value)
	"tidb_gogc_tuner_max_value": {validate: func(c *varCtx, _, original string) (string, error) {
		n, err := strconv.ParseInt(original, 10, 64)
		if err != nil {
			n = 500 // TidbOptInt64's default, DefTiDBGOGCMaxValue
		}
		if min, err := strconv.ParseInt(c.globalValue("tidb_gogc_tuner_min_value"), 10, 64); err == nil && n <= min {
			return "", ErrGeneric("tidb_gogc_tuner_max_value should be more than tidb_gogc_tuner_min_value")
		}
		return original, nil
	}},
	// ON also turns tidb_super_read_only ON (sysvar.go
	// TiDBRestrictedReadOnly SetGlobal); OFF leaves it.
	"tidb_restricted_read_only": {onSetGlobal: func(c *varCtx, value string) error {
		if value == "ON" {
			c.also = append(c.also, varAssignment{"tidb_super_read_only", "ON"})
		}
		return nil
	}},
	// SetGlobal stores TidbOptInt64(value, 1) into the config, which ON/OFF
	// never parse as: the variable reads ON whatever is set (sysvar.go
	// TiDBRecordPlanInSlowLog).
	"tidb_record_plan_in_slow_log": {validate: func(_ *varCtx, _, _ string) (string, error) {
		return "ON", nil
	}},
}

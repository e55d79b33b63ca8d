package tidbsim

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tiform/tiform/version"
)

// This file holds the system-variable definitions: which variables exist in
// which TiDB version, their scope, type, default and range, and the
// validation/normalisation TiDB applies when one is set. The state (current
// values) lives in sysvar_store.go.
//
// The validation rules follow TiDB's pkg/sessionctx/variable (SysVar.Validate,
// ValidateFromType, checkBoolSystemVar, checkInt64SystemVar,
// checkUInt64SystemVar, checkFloatSystemVar, checkEnumSystemVar,
// checkDurationSystemVar in pingcap/tidb@v8.5.1:pkg/sessionctx/variable/variable.go);
// each definition's Source names the documentation of its scope, type,
// default and range (https://docs.pingcap.com/tidb/stable/system-variables).

// VarScope is a set of scope flags, as TiDB's ScopeFlag.
type VarScope uint8

// Scope flags. ScopeNone means read-only, fixed at start.
const (
	ScopeNone     VarScope = 0
	ScopeGlobal   VarScope = 1 << 0
	ScopeSession  VarScope = 1 << 1
	ScopeInstance VarScope = 1 << 2 // like GLOBAL but only for the connected tidb (https://docs.pingcap.com/tidb/stable/system-variables, INSTANCE scope)
)

// String renders the scope as INFORMATION_SCHEMA.VARIABLES_INFO.VARIABLE_SCOPE
// does (TiDB ScopeFlag.String: SESSION, GLOBAL, INSTANCE joined by commas,
// NONE for none).
func (s VarScope) String() string {
	if s == ScopeNone {
		return "NONE"
	}
	var parts []string
	if s&ScopeSession != 0 {
		parts = append(parts, "SESSION")
	}
	if s&ScopeGlobal != 0 {
		parts = append(parts, "GLOBAL")
	}
	if s&ScopeInstance != 0 {
		parts = append(parts, "INSTANCE")
	}
	return strings.Join(parts, ",")
}

func (s VarScope) has(f VarScope) bool { return s&f != 0 }

// VarType is the value type of a system variable (TiDB TypeFlag).
type VarType int

// Variable types. TypeStr variables carry their own validation (for example the
// byte-size variables of the instance plan cache).
const (
	TypeStr VarType = iota
	TypeBool
	TypeInt
	TypeUnsigned
	TypeFloat
	TypeEnum
	TypeDuration
)

// versioned is a value that applies from Since on (inclusive).
type versioned struct {
	Since version.Version
	Value string
}

// SysVarDef describes one system variable. All fields are read-only after the
// registry is built.
type SysVarDef struct {
	Name  string
	Scope VarScope
	Type  VarType
	// Default is the compiled-in default; Defaults overrides it from a version on
	// (the last entry whose Since <= v wins).
	Default  string
	Defaults []versioned
	// Min and Max bound numeric types (TiDB MinValue int64 / MaxValue uint64).
	Min int64
	Max uint64
	// Possible lists the values of an enum, in canonical spelling.
	Possible []string
	ReadOnly bool
	// AllowEmptyAll accepts the empty string for any scope (TiDB AllowEmptyAll,
	// used by tidb_txn_mode).
	AllowEmptyAll bool
	// AllowAutoValue accepts "-1" outside the range (TiDB AllowAutoValue).
	AllowAutoValue bool
	// Aliases are set together with this variable (tidb_prepared_plan_cache_size
	// and tidb_session_plan_cache_size).
	Aliases []string
	// Exists reports whether the variable exists in a TiDB version; nil means
	// every modelled version.
	Exists func(v version.Version) bool
	// validate runs after the type validation (TiDB SysVar.Validation); it may
	// rewrite the normalised value and append warnings.
	validate func(c *varCtx, normalized, original string) (string, error)
	// onSetGlobal runs when a GLOBAL/INSTANCE value is stored (TiDB SetGlobal);
	// it may append warnings or fail.
	onSetGlobal func(c *varCtx, value string) error
	// readGlobal rewrites the stored global value on read (TiDB GetGlobal).
	readGlobal func(v version.Version, stored string) string
	// readServer, when set, is the value a NONE-scope variable takes from
	// the server it is read on (its port, its host, its build: what
	// tidb-server sets at start, pingcap/tidb@e4e814fdc0af:cmd/tidb-server/main.go
	// setGlobalVars).
	readServer func(t VarTarget) string
	// Source is the public source that documents the variable: its entry in
	// the system-variables page (sysVarDocs + anchor), a release note, or for
	// the generated definitions the upstream file it was read from
	// (owner/repo@tag:path); empty only for a variable a caller declares
	// (Options.NewerVariables). TestSysVarSources checks the form.
	Source string
}

// DefaultFor returns the default value of d in TiDB version v.
func (d *SysVarDef) DefaultFor(v version.Version) string {
	val := d.Default
	for _, e := range d.Defaults {
		if v.Compare(e.Since) >= 0 {
			val = e.Value
		}
	}
	return val
}

// varCtx carries what validation needs: the version, the connection and
// cluster the statement runs on, the other variables' global values, and
// the statement's warnings and side effects.
type varCtx struct {
	ver      version.Version
	warnings []Warning
	// target is the TiDB instance and connection the statement runs on.
	target VarTarget
	// global reads another variable's GLOBAL (or INSTANCE) value; nil when
	// the caller has none to offer (type checks outside a statement).
	global func(name string) string
	// also lists GLOBAL values a change sets besides its own (TiDB's
	// SetGlobal hooks that call SetGlobalSysVarOnly).
	also []varAssignment
}

// varAssignment is a variable and the value to store.
type varAssignment struct{ name, value string }

// globalValue is the GLOBAL value of name, "" when none can be read.
func (c *varCtx) globalValue(name string) string {
	if c.global == nil {
		return ""
	}
	return c.global(name)
}

func (c *varCtx) warn(code uint16, format string, args ...any) {
	c.warnings = append(c.warnings, Warning{Level: "Warning", Code: code, Message: NewError(code, "", format, args...).Message})
}

// Error constructors for system variables. Texts are the MySQL/TiDB messages:
// 1193/1231/1292/1238 are confirmed by corpus/messages.tsv; 1228, 1229 and
// 1232 are the standard MySQL texts (ER_LOCAL_VARIABLE, ER_GLOBAL_VARIABLE,
// ER_WRONG_TYPE_FOR_VAR; 1232 also in messages.tsv) that TiDB reuses.

func errUnknownSysVar(name string) *SQLError {
	return NewError(1193, "HY000", "Unknown system variable '%s'", name)
}

func errWrongValueForVar(name, value string) *SQLError {
	return NewError(1231, "42000", "Variable '%s' can't be set to the value of '%s'", name, value)
}

func errWrongTypeForVar(name string) *SQLError {
	return NewError(1232, "42000", "Incorrect argument type to variable '%s'", name)
}

// errIncorrectScope is ER_INCORRECT_GLOBAL_LOCAL_VAR (1238): "Variable 'x' is a
// read only variable" (corpus messages.tsv, gh-tidb-31100), also "is a SESSION
// variable" / "is a GLOBAL variable" for SELECT @@global./@@session. on the
// wrong scope.
func errIncorrectScope(name, what string) *SQLError {
	return NewError(1238, "HY000", "Variable '%s' is a %s variable", name, what)
}

func errLocalVariable(name string) *SQLError {
	return NewError(1228, "HY000", "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", name)
}

func errGlobalVariable(name string) *SQLError {
	return NewError(1229, "HY000", "Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", name)
}

// truncatedWarning is warning 1292 as TiDB appends it when a value is clamped
// (corpus messages.tsv: "Truncated incorrect max_prepared_stmt_count value:
// '1048577'").
func (c *varCtx) truncated(name, original string) {
	c.warn(1292, "Truncated incorrect %s value: '%s'", name, original)
}

// deprecated is ErrWarnDeprecatedSyntax (1287).
func (c *varCtx) deprecated(name, replacement string) {
	c.warn(1287, "'%s' is deprecated and will be removed in a future release. Please use %s instead", name, replacement)
}

// validateType normalises value by type, exactly as TiDB's ValidateFromType:
// booleans ON/OFF (case-insensitive) or the integers 0/1; integers parsed
// strictly and clamped to [Min, Max] with warning 1292 (1232 when not a
// number); floats likewise; enums by name (case-insensitive) or ordinal;
// durations with Go syntax, clamped, rendered by time.Duration.String.
func (d *SysVarDef) validateType(c *varCtx, value string) (string, error) {
	if value == "" && d.AllowEmptyAll {
		return value, nil
	}
	switch d.Type {
	case TypeBool:
		return d.validateBool(value)
	case TypeInt:
		return d.validateInt(c, value)
	case TypeUnsigned:
		return d.validateUnsigned(c, value)
	case TypeFloat:
		return d.validateFloat(c, value)
	case TypeEnum:
		for i, p := range d.Possible {
			if strings.EqualFold(value, p) || value == strconv.Itoa(i) {
				return p, nil
			}
		}
		return value, errWrongValueForVar(d.Name, value)
	case TypeDuration:
		return d.validateDuration(c, value)
	}
	return value, nil
}

// validateBool: ON/OFF in any case, or the integers 0 and 1.
func (d *SysVarDef) validateBool(value string) (string, error) {
	if strings.EqualFold(value, "ON") {
		return "ON", nil
	}
	if strings.EqualFold(value, "OFF") {
		return "OFF", nil
	}
	switch n, err := strconv.ParseInt(value, 10, 64); {
	case err == nil && n == 0:
		return "OFF", nil
	case err == nil && n == 1:
		return "ON", nil
	}
	return value, errWrongValueForVar(d.Name, value)
}

// validateInt parses a signed integer strictly (-1 kept for auto values)
// and clamps it to [Min, Max] with warning 1292.
func (d *SysVarDef) validateInt(c *varCtx, value string) (string, error) {
	if d.AllowAutoValue && value == "-1" {
		return value, nil
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return value, errWrongTypeForVar(d.Name)
	}
	if n < d.Min {
		c.truncated(d.Name, value)
		return strconv.FormatInt(d.Min, 10), nil
	}
	if d.Max <= math.MaxInt64 && n > int64(d.Max) {
		c.truncated(d.Name, value)
		return strconv.FormatUint(d.Max, 10), nil
	}
	return value, nil
}

// validateUnsigned parses an unsigned integer (a negative integer clamps to
// Min) and clamps it to [Min, Max] with warning 1292.
func (d *SysVarDef) validateUnsigned(c *varCtx, value string) (string, error) {
	if d.AllowAutoValue && value == "-1" {
		return value, nil
	}
	if value == "" {
		return value, errWrongTypeForVar(d.Name)
	}
	if value[0] == '-' {
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return value, errWrongTypeForVar(d.Name)
		}
		c.truncated(d.Name, value)
		return strconv.FormatInt(d.Min, 10), nil
	}
	n, err := strconv.ParseUint(value, 10, 64)
	if err != nil {
		return value, errWrongTypeForVar(d.Name)
	}
	if n < uint64(d.Min) {
		c.truncated(d.Name, value)
		return strconv.FormatInt(d.Min, 10), nil
	}
	if n > d.Max {
		c.truncated(d.Name, value)
		return strconv.FormatUint(d.Max, 10), nil
	}
	return value, nil
}

// validateFloat clamps to the integer bounds and renders them as integers:
// reserved_percentage=1.1100 reads back as 1 (corpus messages.tsv).
func (d *SysVarDef) validateFloat(c *varCtx, value string) (string, error) {
	if value == "" {
		return value, errWrongTypeForVar(d.Name)
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return value, errWrongTypeForVar(d.Name)
	}
	if f < float64(d.Min) {
		c.truncated(d.Name, value)
		return strconv.FormatInt(d.Min, 10), nil
	}
	if f > float64(d.Max) {
		c.truncated(d.Name, value)
		return strconv.FormatUint(d.Max, 10), nil
	}
	return value, nil
}

// validateDuration parses Go duration syntax, clamps it and renders it with
// time.Duration.String.
func (d *SysVarDef) validateDuration(c *varCtx, value string) (string, error) {
	dur, err := time.ParseDuration(value)
	if err != nil {
		return value, errWrongTypeForVar(d.Name)
	}
	if int64(dur) < d.Min {
		c.truncated(d.Name, value)
		return time.Duration(d.Min).String(), nil
	}
	if uint64(dur) > d.Max {
		c.truncated(d.Name, value)
		return time.Duration(d.Max).String(), nil
	}
	return dur.String(), nil
}

// nativeValue converts a stored value to what SELECT @@x returns: booleans and
// unsigned integers as integers (TiDB SysVar.GetNativeValType: `SELECT
// @@tidb_enable_instance_plan_cache` gives 0/1, corpus variables.tsv), every
// other type as a string.
func (d *SysVarDef) nativeValue(val string) Value {
	switch d.Type {
	case TypeBool:
		if strings.EqualFold(val, "ON") || val == "1" {
			return Int(1)
		}
		return Int(0)
	case TypeUnsigned:
		u, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return Int(0)
		}
		if u > math.MaxInt64 {
			return Value{Kind: KindDecimal, S: strconv.FormatUint(u, 10)}
		}
		return Int(int64(u))
	}
	return Str(val)
}

// columnType is the column type of SELECT @@x: the type of nativeValue.
func (d *SysVarDef) columnType() ColumnType {
	switch d.Type {
	case TypeBool:
		return ColBigInt
	case TypeUnsigned:
		return ColUnsignedBigInt
	}
	return ColVarchar
}

// parseByteSize parses TiDB's byte-size strings (varsutil.go parseByteSize): a
// decimal integer optionally followed by exactly one of KB, KiB, MB, MiB, GB,
// GiB, TB, TiB (case-sensitive; KB and KiB both mean 1024). It returns the byte
// count and the normalised spelling, or ok=false.
func parseByteSize(s string) (bytes uint64, normalized string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, "", false
	}
	n, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil {
		return 0, "", false
	}
	unit := s[i:]
	var shift uint
	switch unit {
	case "":
		return n, strconv.FormatUint(n, 10), true
	case "KB", "KiB":
		shift = 10
	case "MB", "MiB":
		shift = 20
	case "GB", "GiB":
		shift = 30
	case "TB", "TiB":
		shift = 40
	default:
		return 0, "", false
	}
	return n << shift, strconv.FormatUint(n, 10) + unit, true
}

// from returns an Exists predicate true for versions >= major.minor.patch.
func from(major, minor, patch int) func(version.Version) bool {
	return func(v version.Version) bool { return v.AtLeast(major, minor, patch) }
}

// before returns an Exists predicate true for versions < major.minor.patch.
func before(major, minor, patch int) func(version.Version) bool {
	return func(v version.Version) bool { return v.Before(major, minor, patch) }
}

func since(major, minor, patch int, value string) versioned {
	return versioned{Since: version.Version{Major: major, Minor: minor, Patch: patch}, Value: value}
}

// sysVarDocs is the system-variables page; a definition's Source appends the
// variable's heading anchor (its name, plus "-new-in-vXYZ" when the heading
// carries a version mark).
const sysVarDocs = "https://docs.pingcap.com/tidb/stable/system-variables#"

// sysVarDefs is every modelled variable. Versions below v7.5 are not modelled:
// "exists" predicates only distinguish versions from v7.5 on.
var sysVarDefs = []*SysVarDef{
	// ---- plan cache family (https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache,
	// https://docs.pingcap.com/tidb/stable/sql-non-prepared-plan-cache) ----
	{Name: "tidb_enable_prepared_plan_cache", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_prepared_plan_cache-new-in-v610"},
	{
		Name: "tidb_prepared_plan_cache_size", Scope: ScopeGlobal | ScopeSession, Type: TypeUnsigned, Default: "100", Min: 1, Max: 100000,
		Aliases: []string{"tidb_session_plan_cache_size"}, Source: sysVarDocs + "tidb_prepared_plan_cache_size-new-in-v610",
		// Deprecated in v7.1.0 in favour of tidb_session_plan_cache_size
		// (https://docs.pingcap.com/tidb/stable/release-7.1.0); TiDB appends
		// ErrWarnDeprecatedSyntax when it is set.
		validate: func(c *varCtx, normalized, _ string) (string, error) {
			c.deprecated("tidb_prepared_plan_cache_size", "tidb_session_plan_cache_size")
			return normalized, nil
		},
	},
	{Name: "tidb_session_plan_cache_size", Scope: ScopeGlobal | ScopeSession, Type: TypeUnsigned, Default: "100", Min: 1, Max: 100000, Aliases: []string{"tidb_prepared_plan_cache_size"}, Source: sysVarDocs + "tidb_session_plan_cache_size-new-in-v710"},
	// Default OFF since v7.4.0 (its Source); every modelled version is >= v7.5.
	{Name: "tidb_enable_non_prepared_plan_cache", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "OFF", Source: sysVarDocs + "tidb_enable_non_prepared_plan_cache"},
	{
		Name: "tidb_non_prepared_plan_cache_size", Scope: ScopeGlobal | ScopeSession, Type: TypeUnsigned, Default: "100", Min: 1, Max: 100000, Source: sysVarDocs + "tidb_non_prepared_plan_cache_size",
		validate: func(c *varCtx, normalized, _ string) (string, error) {
			c.deprecated("tidb_non_prepared_plan_cache_size", "tidb_session_plan_cache_size")
			return normalized, nil
		},
	},
	{Name: "tidb_enable_non_prepared_plan_cache_for_dml", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "OFF", Source: sysVarDocs + "tidb_enable_non_prepared_plan_cache_for_dml-new-in-v710"},
	// Instance plan cache, v8.4.0+ (https://docs.pingcap.com/tidb/stable/release-8.4.0).
	{Name: "tidb_enable_instance_plan_cache", Scope: ScopeGlobal, Type: TypeBool, Default: "OFF", Exists: from(8, 4, 0), Source: sysVarDocs + "tidb_enable_instance_plan_cache-new-in-v840"},
	{
		// TiDB declares it TypeStr and parses it in SetGlobal with parseByteSize;
		// GetGlobal returns the byte count, so '2GiB' reads back as 2147483648
		// (its Source accepts unit strings). Default 125829120 per the same
		// entry; a TiDB unit test of the 8.4/8.5 era reads 104857600 (corpus
		// variables.tsv, test-tidb-instanceplancache-others), which may be a
		// test setting rather than the default.
		Name: "tidb_instance_plan_cache_max_size", Scope: ScopeGlobal, Type: TypeStr, Default: "125829120", Exists: from(8, 4, 0), Source: sysVarDocs + "tidb_instance_plan_cache_max_size-new-in-v840",
		onSetGlobal: func(_ *varCtx, value string) error {
			if _, _, ok := parseByteSize(value); !ok {
				// Message verbatim from TiDB's SetGlobal (note the _mem_ in the name).
				return ErrGeneric("invalid tidb_instance_plan_cache_max_mem_size value %s", value)
			}
			return nil
		},
		readGlobal: func(_ version.Version, stored string) string {
			n, _, ok := parseByteSize(stored)
			if !ok {
				return stored
			}
			return strconv.FormatUint(n, 10)
		},
	},
	{Name: "tidb_instance_plan_cache_reserved_percentage", Scope: ScopeGlobal, Type: TypeFloat, Default: "0.1", Min: 0, Max: 1, Exists: from(8, 4, 0), Source: sysVarDocs + "tidb_instance_plan_cache_reserved_percentage-new-in-v840"},
	// The docs (its Source) accept KiB/MiB/GiB/TiB and give the range [0, 2^63-1];
	// the TiDB code read (sysvar.go) declares TypeUnsigned with MaxValue
	// MaxUint64 and no unit parsing. tidbsim follows the code (units → 1232);
	// see docs/tidbsim.md, "SQL-state domains".
	{Name: "tidb_plan_cache_max_plan_size", Scope: ScopeGlobal | ScopeSession, Type: TypeUnsigned, Default: "2097152", Min: 0, Max: math.MaxUint64, Source: sysVarDocs + "tidb_plan_cache_max_plan_size-new-in-v710"},
	{Name: "tidb_enable_plan_cache_for_param_limit", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_plan_cache_for_param_limit-new-in-v660"},
	{Name: "tidb_enable_plan_cache_for_subquery", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_plan_cache_for_subquery-new-in-v700"},
	// OFF for clusters upgraded from < v7.1.0 (its Source): see SysVarOptions.UpgradedFrom.
	{Name: "tidb_plan_cache_invalidation_on_fresh_stats", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_plan_cache_invalidation_on_fresh_stats-new-in-v710"},
	{Name: "tidb_prepared_plan_cache_memory_guard_ratio", Scope: ScopeGlobal, Type: TypeFloat, Default: "0.1", Min: 0, Max: 1, Source: sysVarDocs + "tidb_prepared_plan_cache_memory_guard_ratio-new-in-v610"},
	{Name: "tidb_enable_prepared_plan_cache_memory_monitor", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_prepared_plan_cache_memory_monitor-new-in-v640"},
	{Name: "tidb_ignore_prepared_cache_close_stmt", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "OFF", Source: sysVarDocs + "tidb_ignore_prepared_cache_close_stmt-new-in-v600"},
	{
		// v8.5.7 and v9.0.0 only (https://docs.pingcap.com/tidb/v8.5/release-8.5.7;
		// https://docs.pingcap.com/tidb/dev/system-variables#tidb_enable_cache_prepare_stmt-new-in-v900).
		Name: "tidb_enable_cache_prepare_stmt", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "OFF", Source: "https://docs.pingcap.com/tidb/v8.5/system-variables#tidb_enable_cache_prepare_stmt-new-in-v857",
		Exists: func(v version.Version) bool {
			if v.Major == 8 && v.Minor == 5 {
				return v.Patch >= 7
			}
			return v.AtLeast(9, 0, 0)
		},
	},
	{Name: "last_plan_from_cache", Scope: ScopeSession, Type: TypeBool, Default: "OFF", ReadOnly: true, Source: sysVarDocs + "last_plan_from_cache-new-in-v40"},

	// ---- resource control switches (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups) ----
	{Name: "tidb_enable_resource_control", Scope: ScopeGlobal, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_resource_control-new-in-v660"},
	// v8.2.0+, default ON for new clusters, OFF after upgrading from < v8.2.0
	// (its Source, https://docs.pingcap.com/tidb/stable/release-8.2.0): see SysVarOptions.UpgradedFrom.
	{Name: "tidb_resource_control_strict_mode", Scope: ScopeGlobal, Type: TypeBool, Default: "ON", Exists: from(8, 2, 0), Source: sysVarDocs + "tidb_resource_control_strict_mode-new-in-v820"},
	// v7.4.0, marks the current session's tasks as `background` for the
	// default group's BACKGROUND TASK_TYPES
	// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).
	// SESSION scope from that page's wording ("the task type of the current
	// session"); the docs state neither the scope in the variable's entry nor
	// the accepted values, so any string is accepted (unconfirmed).
	{Name: "tidb_request_source_type", Scope: ScopeSession, Type: TypeStr, Default: "", Exists: from(7, 4, 0), Source: sysVarDocs + "tidb_request_source_type-new-in-v740"},

	// ---- other common variables ----
	// INSTANCE scope: affects only the connected tidb, not persisted (system-variables docs, INSTANCE scope).
	{Name: "max_connections", Scope: ScopeInstance, Type: TypeUnsigned, Default: "0", Min: 0, Max: 100000, Source: sysVarDocs + "max_connections"},
	{
		Name: "tidb_slow_log_threshold", Scope: ScopeInstance, Type: TypeInt, Default: "300", Min: -1, Max: math.MaxInt64, Source: sysVarDocs + "tidb_slow_log_threshold",
		// TiDB keeps the value in a uint64 and reads it back with FormatUint
		// (sysvar.go SetGlobal/GetGlobal), so -1 reads 18446744073709551615.
		readGlobal: func(_ version.Version, stored string) string {
			if n, err := strconv.ParseInt(stored, 10, 64); err == nil && n < 0 {
				return strconv.FormatUint(uint64(n), 10)
			}
			return stored
		},
	},
	{
		// GLOBAL, Go duration in [10m, 1 year]; TiDB's checkDurationSystemVar
		// clamps with 1292 and renders with time.Duration.String ('72h' →
		// 72h0m0s, corpus messages.tsv gh-tidb-35392 shows the normalised
		// spelling). The 1231 in that v6.1.0 report and the 1232 for '1m0s' in
		// gh-tidb-26548 (2021) predate the current validation and are not
		// modelled.
		Name: "tidb_gc_life_time", Scope: ScopeGlobal, Type: TypeDuration, Default: "10m0s",
		Min: int64(10 * time.Minute), Max: uint64(365 * 24 * time.Hour), Source: sysVarDocs + "tidb_gc_life_time-new-in-v50",
	},
	{
		Name: "tidb_mem_quota_query", Scope: ScopeGlobal | ScopeSession, Type: TypeInt, Default: "1073741824", Min: -1, Max: math.MaxInt64, Source: sysVarDocs + "tidb_mem_quota_query",
		// TiDB raises 1..127 to 128 with warning 1292 (sysvar.go Validation).
		validate: func(c *varCtx, normalized, original string) (string, error) {
			n, err := strconv.ParseInt(normalized, 10, 64)
			if err == nil && n > 0 && n < 128 {
				c.truncated("tidb_mem_quota_query", original)
				return "128", nil
			}
			return normalized, nil
		},
	},
	{Name: "tidb_txn_mode", Scope: ScopeGlobal | ScopeSession, Type: TypeEnum, Default: "pessimistic", Possible: []string{"pessimistic", "optimistic"}, AllowEmptyAll: true, Source: sysVarDocs + "tidb_txn_mode"},
	{
		// Default OFF since Feb 2023 releases; deprecated in v8.1.0
		// (https://docs.pingcap.com/tidb/stable/release-8.1.0): the
		// value always reads OFF and setting it warns (TiDB sysvar.go GetGlobal /
		// SetGlobal of the 8.1+ code).
		// v9.0 (master) has it again as a plain boolean, ON by default
		// (pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/sysvar.go
		// TiDBEnableTelemetry, tidb_vars.go DefTiDBEnableTelemetry = true).
		Name: "tidb_enable_telemetry", Scope: ScopeGlobal, Type: TypeBool, Default: "OFF", Defaults: []versioned{since(9, 0, 0, "ON")}, Source: sysVarDocs + "tidb_enable_telemetry-new-in-v402",
		onSetGlobal: func(c *varCtx, _ string) error {
			if c.ver.AtLeast(8, 1, 0) && c.ver.Before(9, 0, 0) {
				// ErrWarnDeprecatedSyntaxSimpleMsg: code 1681
				// (ErrWarnDeprecatedSyntaxNoReplacement), text via FastGen.
				c.warn(1681, "tidb_enable_telemetry is deprecated since Telemetry has been removed, this variable is 'OFF' always.")
			}
			return nil
		},
		readGlobal: func(v version.Version, stored string) string {
			if v.AtLeast(8, 1, 0) && v.Before(9, 0, 0) {
				return "OFF"
			}
			return stored
		},
	},
	// Removed in v8.4.0 with TiDB Binlog (https://docs.pingcap.com/tidb/stable/release-8.4.0):
	// 1193 on >= v8.4.0 (derived: TiDB's error for any unknown variable).
	{Name: "log_bin", Scope: ScopeNone, Type: TypeBool, Default: "OFF", ReadOnly: true, Exists: before(8, 4, 0), Source: "https://docs.pingcap.com/tidb/stable/release-8.4.0"},
	{Name: "sql_log_bin", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Exists: before(8, 4, 0), Source: "https://docs.pingcap.com/tidb/stable/release-8.4.0"},
	{
		// GLOBAL float, default 0.5. From v8.1 the docs give the range (0, 1]
		// (its Source, https://docs.pingcap.com/tidb/stable/release-8.1.0); the
		// TiDB code read rejects values below 0.00001 with this message and has
		// no upper bound other than MaxUint64.
		Name: "tidb_auto_analyze_ratio", Scope: ScopeGlobal, Type: TypeFloat, Default: "0.5", Min: 0, Max: math.MaxUint64, Source: sysVarDocs + "tidb_auto_analyze_ratio",
		validate: func(c *varCtx, normalized, _ string) (string, error) {
			if c.ver.Before(8, 1, 0) {
				return normalized, nil
			}
			r, err := strconv.ParseFloat(normalized, 64)
			if err != nil {
				return "", err
			}
			const minRatio = 0.00001
			if r < minRatio && math.Abs(r-minRatio) > 1e-9 {
				return "", ErrGeneric("the value of tidb_auto_analyze_ratio should be greater than or equal to %f", minRatio)
			}
			return normalized, nil
		},
	},
	// Introduced v8.0.0, default OFF → ON in v8.5.0 (https://docs.pingcap.com/tidb/stable/release-8.5.0).
	{Name: "tidb_enable_fast_create_table", Scope: ScopeGlobal, Type: TypeBool, Default: "OFF", Defaults: []versioned{since(8, 5, 0, "ON")}, Exists: from(8, 0, 0), Source: sysVarDocs + "tidb_enable_fast_create_table-new-in-v800"},
	{
		// Introduced v8.0.0, default 0 → 536870912 in v8.4.0
		// (https://docs.pingcap.com/tidb/stable/release-8.4.0). TypeStr
		// with TiDB's parseSchemaCacheSize: byte sizes accepted, read back as
		// normalised text ('1GiB' stays '1GiB'); non-zero values below 64MiB
		// are raised to 64MB with 1292; garbage is error 1292.
		Name: "tidb_schema_cache_size", Scope: ScopeGlobal, Type: TypeStr, Default: "0", Defaults: []versioned{since(8, 4, 0, "536870912")}, Exists: from(8, 0, 0), Source: sysVarDocs + "tidb_schema_cache_size-new-in-v800",
		validate: func(c *varCtx, normalized, original string) (string, error) {
			n, str, ok := parseByteSize(normalized)
			if !ok {
				return "", NewError(1292, "22007", "Truncated incorrect tidb_schema_cache_size value: '%s'", original)
			}
			if n > 0 && n < 64<<20 {
				c.truncated("tidb_schema_cache_size", original)
				return "64MB", nil
			}
			if n > math.MaxInt64 {
				c.truncated("tidb_schema_cache_size", original)
				return strconv.FormatInt(math.MaxInt64, 10), nil
			}
			return str, nil
		},
	},
	// Read-only, value = VERSION() (its Source).
	{Name: "version", Scope: ScopeNone, Type: TypeStr, ReadOnly: true, Source: sysVarDocs + "version"},
	// Corpus messages.tsv: SET GLOBAL max_prepared_stmt_count = 1048577 →
	// Warning 1292, value 1048576.
	{Name: "max_prepared_stmt_count", Scope: ScopeGlobal, Type: TypeInt, Default: "-1", Min: -1, Max: 1048576, Source: sysVarDocs + "max_prepared_stmt_count"},
	{Name: "tidb_enable_auto_analyze", Scope: ScopeGlobal, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_auto_analyze-new-in-v610"},
	{Name: "tidb_gc_enable", Scope: ScopeGlobal, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_gc_enable-new-in-v50"},
	// Default OFF → ON in v8.1 (https://docs.pingcap.com/tidb/stable/release-8.1.0).
	{Name: "tidb_enable_dist_task", Scope: ScopeGlobal, Type: TypeBool, Default: "OFF", Defaults: []versioned{since(8, 1, 0, "ON")}, Source: sysVarDocs + "tidb_enable_dist_task-new-in-v710"},
	{Name: "autocommit", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "autocommit"},
	// Default changes in v8.4.0 (prefer_range_scan) and v8.2.0 (historical_stats):
	// https://docs.pingcap.com/tidb/stable/release-8.4.0, https://docs.pingcap.com/tidb/stable/release-8.2.0.
	{Name: "tidb_opt_prefer_range_scan", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "OFF", Defaults: []versioned{since(8, 4, 0, "ON")}, Source: sysVarDocs + "tidb_opt_prefer_range_scan-new-in-v50"},
	{Name: "tidb_enable_historical_stats", Scope: ScopeGlobal, Type: TypeBool, Default: "ON", Defaults: []versioned{since(8, 2, 0, "OFF")}, Source: sysVarDocs + "tidb_enable_historical_stats"},
	{
		// Deprecated in v8.0.0 (optimistic auto-retry removed,
		// https://docs.pingcap.com/tidb/stable/release-8.0.0): from then
		// on TiDB stores ON whatever is set and warns on OFF (sysvar.go
		// Validation: errWarnDeprecatedSyntax("OFF", "ON")).
		Name: "tidb_disable_txn_auto_retry", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_disable_txn_auto_retry",
		validate: func(c *varCtx, normalized, _ string) (string, error) {
			if c.ver.Before(8, 0, 0) {
				return normalized, nil
			}
			if normalized == "OFF" {
				c.deprecated("OFF", "ON")
			}
			return "ON", nil
		},
	},
	{
		// Fixed to ON from v8.4.0 (https://docs.pingcap.com/tidb/stable/release-8.4.0):
		// OFF then warns (TiDB returns a plain
		// error as warning, code 1105) and ON is stored.
		Name: "tidb_enable_table_partition", Scope: ScopeGlobal | ScopeSession, Type: TypeEnum, Default: "ON", Possible: []string{"OFF", "ON", "AUTO"}, Source: sysVarDocs + "tidb_enable_table_partition",
		validate: func(c *varCtx, normalized, _ string) (string, error) {
			if c.ver.Before(8, 4, 0) {
				return normalized, nil
			}
			if normalized == "OFF" {
				c.warn(1105, "tidb_enable_table_partition is always turned on. This variable has been deprecated and will be removed in the future releases")
			}
			return "ON", nil
		},
	},
	// Default ON: SET SESSION on an INSTANCE variable is applied as SET GLOBAL
	// with warning 8142 (TiDB TestEnableLegacyInstanceScope); OFF gives 1229.
	{Name: "tidb_enable_legacy_instance_scope", Scope: ScopeGlobal | ScopeSession, Type: TypeBool, Default: "ON", Source: sysVarDocs + "tidb_enable_legacy_instance_scope-new-in-v600"},
}

// versionString is the value of the `version` variable and VERSION():
// "<mysql-prefix>-TiDB-<release>" (https://docs.pingcap.com/tidb/stable/system-variables#version;
// prefix 8.0.11 since https://docs.pingcap.com/tidb/stable/release-7.4.0).
func versionString(v version.Version) string {
	return v.MySQLPrefix() + "-TiDB-" + v.String()
}

// SysVarDefsFor returns the variables that exist in TiDB version v, keyed by
// lower-case name: every variable of the generated upstream table at v
// (upstream.go), with the hand-modelled definitions (validation, rendering,
// upgrade defaults) for the ones sysVarDefs has, whose default is the
// table's where it states one.
func SysVarDefsFor(v version.Version) map[string]*SysVarDef {
	base := sysVarDefsAt(v)
	m := make(map[string]*SysVarDef, len(base))
	for k, d := range base {
		m[k] = d
	}
	return m
}

// sysVarDefsCache maps a release (sysVarDefsKey) to its variables.
var sysVarDefsCache sync.Map

// sysVarDefsKey names v's release in sysVarDefsCache: major, minor and
// patch, as v.Short() spells them, without formatting a string on every
// variable lookup.
func sysVarDefsKey(v version.Version) [3]int { return [3]int{v.Major, v.Minor, v.Patch} }

// sysVarDefsAt returns the variables of version v's release (shared: callers
// must not modify the map).
func sysVarDefsAt(v version.Version) map[string]*SysVarDef {
	if m, ok := sysVarDefsCache.Load(sysVarDefsKey(v)); ok {
		return m.(map[string]*SysVarDef)
	}
	m := make(map[string]*SysVarDef, len(sysVarDefs))
	for _, d := range sysVarDefs {
		known, exists := upstreamHas(d.Name, v)
		if known && !exists || !known && d.Exists != nil && !d.Exists(v) {
			continue
		}
		if def, ok := upstreamDefault(d.Name, v); ok {
			c := *d
			vc := &varCtx{ver: v}
			if norm, err := c.validateType(vc, def); err == nil && len(vc.warnings) == 0 {
				c.Default, c.Defaults = norm, nil
				d = &c
			}
		}
		m[d.Name] = d
	}
	for k, d := range upstreamVariables(v) {
		m[k] = d
	}
	sysVarDefsCache.Store(sysVarDefsKey(v), m)
	return m
}

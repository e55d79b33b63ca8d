package tidbsim

import (
	"database/sql"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sqlStep is one statement of a wire-level script: either a query with its
// exact rows, or a statement with its error (code and message) and the rows
// SHOW WARNINGS gives afterwards.
type sqlStep struct {
	sql      string
	rows     [][]string // nil: run with Exec; non-nil: Query and compare
	errCode  uint16
	errMsg   string     // compared when non-empty
	warnings [][]string // compared when non-nil (after a successful statement)
}

// runSteps executes steps on db (a single-connection pool) and compares.
func runSteps(t *testing.T, db *sql.DB, steps []sqlStep) {
	t.Helper()
	for _, st := range steps {
		if st.errCode != 0 {
			_, err := db.Exec(st.sql)
			if err == nil {
				t.Fatalf("%s: want error %d, got success", st.sql, st.errCode)
			}
			me := mysqlErr(t, err)
			if me.Number != st.errCode || (st.errMsg != "" && me.Message != st.errMsg) {
				t.Fatalf("%s:\n got  %d %s\n want %d %s", st.sql, me.Number, me.Message, st.errCode, st.errMsg)
			}
			continue
		}
		if st.rows != nil {
			got, err := queryRowsErr(db, st.sql)
			if err != nil {
				t.Fatalf("%s: %v", st.sql, err)
			}
			if diff := cmp.Diff(st.rows, got); diff != "" {
				t.Fatalf("%s: rows (-want +got):\n%s", st.sql, diff)
			}
		} else if _, err := db.Exec(st.sql); err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		if st.warnings != nil {
			if diff := cmp.Diff(st.warnings, warnings(t, db)); diff != "" {
				t.Fatalf("%s: SHOW WARNINGS (-want +got):\n%s", st.sql, diff)
			}
		}
	}
}

// modelledVersions are the versions every wire test runs against (issue 2:
// v7.5.x, v8.1.x, v8.5.1, v8.5.3 and a v9.0 build).
var modelledVersions = []string{"v7.5.4", "v8.1.2", "v8.5.1", "v8.5.3", "v9.0.0-beta.2"}

// TestSysVarWireCommon: behaviour shared by every modelled version.
func TestSysVarWireCommon(t *testing.T) {
	for _, ver := range modelledVersions {
		t.Run(ver, func(t *testing.T) {
			srv := startServer(t, Options{Version: ver})
			db := openDB(t, srv)
			runSteps(t, db, []sqlStep{
				// Booleans ON/OFF in SHOW, 0/1 in SELECT (catalog/testdata/corpus/variables.tsv).
				{sql: "SHOW GLOBAL VARIABLES LIKE 'tidb_enable_prepared_plan_cache'", rows: [][]string{{"tidb_enable_prepared_plan_cache", "ON"}}},
				{sql: "SELECT @@global.tidb_enable_prepared_plan_cache, @@tidb_enable_non_prepared_plan_cache", rows: [][]string{{"1", "0"}}},
				{sql: "SET GLOBAL tidb_enable_non_prepared_plan_cache = ON", warnings: [][]string{}},
				{sql: "SELECT @@global.tidb_enable_non_prepared_plan_cache", rows: [][]string{{"1"}}},
				// Session snapshot: this session still sees OFF (system-variables docs).
				{sql: "SELECT @@tidb_enable_non_prepared_plan_cache", rows: [][]string{{"0"}}},
				{sql: "SET @@global.tidb_enable_non_prepared_plan_cache = 0, GLOBAL tidb_session_plan_cache_size = 50"},
				{sql: "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_enable_non_prepared_plan_cache', 'tidb_session_plan_cache_size', 'tidb_prepared_plan_cache_size')",
					rows: [][]string{{"tidb_enable_non_prepared_plan_cache", "OFF"}, {"tidb_prepared_plan_cache_size", "50"}, {"tidb_session_plan_cache_size", "50"}}},
				// 1231 / 1232 / 1193 / 1238 / 1229 / 1228.
				{sql: "SET GLOBAL tidb_enable_prepared_plan_cache = 'maybe'", errCode: 1231, errMsg: "Variable 'tidb_enable_prepared_plan_cache' can't be set to the value of 'maybe'"},
				{sql: "SET GLOBAL tidb_session_plan_cache_size = 'many'", errCode: 1232, errMsg: "Incorrect argument type to variable 'tidb_session_plan_cache_size'"},
				{sql: "SET GLOBAL tidb_no_such_variable = 1", errCode: 1193, errMsg: "Unknown system variable 'tidb_no_such_variable'"},
				{sql: "SELECT @@tidb_no_such_variable", errCode: 1193, errMsg: "Unknown system variable 'tidb_no_such_variable'"},
				{sql: "SET GLOBAL version = 'x'", errCode: 1238, errMsg: "Variable 'version' is a read only variable"},
				{sql: "SET tidb_gc_life_time = '20m'", errCode: 1229, errMsg: "Variable 'tidb_gc_life_time' is a GLOBAL variable and should be set with SET GLOBAL"},
				{sql: "SET GLOBAL last_plan_from_cache = 1", errCode: 1238},
				{sql: "SELECT @@session.tidb_gc_life_time", errCode: 1238, errMsg: "Variable 'tidb_gc_life_time' is a GLOBAL variable"},
				// Clamping with 1292.
				{sql: "SET GLOBAL tidb_session_plan_cache_size = 100001", warnings: [][]string{{"Warning", "1292", "Truncated incorrect tidb_session_plan_cache_size value: '100001'"}}},
				{sql: "SELECT @@global.tidb_session_plan_cache_size", rows: [][]string{{"100000"}}},
				{sql: "SET GLOBAL max_prepared_stmt_count = 1048577", warnings: [][]string{{"Warning", "1292", "Truncated incorrect max_prepared_stmt_count value: '1048577'"}}},
				{sql: "SHOW GLOBAL VARIABLES LIKE 'max_prepared_stmt_count'", rows: [][]string{{"max_prepared_stmt_count", "1048576"}}},
				// Durations are Go-normalised.
				{sql: "SET GLOBAL tidb_gc_life_time = '72h'"},
				{sql: "SELECT @@global.tidb_gc_life_time", rows: [][]string{{"72h0m0s"}}},
				// Enum by ordinal and bare word.
				{sql: "SET GLOBAL tidb_txn_mode = optimistic"},
				{sql: "SELECT @@global.tidb_txn_mode", rows: [][]string{{"optimistic"}}},
				// DEFAULT.
				{sql: "SET GLOBAL tidb_txn_mode = DEFAULT"},
				{sql: "SELECT @@global.tidb_txn_mode", rows: [][]string{{"pessimistic"}}},
				// The resource control switch.
				{sql: "SHOW GLOBAL VARIABLES LIKE 'tidb_enable_resource_control'", rows: [][]string{{"tidb_enable_resource_control", "ON"}}},
				// INFORMATION_SCHEMA.VARIABLES_INFO.
				{sql: "SELECT VARIABLE_NAME, VARIABLE_SCOPE, DEFAULT_VALUE, CURRENT_VALUE, MIN_VALUE, MAX_VALUE, POSSIBLE_VALUES, IS_NOOP FROM information_schema.variables_info WHERE VARIABLE_NAME IN ('tidb_session_plan_cache_size', 'tidb_txn_mode', 'max_connections', 'tidb_gc_life_time')",
					rows: [][]string{
						{"max_connections", "INSTANCE", "0", "0", "0", "100000", "NULL", "NO"},
						{"tidb_gc_life_time", "GLOBAL", "10m0s", "72h0m0s", "NULL", "NULL", "NULL", "NO"},
						{"tidb_session_plan_cache_size", "SESSION,GLOBAL", "100", "100", "1", "100000", "NULL", "NO"},
						{"tidb_txn_mode", "SESSION,GLOBAL", "pessimistic", "pessimistic", "NULL", "NULL", "pessimistic,optimistic", "NO"},
					}},
				// GLOBAL_VARIABLES exists and is empty in TiDB (tidb#9154).
				{sql: "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.global_variables", rows: [][]string{}},
				// User variables and SET NAMES.
				{sql: "SET @a = 5, @b = 'x'"},
				{sql: "SELECT @a, @b", rows: [][]string{{"5", "x"}}},
				{sql: "SET NAMES utf8mb4"},
				// Other SET statements are outside the modelled set: 1064.
				{sql: "SET PASSWORD = 'x'", errCode: 1064},
				{sql: "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", errCode: 1064},
			})
		})
	}
}

// TestSysVarWireByVersion: existence and defaults that differ by version
// (each variable's SysVarDef.Source).
func TestSysVarWireByVersion(t *testing.T) {
	type check struct {
		sql     string
		rows    [][]string
		errCode uint16
	}
	unknown := func(name string) check {
		return check{sql: "SELECT @@global." + name, errCode: 1193}
	}
	value := func(name, v string) check {
		return check{sql: "SHOW GLOBAL VARIABLES LIKE '" + name + "'", rows: [][]string{{name, v}}}
	}
	tests := map[string][]check{
		"v7.5.4": {
			unknown("tidb_enable_instance_plan_cache"), unknown("tidb_resource_control_strict_mode"),
			unknown("tidb_enable_fast_create_table"), unknown("tidb_schema_cache_size"),
			value("log_bin", "OFF"), value("sql_log_bin", "ON"), value("tidb_enable_dist_task", "OFF"),
			value("version", "8.0.11-TiDB-v7.5.4"),
		},
		"v8.1.2": {
			unknown("tidb_enable_instance_plan_cache"), unknown("tidb_resource_control_strict_mode"),
			value("tidb_enable_fast_create_table", "OFF"), value("tidb_schema_cache_size", "0"),
			value("log_bin", "OFF"), value("tidb_enable_dist_task", "ON"), value("tidb_enable_telemetry", "OFF"),
		},
		"v8.5.1": {
			value("tidb_enable_instance_plan_cache", "OFF"), value("tidb_instance_plan_cache_max_size", "125829120"),
			value("tidb_instance_plan_cache_reserved_percentage", "0.1"), value("tidb_resource_control_strict_mode", "ON"),
			value("tidb_enable_fast_create_table", "ON"), value("tidb_schema_cache_size", "536870912"),
			unknown("log_bin"), unknown("sql_log_bin"), unknown("tidb_enable_cache_prepare_stmt"),
		},
		"v8.5.3": {
			value("tidb_enable_instance_plan_cache", "OFF"), unknown("log_bin"), unknown("tidb_enable_cache_prepare_stmt"),
			value("version", "8.0.11-TiDB-v8.5.3"),
		},
		"v9.0.0-beta.2": {
			value("tidb_enable_cache_prepare_stmt", "OFF"), value("tidb_enable_instance_plan_cache", "OFF"), unknown("log_bin"),
		},
	}
	for ver, checks := range tests {
		t.Run(ver, func(t *testing.T) {
			db := openDB(t, startServer(t, Options{Version: ver}))
			var steps []sqlStep
			for _, c := range checks {
				steps = append(steps, sqlStep{sql: c.sql, rows: c.rows, errCode: c.errCode})
			}
			runSteps(t, db, steps)
		})
	}
}

// TestSysVarWireInstancePlanCache: instance plan cache sizes with units read
// back as bytes; the reserved percentage clamps like the TiDB test
// (corpus messages.tsv test-tidb-instanceplancache-others).
func TestSysVarWireInstancePlanCache(t *testing.T) {
	for _, ver := range []string{"v8.5.1", "v8.5.3", "v9.0.0-beta.2"} {
		t.Run(ver, func(t *testing.T) {
			db := openDB(t, startServer(t, Options{Version: ver}))
			runSteps(t, db, []sqlStep{
				{sql: "SET GLOBAL tidb_enable_instance_plan_cache = on, GLOBAL tidb_instance_plan_cache_max_size = '2GiB'"},
				{sql: "SELECT @@tidb_enable_instance_plan_cache, @@tidb_instance_plan_cache_max_size", rows: [][]string{{"1", "2147483648"}}},
				{sql: "SET GLOBAL tidb_instance_plan_cache_max_size = 123456"},
				{sql: "SELECT @@tidb_instance_plan_cache_max_size", rows: [][]string{{"123456"}}},
				{sql: "SET GLOBAL tidb_instance_plan_cache_max_size = '2 GB'", errCode: 1105, errMsg: "invalid tidb_instance_plan_cache_max_mem_size value 2 GB"},
				{sql: "SET GLOBAL tidb_instance_plan_cache_reserved_percentage = -1", warnings: [][]string{{"Warning", "1292", "Truncated incorrect tidb_instance_plan_cache_reserved_percentage value: '-1'"}}},
				{sql: "SET GLOBAL tidb_instance_plan_cache_reserved_percentage = 1.1100", warnings: [][]string{{"Warning", "1292", "Truncated incorrect tidb_instance_plan_cache_reserved_percentage value: '1.1100'"}}},
				{sql: "SELECT @@tidb_instance_plan_cache_reserved_percentage", rows: [][]string{{"1"}}},
			})
		})
	}
}

// TestSysVarWireInstanceScope: INSTANCE variables change only the connected
// tidb (INSTANCE scope).
func TestSysVarWireInstanceScope(t *testing.T) {
	srv := startServer(t, Options{Version: "v8.5.1", TiDB: 2})
	db0 := openDB(t, srv)
	db1, err := sql.Open("mysql", srv.DSNFor(1, "root", ""))
	if err != nil {
		t.Fatal(err)
	}
	db1.SetMaxOpenConns(1)
	t.Cleanup(func() { db1.Close() })
	runSteps(t, db0, []sqlStep{
		{sql: "SET GLOBAL max_connections = 300, GLOBAL tidb_slow_log_threshold = 1000"},
		{sql: "SELECT @@max_connections, @@global.tidb_slow_log_threshold", rows: [][]string{{"300", "1000"}}},
		{sql: "SET tidb_slow_log_threshold = 500", warnings: [][]string{{"Warning", "8142", "modifying tidb_slow_log_threshold will require SET GLOBAL in a future version of TiDB"}}},
		{sql: "SELECT @@tidb_slow_log_threshold", rows: [][]string{{"500"}}},
	})
	runSteps(t, db1, []sqlStep{
		{sql: "SELECT @@max_connections, @@tidb_slow_log_threshold", rows: [][]string{{"0", "300"}}},
		{sql: "SHOW GLOBAL VARIABLES LIKE 'max_connections'", rows: [][]string{{"max_connections", "0"}}},
	})
	// The mirrored TiDB config items (instance.*; see mirrorInstanceConfig) follow
	// the variables of their own instance only.
	addr1 := srv.Cluster.InstancesOf(TypeTiDB)[1].Address
	runSteps(t, db1, []sqlStep{
		{sql: "SELECT instance, `key`, value FROM information_schema.cluster_config WHERE type = 'tidb' AND `key` LIKE 'instance.%'", rows: [][]string{
			{srv.Addr(), "instance.max_connections", "300"}, {srv.Addr(), "instance.tidb_slow_log_threshold", "500"},
			{addr1, "instance.max_connections", "0"}, {addr1, "instance.tidb_slow_log_threshold", "300"},
		}},
	})
}

// TestSysVarWireUpgradedCluster: a cluster bootstrapped at v8.1 and upgraded
// keeps strict mode OFF.
func TestSysVarWireUpgradedCluster(t *testing.T) {
	db := openDB(t, startServer(t, Options{Version: "v8.5.1", BootstrappedFrom: "v8.1.2"}))
	runSteps(t, db, []sqlStep{
		{sql: "SELECT @@global.tidb_resource_control_strict_mode", rows: [][]string{{"0"}}},
		{sql: "SELECT DEFAULT_VALUE, CURRENT_VALUE FROM information_schema.variables_info WHERE VARIABLE_NAME = 'tidb_resource_control_strict_mode'", rows: [][]string{{"ON", "OFF"}}},
	})
}

// TestSysVarWireRequestSourceType: tidb_request_source_type (v7.4.0) is
// a SESSION variable, so it marks only the current session's tasks.
func TestSysVarWireRequestSourceType(t *testing.T) {
	for _, ver := range modelledVersions {
		t.Run(ver, func(t *testing.T) {
			db := openDB(t, startServer(t, Options{Version: ver}))
			runSteps(t, db, []sqlStep{
				{sql: "SELECT @@tidb_request_source_type", rows: [][]string{{""}}},
				{sql: "SET tidb_request_source_type = 'background'"},
				{sql: "SELECT @@tidb_request_source_type", rows: [][]string{{"background"}}},
				{sql: "SET GLOBAL tidb_request_source_type = 'background'", errCode: 1228,
					errMsg: "Variable 'tidb_request_source_type' is a SESSION variable and can't be used with SET GLOBAL"},
				{sql: "SHOW GLOBAL VARIABLES LIKE 'tidb_request_source_type'", rows: [][]string{}},
				{sql: "SHOW SESSION VARIABLES LIKE 'tidb_request_source_type'", rows: [][]string{{"tidb_request_source_type", "background"}}},
			})
		})
	}
	// before v7.4.0 the variable does not exist
	db := openDB(t, startServer(t, Options{Version: "v7.3.0"}))
	runSteps(t, db, []sqlStep{
		{sql: "SET tidb_request_source_type = 'background'", errCode: 1193, errMsg: "Unknown system variable 'tidb_request_source_type'"},
	})
}

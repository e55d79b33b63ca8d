package tidbsim

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The behaviours the differential suite (differential_test.go) found the
// real server to have, pinned here on the emulator alone, so that they hold
// where no real server runs (TIFORM_REAL_TIDB=off). Each want is what the
// tidb-server of pingcap/tidb@e4e814fdc0af returned.

// realVersion is the version that server reports.
const realVersion = "v9.0.0-beta.2.pre-20251126-e4e814fdc0af"

// columnMetadata is what database/sql reports of q's result columns: "name TYPE
// NULL|NOT NULL".
func columnMetadata(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ct := range types {
		n, _ := ct.Nullable()
		null := "NOT NULL"
		if n {
			null = "NULL"
		}
		out = append(out, fmt.Sprintf("%s %s %s", ct.Name(), ct.DatabaseTypeName(), null))
	}
	for rows.Next() {
	}
	return out
}

func TestFidelityColumnTypes(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	tests := []struct {
		q    string
		want []string
	}{
		{"SELECT 1, 'a', 1.5, NULL, TRUE, 1e3, 18446744073709551615",
			[]string{"1 BIGINT NOT NULL", "a VARCHAR NOT NULL", "1.5 DECIMAL NOT NULL", "NULL NULL NULL", "TRUE BIGINT NOT NULL", "1e3 DOUBLE NOT NULL", "18446744073709551615 UNSIGNED BIGINT NOT NULL"}},
		{"SELECT @@GLOBAL.tidb_gc_enable, @@GLOBAL.max_connections, @@GLOBAL.tidb_gc_life_time",
			[]string{"@@GLOBAL.tidb_gc_enable BIGINT NULL", "@@GLOBAL.max_connections UNSIGNED BIGINT NULL", "@@GLOBAL.tidb_gc_life_time VARCHAR NULL"}},
		{"SELECT VERSION(), CONNECTION_ID(), NOW(), UNIX_TIMESTAMP(), DATABASE()",
			[]string{"VERSION() VARCHAR NOT NULL", "CONNECTION_ID() UNSIGNED BIGINT NOT NULL", "NOW() DATETIME NOT NULL", "UNIX_TIMESTAMP() BIGINT NOT NULL", "DATABASE() VARCHAR NULL"}},
		{"SELECT GET_LOCK('x', 1), GET_LOCK('y', NULL), RELEASE_ALL_LOCKS()",
			[]string{"GET_LOCK('x', 1) BIGINT NOT NULL", "GET_LOCK('y', NULL) BIGINT NULL", "RELEASE_ALL_LOCKS() BIGINT NOT NULL"}},
		{"SELECT IFNULL(NULL, 1), COALESCE(NULL, NULL, 'x'), CONCAT('a', NULL), NULL + 1, 7 / 2",
			[]string{"IFNULL(NULL, 1) BIGINT NOT NULL", "COALESCE(NULL, NULL, 'x') VARCHAR NOT NULL", "CONCAT('a', NULL) VARCHAR NULL", "NULL + 1 BIGINT NULL", "7 / 2 DECIMAL NOT NULL"}},
		{`SELECT JSON_EXTRACT('{"a": 1}', '$.a'), JSON_UNQUOTE(JSON_EXTRACT('{"b": "x"}', '$.b'))`,
			[]string{`JSON_EXTRACT('{"a": 1}', '$.a') JSON NULL`, `JSON_UNQUOTE(JSON_EXTRACT('{"b": "x"}', '$.b')) TEXT NULL`}},
		{"SELECT COUNT(*), MIN(VARIABLE_NAME), SUM(1) FROM INFORMATION_SCHEMA.VARIABLES_INFO",
			[]string{"COUNT(*) BIGINT NOT NULL", "MIN(VARIABLE_NAME) VARCHAR NULL", "SUM(1) DECIMAL NULL"}},
		{"SELECT * FROM INFORMATION_SCHEMA.VARIABLES_INFO WHERE VARIABLE_NAME = 'tidb_gc_life_time'",
			[]string{"VARIABLE_NAME VARCHAR NOT NULL", "VARIABLE_SCOPE VARCHAR NOT NULL", "DEFAULT_VALUE VARCHAR NOT NULL", "CURRENT_VALUE VARCHAR NOT NULL", "MIN_VALUE BIGINT NULL", "MAX_VALUE UNSIGNED BIGINT NULL", "POSSIBLE_VALUES VARCHAR NULL", "IS_NOOP VARCHAR NOT NULL"}},
		{"SELECT NAME, BACKGROUND FROM INFORMATION_SCHEMA.RESOURCE_GROUPS",
			[]string{"NAME VARCHAR NOT NULL", "BACKGROUND VARCHAR NULL"}},
		{"SELECT User, Host, User_attributes, Super_priv FROM mysql.user",
			[]string{"User CHAR NOT NULL", "Host CHAR NOT NULL", "User_attributes JSON NULL", "Super_priv ENUM NOT NULL"}},
		{"SELECT SUMMARY_BEGIN_TIME, DIGEST_TEXT, EXEC_COUNT, SUM_ERRORS, PREPARED, AVG_TOTAL_KEYS FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY",
			[]string{"SUMMARY_BEGIN_TIME TIMESTAMP NOT NULL", "DIGEST_TEXT TEXT NOT NULL", "EXEC_COUNT UNSIGNED BIGINT NOT NULL", "SUM_ERRORS UNSIGNED INT NOT NULL", "PREPARED TINYINT NOT NULL", "AVG_TOTAL_KEYS UNSIGNED BIGINT NOT NULL"}},
		{"SELECT TYPE, `KEY` FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'nothing'",
			[]string{"TYPE VARCHAR NULL", "KEY VARCHAR NULL"}},
		{"SHOW WARNINGS", []string{"Level VARCHAR NULL", "Code UNSIGNED INT NULL", "Message VARCHAR NULL"}},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, columnMetadata(t, db, tc.q)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.q, d)
		}
	}
	// the statement summary of v9.0 master has no STORAGE_KV, v8.5.5 has
	if _, err := queryRowsErr(db, "SELECT STORAGE_KV FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY"); mysqlErr(t, err).Number != 1054 {
		t.Errorf("STORAGE_KV on %s: %v", realVersion, err)
	}
	old := openDB(t, startServer(t, Options{Version: "v8.5.5", TiKV: 1}))
	queryRows(t, old, "SELECT STORAGE_KV FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY")
}

func TestFidelityEngine(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	errs := []struct{ q, want string }{
		{"SELECT NO_Such FROM mysql.user", "Unknown column 'no_such' in 'field list'"},
		{"SELECT user.No_Such FROM mysql.user", "Unknown column 'user.no_such' in 'field list'"},
		{"SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE No_Such = 1", "Unknown column 'no_such' in 'where clause'"},
		{"SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS ORDER BY No_Such", "Unknown column 'No_Such' in 'order clause'"},
		// checked before any row is read: the table has none
		{"SELECT NO_SUCH FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY", "Unknown column 'no_such' in 'field list'"},
		{"SELECT * FROM INFORMATION_SCHEMA.No_Such", "Table 'information_schema.No_Such' doesn't exist"},
		{"SELECT *", "Unknown table ''"},
	}
	for _, e := range errs {
		_, err := queryRowsErr(db, e.q)
		if me := mysqlErr(t, err); me.Message != e.want {
			t.Errorf("%s: %q, want %q", e.q, me.Message, e.want)
		}
	}
	got := queryRows(t, db, "SELECT 7 / 2, 1.5 / 2, -7 / 2, 1 / 3, 7 / 2.0e0")
	if d := cmp.Diff([][]string{{"3.5000", "0.75000", "-3.5000", "0.3333", "3.5"}}, got); d != "" {
		t.Errorf("division (-want +got):\n%s", d)
	}
}

func TestFidelityDiagnostics(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	exec := func(q string) {
		_, _ = db.Exec(q)
	}
	// a statement that does not parse appends its error to the previous
	// statement's diagnostics, even across SHOW WARNINGS
	exec("SELECT LOWER('a', 'b')")
	warnings(t, db)
	exec("SELECT FROM WHERE")
	got := warnings(t, db)
	if len(got) != 2 || got[0][1] != "1582" || got[1][1] != "1064" {
		t.Errorf("after a parse error: %q", got)
	}
	// an error raised while rows are produced is not recorded
	exec("SELECT GET_LOCK('', 1)")
	if got := warnings(t, db); len(got) != 0 {
		t.Errorf("after GET_LOCK(''): %q", got)
	}
	exec("SHOW CREATE RESOURCE GROUP rg_missing")
	if got := warnings(t, db); len(got) != 0 {
		t.Errorf("after SHOW CREATE of a missing group: %q", got)
	}
	// a failing change keeps the warnings it appended before its error
	exec("SET GLOBAL tidb_enable_list_partition = OFF")
	got = warnings(t, db)
	if len(got) != 2 || got[0][1] != "1681" || got[1][1] != "1105" {
		t.Errorf("after tidb_enable_list_partition = OFF: %q", got)
	}
	// @@warning_count / @@error_count count the previous statement's
	if got := queryRows(t, db, "SELECT @@SESSION.warning_count, @@SESSION.error_count"); got[0][0] != "2" || got[0][1] != "1" {
		t.Errorf("warning_count, error_count = %q", got)
	}
	// text that is no token fails where the parser gets to it: here at %
	_, err := db.Exec(`CREATE USER 'bs\'@'%' IDENTIFIED BY 'p\w'`)
	if me := mysqlErr(t, err); !strings.Contains(me.Message, `line 1 column 20 near "%' IDENTIFIED BY 'p\w'"`) {
		t.Errorf("CREATE USER with a stray backslash: %s", me.Message)
	}
}

func TestFidelityVariables(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	sets := []struct{ q, err string }{
		{"SET GLOBAL require_secure_transport = ON", "require_secure_transport can only be set to ON if the connection issuing the change is secure"},
		{"SET GLOBAL tidb_evolve_plan_baselines = ON", "Cannot enable baseline evolution feature, it is not generally available now"},
		{"SET GLOBAL tidb_enable_plan_replayer_continuous_capture = ON", "tidb_enable_historical_stats should be enabled before enabling tidb_enable_plan_replayer_continuous_capture"},
		{"SET GLOBAL tidb_enable_ddl = OFF", "Error happened when disabling DDL: can not disable ddl owner when it is the only one tidb instance"},
		{"SET GLOBAL transaction_isolation = 'SERIALIZABLE'", "The isolation level 'SERIALIZABLE' is not supported. Set tidb_skip_isolation_level_check=1 to skip this error"},
		{"SET GLOBAL tidb_enable_list_partition = OFF", "tidb_enable_list_partition is now always on, and cannot be turned off"},
		{"SET GLOBAL tidb_gogc_tuner_min_value = 600", "tidb_gogc_tuner_min_value should be less than tidb_gogc_tuner_max_value"},
		{"SET GLOBAL tidb_enable_column_tracking = OFF", ""},
		{"SET GLOBAL tidb_enable_exchange_partition = OFF", ""},
		{"SET GLOBAL tidb_partition_prune_mode = 'static-only'", ""},
		{"SET GLOBAL tidb_record_plan_in_slow_log = OFF", ""},
		{"SET GLOBAL tidb_restricted_read_only = ON", ""},
	}
	for _, s := range sets {
		_, err := db.Exec(s.q)
		switch {
		case s.err == "" && err != nil:
			t.Errorf("%s: %v", s.q, err)
		case s.err != "" && (err == nil || mysqlErr(t, err).Message != s.err):
			t.Errorf("%s: %v, want %q", s.q, err, s.err)
		}
	}
	got := queryRows(t, db, "SELECT @@GLOBAL.tidb_enable_column_tracking, @@GLOBAL.tidb_enable_exchange_partition, @@GLOBAL.tidb_partition_prune_mode, "+
		"@@GLOBAL.tidb_record_plan_in_slow_log, @@GLOBAL.tidb_super_read_only, @@GLOBAL.require_secure_transport, @@GLOBAL.tidb_enable_ddl")
	if d := cmp.Diff([][]string{{"1", "1", "static", "1", "1", "0", "1"}}, got); d != "" {
		t.Errorf("values after the changes (-want +got):\n%s", d)
	}
	if _, err := db.Exec("SET GLOBAL tidb_super_read_only = OFF"); err != nil {
		t.Fatal(err)
	}
	// deprecations
	for q, want := range map[string]string{
		"SET GLOBAL tidb_hash_join_concurrency = 5":               "'tidb_hash_join_concurrency' is deprecated and will be removed in a future release. Please use tidb_executor_concurrency instead",
		"SET GLOBAL tidb_enable_auto_analyze_priority_queue = ON": "tidb_enable_auto_analyze_priority_queue will be removed in the future and TiDB will always use priority queue to execute auto analyze.",
		"SET GLOBAL tidb_enable_new_cost_interface = OFF":         "'OFF' is deprecated and will be removed in a future release. Please use ON instead",
		"SET GLOBAL tidb_enable_fast_analyze = ON":                "the fast analyze feature has already been removed in TiDB v7.5.0, so this will have no effect",
		"SET GLOBAL tidb_partition_prune_mode = 'dynamic'":        "Please analyze all partition tables again for consistency between partition and global stats",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if w := warnings(t, db); len(w) != 1 || w[0][2] != want {
			t.Errorf("%s: warnings %q, want %q", q, w, want)
		}
	}
	// values the server sets at start
	got = queryRows(t, db, "SELECT @@version_comment, @@GLOBAL.port, @@GLOBAL.plugin_dir")
	_, port, _ := strings.Cut(srv.Addr(), ":")
	if d := cmp.Diff([][]string{{"TiDB Server (Apache License 2.0) Community Edition, MySQL 8.0 compatible", port, "/data/deploy/plugin"}}, got); d != "" {
		t.Errorf("server values (-want +got):\n%s", d)
	}
	// a v9.0 master has tidb_enable_telemetry as a plain boolean
	if _, err := db.Exec("SET GLOBAL tidb_enable_telemetry = ON"); err != nil {
		t.Fatal(err)
	}
	if w := warnings(t, db); len(w) != 0 {
		t.Errorf("tidb_enable_telemetry warns on %s: %q", realVersion, w)
	}
}

func TestFidelityResourceGroupsAndUsers(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	mustExec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	errOf := func(q string) string {
		t.Helper()
		_, err := db.Exec(q)
		if err == nil {
			return ""
		}
		me := mysqlErr(t, err)
		return fmt.Sprintf("%d: %s", me.Number, me.Message)
	}
	// no burst modes on a master build before v9.0.0-beta.2: YES/NO
	if got := errOf("CREATE RESOURCE GROUP rg_mode RU_PER_SEC = 1 BURSTABLE = UNLIMITED"); !strings.HasPrefix(got, "1064:") {
		t.Errorf("BURSTABLE = UNLIMITED: %q", got)
	}
	mustExec("CREATE RESOURCE GROUP `UPPER_Case` RU_PER_SEC = 100 BURSTABLE = TRUE")
	if got := queryRows(t, db, "SELECT NAME, BURSTABLE FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'upper_case'"); got[0][0] != "upper_case" || got[0][1] != "YES" {
		t.Errorf("RESOURCE_GROUPS: %q", got)
	}
	if got := queryRows(t, db, "SHOW CREATE RESOURCE GROUP upper_CASE"); got[0][0] != "upper_CASE" || got[0][1] != "CREATE RESOURCE GROUP `UPPER_Case` RU_PER_SEC=100, PRIORITY=MEDIUM, BURSTABLE" {
		t.Errorf("SHOW CREATE: %q", got)
	}
	mustExec("ALTER RESOURCE GROUP `default` BACKGROUND = NULL")
	if got := queryRows(t, db, "SHOW CREATE RESOURCE GROUP `default`"); got[0][1] != "CREATE RESOURCE GROUP `default` RU_PER_SEC=2147483647, PRIORITY=MEDIUM, BURSTABLE, BACKGROUND=()" {
		t.Errorf("SHOW CREATE default after BACKGROUND = NULL: %q", got)
	}
	// several rules of a kind: the last one wins; a bad duration is the parser's
	mustExec("CREATE RESOURCE GROUP rg_dup RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = '1s', EXEC_ELAPSED = '2s', ACTION = KILL)")
	if got := queryRows(t, db, "SELECT QUERY_LIMIT FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'rg_dup'"); got[0][0] != "EXEC_ELAPSED='2s', ACTION=KILL" {
		t.Errorf("QUERY_LIMIT: %q", got)
	}
	if got := errOf("CREATE RESOURCE GROUP rg_bad RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = 'soon', ACTION = KILL)"); !strings.Contains(got, `The EXEC_ELAPSED option is not a valid duration: time: invalid duration "soon"`) || !strings.HasPrefix(got, "1064:") {
		t.Errorf("bad EXEC_ELAPSED: %q", got)
	}
	mustExec("SET GLOBAL tidb_enable_resource_control = OFF")
	if got := errOf("CREATE RESOURCE GROUP rg_off RU_PER_SEC = 1"); got != "8250: Resource control feature is disabled. Run `SET GLOBAL tidb_enable_resource_control='on'` to enable the feature" {
		t.Errorf("8250: %q", got)
	}
	mustExec("SET GLOBAL tidb_enable_resource_control = ON")
	// User_attributes built as TiDB builds it
	mustExec("CREATE RESOURCE GROUP `a\\b` RU_PER_SEC = 1")
	mustExec("CREATE RESOURCE GROUP `a\"b` RU_PER_SEC = 1")
	mustExec("CREATE USER 'u_bs'@'%' RESOURCE GROUP `a\\b`")
	if got := queryRows(t, db, "SELECT JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User = 'u_bs'"); got[0][0] != "a\b" {
		t.Errorf("a\\b stored as %q, want a and a backspace", got[0][0])
	}
	mustExec("DROP RESOURCE GROUP `a\\b`") // no user holds "a\b"
	if got := errOf("CREATE USER 'u_dq'@'%' RESOURCE GROUP `a\"b`"); got != "3140: Invalid JSON text: The document root must not be followed by other values." {
		t.Errorf("a\"b: %q", got)
	}
	if got := errOf("CREATE USER 'abcdefghijabcdefghijabcdefghijabc'@'%'"); got != "1470: String 'abcdefghijabcdefghijabcdefghijabc' is too long for user name (should be no longer than 32)" {
		t.Errorf("long user name: %q", got)
	}
	// the first bound user in the privilege cache's order
	mustExec("CREATE RESOURCE GROUP rg_bound RU_PER_SEC = 1")
	mustExec("CREATE USER 'zed'@'%' RESOURCE GROUP rg_bound")
	mustExec("CREATE USER 'amy'@'%' RESOURCE GROUP rg_bound")
	mustExec("CREATE USER 'zed'@'10.0.0.1' RESOURCE GROUP rg_bound")
	if got := errOf("DROP RESOURCE GROUP rg_bound"); got != "1105: user [zed] depends on the resource group to drop" {
		t.Errorf("bound group: %q", got)
	}
}

func TestFidelityShowGrants(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	for _, q := range []string{
		"CREATE USER 'u'@'%'",
		"GRANT PROCESS, SUPER, CONFIG ON *.* TO 'u'@'%'",
		"GRANT SYSTEM_VARIABLES_ADMIN, RESOURCE_GROUP_ADMIN ON *.* TO 'u'@'%'",
		"GRANT SELECT ON mysql.user TO 'u'@'%'",
		"GRANT SELECT ON mysql.* TO 'u'@'%'",
		"CREATE USER 'none'@'%'",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	tests := []struct {
		q      string
		column string
		want   [][]string
	}{
		{"SHOW GRANTS FOR 'u'@'%'", "Grants for u@%", [][]string{
			{"GRANT PROCESS,SUPER,CONFIG ON *.* TO 'u'@'%'"},
			{"GRANT SELECT ON `mysql`.* TO 'u'@'%'"},
			{"GRANT SELECT ON `mysql`.`user` TO 'u'@'%'"},
			{"GRANT RESOURCE_GROUP_ADMIN,SYSTEM_VARIABLES_ADMIN ON *.* TO 'u'@'%'"},
		}},
		{"SHOW GRANTS FOR 'none'@'%'", "Grants for none@%", [][]string{{"GRANT USAGE ON *.* TO 'none'@'%'"}}},
		{"SHOW GRANTS FOR root", "Grants for root@%", [][]string{{"GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION"}}},
		{"SHOW GRANTS", "Grants for User", [][]string{{"GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION"}}},
	}
	for _, tc := range tests {
		if cols := columnMetadata(t, db, tc.q); len(cols) != 1 || cols[0] != tc.column+" VARCHAR NULL" {
			t.Errorf("%s: columns %q", tc.q, cols)
		}
		if d := cmp.Diff(tc.want, queryRows(t, db, tc.q)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.q, d)
		}
	}
	_, err := db.Exec("SHOW GRANTS FOR 'nobody'@'%'")
	if me := mysqlErr(t, err); me.Number != 1141 || me.Message != "There is no such grant defined for user 'nobody' on host '%'" {
		t.Errorf("missing account: %v", err)
	}
}

// TestFidelityMaskedPasswords: the LDAP bind passwords read as MaskPwd once
// set, in SHOW VARIABLES and SELECT @@, and as "" when empty (the real server
// answered so; pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/sysvar.go).
func TestFidelityMaskedPasswords(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: realVersion, TiKV: 1})
	db := openDB(t, srv)
	for _, name := range []string{"authentication_ldap_sasl_bind_root_pwd", "authentication_ldap_simple_bind_root_pwd"} {
		if got := queryRows(t, db, "SELECT @@GLOBAL."+name); got[0][0] != "" {
			t.Errorf("%s unset reads %q, want empty", name, got[0][0])
		}
		if _, err := db.Exec("SET GLOBAL " + name + " = 's3cret'"); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"SELECT @@GLOBAL." + name, "SHOW GLOBAL VARIABLES LIKE '" + name + "'"} {
			got := queryRows(t, db, q)
			if v := got[0][len(got[0])-1]; v != "******" {
				t.Errorf("%s: %q, want the mask", q, v)
			}
		}
	}
}

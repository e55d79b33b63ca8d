package tidbsim_test

import (
	"fmt"
	"regexp"
	"strings"
)

// The hand-written corpora: resource groups, users, named locks, the
// statement summary tables, the SELECT engine and hostile names and values
// under the sql_modes that change how statements parse. Each statement is
// what a client (tiform, an operator) could send; the labels name the area
// and the case.

// q is a statement read with Query; x one sent with Exec.
func q(label, sql string) stmt { return stmt{Label: label, SQL: sql} }
func x(label, sql string) stmt { return stmt{Label: label, SQL: sql, Exec: true} }

// groupReads reads a resource group back the ways a client does.
func groupReads(label, name, literal string) []stmt {
	return []stmt{
		q(label+"/row", "SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = "+literal),
		q(label+"/show-create", "SHOW CREATE RESOURCE GROUP "+name),
	}
}

// resourceGroupCorpus: every option of CREATE and ALTER RESOURCE GROUP,
// each read back from RESOURCE_GROUPS and SHOW CREATE RESOURCE GROUP, the
// errors and notes of the DDL, names as the server accepts or refuses them,
// and resource control switched off.
func resourceGroupCorpus() []stmt {
	var out []stmt
	add := func(s ...stmt) { out = append(out, s...) }
	add(q("rg/all/initial", "SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS"))
	add(groupReads("rg/default", "`default`", "'default'")...)
	creates := []struct{ name, opts string }{
		{"rg_ru", "RU_PER_SEC = 1000"},
		{"rg_unlimited", "RU_PER_SEC = UNLIMITED"},
		{"rg_prio", "RU_PER_SEC = 2000 PRIORITY = HIGH"},
		{"rg_low", "RU_PER_SEC = 10, PRIORITY = low"},
		{"rg_burst", "RU_PER_SEC = 3000 BURSTABLE"},
		{"rg_burst_off", "RU_PER_SEC = 3000 BURSTABLE = OFF"},
		{"rg_burst_mod", "RU_PER_SEC = 3000 BURSTABLE = MODERATED"},
		{"rg_burst_unl", "RU_PER_SEC = 3000 BURSTABLE = UNLIMITED"},
		{"rg_burst_true", "RU_PER_SEC = 3000 BURSTABLE = TRUE"},
		{"rg_burst_false", "RU_PER_SEC = 3000 BURSTABLE = FALSE"},
		{"rg_ql", "RU_PER_SEC = 100 QUERY_LIMIT = (EXEC_ELAPSED = '60s', ACTION = KILL)"},
		{"rg_ql_watch", "RU_PER_SEC = 100 QUERY_LIMIT = (EXEC_ELAPSED = '1m', ACTION = COOLDOWN, WATCH = SIMILAR DURATION = '10m')"},
		{"rg_ql_exact", "RU_PER_SEC = 100 QUERY_LIMIT = (EXEC_ELAPSED = '90s', ACTION = DRYRUN, WATCH = EXACT)"},
		{"rg_ql_keys", "RU_PER_SEC = 100 QUERY_LIMIT = (PROCESSED_KEYS = 100000, ACTION = KILL)"},
		{"rg_ql_ru", "RU_PER_SEC = 100 QUERY_LIMIT = (RU = 5000, ACTION = SWITCH_GROUP(rg_ru))"},
		{"rg_ql_plan", "RU_PER_SEC = 100 QUERY_LIMIT = (EXEC_ELAPSED = '10s', ACTION = KILL, WATCH = PLAN DURATION = UNLIMITED)"},
		{"rg_all_opts", "RU_PER_SEC = 500 PRIORITY = LOW BURSTABLE QUERY_LIMIT = (EXEC_ELAPSED = '2m', PROCESSED_KEYS = 10, RU = 20, ACTION = KILL, WATCH = SIMILAR DURATION = '1h')"},
	}
	for _, c := range creates {
		l := "rg/" + c.name
		add(x(l+"/create", "CREATE RESOURCE GROUP "+c.name+" "+c.opts))
		add(groupReads(l, c.name, "'"+c.name+"'")...)
	}
	alters := []struct{ label, sql string }{
		{"ru", "ALTER RESOURCE GROUP rg_ru RU_PER_SEC = 4000"},
		{"prio", "ALTER RESOURCE GROUP rg_ru PRIORITY = LOW"},
		{"burst", "ALTER RESOURCE GROUP rg_ru BURSTABLE"},
		{"burst-off", "ALTER RESOURCE GROUP rg_ru BURSTABLE = OFF"},
		{"ql", "ALTER RESOURCE GROUP rg_ru QUERY_LIMIT = (EXEC_ELAPSED = '30s', ACTION = KILL)"},
		{"ql-null", "ALTER RESOURCE GROUP rg_ru QUERY_LIMIT = NULL"},
		{"ql-empty", "ALTER RESOURCE GROUP rg_ql QUERY_LIMIT = ()"},
		{"unlimited", "ALTER RESOURCE GROUP rg_ru RU_PER_SEC = UNLIMITED"},
		{"default-bg", "ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'br,ddl', UTILIZATION_LIMIT = 30)"},
		{"default-bg-null", "ALTER RESOURCE GROUP `default` BACKGROUND = NULL"},
		{"default-ru", "ALTER RESOURCE GROUP `default` RU_PER_SEC = 5000"},
		{"default-restore", "ALTER RESOURCE GROUP `default` RU_PER_SEC = UNLIMITED BURSTABLE"},
	}
	for _, a := range alters {
		l := "rg/alter-" + a.label
		add(x(l, a.sql))
		name := strings.Fields(a.sql)[3]
		add(groupReads(l, name, "'"+strings.Trim(name, "`")+"'")...)
	}
	errs := []struct{ label, sql string }{
		{"exists", "CREATE RESOURCE GROUP rg_ru RU_PER_SEC = 1"},
		{"if-not-exists", "CREATE RESOURCE GROUP IF NOT EXISTS rg_ru RU_PER_SEC = 1"},
		{"alter-missing", "ALTER RESOURCE GROUP rg_missing RU_PER_SEC = 1"},
		{"alter-if-exists", "ALTER RESOURCE GROUP IF EXISTS rg_missing RU_PER_SEC = 1"},
		{"drop-missing", "DROP RESOURCE GROUP rg_missing"},
		{"drop-if-exists", "DROP RESOURCE GROUP IF EXISTS rg_missing"},
		{"drop-default", "DROP RESOURCE GROUP `default`"},
		{"no-options", "CREATE RESOURCE GROUP rg_none"},
		{"dup-option", "CREATE RESOURCE GROUP rg_dup RU_PER_SEC = 1 RU_PER_SEC = 2"},
		{"dup-ql-item", "CREATE RESOURCE GROUP rg_dup RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = '1s', EXEC_ELAPSED = '2s', ACTION = KILL)"},
		{"bad-priority", "CREATE RESOURCE GROUP rg_bad PRIORITY = URGENT"},
		{"negative-ru", "CREATE RESOURCE GROUP rg_bad RU_PER_SEC = -1"},
		{"string-ru", "CREATE RESOURCE GROUP rg_bad RU_PER_SEC = '100'"},
		{"ql-no-action", "CREATE RESOURCE GROUP rg_bad RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = '10s')"},
		{"ql-bad-duration", "CREATE RESOURCE GROUP rg_bad RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = 'soon', ACTION = KILL)"},
		{"ql-switch-missing", "CREATE RESOURCE GROUP rg_bad RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = '10s', ACTION = SWITCH_GROUP(rg_missing))"},
		{"bg-not-default", "ALTER RESOURCE GROUP rg_ru BACKGROUND = (TASK_TYPES = 'br')"},
		{"bg-bad-type", "ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'nonsense')"},
		{"bg-limit-high", "ALTER RESOURCE GROUP `default` BACKGROUND = (UTILIZATION_LIMIT = 101)"},
	}
	for _, e := range errs {
		add(x("rg/err-"+e.label, e.sql))
	}
	add(q("rg/err/after", "SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS ORDER BY NAME"))
	add(x("rg/control-off/set", "SET GLOBAL tidb_enable_resource_control = OFF"),
		x("rg/control-off/create", "CREATE RESOURCE GROUP rg_off RU_PER_SEC = 1"),
		x("rg/control-off/alter", "ALTER RESOURCE GROUP rg_ru RU_PER_SEC = 1"),
		q("rg/control-off/rows", "SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'rg_ru'"),
		x("rg/control-off/restore", "SET GLOBAL tidb_enable_resource_control = ON"))
	for _, c := range creates {
		add(x("rg/"+c.name+"/drop", "DROP RESOURCE GROUP "+c.name))
	}
	add(q("rg/all/final", "SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS"))
	return out
}

// hostileNames are resource-group names as a client could write them:
// what the server accepts (any identifier up to 32 bytes,
// pingcap/tidb@e4e814fdc0af:pkg/ddl/resourcegroup/group.go
// MaxGroupNameLength) and what it refuses. Each is the back-quoted
// identifier and the string literal that finds it in RESOURCE_GROUPS.
var hostileNames = []struct{ label, ident, literal string }{
	{"dash", "`rg-with-dash`", "'rg-with-dash'"},
	{"dot", "`a.b`", "'a.b'"},
	{"space", "`a b`", "'a b'"},
	{"trailing-space", "`trail `", "'trail '"},
	{"leading-space", "` lead`", "' lead'"},
	{"backquote", "`a``b`", "'a`b'"},
	{"quotes", "`a'b\"c`", "'a''b\"c'"},
	{"backslash", "`a\\b`", "'a\\\\b'"},
	{"digits", "`1234`", "'1234'"},
	{"digits-letter", "1234x", "'1234x'"},
	{"reserved", "`select`", "'select'"},
	{"upper", "`UPPER_Case`", "'upper_case'"},
	{"unicode", "`日本語`", "'日本語'"},
	{"accent", "`été`", "'été'"},
	{"emoji", "`emoji😀`", "'emoji😀'"},
	{"tab", "`tab\tx`", "'tab\tx'"},
	{"len32", "`a2345678901234567890123456789012`", "'a2345678901234567890123456789012'"},
	{"len33", "`a23456789012345678901234567890123`", "'a23456789012345678901234567890123'"},
	{"bytes33", "`é234567890123456789012345678901`", "'é234567890123456789012345678901'"},
	{"empty", "``", "''"},
}

// hostileCorpus creates, reads, alters, binds a user to and drops a group
// of each hostile name, in the default sql_mode and, for the quoting cases,
// under ANSI_QUOTES (a "…" is an identifier) and NO_BACKSLASH_ESCAPES (a
// backslash in a string is itself).
func hostileCorpus() []stmt {
	var out []stmt
	add := func(s ...stmt) { out = append(out, s...) }
	for _, h := range hostileNames {
		l := "hostile/" + h.label
		add(x(l+"/create", "CREATE RESOURCE GROUP "+h.ident+" RU_PER_SEC = 100"),
			q(l+"/row", "SELECT NAME, RU_PER_SEC FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = "+h.literal),
			q(l+"/show-create", "SHOW CREATE RESOURCE GROUP "+h.ident),
			x(l+"/alter", "ALTER RESOURCE GROUP "+h.ident+" PRIORITY = HIGH"),
			x(l+"/user", "CREATE USER 'hostile_user'@'%' RESOURCE GROUP "+h.ident),
			q(l+"/user-row", "SELECT User, Host, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User = 'hostile_user'"),
			x(l+"/drop-bound", "DROP RESOURCE GROUP "+h.ident),
			x(l+"/drop-user", "DROP USER IF EXISTS 'hostile_user'@'%'"),
			x(l+"/drop", "DROP RESOURCE GROUP IF EXISTS "+h.ident))
	}
	modes := []struct{ label, mode string }{
		{"ansi", "ANSI_QUOTES"},
		{"nobackslash", "NO_BACKSLASH_ESCAPES"},
		{"both", "ANSI_QUOTES,NO_BACKSLASH_ESCAPES"},
		{"default", "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"},
	}
	for _, m := range modes {
		l := "sqlmode/" + m.label
		add(x(l+"/set", "SET SESSION sql_mode = '"+m.mode+"'"),
			q(l+"/read", "SELECT @@SESSION.sql_mode"),
			q(l+"/string", `SELECT 'a\\b', 'it''s', "dq"`),
			q(l+"/backslash-quote", `SELECT 'a\'`),
			x(l+"/create-dq", `CREATE RESOURCE GROUP "rg_dq" RU_PER_SEC = 7`),
			q(l+"/row-dq", `SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = "rg_dq"`),
			x(l+"/drop-dq", `DROP RESOURCE GROUP IF EXISTS "rg_dq"`),
			x(l+"/create-bs", "CREATE RESOURCE GROUP `rg\\bs` RU_PER_SEC = 8"),
			q(l+"/row-bs", `SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'rg\bs'`),
			q(l+"/row-bs2", `SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'rg\\bs'`),
			x(l+"/drop-bs", "DROP RESOURCE GROUP IF EXISTS `rg\\bs`"),
			x(l+"/user-bs", `CREATE USER 'bs\'@'%' IDENTIFIED BY 'p\w'`),
			q(l+"/user-bs-row", `SELECT User FROM mysql.user WHERE User LIKE 'bs%'`),
			x(l+"/user-bs-drop", `DROP USER IF EXISTS 'bs\'@'%'`),
			x(l+"/ql", `CREATE RESOURCE GROUP rg_mode RU_PER_SEC = 1 QUERY_LIMIT = (EXEC_ELAPSED = "60s", ACTION = KILL)`),
			q(l+"/ql-row", "SELECT QUERY_LIMIT FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'rg_mode'"),
			x(l+"/ql-drop", "DROP RESOURCE GROUP IF EXISTS rg_mode"),
			x(l+"/set-global-string", `SET GLOBAL tidb_gc_life_time = "15m"`),
			q(l+"/read-global-string", "SELECT @@GLOBAL.tidb_gc_life_time"),
			x(l+"/restore-global-string", "SET GLOBAL tidb_gc_life_time = '10m0s'"))
	}
	return out
}

// userCorpus: accounts bound to groups (CREATE/ALTER USER … RESOURCE
// GROUP), the columns of mysql.user tiform reads, grants, and the errors
// and notes of the account statements.
func userCorpus() []stmt {
	return []stmt{
		x("user/setup-group", "CREATE RESOURCE GROUP rg_users RU_PER_SEC = 100"),
		x("user/create", "CREATE USER 'u_plain'@'%' IDENTIFIED BY 'pw'"),
		x("user/create-dup", "CREATE USER 'u_plain'@'%' IDENTIFIED BY 'pw'"),
		x("user/create-if-not-exists", "CREATE USER IF NOT EXISTS 'u_plain'@'%' IDENTIFIED BY 'pw'"),
		x("user/create-bound", "CREATE USER 'u_bound'@'%' IDENTIFIED BY 'pw' RESOURCE GROUP rg_users"),
		x("user/create-bound-host", "CREATE USER 'u_bound'@'10.0.%' RESOURCE GROUP `default`"),
		x("user/create-unknown-group", "CREATE USER 'u_nogroup'@'%' RESOURCE GROUP rg_missing"),
		x("user/create-too-long", "CREATE USER 'abcdefghijabcdefghijabcdefghijabc'@'%'"),
		x("user/create-len32", "CREATE USER 'abcdefghijabcdefghijabcdefghijab'@'%'"),
		q("user/rows", "SELECT User, Host, User_attributes FROM mysql.user WHERE User LIKE 'u\\_%' ORDER BY User, Host"),
		q("user/rows-group", "SELECT User, Host, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User LIKE 'u\\_%' ORDER BY User, Host"),
		q("user/rows-root", "SELECT User, Host, User_attributes FROM mysql.user WHERE User = 'root'"),
		x("user/alter-group", "ALTER USER 'u_plain'@'%' RESOURCE GROUP rg_users"),
		x("user/alter-default", "ALTER USER 'u_bound'@'%' RESOURCE GROUP `default`"),
		x("user/alter-unknown-group", "ALTER USER 'u_plain'@'%' RESOURCE GROUP rg_missing"),
		x("user/alter-unknown-user", "ALTER USER 'nobody'@'%' RESOURCE GROUP `default`"),
		x("user/alter-if-exists", "ALTER USER IF EXISTS 'nobody'@'%' RESOURCE GROUP `default`"),
		q("user/rows-after-alter", "SELECT User, Host, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User LIKE 'u\\_%' ORDER BY User, Host"),
		x("user/drop-bound-group", "DROP RESOURCE GROUP rg_users"),
		x("user/unbind", "ALTER USER 'u_plain'@'%' RESOURCE GROUP `default`"),
		x("user/drop-group", "DROP RESOURCE GROUP rg_users"),
		q("user/grants-none", "SHOW GRANTS FOR 'u_plain'@'%'"),
		x("user/grant-super", "GRANT SUPER ON *.* TO 'u_plain'@'%'"),
		x("user/grant-config", "GRANT CONFIG, PROCESS ON *.* TO 'u_plain'@'%'"),
		x("user/grant-dynamic", "GRANT RESOURCE_GROUP_ADMIN, SYSTEM_VARIABLES_ADMIN ON *.* TO 'u_plain'@'%'"),
		x("user/grant-table", "GRANT SELECT ON mysql.user TO 'u_plain'@'%'"),
		x("user/grant-db", "GRANT SELECT ON mysql.* TO 'u_bound'@'%'"),
		x("user/grant-global-on-db", "GRANT CONFIG ON mysql.* TO 'u_bound'@'%'"),
		q("user/grants", "SHOW GRANTS FOR 'u_plain'@'%'"),
		q("user/grants-db", "SHOW GRANTS FOR 'u_bound'@'%'"),
		q("user/grants-root", "SHOW GRANTS FOR 'root'@'%'"),
		q("user/grants-unknown", "SHOW GRANTS FOR 'nobody'@'%'"),
		x("user/revoke", "REVOKE SUPER ON *.* FROM 'u_plain'@'%'"),
		q("user/grants-after-revoke", "SHOW GRANTS FOR 'u_plain'@'%'"),
		x("user/grant-all", "GRANT ALL PRIVILEGES ON *.* TO 'u_bound'@'%'"),
		q("user/grants-all", "SHOW GRANTS FOR 'u_bound'@'%'"),
		q("user/priv-columns", "SELECT Select_priv, Super_priv, Config_priv, Process_priv FROM mysql.user WHERE User = 'u_plain'"),
		x("user/drop", "DROP USER 'u_plain'@'%', 'u_bound'@'%', 'u_bound'@'10.0.%', 'abcdefghijabcdefghijabcdefghijab'@'%'"),
		x("user/drop-missing", "DROP USER 'u_plain'@'%'"),
		x("user/drop-if-exists", "DROP USER IF EXISTS 'u_plain'@'%'"),
		q("user/rows-final", "SELECT User, Host FROM mysql.user ORDER BY User, Host"),
	}
}

// connectionIDs are the values of IS_USED_LOCK and CONNECTION_ID, which
// each server numbers its own way: compared as equal to each other, not as
// numbers (see lockCorpus).
var connectionIDs = regexp.MustCompile(`^"\d+"$`)

// lockCorpus: GET_LOCK, RELEASE_LOCK, IS_USED_LOCK, IS_FREE_LOCK and
// RELEASE_ALL_LOCKS on one connection: re-entrancy, TiDB's timeout rules,
// name rules, and whose lock IS_USED_LOCK reports (compared with
// CONNECTION_ID(), which each server numbers differently).
func lockCorpus() []stmt {
	return []stmt{
		q("lock/get", "SELECT GET_LOCK('tiform.apply', 1)"),
		q("lock/used-is-mine", "SELECT IS_USED_LOCK('tiform.apply') = CONNECTION_ID()"),
		q("lock/free", "SELECT IS_FREE_LOCK('tiform.apply')"),
		q("lock/reenter", "SELECT GET_LOCK('tiform.apply', 0)"),
		q("lock/release", "SELECT RELEASE_LOCK('tiform.apply')"),
		q("lock/still-held", "SELECT IS_FREE_LOCK('tiform.apply'), IS_USED_LOCK('tiform.apply') = CONNECTION_ID()"),
		q("lock/release-2", "SELECT RELEASE_LOCK('tiform.apply')"),
		q("lock/released", "SELECT IS_FREE_LOCK('tiform.apply'), IS_USED_LOCK('tiform.apply')"),
		q("lock/release-free", "SELECT RELEASE_LOCK('tiform.apply')"),
		q("lock/release-never", "SELECT RELEASE_LOCK('never.taken')"),
		q("lock/case", "SELECT GET_LOCK('Case', 1), IS_FREE_LOCK('CASE'), RELEASE_LOCK('case')"),
		q("lock/timeout-zero", "SELECT GET_LOCK('t0', 0)"),
		q("lock/timeout-negative", "SELECT GET_LOCK('t1', -1)"),
		q("lock/timeout-large", "SELECT GET_LOCK('t2', 3601)"),
		q("lock/timeout-null", "SELECT GET_LOCK('t3', NULL)"),
		q("lock/release-all", "SELECT RELEASE_ALL_LOCKS()"),
		q("lock/release-all-none", "SELECT RELEASE_ALL_LOCKS()"),
		q("lock/name-empty", "SELECT GET_LOCK('', 1)"),
		q("lock/name-null", "SELECT GET_LOCK(NULL, 1)"),
		q("lock/name-64", "SELECT GET_LOCK('"+strings.Repeat("n", 64)+"', 0)"),
		q("lock/name-65", "SELECT GET_LOCK('"+strings.Repeat("n", 65)+"', 0)"),
		q("lock/release-64", "SELECT RELEASE_LOCK('"+strings.Repeat("n", 64)+"')"),
		q("lock/is-used-null", "SELECT IS_USED_LOCK(NULL), IS_FREE_LOCK(NULL)"),
		q("lock/release-null", "SELECT RELEASE_LOCK(NULL)"),
		q("lock/arg-count", "SELECT GET_LOCK('x')"),
		// tiform's own statements (applier/apply.go: the apply lock, its
		// holder check and its release)
		q("lock/tiform-get", "SELECT GET_LOCK('tiform.apply', 60)"),
		stmt{Label: "lock/tiform-holder", SQL: "SELECT IS_USED_LOCK('tiform.apply'), CONNECTION_ID()", Normalize: sameConnection},
		q("lock/tiform-try", "SELECT GET_LOCK('tiform.apply', 0)"),
		q("lock/tiform-release", "SELECT RELEASE_LOCK('tiform.apply')"),
		q("lock/tiform-release-2", "SELECT RELEASE_LOCK('tiform.apply')"),
	}
}

// sameConnection replaces connection ids by a placeholder: the row of
// SELECT IS_USED_LOCK(x), CONNECTION_ID() is then ("<id>", "<id>") on both
// servers when the holder is the session itself.
func sameConnection(_ string, v string) string {
	if connectionIDs.MatchString(v) {
		return "<id>"
	}
	return v
}

// statementSummaryTables are the statement summary tables.
var statementSummaryTables = []string{
	"STATEMENTS_SUMMARY", "STATEMENTS_SUMMARY_HISTORY", "CLUSTER_STATEMENTS_SUMMARY", "CLUSTER_STATEMENTS_SUMMARY_HISTORY",
}

// statementSummaryCorpus: the columns (names, types, nullability) of the
// statement summary tables; the rows are the emulator's seeded statistics
// on one side and what the real server ran on the other, so only their
// shape is compared, except where a value means the same on both (an
// unknown column, a count of a column that cannot be NULL).
func statementSummaryCorpus() []stmt {
	var out []stmt
	for _, t := range statementSummaryTables {
		l := "stmtsummary/" + strings.ToLower(t)
		out = append(out,
			stmt{Label: l + "/columns", SQL: "SELECT * FROM INFORMATION_SCHEMA." + t + " LIMIT 1", Shape: true},
			stmt{Label: l + "/tiform-columns", SQL: "SELECT DIGEST, DIGEST_TEXT, SCHEMA_NAME, TABLE_NAMES, STMT_TYPE, SAMPLE_USER, PREPARED, PLAN_CACHE_UNQUALIFIED_LAST_REASON, EXEC_COUNT, SUM_LATENCY, AVG_COMPILE_LATENCY, PLAN_CACHE_HITS, PLAN_CACHE_UNQUALIFIED, AVG_TOTAL_KEYS, AVG_PROCESSED_KEYS, AVG_ROCKSDB_DELETE_SKIPPED_COUNT, AVG_ROCKSDB_KEY_SKIPPED_COUNT, SUMMARY_BEGIN_TIME, SUMMARY_END_TIME FROM INFORMATION_SCHEMA." + t + " LIMIT 1", Shape: true},
			q(l+"/unknown-column", "SELECT NO_SUCH_COLUMN FROM INFORMATION_SCHEMA."+t),
			q(l+"/storage-kv", "SELECT STORAGE_KV FROM INFORMATION_SCHEMA."+t+" LIMIT 0"),
		)
	}
	return out
}

// engineCorpus: the SELECT engine on what the emulator evaluates: literals,
// operators, functions, aggregates, the information schema tables it serves,
// and the errors of unknown tables, columns, functions and syntax.
func engineCorpus() []stmt {
	return []stmt{
		q("engine/literals", "SELECT 1, 'a', 1.5, NULL, TRUE, FALSE, 1e3, -1, 18446744073709551615, 0.50"),
		q("engine/operators", "SELECT 1 = 1, 1 <> 2, 1 IN (1, 2), 'a' LIKE 'a%', NOT 1, NULL IS NULL, 1 IS NOT NULL, 2 > 1 AND 1 < 2, 1 <=> NULL"),
		q("engine/arithmetic", "SELECT 1 + 2, 7 - 10, 3 * 4, 7 / 2, 1.5 + 1, 1e1 * 2"),
		q("engine/null-ops", "SELECT NULL = 1, NULL + 1, 1 IN (NULL), NULL LIKE 'a'"),
		q("engine/string-functions", "SELECT LOWER('AbC'), UPPER('aBc'), CONCAT('a', 'b', 'c'), REPLACE('abc', 'b', 'x'), SUBSTRING_INDEX('a.b.c', '.', 2), LENGTH('日本'), TRIM('  x  ')"),
		q("engine/null-functions", "SELECT IFNULL(NULL, 1), IFNULL('a', 'b'), COALESCE(NULL, NULL, 'x'), IF(1 > 0, 'yes', 'no'), CONCAT('a', NULL)"),
		q("engine/json", `SELECT JSON_EXTRACT('{"a": 1, "b": "x"}', '$.a'), JSON_UNQUOTE(JSON_EXTRACT('{"b": "x"}', '$.b')), JSON_EXTRACT('{"a": 1}', '$.missing')`),
		q("engine/info", "SELECT DATABASE(), CURRENT_USER(), USER(), CURRENT_RESOURCE_GROUP()"),
		q("engine/version", "SELECT VERSION()"),
		q("engine/tidb-version", "SELECT TIDB_VERSION()"),
		q("engine/version-var", "SELECT @@version, @@version_comment, @@GLOBAL.version"),
		stmt{Label: "engine/connection-id", SQL: "SELECT CONNECTION_ID()", Normalize: sameConnection},
		stmt{Label: "engine/time", SQL: "SELECT NOW(), UNIX_TIMESTAMP(), FROM_UNIXTIME(0), UNIX_TIMESTAMP() - 10 > 0", Normalize: volatileTime},
		q("engine/aggregates", "SELECT COUNT(*) > 400, MIN(VARIABLE_NAME), MAX(VARIABLE_NAME), SUM(1) > 0 FROM INFORMATION_SCHEMA.VARIABLES_INFO"),
		q("engine/group-by", "SELECT VARIABLE_SCOPE, COUNT(*) > 0 FROM INFORMATION_SCHEMA.VARIABLES_INFO GROUP BY VARIABLE_SCOPE ORDER BY VARIABLE_SCOPE"),
		q("engine/order-limit", "SELECT VARIABLE_NAME FROM INFORMATION_SCHEMA.VARIABLES_INFO WHERE VARIABLE_NAME LIKE 'tidb_gc%' ORDER BY VARIABLE_NAME DESC LIMIT 2"),
		q("engine/limit-offset", "SELECT VARIABLE_NAME FROM INFORMATION_SCHEMA.VARIABLES_INFO WHERE VARIABLE_NAME LIKE 'tidb_gc%' ORDER BY VARIABLE_NAME LIMIT 1, 2"),
		q("engine/distinct", "SELECT DISTINCT VARIABLE_SCOPE FROM INFORMATION_SCHEMA.VARIABLES_INFO WHERE VARIABLE_NAME IN ('tidb_gc_enable', 'tidb_gc_life_time', 'autocommit')"),
		q("engine/variables-info-columns", "SELECT * FROM INFORMATION_SCHEMA.VARIABLES_INFO WHERE VARIABLE_NAME = 'tidb_gc_life_time'"),
		q("engine/global-variables", "SELECT * FROM INFORMATION_SCHEMA.GLOBAL_VARIABLES"),
		q("engine/cluster-info-tidb", "SELECT TYPE, VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO WHERE TYPE = 'tidb'"),
		q("engine/cluster-info-columns", "SELECT * FROM INFORMATION_SCHEMA.CLUSTER_INFO WHERE TYPE = 'nonexistent'"),
		q("engine/cluster-info-tikv", "SELECT TYPE, INSTANCE, STATUS_ADDRESS, VERSION, GIT_HASH FROM INFORMATION_SCHEMA.CLUSTER_INFO WHERE TYPE = 'tikv'"),
		q("engine/cluster-info-pd", "SELECT TYPE FROM INFORMATION_SCHEMA.CLUSTER_INFO WHERE TYPE = 'pd'"),
		q("engine/cluster-config-columns", "SELECT * FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'tidb' AND `KEY` = 'advertise-address'"),
		q("engine/show-warnings-empty", "SHOW WARNINGS"),
		q("engine/show-errors", "SHOW ERRORS"),
		q("engine/unknown-table", "SELECT * FROM INFORMATION_SCHEMA.NO_SUCH_TABLE"),
		q("engine/unknown-schema", "SELECT * FROM no_such_db.t"),
		q("engine/no-database", "SELECT * FROM t"),
		q("engine/unknown-column", "SELECT NO_SUCH FROM INFORMATION_SCHEMA.RESOURCE_GROUPS"),
		q("engine/unknown-column-where", "SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NO_SUCH = 1"),
		q("engine/unknown-function", "SELECT NO_SUCH_FUNCTION(1)"),
		q("engine/arg-count", "SELECT LOWER('a', 'b')"),
		q("engine/syntax", "SELECT FROM WHERE"),
		q("engine/syntax-trailing", "SELECT 1 1"),
		q("engine/no-tables", "SELECT *"),
		q("engine/unknown-variable", "SELECT @@no_such_variable"),
		q("engine/unknown-global-variable", "SELECT @@GLOBAL.no_such_variable"),
		x("engine/set-unknown-variable", "SET GLOBAL no_such_variable = 1"),
		x("engine/set-user-variable", "SET @u = 'x'"),
		q("engine/read-user-variable", "SELECT @u, @never_set"),
		x("engine/use-mysql", "USE mysql"),
		q("engine/database-after-use", "SELECT DATABASE()"),
		x("engine/use-missing", "USE no_such_db"),
		q("engine/mysql-user-unqualified", "SELECT User FROM user WHERE User = 'root'"),
		x("engine/use-information-schema", "USE information_schema"),
		q("engine/show-variables-where", "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_gc_enable', 'tidb_gc_life_time')"),
		q("engine/show-session-variables", "SHOW VARIABLES LIKE 'tidb_gc_life_time'"),
		q("engine/show-variables-like-pattern", "SHOW GLOBAL VARIABLES LIKE 'tidb\\_gc\\_%'"),
		x("engine/set-names", "SET NAMES utf8mb4"),
		x("engine/set-several", "SET @a = 1, @b = 'two'"),
		q("engine/read-several", "SELECT @a, @b"),
		x("engine/set-session", "SET SESSION tidb_txn_mode = 'optimistic'"),
		q("engine/read-session", "SELECT @@SESSION.tidb_txn_mode, @@tidb_txn_mode, @@GLOBAL.tidb_txn_mode"),
		x("engine/set-session-default", "SET SESSION tidb_txn_mode = DEFAULT"),
		q("engine/read-session-default", "SELECT @@SESSION.tidb_txn_mode"),
		x("engine/set-global-default", "SET GLOBAL tidb_gc_life_time = DEFAULT"),
		q("engine/read-global-default", "SELECT @@GLOBAL.tidb_gc_life_time"),
		x("engine/restricted-read-only", "SET GLOBAL tidb_restricted_read_only = ON"),
		q("engine/super-read-only", "SELECT @@GLOBAL.tidb_super_read_only, @@GLOBAL.tidb_restricted_read_only"),
		x("engine/restricted-read-only-off", "SET GLOBAL tidb_restricted_read_only = OFF"),
		q("engine/super-read-only-after", "SELECT @@GLOBAL.tidb_super_read_only"),
		x("engine/super-read-only-off", "SET GLOBAL tidb_super_read_only = OFF"),
		q("engine/super-read-only-restored", "SELECT @@GLOBAL.tidb_super_read_only"),
	}
}

// volatileTime keeps only the shape of a time: its digits become 9s.
func volatileTime(_ string, v string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '9'
		}
		return r
	}, v)
}

// countByArea is for the summary line: statements per area.
func countByArea(corpus []stmt) string {
	counts := map[string]int{}
	var order []string
	for _, s := range corpus {
		area := strings.SplitN(s.Label, "/", 2)[0]
		if counts[area] == 0 {
			order = append(order, area)
		}
		counts[area]++
	}
	parts := make([]string, len(order))
	for i, a := range order {
		parts[i] = fmt.Sprintf("%s %d", a, counts[a])
	}
	return strings.Join(parts, ", ")
}

package tidbsim

import (
	"testing"
)

// TestRGWire drives the resource-group statements through a real connection
// for every modelled version, asserting INFORMATION_SCHEMA.RESOURCE_GROUPS as
// each version renders it and the errors/notes of the DDL.
func TestRGWire(t *testing.T) {
	for _, ver := range modelledVersions {
		t.Run(ver, func(t *testing.T) {
			srv := startServer(t, Options{Version: ver})
			db := openDB(t, srv)
			burstYes, burstNo := "YES", "NO"
			defaultBurst := "YES"
			if ver == "v9.0.0-beta.2" {
				burstYes, burstNo, defaultBurst = "MODERATED", "OFF", "UNLIMITED"
			}
			runSteps(t, db, []sqlStep{
				// The default group exists from the start.
				{sql: "SELECT * FROM information_schema.resource_groups", rows: [][]string{{"default", "UNLIMITED", "MEDIUM", defaultBurst, "NULL", "NULL"}}},
				{sql: "SHOW CREATE RESOURCE GROUP `default`", rows: [][]string{{"default", "CREATE RESOURCE GROUP `default` RU_PER_SEC=2147483647, PRIORITY=MEDIUM, BURSTABLE"}}},
				{sql: "CREATE RESOURCE GROUP rg1 RU_PER_SEC = 1000"},
				{sql: "CREATE RESOURCE GROUP rg1 RU_PER_SEC = 1000", errCode: 8248, errMsg: "Resource group 'rg1' already exists"},
				{sql: "CREATE RESOURCE GROUP IF NOT EXISTS rg1 RU_PER_SEC = 10", warnings: [][]string{{"Note", "8248", "Resource group 'rg1' already exists"}}},
				{sql: "ALTER RESOURCE GROUP rg2 RU_PER_SEC = 10", errCode: 8249, errMsg: "Unknown resource group 'rg2'"},
				{sql: "ALTER RESOURCE GROUP IF EXISTS rg2 RU_PER_SEC = 10", warnings: [][]string{{"Note", "8249", "Unknown resource group 'rg2'"}}},
				{sql: "ALTER RESOURCE GROUP rg1 PRIORITY = HIGH, BURSTABLE, QUERY_LIMIT = (EXEC_ELAPSED = '60s', ACTION = KILL)"},
				{sql: "SELECT NAME, RU_PER_SEC, PRIORITY, BURSTABLE, QUERY_LIMIT, BACKGROUND FROM information_schema.resource_groups WHERE NAME = 'rg1'",
					rows: [][]string{{"rg1", "1000", "HIGH", burstYes, "EXEC_ELAPSED='1m0s', ACTION=KILL", "NULL"}}},
				// Incremental ALTER keeps PRIORITY and QUERY_LIMIT.
				{sql: "ALTER RESOURCE GROUP rg1 RU_PER_SEC = 2000"},
				{sql: "SELECT RU_PER_SEC, PRIORITY, QUERY_LIMIT FROM information_schema.resource_groups WHERE NAME = 'rg1'", rows: [][]string{{"2000", "HIGH", "EXEC_ELAPSED='1m0s', ACTION=KILL"}}},
				{sql: "SHOW CREATE RESOURCE GROUP rg1", rows: [][]string{{"rg1", "CREATE RESOURCE GROUP `rg1` RU_PER_SEC=2000, PRIORITY=HIGH, BURSTABLE, QUERY_LIMIT=(EXEC_ELAPSED=\"1m0s\" ACTION=KILL)"}}},
				{sql: "CREATE RESOURCE GROUP rg3 RU_PER_SEC = 10"},
				{sql: "SELECT BURSTABLE FROM information_schema.resource_groups WHERE NAME = 'rg3'", rows: [][]string{{burstNo}}},
				// BACKGROUND only on default.
				{sql: "ALTER RESOURCE GROUP rg3 BACKGROUND = (TASK_TYPES = 'br')", errCode: 1105, errMsg: "unsupported operation. Currently, only the default resource group support change background settings"},
				{sql: "ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'br,ddl')"},
				{sql: "SELECT BACKGROUND FROM information_schema.resource_groups WHERE NAME = 'default'", rows: [][]string{{"TASK_TYPES='br,ddl'"}}},
				{sql: "DROP RESOURCE GROUP `default`", errCode: 1105, errMsg: "can't drop reserved resource group"},
				{sql: "DROP RESOURCE GROUP rg3"},
				{sql: "DROP RESOURCE GROUP rg3", errCode: 8249},
				{sql: "DROP RESOURCE GROUP IF EXISTS rg3", warnings: [][]string{{"Note", "8249", "Unknown resource group 'rg3'"}}},
				{sql: "SHOW CREATE RESOURCE GROUP rg3", errCode: 8249, errMsg: "Unknown resource group 'rg3'"},
				// Switch off: every RG DDL is 8250.
				{sql: "SET GLOBAL tidb_enable_resource_control = OFF"},
				{sql: "CREATE RESOURCE GROUP rg4 RU_PER_SEC = 1", errCode: 8250, errMsg: "Resource control feature is disabled. Run `SET GLOBAL tidb_enable_resource_control='on'` to enable the feature"},
				{sql: "DROP RESOURCE GROUP rg1", errCode: 8250},
				{sql: "SET GLOBAL tidb_enable_resource_control = ON"},
				{sql: "CREATE RESOURCE GROUP rg4 RU_PER_SEC = 1 PRIORITY = LOW"},
				{sql: "SELECT NAME FROM information_schema.resource_groups ORDER BY NAME", rows: [][]string{{"default"}, {"rg1"}, {"rg4"}}},
			})
		})
	}
}

// TestRGWireUsersAndPrivileges: user binding in mysql.user, DROP while bound,
// and the privileges (RESOURCE_GROUP_ADMIN, CONFIG).
func TestRGWireUsersAndPrivileges(t *testing.T) {
	for _, ver := range modelledVersions {
		t.Run(ver, func(t *testing.T) {
			srv := startServer(t, Options{Version: ver})
			root := openDB(t, srv)
			runSteps(t, root, []sqlStep{
				{sql: "CREATE RESOURCE GROUP rg1 RU_PER_SEC = 100"},
				{sql: "CREATE USER app IDENTIFIED BY 'secret' RESOURCE GROUP rg1"},
				{sql: "CREATE USER plain"},
				{sql: "CREATE USER nope RESOURCE GROUP nil_group", errCode: 8249, errMsg: "Unknown resource group 'nil_group'"},
				{sql: "SELECT User, Host, JSON_EXTRACT(User_attributes, '$.resource_group') FROM mysql.user WHERE User IN ('app', 'plain', 'root') ORDER BY User",
					rows: [][]string{{"app", "%", `"rg1"`}, {"plain", "%", "NULL"}, {"root", "%", "NULL"}}},
				{sql: "SELECT JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')), User_attributes FROM mysql.user WHERE User = 'app'",
					rows: [][]string{{"rg1", `{"resource_group": "rg1"}`}}},
				{sql: "SELECT User_attributes FROM mysql.user WHERE User = 'plain'", rows: [][]string{{"{}"}}},
				{sql: "DROP RESOURCE GROUP rg1", errCode: 1105, errMsg: "user [app] depends on the resource group to drop"},
				{sql: "ALTER USER app RESOURCE GROUP `default`"},
				{sql: "SELECT User_attributes FROM mysql.user WHERE User = 'app'", rows: [][]string{{`{"resource_group": "default"}`}}},
				{sql: "DROP RESOURCE GROUP rg1"},
				{sql: "ALTER USER app RESOURCE GROUP rg1", errCode: 8249, errMsg: "Unknown resource group 'rg1'"},
				{sql: "ALTER USER ghost RESOURCE GROUP `default`", errCode: 1396, errMsg: "Operation ALTER USER failed for 'ghost'@'%'"},
				{sql: "CREATE USER app", errCode: 1396, errMsg: "Operation CREATE USER failed for 'app'@'%'"},
				{sql: "CREATE USER IF NOT EXISTS app", warnings: [][]string{{"Note", "3163", "User 'app'@'%' already exists."}}},
				{sql: "GRANT SELECT ON *.* TO ghost", errCode: 1410},
				{sql: "GRANT SELECT ON *.* TO app"},
			})
			// A user without CONFIG/SUPER gets TiDB's access-denied errors.
			app := openDBAs(t, srv, "app", "secret")
			runSteps(t, app, []sqlStep{
				{sql: "SELECT CURRENT_USER()", rows: [][]string{{"app@%"}}},
				{sql: "SHOW CONFIG", errCode: 1227, errMsg: "Access denied; you need (at least one of) the CONFIG privilege(s) for this operation"},
				{sql: "SET CONFIG tikv `log.level` = 'warn'", errCode: 1227, errMsg: "Access denied; you need (at least one of) the CONFIG privilege(s) for this operation"},
				{sql: "SET GLOBAL tidb_gc_life_time = '20m'", errCode: 1227, errMsg: "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation"},
				{sql: "CREATE RESOURCE GROUP g RU_PER_SEC = 1", errCode: 1227, errMsg: "Access denied; you need (at least one of) the SUPER or RESOURCE_GROUP_ADMIN privilege(s) for this operation"},
				{sql: "CREATE USER x", errCode: 1227, errMsg: "Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation"},
				// SESSION variables need no privilege.
				{sql: "SET tidb_session_plan_cache_size = 10"},
			})
			runSteps(t, root, []sqlStep{
				{sql: "GRANT RESOURCE_GROUP_ADMIN, SYSTEM_VARIABLES_ADMIN ON *.* TO app"},
			})
			runSteps(t, app, []sqlStep{
				{sql: "CREATE RESOURCE GROUP g RU_PER_SEC = 1"},
				{sql: "SET GLOBAL tidb_gc_life_time = '20m'"},
				{sql: "SHOW CONFIG", errCode: 1227},
			})
			runSteps(t, root, []sqlStep{
				{sql: "GRANT CONFIG ON *.* TO 'app'"},
				{sql: "GRANT NOT_A_PRIV ON *.* TO app", errCode: 3929},
				{sql: "SELECT Config_priv, Super_priv, Select_priv FROM mysql.user WHERE User = 'app'", rows: [][]string{{"Y", "N", "Y"}}},
			})
			if _, err := queryRowsErr(app, "SHOW CONFIG WHERE type = 'pd' AND name = 'log.level'"); err != nil {
				t.Fatalf("SHOW CONFIG with CONFIG granted: %v", err)
			}
			runSteps(t, root, []sqlStep{
				{sql: "REVOKE CONFIG ON *.* FROM app"},
				{sql: "DROP USER app, plain"},
				{sql: "DROP USER app", errCode: 1396, errMsg: "Operation DROP USER failed for app@%"},
				{sql: "DROP USER IF EXISTS app", warnings: [][]string{{"Note", "3162", "User app@% does not exist."}}},
			})
		})
	}
}

// TestUserWireQuotedAccounts: the account forms tiform generates
// ('u'@'h', quote.Account) and the unquoted u@host form.
func TestUserWireQuotedAccounts(t *testing.T) {
	srv := startServer(t, Options{Version: "v8.5.1"})
	root := openDB(t, srv)
	runSteps(t, root, []sqlStep{
		{sql: "CREATE RESOURCE GROUP `rg_a` RU_PER_SEC = 10"},
		{sql: "CREATE USER 'svc'@'%' IDENTIFIED BY 'x', 'svc'@'10.0.0.1', svc2@localhost"},
		{sql: "ALTER USER 'svc'@'%' RESOURCE GROUP `rg_a`"},
		{sql: "GRANT CONFIG, SELECT ON *.* TO 'svc'@'%', 'svc'@'10.0.0.1'"},
		{sql: "SELECT User, Host, Config_priv, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User LIKE 'svc%' ORDER BY User, Host",
			rows: [][]string{{"svc", "%", "Y", "rg_a"}, {"svc", "10.0.0.1", "Y", "NULL"}, {"svc2", "localhost", "N", "NULL"}}},
		{sql: "CREATE USER 'svc'@'%'", errCode: 1396, errMsg: "Operation CREATE USER failed for 'svc'@'%'"},
		{sql: "DROP USER 'svc'@'10.0.0.1', svc2@localhost"},
		{sql: "SELECT User, Host FROM mysql.user WHERE User LIKE 'svc%'", rows: [][]string{{"svc", "%"}}},
	})
}

// TestRGWireSessionGroup: a user's binding applies to new sessions;
// SET RESOURCE GROUP under strict mode (v8.2.0+).
func TestRGWireSessionGroup(t *testing.T) {
	srv := startServer(t, Options{Version: "v8.5.1"})
	root := openDB(t, srv)
	runSteps(t, root, []sqlStep{
		{sql: "CREATE RESOURCE GROUP oltp RU_PER_SEC = 100"},
		{sql: "CREATE USER app RESOURCE GROUP oltp"},
		{sql: "CREATE USER other"},
		{sql: "SELECT CURRENT_RESOURCE_GROUP()", rows: [][]string{{"default"}}},
		{sql: "SET RESOURCE GROUP oltp"},
		{sql: "SELECT CURRENT_RESOURCE_GROUP()", rows: [][]string{{"oltp"}}},
		{sql: "SET RESOURCE GROUP nope", errCode: 8249},
	})
	runSteps(t, openDBAs(t, srv, "app", ""), []sqlStep{
		{sql: "SELECT CURRENT_RESOURCE_GROUP()", rows: [][]string{{"oltp"}}},
	})
	runSteps(t, openDBAs(t, srv, "other", ""), []sqlStep{
		{sql: "SET RESOURCE GROUP oltp", errCode: 1227, errMsg: "Access denied; you need (at least one of) the SUPER or RESOURCE_GROUP_ADMIN or RESOURCE_GROUP_USER privilege(s) for this operation"},
	})
}

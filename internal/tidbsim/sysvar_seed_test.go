package tidbsim

import (
	"database/sql"
	"testing"
)

// TestSeedHelpers: a cluster seeded only through Options.SQL built with the
// helpers reaches the modelled states.
func TestSeedHelpers(t *testing.T) {
	stmts := []string{
		SeedSetGlobal("tidb_enable_instance_plan_cache", "ON"),
		SeedSetGlobal("tidb_instance_plan_cache_max_size", "2GiB"),
		SeedSetGlobal("tidb_gc_life_time", "72h"),
		SeedSetGlobal("max_connections", "500"),
		SeedCreateResourceGroup("oltp", "RU_PER_SEC = 2000, PRIORITY = HIGH"),
		SeedCreateResourceGroup("batch", "RU_PER_SEC = 500 QUERY_LIMIT = (EXEC_ELAPSED = '60s', ACTION = KILL)"),
		SeedCreateUser("app", "%", "pw'1", "oltp"),
		SeedCreateUser("report", "", "", ""),
		SeedGrant("app", "%", "SELECT", "RESOURCE_GROUP_ADMIN"),
	}
	srv := startServer(t, Options{Version: "v8.5.1", TiDB: 2, SQL: stmts})
	if _, err := SetInstanceVariable(srv, 1, "max_connections", "42"); err != nil {
		t.Fatal(err)
	}
	if _, err := SetInstanceVariable(srv, 1, "tidb_gc_life_time", "20m"); err == nil {
		t.Fatal("SetInstanceVariable must refuse a GLOBAL variable")
	}
	if _, err := SetInstanceVariable(srv, 5, "max_connections", "1"); err == nil {
		t.Fatal("SetInstanceVariable must refuse a missing instance")
	}
	db := openDB(t, srv)
	runSteps(t, db, []sqlStep{
		{sql: "SELECT @@tidb_enable_instance_plan_cache, @@tidb_instance_plan_cache_max_size, @@tidb_gc_life_time, @@max_connections",
			rows: [][]string{{"1", "2147483648", "72h0m0s", "500"}}},
		{sql: "SELECT NAME, RU_PER_SEC, PRIORITY, QUERY_LIMIT FROM information_schema.resource_groups ORDER BY NAME",
			rows: [][]string{{"batch", "500", "MEDIUM", "EXEC_ELAPSED='1m0s', ACTION=KILL"}, {"default", "UNLIMITED", "MEDIUM", "NULL"}, {"oltp", "2000", "HIGH", "NULL"}}},
		{sql: "SELECT User, Host, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User <> 'root' ORDER BY User",
			rows: [][]string{{"app", "%", "oltp"}, {"report", "%", "NULL"}}},
	})
	db1, err := sql.Open("mysql", srv.DSNFor(1, "root", ""))
	if err != nil {
		t.Fatal(err)
	}
	db1.SetMaxOpenConns(1)
	t.Cleanup(func() { db1.Close() })
	runSteps(t, db1, []sqlStep{{sql: "SELECT @@max_connections", rows: [][]string{{"42"}}}})
	// The seeded password works.
	runSteps(t, openDBAs(t, srv, "app", "pw'1"), []sqlStep{{sql: "SELECT CURRENT_RESOURCE_GROUP()", rows: [][]string{{"oltp"}}}})
}

func TestSeedStatementsText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{SeedSetGlobal("tidb_txn_mode", "optimistic"), "SET GLOBAL `tidb_txn_mode` = 'optimistic'"},
		{SeedCreateUser("a", "%", "", "rg"), "CREATE USER 'a' RESOURCE GROUP `rg`"},
		{SeedCreateUser("a", "10.0.0.1", "p", ""), "CREATE USER 'a'@'10.0.0.1' IDENTIFIED BY 'p'"},
		{SeedGrant("a", "%", "CONFIG"), "GRANT CONFIG ON *.* TO 'a'"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

package tidbsim

import "testing"

// SHOW CONFIG, CLUSTER_CONFIG and SET CONFIG need CONFIG (tidb-facts.md §1.1,
// §2.1); users created by SQL log in with their password through the
// engine's authentication.
func TestConfigPrivilege(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{SQL: []string{"CREATE USER 'app'@'%' IDENTIFIED BY 's3cret'"}})
	root := openDB(t, srv)
	app := openDBAs(t, srv, "app", "s3cret")
	if err := app.Ping(); err != nil {
		t.Fatalf("login with the SQL-created password: %v", err)
	}
	if err := openDBAs(t, srv, "app", "wrong").Ping(); err == nil || mysqlErr(t, err).Number != 1045 {
		t.Fatalf("wrong password: %v", err)
	}
	const denied = "Access denied; you need (at least one of) the CONFIG privilege(s) for this operation"
	for _, q := range []string{
		"SHOW CONFIG",
		"SELECT * FROM information_schema.cluster_config WHERE type = 'tikv'",
		"SET CONFIG tikv `log.level` = 'warn'",
	} {
		_, err := app.Exec(q)
		me := mysqlErr(t, err)
		if me.Number != 1227 || me.Message != denied {
			t.Errorf("%s: got %d %q", q, me.Number, me.Message)
		}
	}
	if _, err := root.Exec("GRANT CONFIG ON *.* TO 'app'@'%'"); err != nil {
		t.Fatal(err)
	}
	if n := len(queryRows(t, app, "SHOW CONFIG WHERE type = 'pd' AND name = 'log.level'")); n != 1 {
		t.Errorf("after GRANT CONFIG: %d rows", n)
	}
}

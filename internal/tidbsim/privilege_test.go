package tidbsim

import "testing"

// SHOW CONFIG, CLUSTER_CONFIG and SET CONFIG need CONFIG; users created by SQL log in with their password through the
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

// Tables of the mysql schema need the SELECT privilege (MySQL's privilege
// model, kept by TiDB): without it mysql.user answers 1142, so a reader of
// user bindings must hold SELECT; INFORMATION_SCHEMA
// tables other than CLUSTER_CONFIG need no privilege.
func TestSystemTablePrivilege(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{SQL: []string{
		"CREATE USER 'app'@'%' IDENTIFIED BY 's3cret'",
		"CREATE USER 'reader'@'%' IDENTIFIED BY 's3cret'",
		"GRANT SELECT ON *.* TO 'reader'@'%'",
		"CREATE USER 'dba'@'%' IDENTIFIED BY 's3cret'",
		"GRANT ALL PRIVILEGES ON *.* TO 'dba'@'%'",
	}})
	const q = "SELECT User, JSON_EXTRACT(User_attributes, '$.resource_group') FROM mysql.user WHERE User = 'app'"
	tests := []struct {
		user     string
		wantCode uint16
		wantMsg  string
	}{
		{"app", 1142, "SELECT command denied to user 'app'@'%' for table 'user'"},
		{"reader", 0, ""},
		{"dba", 0, ""},
		{"root", 0, ""},
	}
	for _, tc := range tests {
		pass := "s3cret"
		if tc.user == "root" {
			pass = ""
		}
		db := openDBAs(t, srv, tc.user, pass)
		rows, err := queryRowsErr(db, q)
		if tc.wantCode == 0 {
			if err != nil || len(rows) != 1 || rows[0][0] != "app" {
				t.Errorf("%s: rows %v, err %v", tc.user, rows, err)
			}
		} else {
			me := mysqlErr(t, err)
			if me.Number != tc.wantCode || me.Message != tc.wantMsg {
				t.Errorf("%s: got %d %q, want %d %q", tc.user, me.Number, me.Message, tc.wantCode, tc.wantMsg)
			}
		}
		if rows, err := queryRowsErr(db, "SELECT COUNT(*) FROM information_schema.cluster_info"); err != nil || len(rows) != 1 {
			t.Errorf("%s: CLUSTER_INFO: %v %v", tc.user, rows, err)
		}
	}
}

// SELECT granted at the database (ON mysql.*) or table (ON mysql.user) level
// opens mysql.user, as MySQL's privilege levels do; a global-only privilege
// below the global level is 1221; REVOKE at the table level takes it back.
func TestTableLevelPrivilege(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{SQL: []string{
		"CREATE USER 'tbl'@'%' IDENTIFIED BY 's3cret'",
		"GRANT SELECT ON mysql.user TO 'tbl'@'%'",
		"CREATE USER 'db'@'%' IDENTIFIED BY 's3cret'",
		"GRANT SELECT ON `mysql`.* TO 'db'@'%'",
		"CREATE USER 'other'@'%' IDENTIFIED BY 's3cret'",
		"GRANT SELECT ON test.* TO 'other'@'%'",
	}})
	const q = "SELECT User FROM mysql.user WHERE User = 'tbl'"
	for _, tc := range []struct {
		user string
		ok   bool
	}{{"tbl", true}, {"db", true}, {"other", false}} {
		_, err := queryRowsErr(openDBAs(t, srv, tc.user, "s3cret"), q)
		if tc.ok && err != nil {
			t.Errorf("%s: %v", tc.user, err)
		}
		if !tc.ok {
			if me := mysqlErr(t, err); me.Number != 1142 {
				t.Errorf("%s: got %d %q, want 1142", tc.user, me.Number, me.Message)
			}
		}
	}
	root := openDB(t, srv)
	_, err := root.Exec("GRANT CONFIG ON mysql.* TO 'tbl'@'%'")
	if me := mysqlErr(t, err); me.Number != 1221 || me.Message != "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES" {
		t.Errorf("GRANT CONFIG ON mysql.*: got %d %q", me.Number, me.Message)
	}
	if _, err := root.Exec("REVOKE SELECT ON mysql.user FROM 'tbl'@'%'"); err != nil {
		t.Fatal(err)
	}
	if _, err := queryRowsErr(openDBAs(t, srv, "tbl", "s3cret"), q); mysqlErr(t, err).Number != 1142 {
		t.Errorf("after REVOKE: %v", err)
	}
	// A table-level SELECT is not a global one: CONFIG is still needed.
	if _, err := openDBAs(t, srv, "db", "s3cret").Exec("SHOW CONFIG"); mysqlErr(t, err).Number != 1227 {
		t.Errorf("SHOW CONFIG with SELECT ON mysql.*: %v", err)
	}
}

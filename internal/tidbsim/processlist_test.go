package tidbsim

import (
	"database/sql"
	"testing"
)

// TestProcessList: a session's tidb_session_alias shows in PROCESSLIST and
// CLUSTER_PROCESSLIST; an account without PROCESS sees only its own
// sessions, one with PROCESS every connection (Go-level sessions are none).
func TestProcessList(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiKV: 1})
	sess := srv.NewSession("root")
	for _, q := range []string{"CREATE USER 'lone'@'%' IDENTIFIED BY 'Pw-1'", "CREATE USER 'seer'@'%' IDENTIFIED BY 'Pw-2'", "GRANT PROCESS ON *.* TO 'seer'@'%'"} {
		if _, err := sess.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	open := func(user, pw string) *sql.Conn {
		db, err := sql.Open("mysql", srv.DSN(user, pw))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		c, err := db.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	lone, seer := open("lone", "Pw-1"), open("seer", "Pw-2")
	if _, err := lone.ExecContext(t.Context(), "SET SESSION tidb_session_alias = 'tiform-apply'"); err != nil {
		t.Fatal(err)
	}
	count := func(c *sql.Conn, q string) int {
		var n int
		if err := c.QueryRowContext(t.Context(), q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	if n := count(lone, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.PROCESSLIST"); n != 1 {
		t.Errorf("without PROCESS, %d sessions visible, want its own 1", n)
	}
	if n := count(seer, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.CLUSTER_PROCESSLIST"); n != 2 {
		t.Errorf("with PROCESS, %d sessions visible, want both connections", n)
	}
	if n := count(seer, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.CLUSTER_PROCESSLIST WHERE SESSION_ALIAS = 'tiform-apply' AND USER = 'lone'"); n != 1 {
		t.Errorf("the alias is not shown: %d", n)
	}
}

package live

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

func TestSafeSQLMode(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		removed  bool
	}{
		{"", "", false},
		{"STRICT_TRANS_TABLES", "STRICT_TRANS_TABLES", false},
		{"NO_BACKSLASH_ESCAPES", "", true},
		{"ANSI_QUOTES,no_backslash_escapes,STRICT_TRANS_TABLES", "ANSI_QUOTES,STRICT_TRANS_TABLES", true},
		{" NO_BACKSLASH_ESCAPES ,,", "", true},
	} {
		got, removed := SafeSQLMode(tc.in)
		if got != tc.want || removed != tc.removed {
			t.Errorf("SafeSQLMode(%q) = %q, %v; want %q, %v", tc.in, got, removed, tc.want, tc.removed)
		}
	}
}

// backslashQuery is a statement holding a backslash (a literal tiform
// builds for the value a\b): the first such statement of a connection makes
// it check its sql_mode.
const backslashQuery = `SELECT 'a\\b'`

// sessionSQLModes returns the SESSION sql_mode of n distinct pool
// connections, each after it sent a statement holding a backslash (which
// reads back as one backslash).
func sessionSQLModes(t *testing.T, s *tidbsimtest.Cluster) []string {
	t.Helper()
	db := openSim(t, s, "root", "")
	ctx := ctxT(t)
	var out []string
	var conns []interface{ Close() error }
	for i := 0; i < 2; i++ {
		c, err := db.Conn(ctx) // a second Conn forces a second connection
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var v string
		if err := c.QueryRowContext(ctx, backslashQuery).Scan(&v); err != nil || v != `a\b` {
			t.Fatalf("%s = %q, %v; want a\\b", backslashQuery, v, err)
		}
		var mode string
		if err := c.QueryRowContext(ctx, "SELECT @@SESSION.sql_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		out = append(out, mode)
	}
	for _, c := range conns {
		c.Close()
	}
	return out
}

// Open turns NO_BACKSLASH_ESCAPES off in every session of its pool that
// sends a backslash, and only in the session: the GLOBAL value is left as it
// is.
func TestOpenPinsSessionSQLMode(t *testing.T) {
	const nbe = "STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES"
	s := tidbsimtest.Start(t, tidbsim.Options{SQL: []string{"SET GLOBAL sql_mode = '" + nbe + "'"}})
	mark := s.Mark()
	modes := sessionSQLModes(t, s)
	if diff := cmp.Diff([]string{"STRICT_TRANS_TABLES", "STRICT_TRANS_TABLES"}, modes); diff != "" {
		t.Errorf("session sql_mode (-want +got):\n%s", diff)
	}
	sent := s.Since(mark)
	if got := strings.Count(strings.Join(sent, "\n"), "SET SESSION sql_mode = 'STRICT_TRANS_TABLES'"); got != 2 {
		t.Errorf("want SET SESSION once on each of the 2 connections, got %d in %q", got, sent)
	}
	res, err := s.NewSession("root").Exec("SELECT @@GLOBAL.sql_mode")
	if err != nil || res.Rows[0][0].S != nbe {
		t.Errorf("GLOBAL sql_mode changed: %v %v", res, err)
	}
}

// A connection that sends no backslash is never asked for its sql_mode: a
// statement without one means the same in every sql_mode (quote.String
// doubles quotes). The first statement with one checks, once.
func TestSQLModeCheckedOnlyBeforeABackslash(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{SQL: []string{"SET GLOBAL sql_mode = 'NO_BACKSLASH_ESCAPES'"}})
	mark := s.Mark()
	db := openSim(t, s, "root", "")
	ctx := ctxT(t)
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got string
	if err := c.QueryRowContext(ctx, "SELECT GET_LOCK('tiform.check', 1)").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if sent := s.Since(mark); len(sent) != 1 || sent[0] != "SELECT GET_LOCK('tiform.check', 1)" {
		t.Errorf("a statement without a backslash sent %q, want it alone", sent)
	}
	for i := 0; i < 2; i++ {
		if err := c.QueryRowContext(ctx, backslashQuery).Scan(&got); err != nil || got != `a\b` {
			t.Fatalf("%s = %q, %v", backslashQuery, got, err)
		}
	}
	want := []string{"SELECT GET_LOCK('tiform.check', 1)", stmtSessionSQLMode, "SET SESSION sql_mode = ''", stmtSessionSQLMode,
		backslashQuery, backslashQuery}
	if d := cmp.Diff(want, s.Since(mark)); d != "" {
		t.Errorf("the check (read, correct, read back) must come once, before the first backslash (-want +got):\n%s", d)
	}
}

// A connection opened after the GLOBAL sql_mode changed (an apply of a
// sql_mode setting, another administrator) is checked too.
func TestOpenPinsConnectionsOpenedLater(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	db := openSim(t, s, "root", "")
	if _, err := s.NewSession("root").Exec("SET GLOBAL sql_mode = 'NO_BACKSLASH_ESCAPES'"); err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	c1, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	for _, c := range []interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}{c1, c2} {
		// The literal tiform builds for a backslash reads back as one
		// backslash, on the connection Open opened before the change (its
		// session kept the mode of its start) and on the new one (corrected).
		var v string
		if err := c.QueryRowContext(ctx, backslashQuery).Scan(&v); err != nil || v != `a\b` {
			t.Errorf(`%s = %q, %v; want a\b`, backslashQuery, v, err)
		}
	}
	var m2 string
	if err := c2.QueryRowContext(ctx, "SELECT @@SESSION.sql_mode").Scan(&m2); err != nil {
		t.Fatal(err)
	}
	if m2 != "" {
		t.Errorf("new connection's session sql_mode = %q, want it without NO_BACKSLASH_ESCAPES", m2)
	}
}

// When the session cannot be corrected, a statement holding a backslash is
// refused, with a message that says why, and is not sent; the connection
// still sends statements without one (they mean the same in every mode).
func TestSQLModeRefusedWhenItCannotBeFixed(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{
		SQL: []string{"SET GLOBAL sql_mode = 'NO_BACKSLASH_ESCAPES'"},
		Faults: tidbsim.Faults{FailStatements: []tidbsim.FailRule{{Match: "SET SESSION sql_mode", Prefix: true,
			Code: 1227, Message: "Access denied; you need (at least one of) the SUPER privilege(s) for this operation"}}},
	})
	db := openSim(t, s, "root", "")
	ctx := ctxT(t)
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mark := s.Mark()
	for i := 0; i < 2; i++ {
		var v string
		err = c.QueryRowContext(ctx, backslashQuery).Scan(&v)
		var le *Error
		if !errors.As(err, &le) || !strings.Contains(le.Msg, "NO_BACKSLASH_ESCAPES") || !strings.Contains(le.Msg, "sends nothing that holds a backslash") {
			t.Errorf("error = %v", err)
		}
	}
	for _, q := range s.Since(mark) {
		if q != stmtSessionSQLMode && !strings.HasPrefix(q, "SET SESSION sql_mode") {
			t.Errorf("sent %q over a connection whose sql_mode could not be fixed", q)
		}
	}
	if n := s.Count("SET SESSION sql_mode"); n != 1 {
		t.Errorf("the failed correction was tried %d times, want once", n)
	}
	var one int
	if err := c.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("SELECT 1 on that connection: %v, %v", one, err)
	}
}

func TestOpenRefusesNonUTF8Charsets(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	for _, params := range []string{"charset=gbk", "charset=utf8mb4,sjis", "collation=latin1_swedish_ci"} {
		dsn := s.DSN("root", "pw-Zq9") + "&" + params
		_, err := Open(ctxT(t), dsn, ConnOptions{})
		if err == nil || !strings.Contains(err.Error(), "utf8mb4") {
			t.Errorf("%s: err = %v, want a refusal naming utf8mb4", params, err)
			continue
		}
		if strings.Contains(err.Error(), "pw-Zq9") {
			t.Errorf("%s: the error shows the password: %v", params, err)
		}
	}
	if db, err := Open(ctxT(t), s.DSN("root", "")+"&charset=utf8mb4", ConnOptions{}); err != nil {
		t.Errorf("charset=utf8mb4 refused: %v", err)
	} else {
		db.Close()
	}
}

// A DSN that would send the password in clear text over a plain connection is
// refused before dialing; local files are never offered to the server.
func TestOpenRefusesCleartextWithoutTLS(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	mark := s.Mark()
	_, err := Open(ctxT(t), s.DSN("root", "pw-Zq9")+"&allowCleartextPasswords=true", ConnOptions{})
	if err == nil || !strings.Contains(err.Error(), "clear text") || strings.Contains(err.Error(), "pw-Zq9") {
		t.Errorf("err = %v", err)
	}
	if got := s.Since(mark); len(got) != 0 {
		t.Errorf("statements sent: %q", got)
	}
}

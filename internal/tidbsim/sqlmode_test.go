package tidbsim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sql_mode over the wire: validation and formatting as TiDB's Validation
// (FormatSQLModeStr + GetSQLMode), SESSION taken from GLOBAL at connect.
func TestSQLModeVariable(t *testing.T) {
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	runSteps(t, db, []sqlStep{
		{sql: "SELECT @@GLOBAL.sql_mode", rows: [][]string{{defaultSQLMode}}},
		{sql: "SELECT @@SESSION.sql_mode", rows: [][]string{{defaultSQLMode}}},
		{sql: "SET SESSION sql_mode = 'ansi,,no_backslash_escapes '"},
		{sql: "SELECT @@SESSION.sql_mode", rows: [][]string{{"REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI,NO_BACKSLASH_ESCAPES"}}},
		{sql: "SELECT @@GLOBAL.sql_mode", rows: [][]string{{defaultSQLMode}}},
		{sql: "SET SESSION sql_mode = 'NO_SUCH_MODE'", errCode: 1231, errMsg: "Variable 'sql_mode' can't be set to the value of 'NO_SUCH_MODE'"},
		{sql: "SET GLOBAL sql_mode = ''"},
		{sql: "SELECT @@GLOBAL.sql_mode", rows: [][]string{{""}}},
	})
}

// The lexer follows the session's sql_mode: with NO_BACKSLASH_ESCAPES a
// backslash is an ordinary character, with ANSI_QUOTES "x" is an identifier
// (pingcap/tidb@v8.5.1:pkg/parser/lexer.go scanString, Lex;
// https://dev.mysql.com/doc/refman/8.0/en/string-literals.html).
func TestLexerFollowsSessionSQLMode(t *testing.T) {
	for _, tc := range []struct {
		name, global string
		query        string
		want         [][]string // nil: a syntax error (1064) is wanted
	}{
		{"default: backslash escapes", "", `SELECT 'a\'b', 'c\\d', 'e''f', 'g\nh', 'i\%j'`, [][]string{{"a'b", `c\d`, "e'f", "g\nh", `i\%j`}}},
		{"default: double quotes are strings", "", `SELECT "x"`, [][]string{{"x"}}},
		{"NBE: backslash is a character", "NO_BACKSLASH_ESCAPES", `SELECT 'c\\d', 'e''f', 'g\nh'`, [][]string{{`c\\d`, "e'f", `g\nh`}}},
		{"NBE: a backslash before a quote ends the literal", "NO_BACKSLASH_ESCAPES", `SELECT 'a\'b'`, nil},
		{"NBE: a trailing backslash is kept", "NO_BACKSLASH_ESCAPES", `SELECT 'a\'`, [][]string{{`a\`}}},
		{"default: the same text is an open literal", "", `SELECT 'a\'`, nil},
		{"ANSI_QUOTES: double quotes name a column", "ANSI_QUOTES", `SELECT "x"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startServer(t, Options{})
			if _, err := srv.NewSession("root").Exec("SET GLOBAL sql_mode = '" + tc.global + "'"); err != nil {
				t.Fatal(err)
			}
			db := openDB(t, srv) // a new connection: SESSION starts from GLOBAL
			got, err := queryRowsErr(db, tc.query)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("%s: want an error, got %q", tc.query, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.query, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.query, diff)
			}
		})
	}
}

// SET SESSION changes the lexing of the next statement on that connection
// only; a bound parameter keeps its exact bytes in either mode.
func TestSessionSQLModeChangesLexing(t *testing.T) {
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	if _, err := db.Exec("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'"); err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, db, `SELECT 'a\\b'`); got[0][0] != `a\\b` {
		t.Errorf("after SET SESSION: got %q, want a\\\\b", got[0][0])
	}
	// A prepared statement's bound value is never lexed by TiDB.
	for _, v := range []string{`a\b`, `a'b`, `a\'b`, `\`} {
		stmt, err := db.Prepare("SELECT ?")
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := stmt.QueryRow(v).Scan(&got); err != nil {
			t.Fatalf("bound %q: %v", v, err)
		}
		stmt.Close()
		if got != v {
			t.Errorf("bound %q read back as %q", v, got)
		}
	}
	other := openDB(t, srv)
	if got := queryRows(t, other, `SELECT 'a\\b'`); got[0][0] != `a\b` {
		t.Errorf("another session: got %q, want a\\b", got[0][0])
	}
}

package quote_test

import (
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/quote"
)

// literalServer is one emulated TiDB whose lexer reads the literals: a
// session per sql_mode (the emulator lexes as TiDB's
// pkg/parser/lexer.go does, for both NO_BACKSLASH_ESCAPES settings).
type literalServer struct {
	escapes, noEscapes *tidbsim.Session
}

func startLiteralServer(tb testing.TB) *literalServer {
	tb.Helper()
	srv := tidbsimtest.Start(tb, tidbsim.Options{Addr: "127.0.0.1:0"})
	ls := &literalServer{escapes: srv.NewSession("root"), noEscapes: srv.NewSession("root")}
	if _, err := ls.noEscapes.Exec("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'"); err != nil {
		tb.Fatal(err)
	}
	return ls
}

// readBack sends SELECT <literal>, <literal> and returns what the server read
// and whether it was exactly one statement of two columns.
func readBack(tb testing.TB, s *tidbsim.Session, lit string) (string, bool) {
	res, err := s.Exec("SELECT " + lit + ", " + lit)
	if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return "", false
	}
	return res.Rows[0][0].S, res.Rows[0][0].S == res.Rows[0][1].S
}

// checkLiteral is the contract of quote.String: with backslash escapes on (the
// mode tiform's sessions run in) the literal reads back as exactly s; with
// NO_BACKSLASH_ESCAPES it still reads back as s when s has no backslash, and
// never as anything but one literal ending where it started otherwise.
func checkLiteral(tb testing.TB, ls *literalServer, s string) {
	tb.Helper()
	lit := quote.String(s)
	if got, ok := readBack(tb, ls.escapes, lit); !ok || got != s {
		tb.Fatalf("default sql_mode: %q → %s read back as %q (ok=%v)", s, lit, got, ok)
	}
	got, ok := readBack(tb, ls.noEscapes, lit)
	if !strings.Contains(s, `\`) {
		if !ok || got != s {
			tb.Fatalf("NO_BACKSLASH_ESCAPES: %q → %s read back as %q (ok=%v)", s, lit, got, ok)
		}
		return
	}
	// With a backslash the bytes differ (each one is doubled), but the
	// literal still ends at its closing quote: quotes are never escaped
	// with a backslash.
	if !ok || got != strings.ReplaceAll(s, `\`, `\\`) {
		tb.Fatalf("NO_BACKSLASH_ESCAPES: %q → %s read back as %q (ok=%v), want each backslash doubled", s, lit, got, ok)
	}
}

func TestStringRoundTrip(t *testing.T) {
	ls := startLiteralServer(t)
	for _, s := range []string{
		"", "plain", "it's", `a\b`, `\`, `\'`, `'\`, `\\''\\`, "x'); DROP USER x; --", "'' OR 1=1 #",
		"l1\nl2\r\x00\x1a\t", "\x1b[2J", `say "hi"`, "`tick`", "100%_", `\%\_`, "多字节'文字\\", "\u202e",
		"/* c */", "-- c", "' '", strings.Repeat(`'\`, 100),
	} {
		checkLiteral(t, ls, s)
	}
}

// FuzzStringLiteral: every string, through quote.String, is read back by the
// emulator's lexer as exactly itself (see checkLiteral for both modes).
func FuzzStringLiteral(f *testing.F) {
	for _, s := range []string{"", "it's", `a\b`, `\'`, "\x00", "'\\''", "\xbf\\'"} {
		f.Add(s)
	}
	ls := startLiteralServer(f)
	f.Fuzz(func(t *testing.T, s string) {
		checkLiteral(t, ls, s)
	})
}

package tidbsim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The memo of renderJSONNumber answers as the rendering itself, twice in a
// row, and stops growing at its bound.
func TestRenderJSONNumberMemo(t *testing.T) {
	for _, in := range []string{"2560000", "18446744073709551615", "0.25", "0.0000001", "1e21", "-0", "abc", ""} {
		want := renderJSONNumberOnce(in)
		for i := 0; i < 2; i++ {
			if got := renderJSONNumber(in); got != want {
				t.Errorf("renderJSONNumber(%q) #%d = %q, want %q", in, i+1, got, want)
			}
		}
	}
	renderedNumbers.Lock()
	for i := 0; len(renderedNumbers.m) < maxRenderedNumbers; i++ {
		k := fmt.Sprintf("memo-fill-%d", i) // not numbers: rendered as they are
		renderedNumbers.m[k] = k
	}
	renderedNumbers.Unlock()
	const beyond = "0.000000123"
	if got, want := renderJSONNumber(beyond), "1.23e-7"; got != want {
		t.Errorf("renderJSONNumber(%q) with the memo full = %q, want %q", beyond, got, want)
	}
	renderedNumbers.RLock()
	n, kept := len(renderedNumbers.m), renderedNumbers.m[beyond] != ""
	renderedNumbers.RUnlock()
	if n > maxRenderedNumbers || kept {
		t.Errorf("memo holds %d texts (bound %d), the text beyond the bound kept: %v", n, maxRenderedNumbers, kept)
	}
}

// Expr's shortcut for a lone operand gives the tree the full descent gives.
func TestLoneOperandParsesAsDescent(t *testing.T) {
	for _, src := range []string{
		"'a', 'b'", "1, -2", "x, y", "`KEY`)", "@@global.sql_mode, @v", "TRUE, NULL", "falſe)", "t.c, 1",
		"_utf8mb4'x', 2", "DEFAULT;", "a FROM t", "b AS c", "NOT x, 1", "x = 1, 2", "f(1), 2", "1e3 FROM dual",
		"a", "'s'", "ın, 1", "select, 1",
	} {
		for _, mode := range []lexMode{{}, {ansiQuotes: true}} {
			fast, err := newParserMode(src, mode)
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			full, _ := newParserMode(src, mode)
			got, gotErr := fast.Expr()
			want, wantErr := full.parseOr()
			if d := cmp.Diff(want, got, cmp.AllowUnexported(InExpr{}, CallExpr{})); d != "" {
				t.Errorf("%q: Expr differs from parseOr (-descent +Expr):\n%s", src, d)
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || fast.pos != full.pos {
				t.Errorf("%q: Expr error %v at token %d, parseOr error %v at token %d", src, gotErr, fast.pos, wantErr, full.pos)
			}
		}
	}
}

// A session reuses its token buffer: a statement never sees tokens of an
// earlier, longer one, and a huge statement's buffer is not kept.
func TestSessionTokenBuffer(t *testing.T) {
	srv := startServer(t, Options{})
	s := srv.NewSession("root")
	defer s.close()
	huge := "SELECT 1" + strings.Repeat(", 1", maxKeptTokens)
	res, err := s.Exec(huge)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Columns) != maxKeptTokens+1 {
		t.Fatalf("huge SELECT: %d columns, want %d", len(res.Columns), maxKeptTokens+1)
	}
	if cap(s.toks) > maxKeptTokens {
		t.Errorf("the session keeps a buffer of %d tokens after the huge statement (bound %d)", cap(s.toks), maxKeptTokens)
	}
	for _, q := range []string{"SELECT 'a', 'b', 'c', 'd'", "SELECT 'x'", "SELECT"} {
		res, err := s.Exec(q)
		switch {
		case q == "SELECT" && err == nil:
			t.Errorf("%s: no error after a longer statement", q)
		case q != "SELECT" && err != nil:
			t.Errorf("%s: %v", q, err)
		case q == "SELECT 'x'" && len(res.Columns) != 1:
			t.Errorf("%s: %d columns, want 1", q, len(res.Columns))
		}
	}
}

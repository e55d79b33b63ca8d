package diag

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, line, text string }{
		{"plain 256MiB", "plain 256MiB", "plain 256MiB"},
		{"a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"a\rb", `a\rb`, `a\rb`},
		{"a\nb\tc", `a\nb\tc`, "a\nb\tc"},
		{"\x00\x07\x7f", `\x00\x07\x7f`, `\x00\x07\x7f`},
		{"\u009b2J", `\u009b2J`, `\u009b2J`},
		{"gnp.\u202eexe", `gnp.\u202eexe`, `gnp.\u202eexe`},
		{"\u2066x\u2069", `\u2066x\u2069`, `\u2066x\u2069`},
		{"bad\xffutf8", `bad\xffutf8`, `bad\xffutf8`},
		{"日本語 ü", "日本語 ü", "日本語 ü"},
	} {
		if got := Printable(tc.in); got != tc.line {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := PrintableText(tc.in); got != tc.text {
			t.Errorf("PrintableText(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

// A diagnostic quoting a value never prints its control characters raw.
func TestWriteEscapes(t *testing.T) {
	var sb strings.Builder
	_ = Write(&sb, Diagnostics{{Severity: Error, Summary: "invalid value \"\x1b[2J\"", Detail: "line one\nquoted \r\x1b]0;t\x07",
		Hint: "x\ny", Range: SourceRange{Filename: "m\x1b.hcl", Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 2}},
		Snippet: "v = \"\x1b[31m\""}}, false)
	if out := sb.String(); strings.ContainsAny(out, "\x1b\r\x07") || strings.Contains(out, "x\ny") {
		t.Errorf("raw control characters:\n%q", out)
	}
}

// PrintableCopy escapes every string however deep, leaves its argument as
// it was, and shares what needs no escape instead of copying it.
func TestPrintableCopy(t *testing.T) {
	type leaf struct {
		Value   string
		Detail  string
		private string
	}
	type tree struct {
		Name   string
		Leaves []*leaf
		ByKey  map[string]leaf
		Any    any
		Clean  *leaf
	}
	clean := &leaf{Value: "256MiB"}
	in := &tree{
		Name:   "ok",
		Leaves: []*leaf{clean, {Value: "a\x1bb", Detail: "one\ntwo\r", private: "p\x1b"}},
		ByKey:  map[string]leaf{"k\u202e": {Value: "v"}},
		Any:    leaf{Value: "\x07"},
		Clean:  clean,
	}
	out := PrintableCopy(in)
	want := &tree{
		Name:   "ok",
		Leaves: []*leaf{clean, {Value: `a\x1bb`, Detail: "one\ntwo\\r", private: "p\x1b"}},
		ByKey:  map[string]leaf{`k\u202e`: {Value: "v"}},
		Any:    leaf{Value: `\x07`},
		Clean:  clean,
	}
	if d := cmp.Diff(want, out, cmp.AllowUnexported(leaf{})); d != "" {
		t.Errorf("PrintableCopy (-want +got):\n%s", d)
	}
	if in.Leaves[1].Value != "a\x1bb" || in.Any.(leaf).Value != "\x07" || len(in.ByKey) != 1 || in.ByKey["k\u202e"].Value != "v" {
		t.Errorf("PrintableCopy changed its argument: %+v", in)
	}
	if out == in || out.Clean != in.Clean || out.Leaves[0] != in.Leaves[0] {
		t.Errorf("want a new tree sharing the clean leaf; got tree %p (argument %p), clean leaf %p/%p (argument %p)", out, in, out.Clean, out.Leaves[0], in.Clean)
	}
	if again := PrintableCopy(out); again != out {
		t.Errorf("a tree with nothing to escape was copied")
	}
}

// FuzzPrintable: the result never holds a control character, and text
// without any is unchanged.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "a\x1bb", "\u202e", "\xc2\x9b", "ok", "v7.5.0–v8.5.3 → ON", "\ufffd", "a\nb\tc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Printable(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isHiddenControl(r) {
				t.Fatalf("Printable(%q) = %q holds %U", s, out, r)
			}
		}
		if needsEscape(s, false) != (out != s) {
			t.Fatalf("Printable(%q) = %q, but needsEscape says %v", s, out, needsEscape(s, false))
		}
		if text := PrintableText(s); needsEscape(s, true) != (text != s) {
			t.Fatalf("PrintableText(%q) = %q, but needsEscape says %v", s, text, needsEscape(s, true))
		}
		if Printable(out) != out {
			t.Fatalf("not idempotent: %q → %q → %q", s, out, Printable(out))
		}
	})
}

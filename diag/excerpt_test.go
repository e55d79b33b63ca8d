package diag

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A diagnostic on a long line shows a bounded window around its range, with
// the carets under the same characters as on the whole line.
func TestExcerpt(t *testing.T) {
	long := strings.Repeat("a", 5000) + "BAD" + strings.Repeat("z", 5000)
	for _, c := range []struct {
		name, line  string
		col, endCol int
		want        string // the characters under the carets
	}{
		{"short line", `  x = "BAD"`, 8, 11, "BAD"},
		{"long line, middle", long, 5001, 5004, "BAD"},
		{"long line, start", "BAD" + strings.Repeat("z", 5000), 1, 4, "BAD"},
		{"long line, end", strings.Repeat("a", 5000) + "BAD", 5001, 5004, "BAD"},
		{"multi-byte", strings.Repeat("é", 3000) + "BAD" + strings.Repeat("é", 3000), 3001, 3004, "BAD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := SourceRange{Filename: "f.hcl", Start: Pos{Line: 1, Column: c.col}, End: Pos{Line: 1, Column: c.endCol}}
			text, start, end := Excerpt(c.line, r)
			if n := utf8.RuneCountInString(text); n > MaxExcerpt+2 {
				t.Errorf("excerpt of %d characters, want at most %d", n, MaxExcerpt+2)
			}
			if got := string([]rune(text)[start:end]); got != c.want {
				t.Errorf("under the carets: %q, want %q (excerpt %q)", got, c.want, text)
			}
			if len(c.line) > MaxExcerpt && !strings.Contains(text, "…") {
				t.Errorf("a cut line is not marked: %q", text)
			}
			var sb strings.Builder
			writeSnippet(&sb, r, c.line)
			if sb.Len() > 2*4*(MaxExcerpt+20) {
				t.Errorf("snippet of %d bytes", sb.Len())
			}
		})
	}
}

// Every text of a diagnostic is bounded, in the text view: a 3 MB name
// quoted in a summary prints a few KiB, its start and its end kept.
func TestWriteBounded(t *testing.T) {
	name := "start" + strings.Repeat("a", 3<<20) + "end"
	d := Diagnostic{Severity: Error, Summary: "variable " + name + " is unknown", Detail: name, Hint: name,
		Related: []Related{{Message: name}}}
	var sb strings.Builder
	if err := Write(&sb, Diagnostics{d}, false); err != nil {
		t.Fatal(err)
	}
	if sb.Len() > 5*4*MaxText {
		t.Errorf("%d bytes written", sb.Len())
	}
	out := sb.String()
	for _, want := range []string{"variable start", "end is unknown", "characters cut"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if got := Bounded("short"); got != "short" {
		t.Errorf("Bounded(short) = %q", got)
	}
}

package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func at(line, col, endCol int) SourceRange {
	return SourceRange{Filename: "main.hcl", Start: Pos{Line: line, Column: col}, End: Pos{Line: line, Column: endCol}}
}

func TestAppend(t *testing.T) {
	sourced := Diagnostic{Severity: Error, Summary: "pd[\"x\"].k is per-instance", Hint: "declare it for pd", Range: at(3, 5, 9)}
	warn := Diagnostic{Severity: Warning, Summary: "unknown key"}
	tests := []struct {
		name  string
		items []any
		want  Diagnostics
	}{
		{"nil items are ignored", []any{nil, error(nil), Diagnostics(nil)}, nil},
		{"a plain error becomes an error diagnostic", []any{errors.New("boom")}, Diagnostics{{Severity: Error, Summary: "boom"}}},
		{"a diagnostic and a list", []any{warn, Diagnostics{sourced}}, Diagnostics{warn, sourced}},
		{"an error from Err gives its diagnostic back", []any{sourced.Err()}, Diagnostics{sourced}},
		{"wrapped with %w, still the diagnostic", []any{fmt.Errorf("cluster %q: %w", "a", sourced.Err())}, Diagnostics{sourced}},
		{"Err of a list carries its warnings too", []any{Diagnostics{warn, sourced}.Err()}, Diagnostics{warn, sourced}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diagnostics(nil).Append(tt.items...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Append (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErr(t *testing.T) {
	if err := (Diagnostics{{Severity: Warning, Summary: "w"}}).Err(); err != nil {
		t.Errorf("warnings only: Err = %v, want nil", err)
	}
	if err := (Diagnostic{Severity: Warning}).Err(); err != nil {
		t.Errorf("a warning's Err = %v, want nil", err)
	}
	ds := Diagnostics{{Severity: Error, Summary: "first", Range: at(2, 3, 4)}, {Severity: Error, Summary: "second"}}
	if got, want := ds.Err().Error(), "main.hcl:2:3: first (and 1 more errors)"; got != want {
		t.Errorf("Err() = %q, want %q", got, want)
	}
}

func TestParseSeverity(t *testing.T) {
	for _, s := range []Severity{Info, Warning, Error} {
		got, err := ParseSeverity(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal): no error")
	}
	if !(Info < Warning && Warning < Error) {
		t.Error("severities are not ordered info < warning < error")
	}
}

func TestSortDedupe(t *testing.T) {
	a := Diagnostic{Severity: Error, Summary: "a", Range: at(5, 1, 2)}
	b := Diagnostic{Severity: Error, Summary: "b", Range: at(2, 9, 10)}
	c := Diagnostic{Severity: Error, Summary: "c", Range: at(2, 1, 2)}
	none := Diagnostic{Severity: Warning, Summary: "no range"}
	ds := Diagnostics{a, b, a, c, none}.Dedupe()
	ds.Sort()
	if diff := cmp.Diff(Diagnostics{none, c, b, a}, ds); diff != "" {
		t.Errorf("Dedupe+Sort (-want +got):\n%s", diff)
	}
}

func TestSourcesMaskSecrets(t *testing.T) {
	src := NewSources(map[string][]byte{
		"main.hcl": []byte("cluster \"a\" {\r\n  dsn = \"app:hunter2@tcp(h:4000)/\"\n}\n"),
	}, []string{"hunter2", ""})
	ds := Diagnostics{
		{Severity: Error, Summary: "x", Range: at(2, 3, 6), Related: []Related{{Message: "here", Range: at(1, 1, 8)}}},
		{Severity: Error, Summary: "kept", Range: at(2, 3, 6), Snippet: "already set"},
		{Severity: Error, Summary: "past the end", Range: at(99, 1, 2)},
		{Severity: Error, Summary: "other file", Range: SourceRange{Filename: "other.hcl", Start: Pos{Line: 1}}},
	}
	src.Attach(ds)
	want := []string{`  dsn = "app:*******@tcp(h:4000)/"`, "already set", "", ""}
	for i, w := range want {
		if ds[i].Snippet != w {
			t.Errorf("diagnostic %d: snippet %q, want %q", i, ds[i].Snippet, w)
		}
	}
	if got := ds[0].Related[0].Snippet; got != `cluster "a" {` {
		t.Errorf("related snippet %q (the \\r must be trimmed)", got)
	}
	var zero Sources
	if got := zero.Snippet(at(1, 1, 2)); got != "" {
		t.Errorf("zero Sources gave snippet %q", got)
	}
}

func TestWrite(t *testing.T) {
	ds := Diagnostics{
		{Severity: Error, Summary: `unknown TiKV config key "coprocessor.region-split-sise"`, Range: at(3, 5, 22),
			Snippet: "    region-split-sise = \"256MiB\"", Detail: "Line one.\nLine two.", Hint: "did you mean `region-split-size`?",
			Related: []Related{{Message: "first defined here", Range: at(1, 1, 3), Snippet: "tikv {"}}},
		{Severity: Warning, Summary: "no range, no snippet"},
	}
	var sb strings.Builder
	if err := Write(&sb, ds, false); err != nil {
		t.Fatal(err)
	}
	want := `main.hcl:3:5: error: unknown TiKV config key "coprocessor.region-split-sise"
  3 |     region-split-sise = "256MiB"
    |     ^^^^^^^^^^^^^^^^^
  Line one.
  Line two.
  first defined here at main.hcl:1:1
  1 | tikv {
    | ^^
  hint: did you mean ` + "`region-split-size`" + `?

warning: no range, no snippet
`
	if diff := cmp.Diff(want, sb.String()); diff != "" {
		t.Errorf("Write (-want +got):\n%s", diff)
	}
	sb.Reset()
	_ = Write(&sb, ds[:1], true)
	if !strings.Contains(sb.String(), "\x1b[1;31merror\x1b[0m") || !strings.Contains(sb.String(), "\x1b[36mhint:\x1b[0m") {
		t.Errorf("color output lacks the ANSI severity or hint:\n%q", sb.String())
	}
}

func TestAs(t *testing.T) {
	d := Diagnostic{Severity: Error, Summary: "x", Range: at(1, 2, 3)}
	got, ok := As(fmt.Errorf("wrapped: %w", d.Err()))
	if !ok || len(got) != 1 || got[0].Range != d.Range {
		t.Errorf("As = %v, %v", got, ok)
	}
	if _, ok := As(errors.New("plain")); ok {
		t.Error("a plain error carries diagnostics")
	}
	if _, ok := As(nil); ok {
		t.Error("nil carries diagnostics")
	}
}

package schema

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/diag"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestInvalid loads every directory under testdata/invalid and compares the
// rendered diagnostics with its diagnostics.golden (go test ./schema -update
// rewrites them). Every case must fail with at least one error, every
// diagnostic must carry file:line:col and a snippet, and every error a
// suggestion.
func TestInvalid(t *testing.T) {
	dirs, err := filepath.Glob("testdata/invalid/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 30 {
		t.Fatalf("only %d invalid cases; the bar is 30", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			d, diags := Load(dir, Options{Env: env(map[string]string{}), Offline: true})
			if !diags.HasErrors() {
				t.Fatalf("no error for an invalid configuration")
			}
			if d != nil {
				t.Errorf("Desired must be nil when there are errors")
			}
			for _, dg := range diags {
				if dg.Range.IsZero() || dg.Range.Start.Line < 1 || dg.Range.Start.Column < 1 {
					t.Errorf("diagnostic without a position: %q", dg.Summary)
				}
				if dg.Snippet == "" {
					t.Errorf("diagnostic without a snippet: %q", dg.Summary)
				}
				if dg.Severity == diag.Error && dg.Hint == "" {
					t.Errorf("error without a suggestion (the bar: file:line:col, message, suggestion): %q", dg.Summary)
				}
			}
			var sb strings.Builder
			if err := diag.Write(&sb, diags, false); err != nil {
				t.Fatal(err)
			}
			got := sb.String()
			for _, secret := range []string{"s3cret", "hunter2"} {
				if strings.Contains(got, secret) {
					t.Errorf("diagnostics contain the password %q:\n%s", secret, got)
				}
			}
			golden := filepath.Join(dir, "diagnostics.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./schema -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("diagnostics differ from %s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

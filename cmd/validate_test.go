package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValidateInvalidFixtures runs `tiform validate` on every broken input of
// schema/testdata/invalid: each exits 1, prints exactly its golden
// diagnostics, and never panics.
func TestValidateInvalidFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../schema/testdata/invalid/*")
	if err != nil || len(dirs) < 30 {
		t.Fatalf("want at least 30 invalid fixtures, got %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main([]string{"validate", "--chdir", dir, "--no-color"}, nil, &stdout, &stderr)
			if code != ExitError {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
			}
			want, err := os.ReadFile(filepath.Join(dir, "diagnostics.golden"))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(stderr.String(), "../schema/", "")
			got, _, _ = strings.Cut(got, "\nThe configuration is invalid")
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("(-golden +got):\n%s", diff)
			}
			if strings.Contains(stderr.String(), "goroutine ") || stdout.Len() != 0 {
				t.Errorf("unexpected output: stdout %q", stdout.String())
			}
		})
	}
}

// TestValidateExamples: every example configuration is valid.
func TestValidateExamples(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*")
	n := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		if hcl, _ := filepath.Glob(filepath.Join(dir, "*.hcl")); len(hcl) == 0 {
			continue
		}
		n++
		var stdout, stderr bytes.Buffer
		if code := Main([]string{"validate", "--chdir", dir}, nil, &stdout, &stderr); code != ExitOK {
			t.Errorf("%s: exit %d\n%s", dir, code, stderr.String())
		}
	}
	if n == 0 {
		t.Fatal("no example configurations found")
	}
}

func TestParseVarFlags(t *testing.T) {
	got, err := parseVarFlags([]string{"a=1", "b=x=y", "a=2", "c="})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"a": "2", "b": "x=y", "c": ""}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"novalue", "=1"} {
		if _, err := parseVarFlags([]string{bad}); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	b := "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n"
	want := `--- x.hcl
+++ x.hcl (formatted)
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -7,5 +7,5 @@
 g
 h
 i
-j
+J
 k
`
	if diff := cmp.Diff(want, unifiedDiff("x.hcl", a, b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/diag"
)

// FuzzLoad feeds single-file configurations to the loader: it must never
// panic (an internal-error diagnostic counts as a panic), every error must
// carry a position, and Format must be idempotent on what it accepts.
// Seeds: every *.hcl under testdata, plus testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*/*.hcl")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, diags := loadSources(t.TempDir(), []source{{name: "fuzz.hcl", src: src}},
			Options{Env: env(map[string]string{"X": "1"}), Offline: true})
		for _, d := range diags {
			if strings.HasPrefix(d.Summary, "internal error") {
				t.Fatalf("panic while loading:\n%s\n%s", d.Detail, src)
			}
			if d.Severity == diag.Error && d.Range.IsZero() {
				t.Errorf("error without a position: %q", d.Summary)
			}
		}
		var sb strings.Builder
		if err := diag.Write(&sb, diags, false); err != nil {
			t.Fatal(err)
		}
		out, err := Format(src)
		if err != nil {
			return
		}
		again, err := Format(out)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("Format is not idempotent:\n%s\n---\n%s", out, again)
		}
	})
}

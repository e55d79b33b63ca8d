package schema

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/diag"
)

// exampleRe finds the runnable examples of docs/language.md: an HTML comment
// naming the fixture file (and "warnings" when warnings are expected),
// followed by an hcl code block. A .tfvars fixture is a variable file: the
// directory is loaded with it as --var-file.
var exampleRe = regexp.MustCompile("(?s)<!-- (testdata/valid/[^ ]+\\.(?:hcl|tfvars))( warnings)? -->\n```hcl\n(.*?)```")

// TestDocsExamples: every example in docs/language.md is identical to its
// fixture under testdata/valid (-update writes them), and every fixture
// directory loads without errors (and without warnings unless marked).
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Count(string(doc), "```hcl")
	matches := exampleRe.FindAllStringSubmatch(string(doc), -1)
	if len(matches) != blocks {
		t.Fatalf("%d hcl blocks but %d are tied to a fixture: every hcl example must be preceded by <!-- testdata/valid/…hcl -->", blocks, len(matches))
	}
	dirs := map[string]bool{} // dir → warnings allowed
	for _, m := range matches {
		path, warnings, body := m[1], m[2] != "", m[3]
		dir := filepath.Dir(path)
		dirs[dir] = dirs[dir] || warnings
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run go test ./schema -update)", err)
			continue
		}
		if diff := cmp.Diff(string(want), body); diff != "" {
			t.Errorf("docs/language.md example differs from %s (-fixture +doc):\n%s", path, diff)
		}
	}
	var names []string
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, dir := range names {
		varFiles, _ := filepath.Glob(filepath.Join(dir, "*.tfvars"))
		_, diags := Load(dir, Options{Env: env(nil), Offline: true, VarFiles: varFiles})
		if diags.HasErrors() || (!dirs[dir] && len(diags) > 0) || (dirs[dir] && len(diags.Warnings()) == 0) {
			var sb strings.Builder
			_ = diag.Write(&sb, diags, false)
			t.Errorf("%s: want no errors and %s, got:\n%s", dir, map[bool]string{true: "some warnings", false: "no warnings"}[dirs[dir]], sb.String())
		}
	}
}

// TestDocsListFunctions: the functions section names every function.
func TestDocsListFunctions(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range functionNames() {
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/language.md does not list the function %s", name)
		}
	}
}

// TestDocsShowExcerpt: the `validate --show beta` excerpt in docs/language.md
// is what WriteCluster prints for the fleet fixture (show-beta.golden, which
// TestShow checks), line for line except the elided "…" lines and the
// shortened paths.
func TestDocsShowExcerpt(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	const intro = "--show beta` prints (paths shortened):\n\n```text\n"
	i := strings.Index(string(doc), intro)
	if i < 0 {
		t.Fatal("docs/language.md has no `validate --show beta` excerpt")
	}
	excerpt := string(doc)[i+len(intro):]
	excerpt = excerpt[:strings.Index(excerpt, "```")]
	golden, err := os.ReadFile("testdata/valid/fleet/show-beta.golden")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(golden), "testdata/valid/fleet/", ""), "\n")
	at := 0 // the excerpt's lines appear in the golden in order
	for _, want := range strings.Split(strings.TrimRight(excerpt, "\n"), "\n") {
		if strings.TrimSpace(want) == "…" {
			continue
		}
		for at < len(lines) && lines[at] != want {
			at++
		}
		if at == len(lines) {
			t.Errorf("docs excerpt line not in show-beta.golden (in order): %q", want)
			return
		}
		at++
	}
}

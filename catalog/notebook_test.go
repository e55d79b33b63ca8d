package catalog

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// notebookRef matches a citation of the team's notebook, which users do not
// have: "tidb-facts" or a section sign with a number ("§3.1").
var notebookRef = regexp.MustCompile(`tidb-facts|§\s?[0-9]`)

// TestNoNotebookReferences: the catalog, the generated table and its
// generator, and their docs cite only public sources (documentation URLs,
// issues, repository paths at tags). The file set grows to the whole
// repository as the rest is cleaned.
func TestNoNotebookReferences(t *testing.T) {
	var files []string
	for _, glob := range []string{"*.go", "../internal/upstream/*.go", "../tools/catalogen/*.go", "../docs/catalog.md"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	for _, f := range files {
		if strings.HasSuffix(f, "notebook_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if notebookRef.MatchString(line) {
				t.Errorf("%s:%d cites the team's notebook: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

package render

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/tiform/tiform/views/viewstest"
)

const docPath = "../docs/json-plan.md"

// The example in docs/json-plan.md is the per-instance-drift golden file and
// validates against the schema; -update rewrites it.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	const open, closing = "```json\n", "\n```"
	i := bytes.Index(doc, []byte(open))
	if i < 0 {
		t.Fatal("docs/json-plan.md has no ```json example")
	}
	j := bytes.Index(doc[i+len(open):], []byte(closing))
	if j < 0 {
		t.Fatal("unterminated example")
	}
	example := doc[i+len(open) : i+len(open)+j]
	want, err := os.ReadFile("testdata/per-instance-drift.json")
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.TrimRight(want, "\n")
	if !bytes.Equal(example, want) {
		if *update {
			out := string(doc[:i+len(open)]) + string(want) + string(doc[i+len(open)+j:])
			if err := os.WriteFile(docPath, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Error("the example in docs/json-plan.md is out of date (go test ./render -update)")
		}
	}
	viewstest.Validate(t, "plan.schema.json", want)
	for _, field := range []string{"format_version", "has_changes", "summary.highest_severity", "depends_on", "fingerprint", "persistence"} {
		if !strings.Contains(string(doc), "`"+field+"`") {
			t.Errorf("docs/json-plan.md does not document %s", field)
		}
	}
}

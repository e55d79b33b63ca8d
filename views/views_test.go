package views_test

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

// TestSchemasCompile: every schema compiles, and the set is the one the docs
// and the command tests name.
func TestSchemasCompile(t *testing.T) {
	got := viewstest.Names(t)
	sort.Strings(got)
	want := []string{"apply-event.schema.json", "catalog-stats.schema.json", "catalog.schema.json", "check-mvcc.schema.json",
		"check-plan-cache.schema.json", "check.schema.json", "common.schema.json", "drift.schema.json", "persisted.schema.json", "plan.schema.json",
		"rollout-state.schema.json", "snapshot.schema.json", "upgrade.schema.json", "validate.schema.json", "workload.schema.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schemas (-want +got):\n%s", diff)
	}
}

// TestFormatVersionIsOne: the schemas pin the same format_version the code writes.
func TestFormatVersionIsOne(t *testing.T) {
	b, err := views.Schemas.ReadFile("schema/common.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Const string `json:"const"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Defs["format_version"].Const; got != string(views.Format) {
		t.Errorf("common.schema.json pins format_version %q, the code writes %q", got, views.Format)
	}
	if views.NewHeader().FormatVersion != views.Format {
		t.Error("NewHeader does not carry views.Format")
	}
}

func write(t *testing.T, doc any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := views.Write(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestValidateDocument checks the shared element types through the validate
// document: a diagnostic with and without a range, and what the schema
// refuses (a wrong format_version, a missing key, the old range shape).
func TestValidateDocument(t *testing.T) {
	ds := diag.Diagnostics{
		{Severity: diag.Error, Summary: "bad", Hint: "fix it", Snippet: "  x = 1",
			Range:   diag.SourceRange{Filename: "main.hcl", Start: diag.Pos{Line: 2, Column: 3, Byte: 10}, End: diag.Pos{Line: 2, Column: 4, Byte: 11}},
			Related: []diag.Related{{Message: "first defined here", Range: diag.SourceRange{Filename: "a.hcl", Start: diag.Pos{Line: 1, Column: 1}}}}},
		{Severity: diag.Warning, Summary: "no range"},
	}
	doc := views.Validate{Header: views.NewHeader(), Diagnostics: views.NewDiagnostics(ds), Clusters: views.Strings(nil), ErrorCount: 1, WarningCount: 1}
	good := write(t, doc)
	viewstest.Validate(t, "validate.schema.json", good)

	var m map[string]any
	_ = json.Unmarshal(good, &m)
	if m["cluster"] != nil || m["diagnostics"].([]any)[1].(map[string]any)["range"] != nil {
		t.Errorf("absent cluster and range must be null:\n%s", good)
	}
	bad := []struct{ name, from, to string }{
		{"another format_version", `"format_version": "2.0"`, `"format_version": "1"`},
		{"the old check range shape", `"range": null`, `"range": {"filename": "a", "start_line": 1}`},
		{"a missing key", `"hint": "fix it",`, ``},
	}
	for _, b := range bad {
		mut := bytes.Replace(good, []byte(b.from), []byte(b.to), 1)
		if bytes.Equal(mut, good) {
			t.Fatalf("%s: %q not in the document", b.name, b.from)
		}
		if viewstest.Check("validate.schema.json", mut) == nil {
			t.Errorf("%s: the schema accepts it", b.name)
		}
	}
}

func TestRangeRoundTrip(t *testing.T) {
	r := diag.SourceRange{Filename: "a.hcl", Start: diag.Pos{Line: 1, Column: 2, Byte: 3}, End: diag.Pos{Line: 4, Column: 5, Byte: 6}}
	if got := views.NewRange(r).SourceRange(); got != r {
		t.Errorf("round trip: %+v", got)
	}
	if views.NewRange(diag.SourceRange{}) != nil {
		t.Error("no source must be nil (null)")
	}
	var nilRange *views.Range
	if !nilRange.SourceRange().IsZero() {
		t.Error("nil range must give no source")
	}
}

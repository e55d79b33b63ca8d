package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

// driftPlan is the drift report's fixture: the fleet scenario (tokyo and
// osaka drifted, staging in sync), the ignored-drift cluster, and a cluster
// that could not be read.
func driftPlan(t *testing.T) *planner.Plan {
	t.Helper()
	built := map[string]*planner.Plan{}
	for _, sc := range scenarios() {
		if sc.name == "fleet" || sc.name == "ignored-drift" {
			built[sc.name] = buildScenario(t, sc)
		}
	}
	p := built["fleet"]
	p.Clusters = append(p.Clusters, built["ignored-drift"].Clusters...)
	p.Clusters = append(p.Clusters, &planner.ClusterPlan{Name: "sapporo", Labels: map[string]string{"env": "dr"},
		Failure: &planner.Failure{Status: planner.StatusUnreachable, Message: "cluster \"sapporo\": live: cannot reach the cluster at 10.9.0.1:4000"}})
	return p
}

func driftDoc(t *testing.T, prev *views.Drift) views.Drift {
	t.Helper()
	return DriftReport(driftPlan(t), prev, "drift-prev.json")
}

// The drift report of the same plan in three formats, all from one
// structure, checked against golden files and the JSON Schema.
func TestDriftGolden(t *testing.T) {
	first := driftDoc(t, nil)
	js := render(t, func(b *bytes.Buffer) error { return DriftJSON(b, first) })
	viewstest.Validate(t, "drift.schema.json", js)
	golden(t, "drift.json", js)
	golden(t, "drift.txt", render(t, func(b *bytes.Buffer) error { return DriftText(b, first, false) }))
	md := render(t, func(b *bytes.Buffer) error { return DriftMarkdown(b, first) })
	golden(t, "drift.md", md)
	checkDriftMarkdown(t, md)

	// The next run: tokyo's drift is gone, one of osaka's had another live
	// value, and the previous report could not read prod.
	prev, err := ParseDrift(js)
	if err != nil {
		t.Fatal(err)
	}
	for i := range prev.Clusters {
		c := &prev.Clusters[i]
		switch c.Name {
		case "osaka":
			c.Differences[0].Live[0].Value = "something else"
		case "prod":
			msg := "did not answer"
			c.Error = &msg
		}
	}
	p := driftPlan(t)
	for _, cp := range p.Clusters {
		if cp.Name == "tokyo" {
			cp.Changes = nil
		}
	}
	second := DriftReport(p, prev, "drift-prev.json")
	js2 := render(t, func(b *bytes.Buffer) error { return DriftJSON(b, second) })
	viewstest.Validate(t, "drift.schema.json", js2)
	golden(t, "drift-previous.txt", render(t, func(b *bytes.Buffer) error { return DriftText(b, second, false) }))
	md2 := render(t, func(b *bytes.Buffer) error { return DriftMarkdown(b, second) })
	golden(t, "drift-previous.md", md2)
	checkDriftMarkdown(t, md2)

	type mark struct {
		Address string
		New     string
	}
	got := map[string][]mark{}
	for _, c := range second.Clusters {
		for _, d := range c.Differences {
			n := "null"
			if d.New != nil {
				n = map[bool]string{true: "new", false: "known"}[*d.New]
			}
			got[c.Name] = append(got[c.Name], mark{d.Address, n})
		}
		for _, d := range c.Resolved {
			got[c.Name] = append(got[c.Name], mark{d.Address, "resolved"})
		}
	}
	want := map[string][]mark{
		"tokyo": {{"variable.tidb_enable_non_prepared_plan_cache", "resolved"}},
		"osaka": {{"variable.tidb_enable_non_prepared_plan_cache", "new"}, {"tikv.coprocessor.region-split-size", "known"}},
		"prod":  {{"tikv.gc.ratio-threshold", "null"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("new/known/resolved (-want +got):\n%s", diff)
	}
	if second.Summary.New != 1 || second.Summary.Resolved != 1 || second.Summary.Ignored != 1 || second.Previous == nil {
		t.Errorf("summary: %+v previous %+v", second.Summary, second.Previous)
	}
}

// Only differences: no statement, rollback or plan order, and nothing
// ignored is hidden.
func TestDriftShowsOnlyDifferences(t *testing.T) {
	p := driftPlan(t)
	doc := DriftReport(p, nil, "")
	for _, out := range [][]byte{
		render(t, func(b *bytes.Buffer) error { return DriftText(b, doc, false) }),
		render(t, func(b *bytes.Buffer) error { return DriftMarkdown(b, doc) }),
		render(t, func(b *bytes.Buffer) error { return DriftJSON(b, doc) }),
	} {
		for _, no := range []string{"SET CONFIG", "SET GLOBAL", "rollback", "Why this order"} {
			if bytes.Contains(out, []byte(no)) {
				t.Errorf("the drift report shows %q:\n%s", no, out)
			}
		}
		for _, cp := range p.Clusters {
			for _, c := range append(cp.Changes, ignoredChanges(cp)...) {
				if !bytes.Contains(out, []byte(c.Addr.String())) {
					t.Errorf("%s: %s is not in the report:\n%s", cp.Name, c.Addr, out)
				}
			}
		}
		for _, s := range []string{"sapporo", "unreachable", "staging", "INC-123"} {
			if !bytes.Contains(out, []byte(s)) {
				t.Errorf("the report does not name %q:\n%s", s, out)
			}
		}
	}
}

func ignoredChanges(cp *planner.ClusterPlan) []*plans.Change {
	var out []*plans.Change
	for _, ig := range cp.Ignored {
		out = append(out, ig.Change)
	}
	return out
}

func TestParseDriftRefuses(t *testing.T) {
	plan := render(t, func(b *bytes.Buffer) error { return JSON(b, driftPlan(t)) })
	tests := []struct{ name, in, want string }{
		{"not JSON", "drift", "not a drift report"},
		{"no format_version", `{"clusters": []}`, "no format_version"},
		{"another major format", `{"format_version": "1.0", "has_drift": false, "clusters": []}`, `format_version "1.0"`},
		{"a plan", string(plan), "a plan?"},
		{"no clusters", `{"format_version": "2.0", "has_drift": false}`, "no clusters"},
	}
	for _, tt := range tests {
		if _, err := ParseDrift([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// The drift schema rejects what it must (a test that can fail).
func TestDriftSchemaRejects(t *testing.T) {
	js := render(t, func(b *bytes.Buffer) error { return DriftJSON(b, driftDoc(t, nil)) })
	difference := func(d map[string]any) map[string]any {
		return d["clusters"].([]any)[0].(map[string]any)["differences"].([]any)[0].(map[string]any)
	}
	mutations := map[string]func(map[string]any){
		"an unknown field in a difference": func(d map[string]any) { difference(d)["statements"] = []any{} },
		"a difference without new":         func(d map[string]any) { delete(difference(d), "new") },
		"a difference without live":        func(d map[string]any) { delete(difference(d), "live") },
		"an ignored difference without its block": func(d map[string]any) {
			for _, c := range d["clusters"].([]any) {
				if ig := c.(map[string]any)["ignored"].([]any); len(ig) > 0 {
					delete(ig[0].(map[string]any), "ignore")
				}
			}
		},
		"a bad status": func(d map[string]any) { d["clusters"].([]any)[0].(map[string]any)["status"] = "drifted" },
	}
	for name, mut := range mutations {
		var d map[string]any
		_ = json.Unmarshal(js, &d)
		mut(d)
		b, _ := json.Marshal(d)
		if err := viewstest.Check("drift.schema.json", b); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

func checkDriftMarkdown(t *testing.T, md []byte) {
	t.Helper()
	if !bytes.HasPrefix(md, []byte("<!-- tiform:drift cluster=")) || !bytes.Contains(md, []byte("## tiform drift")) {
		t.Errorf("the drift Markdown lacks its marker or heading:\n%s", md)
	}
	if bytes.ContainsRune(md, 0x1b) {
		t.Error("Markdown contains an ANSI escape")
	}
}

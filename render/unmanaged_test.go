package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views/viewstest"
)

// unmanagedPlan is a drift report's plan with unmanaged drift: a TiKV key
// tuned on two of three instances, a variable, one accepted by an ignore
// block, and a cluster whose unmanaged drift was not asked for.
func unmanagedPlan() *planner.Plan {
	return &planner.Plan{ConfigHash: "abc", CreatedAt: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), Clusters: []*planner.ClusterPlan{
		{Name: "prod", Labels: map[string]string{}, UnmanagedSettings: &planner.UnmanagedReport{
			Settings: []planner.UnmanagedSetting{
				{Addr: state.ConfigAddress(state.TiKV, "", "gc.ratio-threshold"), Default: "1.1",
					Live: []plans.InstanceValue{{Instance: "tikv-0:20160", Value: "1.5"}, {Instance: "tikv-1:20160", Value: "1.5"}}},
				{Addr: state.ConfigAddress(state.TiKV, "", "storage.block-cache.capacity"), Computed: true,
					Live: []plans.InstanceValue{{Instance: "tikv-0:20160", Value: "1GiB"}}},
				{Addr: state.VariableAddress("tidb_gc_life_time"), Default: "10m0s", Live: []plans.InstanceValue{{Value: "30m0s"}}},
			},
			Ignored: []planner.IgnoredSetting{{Setting: planner.UnmanagedSetting{Addr: state.VariableAddress("tidb_mem_quota_query"), Default: "1073741824",
				Live: []plans.InstanceValue{{Value: "2147483648"}}}, Pattern: "variable.tidb_mem_quota_query", Reason: "set by the incident of 2026-11-30"}},
			Undecided: 4,
		}},
		{Name: "staging", Labels: map[string]string{}},
	}}
}

// Unmanaged drift is a section of its own in every view, counted apart
// (has_unmanaged_drift, summary.unmanaged), schema-checked; a second
// report marks what is new and what resolved.
func TestUnmanagedDriftViews(t *testing.T) {
	doc := DriftReport(unmanagedPlan(), nil, "")
	js := render(t, func(b *bytes.Buffer) error { return DriftJSON(b, doc) })
	viewstest.Validate(t, "drift.schema.json", js)
	golden(t, "drift-unmanaged.json", js)
	if doc.HasDrift || !doc.HasUnmanagedDrift {
		t.Errorf("has_drift %v, has_unmanaged_drift %v: want false, true (unmanaged drift is not managed drift)", doc.HasDrift, doc.HasUnmanagedDrift)
	}
	if s := doc.Summary.Unmanaged; s == nil || s.Settings != 3 || s.Ignored != 1 || s.Clusters != 1 || s.Drifted != 1 {
		t.Errorf("summary.unmanaged = %+v", s)
	}
	if doc.Clusters[1].Unmanaged != nil {
		t.Error("a cluster whose unmanaged drift was not read reports some")
	}
	text := render(t, func(b *bytes.Buffer) error { return DriftText(b, doc, false) })
	golden(t, "drift-unmanaged.txt", text)
	md := render(t, func(b *bytes.Buffer) error { return DriftMarkdown(b, doc) })
	golden(t, "drift-unmanaged.md", md)
	for _, want := range []string{"tikv.gc.ratio-threshold", "variable.tidb_gc_life_time", "ignored: variable.tidb_mem_quota_query"} {
		if !strings.Contains(string(text), want) || !strings.Contains(string(md), strings.SplitN(want, ": ", 2)[len(strings.SplitN(want, ": ", 2))-1]) {
			t.Errorf("text or Markdown lacks %q", want)
		}
	}

	prev, err := ParseDrift(js)
	if err != nil {
		t.Fatal(err)
	}
	p := unmanagedPlan()
	u := p.Clusters[0].UnmanagedSettings
	u.Settings[0].Live[0].Value = "2" // moved again: new
	u.Settings = u.Settings[:2]       // tidb_gc_life_time back at its default: resolved
	next := DriftReport(p, prev, "prev.json")
	js2 := render(t, func(b *bytes.Buffer) error { return DriftJSON(b, next) })
	viewstest.Validate(t, "drift.schema.json", js2)
	got := next.Clusters[0].Unmanaged
	if n := got.Settings[0].New; n == nil || !*n {
		t.Errorf("a setting whose value moved is not new: %v", n)
	}
	if n := got.Settings[1].New; n == nil || *n {
		t.Errorf("an unchanged setting is new: %v", n)
	}
	if len(got.Resolved) != 1 || got.Resolved[0].Address != "variable.tidb_gc_life_time" {
		t.Errorf("resolved = %+v", got.Resolved)
	}
	golden(t, "drift-unmanaged-previous.txt", render(t, func(b *bytes.Buffer) error { return DriftText(b, next, false) }))
}

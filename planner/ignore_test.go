package planner

import (
	"bytes"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
)

// Ignore blocks keep the differences they match out of the plan (and so out
// of apply) and list them; an expired block keeps nothing out; the first
// matching pattern wins; guards see what was ignored.
func TestIgnoredDrift(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	ig := func(p, until string) state.Ignore {
		out := state.Ignore{Pattern: state.AddressPattern(p), Reason: "accepted " + p, Range: rng(20)}
		if until != "" {
			out.Until = day(until)
		}
		return out
	}
	live := func() *state.Live {
		l := cluster("8.5.4")
		tikvAll(l, "gc.ratio-threshold", "1.1")
		tikvAll(l, "raftstore.store-pool-size", "4")
		l.Variables["tidb_enable_non_prepared_plan_cache"] = "OFF"
		return l
	}
	desired := func(ignores ...state.Ignore) *state.DesiredCluster {
		return &state.DesiredCluster{Name: "prod", Ignores: ignores,
			Config:    []state.ConfigSetting{cfgN("tikv", "gc.ratio-threshold", "1.3", 1), cfgN("tikv", "raftstore.store-pool-size", "2", 2)},
			Variables: []state.VariableSetting{varS("tidb_enable_non_prepared_plan_cache", "ON", state.LiteralBool, 3)}}
	}
	type got struct{ Changes, Ignored []string }
	tests := []struct {
		name    string
		ignores []state.Ignore
		want    got
	}{
		{"no ignore", nil, got{Changes: []string{"tikv.gc.ratio-threshold", "tikv.raftstore.store-pool-size", "variable.tidb_enable_non_prepared_plan_cache"}}},
		{"a pattern", []state.Ignore{ig("tikv.raftstore.*", "2026-12-31")},
			got{Changes: []string{"tikv.gc.ratio-threshold", "variable.tidb_enable_non_prepared_plan_cache"}, Ignored: []string{"tikv.raftstore.store-pool-size by tikv.raftstore.*"}}},
		{"last valid day", []state.Ignore{ig("tikv.raftstore.*", "2026-11-30")},
			got{Changes: []string{"tikv.gc.ratio-threshold", "variable.tidb_enable_non_prepared_plan_cache"}, Ignored: []string{"tikv.raftstore.store-pool-size by tikv.raftstore.*"}}},
		{"expired", []state.Ignore{ig("tikv.raftstore.*", "2026-11-29")},
			got{Changes: []string{"tikv.gc.ratio-threshold", "tikv.raftstore.store-pool-size", "variable.tidb_enable_non_prepared_plan_cache"}}},
		{"first pattern wins", []state.Ignore{ig("tikv.*", ""), ig("tikv.gc.*", "")},
			got{Changes: []string{"variable.tidb_enable_non_prepared_plan_cache"}, Ignored: []string{"tikv.gc.ratio-threshold by tikv.*", "tikv.raftstore.store-pool-size by tikv.*"}}},
		{"a variable", []state.Ignore{ig("variable.tidb_*_cache", "")},
			got{Changes: []string{"tikv.gc.ratio-threshold", "tikv.raftstore.store-pool-size"}, Ignored: []string{"variable.tidb_enable_non_prepared_plan_cache by variable.tidb_*_cache"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen guard.Input
			eval := func(in guard.Input) []guard.Finding { seen = in; return nil }
			cp, err := BuildCluster(desired(tt.ignores...), live(), Options{Now: testNow, Guards: eval})
			if err != nil {
				t.Fatal(err)
			}
			var g got
			for _, c := range cp.Changes {
				g.Changes = append(g.Changes, c.Addr.String())
			}
			sort.Strings(g.Changes) // the order is order.go's business
			for _, i := range cp.Ignored {
				g.Ignored = append(g.Ignored, i.Change.Addr.String()+" by "+string(i.Pattern))
				if i.Reason != "accepted "+string(i.Pattern) || i.Range != rng(20) {
					t.Errorf("ignored %s: reason %q range %v", i.Change.Addr, i.Reason, i.Range)
				}
			}
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(seen.Ignored) != len(cp.Ignored) || len(seen.Changes) != len(cp.Changes) {
				t.Errorf("guards saw %d changes and %d ignored, want %d and %d", len(seen.Changes), len(seen.Ignored), len(cp.Changes), len(cp.Ignored))
			}
			// A saved plan carries the ignored differences.
			var b bytes.Buffer
			if err := WritePlanFile(&b, &Plan{Clusters: []*ClusterPlan{cp}}); err != nil {
				t.Fatal(err)
			}
			back, err := ReadPlanFile(&b)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(cp.Ignored, back.Clusters[0].Ignored); diff != "" {
				t.Errorf("plan file round trip (-want +got):\n%s", diff)
			}
		})
	}
}

package guard

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// The evidence rules read Input.Changes and Input.Evidence.

func evChange(kind, comp, key, before, after string, line int) *plans.Change {
	addr := state.VariableAddress(key)
	if kind == "config" {
		addr = state.ConfigAddress(state.Component(comp), "", key)
	}
	return &plans.Change{Addr: addr, Action: plans.Update, Before: []plans.InstanceValue{{Value: before}}, After: after, Range: at(line)}
}

func planCacheReport(unqualified, hits int64) *workload.PlanCacheReport {
	st := workload.Statement{Digest: "a", Text: "select a", Type: "Select", Tables: []string{"app.a"}, Prepared: true, Executions: 10000,
		CacheHits: hits, Unqualified: unqualified, Latency: 20 * time.Second, CompileTime: 4 * time.Second,
		Reasons: map[string]int64{"OR predicate simplification is triggered": unqualified}}
	r := workload.PlanCache(workload.Sample{Statements: []workload.Statement{st}, Source: "INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY", ClusterWide: true,
		Query: workload.Query{Since: 24 * time.Hour, Limit: 10}, Version: "v8.5.1", Unqualified: true})
	return &r
}

func mvccReport(total float64) *workload.MVCCReport {
	st := workload.Statement{Digest: "q", Text: "select q", Type: "Select", Tables: []string{"app.jobs"}, Executions: 10,
		TotalKeys: 10 * total, ProcessedKeys: 10, Latency: time.Second}
	r := workload.MVCC(workload.Sample{Statements: []workload.Statement{st}, Source: "INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY", ClusterWide: true, Query: workload.Query{Since: time.Hour, Limit: 10}}, workload.MVCCOptions{})
	return &r
}

func TestEvidenceRules(t *testing.T) {
	ipc := evChange("variable", "tidb", "tidb_enable_instance_plan_cache", "OFF", "ON", 10)
	size := evChange("variable", "tidb", "tidb_session_plan_cache_size", "100", "200", 11)
	prepOff := evChange("variable", "tidb", "tidb_enable_prepared_plan_cache", "ON", "OFF", 12)
	ime := evChange("config", "tikv", "in-memory-engine.enable", "false", "true", 13)
	other := evChange("variable", "tidb", "tidb_gc_life_time", "10m0s", "20m0s", 14)
	for _, tc := range []struct {
		name    string
		changes []*plans.Change
		ev      *workload.Evidence
		want    []brief
		summary string
	}{
		{"no relevant change, no finding", []*plans.Change{other}, nil, nil, ""},
		{"figures cited", []*plans.Change{size, ipc}, &workload.Evidence{PlanCache: planCacheReport(9000, 0)},
			[]brief{{"TF126", "warning", ipc.Addr.String(), 10}, {"TF125", "info", ipc.Addr.String(), 10}},
			"tidb_enable_instance_plan_cache OFF → ON: hit ratio 0% of executions (0% of latency) over 24h; 90% cannot use the cache, top reason: OR predicate simplification (tidb#56136)"},
		{"a size change alone: figures, no contradiction", []*plans.Change{size}, &workload.Evidence{PlanCache: planCacheReport(9000, 0)},
			[]brief{{"TF125", "info", size.Addr.String(), 11}}, "tidb_session_plan_cache_size 100 → 200: hit ratio"},
		{"disabling a cache that works", []*plans.Change{prepOff}, &workload.Evidence{PlanCache: planCacheReport(0, 9500)},
			[]brief{{"TF126", "warning", prepOff.Addr.String(), 12}, {"TF125", "info", prepOff.Addr.String(), 12}}, "hit ratio 95% of executions"},
		{"no figures: says why", []*plans.Change{ipc}, &workload.Evidence{Unavailable: "planned from a snapshot"},
			[]brief{{"TF125", "info", ipc.Addr.String(), 10}}, "no plan-cache figures from the cluster (planned from a snapshot)"},
		{"IME where it helps", []*plans.Change{ime}, &workload.Evidence{MVCC: mvccReport(50000)},
			[]brief{{"TF134", "info", ime.Addr.String(), 13}}, "in-memory-engine.enable false → true: app.jobs: reads scan 50,000 versions per key kept"},
		{"IME with nothing to help", []*plans.Change{ime}, &workload.Evidence{MVCC: mvccReport(1)},
			[]brief{{"TF135", "warning", ime.Addr.String(), 13}, {"TF134", "info", ime.Addr.String(), 13}}, "no read scans 10x more MVCC versions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(), Live: live("tidb=8.5.1", "tikv=8.5.1"), Now: now, Changes: tc.changes, Evidence: tc.ev})
			got := only(fs, "TF125", "TF126", "TF134", "TF135")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
			for _, f := range fs {
				if (f.Code == "TF125" || f.Code == "TF134") && !strings.Contains(f.Summary, tc.summary) {
					t.Errorf("%s summary %q lacks %q", f.Code, f.Summary, tc.summary)
				}
			}
		})
	}
}

// check mvcc shows what the IME rules would say about enabling it: nothing
// before v8.5.0 but TF130, the restart and the bugs of the patch on v8.5.1,
// only the restart on a fixed patch, nothing once it is on.
func TestEnableIMEFindings(t *testing.T) {
	codes := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Code)
		}
		return out
	}
	for _, tc := range []struct {
		tikv, enabled string
		want          []string
	}{
		{"8.1.2", "", []string{"TF130"}},
		{"8.5.1", "false", []string{"TF131", "TF133"}},
		{"8.5.7", "false", []string{"TF131"}},
		{"8.5.7", "true", nil},
	} {
		l := live("tidb="+tc.tikv, "tikv="+tc.tikv)
		if tc.enabled != "" {
			withConfig(l, state.TiKV, "in-memory-engine.enable", tc.enabled)
		}
		if diff := cmp.Diff(tc.want, codes(EnableIMEFindings("prod", l, now))); diff != "" {
			t.Errorf("tikv %s enabled %q (-want +got)\n%s", tc.tikv, tc.enabled, diff)
		}
	}
}

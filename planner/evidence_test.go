package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/workload"
)

// evidencePlan plans enabling the instance plan cache with the given
// evidence (the real guards).
func evidencePlan(t *testing.T, ev *workload.Evidence) *ClusterPlan {
	t.Helper()
	dc := &state.DesiredCluster{Name: "prod", Variables: []state.VariableSetting{{Name: "tidb_enable_instance_plan_cache",
		Value: state.Value{Text: "ON", Type: state.LiteralBool}}}}
	l := &state.Live{ServerVersion: "8.0.11-TiDB-v8.5.1", ServerVersionParsed: version.MustParse("v8.5.1"), VariablesRead: true,
		Instances: []state.Instance{{Component: state.TiDB, Address: "10.0.1.1:4000", Version: version.MustParse("v8.5.1")}},
		Variables: map[string]string{"tidb_enable_instance_plan_cache": "OFF"}}
	o := Options{Now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	if ev != nil {
		o.Evidence = map[string]*workload.Evidence{"prod": ev}
	}
	cp, err := BuildCluster(dc, l, o)
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

func figures(hits int64) *workload.Evidence {
	st := workload.Statement{Digest: "a", Text: "select a", Type: "Select", Tables: []string{"app.a"}, Prepared: true, Executions: 10000, CacheHits: hits,
		Latency: 20 * time.Second, CompileTime: 4 * time.Second}
	r := workload.PlanCache(workload.Sample{Statements: []workload.Statement{st}, Query: workload.Query{Since: 24 * time.Hour, Limit: 10},
		Version: "v8.5.1", Unqualified: true})
	return &workload.Evidence{PlanCache: &r}
}

// Only plans that change a plan-cache variable or in-memory-engine.enable
// need evidence; without it the plan says it was not read.
func TestEvidenceNeeds(t *testing.T) {
	cp := evidencePlan(t, nil)
	if n := EvidenceNeeds(cp); !n.PlanCache || n.MVCC {
		t.Errorf("needs %+v", n)
	}
	if cp.Evidence == nil || cp.Evidence.Unavailable == "" || cp.Evidence.PlanCache != nil {
		t.Errorf("evidence %+v", cp.Evidence)
	}
	if got := evidencePlan(t, figures(100)); got.Evidence.PlanCache == nil || got.Evidence.Unavailable != "" {
		t.Errorf("evidence %+v", got.Evidence)
	}
}

// The figures change with every read; the plan hash (--plan-hash, the audit
// log) does not, so a reviewed plan and its apply hash alike. The hash still
// covers everything else.
func TestHashLeavesEvidenceOut(t *testing.T) {
	a, b := evidencePlan(t, figures(100)), evidencePlan(t, figures(9000))
	summaries := func(cp *ClusterPlan) (out []string) {
		for _, f := range cp.Findings {
			out = append(out, f.Code+" "+f.Summary)
		}
		return out
	}
	if strings.Join(summaries(a), "\n") == strings.Join(summaries(b), "\n") {
		t.Fatal("the two plans' findings do not differ: the test proves nothing")
	}
	if a.Hash() != b.Hash() || a.Hash() != evidencePlan(t, nil).Hash() {
		t.Errorf("hash depends on the evidence: %s %s", a.Hash(), b.Hash())
	}
	c := evidencePlan(t, figures(100))
	c.Changes[0].After = "OFF"
	if c.Hash() == a.Hash() {
		t.Error("hash ignores a change's value")
	}
}

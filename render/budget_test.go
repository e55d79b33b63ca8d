package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// budgetCluster is a v8.5.1 cluster as a pull request finds it: five
// resource groups (the guards' TF110 concerns each of those with MEDIUM or
// LOW priority, unmanaged ones included), TiKV and PD settings declared and
// in sync.
func budgetCluster(name, prefix string) (*state.DesiredCluster, *state.Live) {
	l := liveCluster("8.5.1", prefix)
	l.Variables["max_execution_time"] = "0"
	medium, low, high := "MEDIUM", "LOW", "HIGH"
	for _, g := range []struct{ name, prio string }{{"oltp", high}, {"batch", low}, {"report", medium}, {"etl", low}} {
		l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: g.name, RUPerSec: i64(1000), Priority: str(g.prio), Burstable: str(state.BurstOff)})
	}
	dc := &state.DesiredCluster{Name: name, Range: at(1),
		Config: []state.ConfigSetting{
			cfg(state.TiKV, "storage.block-cache.capacity", "8GiB", 3),
			cfg(state.PD, "schedule.max-merge-region-size", "20", 6),
		},
		Variables: []state.VariableSetting{variable("max_execution_time", "0", 10)},
		ResourceGroups: []state.ResourceGroup{
			{Name: "oltp", RUPerSec: i64(1000), Priority: &high, Range: at(14)},
			{Name: "batch", RUPerSec: i64(1000), Priority: &low, Range: at(18)},
			{Name: "report", RUPerSec: i64(1000), Priority: &medium, Range: at(22)},
		},
	}
	return dc, l
}

// budgetPlan plans clusters with the real guards (the budget is about what a
// reviewer really gets).
func budgetPlan(t *testing.T, dcs []*state.DesiredCluster, lives []*state.Live) *planner.Plan {
	t.Helper()
	d := &state.Desired{Clusters: dcs, ConfigHash: "sha256:budget"}
	m := map[string]*state.Live{}
	for i, dc := range dcs {
		m[dc.Name] = lives[i]
	}
	p, err := planner.Build(d, m, planner.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mdLines(md []byte) int { return strings.Count(string(md), "\n") }

// The pull-request comment's budget (issue 14): a one-variable change on one
// cluster is at most 40 lines of Markdown, whatever the cluster's findings;
// a fleet with no changes at most one line per cluster. Findings with several
// addresses are one bullet each, every address listed once.
func TestMarkdownBudget(t *testing.T) {
	dc, l := budgetCluster("prod", "10.0.1")
	dc.Variables[0] = variable("max_execution_time", "60000", 10)
	one := render(t, func(b *bytes.Buffer) error {
		return Markdown(b, budgetPlan(t, []*state.DesiredCluster{dc}, []*state.Live{l}))
	})
	golden(t, "budget-one-variable.md", one)
	checkMarkdown(t, one)
	if n := mdLines(one); n > 40 {
		t.Errorf("a one-variable change takes %d lines of Markdown, the budget is 40:\n%s", n, one)
	}
	if c := strings.Count(string(one), "`TF110`"); c != 1 {
		t.Errorf("TF110 is named %d times, want once (one bullet for its five groups):\n%s", c, one)
	}
	for _, g := range []string{"default", "batch", "report", "etl"} {
		if c := strings.Count(string(one), "`resource_group."+g+"`"); c != 1 {
			t.Errorf("resource_group.%s is listed %d times, want once", g, c)
		}
	}

	var dcs []*state.DesiredCluster
	var lives []*state.Live
	for i, name := range []string{"tokyo", "osaka", "nagoya", "sapporo", "kobe"} {
		dc, l := budgetCluster(name, "10.0."+string(rune('1'+i)))
		l.ResourceGroups = l.ResourceGroups[:2] // default and oltp: nothing to warn about but default
		dc.ResourceGroups = dc.ResourceGroups[:1]
		dcs, lives = append(dcs, dc), append(lives, l)
	}
	fleet := render(t, func(b *bytes.Buffer) error { return Markdown(b, budgetPlan(t, dcs, lives)) })
	golden(t, "budget-fleet-in-sync.md", fleet)
	checkMarkdown(t, fleet)
	if n := mdLines(fleet); n > len(dcs) {
		t.Errorf("a fleet of %d clusters with no changes takes %d lines of Markdown, the budget is one per cluster:\n%s", len(dcs), n, fleet)
	}
}

// A finding that concerns several addresses is one bullet naming each once,
// with its detail (TF141's topology edit of every key) folded once.
func TestMarkdownFindingOncePerCode(t *testing.T) {
	dc, l := budgetCluster("prod", "10.0.1")
	for _, a := range l.InstancesOf(state.TiKV) {
		setRow(l, state.TiKV, a, "gc.ratio-threshold", "1.1")
		setRow(l, state.TiKV, a, "raftstore.store-pool-size", "2")
	}
	dc.Config = append(dc.Config, cfg(state.TiKV, "gc.ratio-threshold", "1.3", 4), cfg(state.TiKV, "raftstore.store-pool-size", "4", 5),
		cfg(state.TiKV, "storage.block-cache.capacity", "10GiB", 3))
	dc.Config = dc.Config[1:] // the declaration at line 3 is replaced
	md := string(render(t, func(b *bytes.Buffer) error {
		return Markdown(b, budgetPlan(t, []*state.DesiredCluster{dc}, []*state.Live{l}))
	}))
	golden(t, "budget-three-keys.md", []byte(md))
	_, findings, ok := strings.Cut(md, "#### Guard findings")
	if !ok {
		t.Fatalf("no findings section:\n%s", md)
	}
	for code, want := range map[string]int{"- **info** `TF141`": 1, "**TF141**": 1, "tiup cluster edit-config": 1, "- **warning** `TF110`": 1, "**TF110**": 1} {
		if c := strings.Count(findings, code); c != want {
			t.Errorf("%q appears %d times in the findings, want %d:\n%s", code, c, want, findings)
		}
	}
	for _, key := range []string{"gc.ratio-threshold", "raftstore.store-pool-size", "storage.block-cache.capacity"} {
		if c := strings.Count(findings, "`tikv."+key+"`"); c != 1 {
			t.Errorf("tikv.%s is named %d times in the findings, want once", key, c)
		}
	}
}

package planner

import (
	"testing"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// TestSatisfied: the read-back decision apply takes for every check.
func TestSatisfied(t *testing.T) {
	u := Check{Kind: KindUser, Key: "app@%", Want: "oltp"}
	v := Check{Kind: KindVariable, Component: state.TiDB, Key: "tidb_enable_instance_plan_cache", Want: "true"}
	gc := Check{Kind: KindVariable, Component: state.TiDB, Key: "tidb_gc_enable", Want: "true"} // not in the catalog
	c := Check{Kind: KindConfig, Component: state.TiKV, Instance: "127.0.0.1:20160", Key: "coprocessor.region-split-size", Want: "268435456"}
	tests := []struct {
		c    Check
		read string
		ok   bool
	}{
		{u, "OLTP", true},
		{u, "default", false},
		{Check{Kind: KindUser, Key: "app@%", Want: DefaultGroup}, "", true},
		{v, "ON", true},
		{v, "1", true},
		{v, "OFF", false},
		{v, Absent, false},
		{gc, "ON", true},
		{gc, "1", true},
		{gc, "0", false},
		{c, "256MiB", true},
		{c, "96MiB", false},
	}
	for _, tt := range tests {
		if got := tt.c.Satisfied(tt.read); got != tt.ok {
			t.Errorf("%s want %q, read %q: Satisfied = %v, want %v", tt.c.Key, tt.c.Want, tt.read, got, tt.ok)
		}
	}
}

func TestGroupSatisfied(t *testing.T) {
	v := version.MustParse("v8.5.1")
	limit := &state.QueryLimit{ExecElapsed: "60s", Action: "KILL"}
	g := &state.ResourceGroup{Name: "oltp", RUPerSec: i64(2000), Priority: str("HIGH"), QueryLimit: limit}
	tests := []struct {
		want string
		live *state.ResourceGroup
		ok   bool
	}{
		{"RU_PER_SEC=2000", g, true},
		{"RU_PER_SEC=2000, PRIORITY=LOW", g, false},
		{"QUERY_LIMIT=(EXEC_ELAPSED='1m0s', ACTION=KILL)", g, true},
		{"QUERY_LIMIT=NULL", g, false},
		{Absent, nil, true},
		{Absent, g, false},
		{"RU_PER_SEC=2000", nil, false},
	}
	for _, tt := range tests {
		c := Check{Kind: KindResourceGroup, Key: "oltp", Want: tt.want}
		if got := c.GroupSatisfied(tt.live, v); got != tt.ok {
			t.Errorf("want %q: GroupSatisfied = %v, want %v", tt.want, got, tt.ok)
		}
	}
}

// FuzzGroupSatisfied: whatever a plan file holds as Want, the read-back
// decision never panics.
func FuzzGroupSatisfied(f *testing.F) {
	for _, s := range []string{"RU_PER_SEC=1000, PRIORITY=HIGH", "QUERY_LIMIT=(EXEC_ELAPSED='60s', ACTION=KILL), BURSTABLE=OFF", "(((", "=,=", "", "BACKGROUND=(TASK_TYPES='br,ddl')"} {
		f.Add(s)
	}
	g := &state.ResourceGroup{Name: "x", RUPerSec: i64(1)}
	f.Fuzz(func(t *testing.T, s string) {
		Check{Kind: KindResourceGroup, Want: s}.GroupSatisfied(g, version.MustParse("v8.5.1"))
	})
}

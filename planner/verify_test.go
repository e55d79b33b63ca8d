package planner

import (
	"testing"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// TestSatisfied: the read-back decision apply takes for every check.
func TestSatisfied(t *testing.T) {
	app := state.UserAddress(state.UserRef{User: "app", Host: "%"})
	u := plans.Check{Addr: app, Want: "oltp"}
	v := plans.Check{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Want: "true"}
	gc := plans.Check{Addr: state.VariableAddress("tidb_gc_enable"), Want: "true"} // not in the catalog
	c := plans.Check{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20160", "coprocessor.region-split-size"), Want: "268435456"}
	tests := []struct {
		c    plans.Check
		read string
		ok   bool
	}{
		{u, "OLTP", true},
		{u, "default", false},
		{plans.Check{Addr: app, Want: DefaultGroup}, "", true},
		{v, "ON", true},
		{v, "1", true},
		{v, "OFF", false},
		{v, plans.Absent, false},
		{gc, "ON", true},
		{gc, "1", true},
		{gc, "0", false},
		{c, "256MiB", true},
		{c, "96MiB", false},
	}
	for _, tt := range tests {
		if got := Satisfied(tt.c, tt.read); got != tt.ok {
			t.Errorf("%s want %q, read %q: Satisfied = %v, want %v", tt.c.Addr, tt.c.Want, tt.read, got, tt.ok)
		}
	}
}

func TestGroupSatisfied(t *testing.T) {
	v := version.MustParse("v8.5.1")
	limit := &state.QueryLimit{ExecElapsed: "60s", Action: "KILL"}
	g := &state.ResourceGroup{Name: "oltp", RUPerSec: i64(2000), Priority: str("HIGH"), QueryLimit: limit}
	ru := plans.GroupOption{Name: "RU_PER_SEC", Value: "2000"}
	tests := []struct {
		name string
		c    plans.Check
		live *state.ResourceGroup
		ok   bool
	}{
		{"one option", plans.Check{Options: []plans.GroupOption{ru}}, g, true},
		{"another option differs", plans.Check{Options: []plans.GroupOption{ru, {Name: "PRIORITY", Value: "LOW"}}}, g, false},
		{"query limit", plans.Check{Options: []plans.GroupOption{{Name: "QUERY_LIMIT", Value: "EXEC_ELAPSED='1m0s', ACTION=KILL"}}}, g, true},
		{"query limit removed", plans.Check{Options: []plans.GroupOption{{Name: "QUERY_LIMIT", Value: "NULL"}}}, g, false},
		{"option not there", plans.Check{Options: []plans.GroupOption{{Name: "BACKGROUND", Value: "TASK_TYPES='br'"}}}, g, false},
		{"dropped", plans.Check{Want: plans.Absent}, nil, true},
		{"not dropped", plans.Check{Want: plans.Absent}, g, false},
		{"not created", plans.Check{Options: []plans.GroupOption{ru}}, nil, false},
	}
	for _, tt := range tests {
		tt.c.Addr = state.GroupAddress("oltp")
		if got := GroupSatisfied(tt.c, tt.live, v); got != tt.ok {
			t.Errorf("%s: GroupSatisfied = %v, want %v", tt.name, got, tt.ok)
		}
	}
	// A rollback restores every option the group had.
	rc := RestoreGroupCheck(state.GroupAddress("oltp"), g, v)
	if !GroupSatisfied(rc, g, v) || len(rc.Options) != 3 {
		t.Errorf("RestoreGroupCheck = %+v", rc)
	}
	changed := *g
	changed.RUPerSec = i64(1)
	if GroupSatisfied(rc, &changed, v) {
		t.Error("a restore check satisfied by a group whose RU_PER_SEC moved")
	}
	if rc := RestoreGroupCheck(state.GroupAddress("new"), nil, v); rc.Want != plans.Absent || GroupSatisfied(rc, g, v) {
		t.Errorf("restoring a group that did not exist: %+v", rc)
	}
}

package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// TestStale: what moved since the plan, as apply's stale-plan check reports
// it (the applier calls Stale with its direct re-read and with a recomputed
// fingerprint).
func TestStale(t *testing.T) {
	planned := []plans.Dependency{
		{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Value: "false"},
		{Addr: state.VariableAddress("tidb_gc_enable"), Value: "ON"}, // not in the catalog
		{Addr: state.GroupAddress("oltp"), Value: plans.Absent},
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20160", "coprocessor.region-split-size"), Value: "100663296"},
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20161", "coprocessor.region-split-size"), Value: "100663296"},
		{Addr: state.VersionAddress(state.TiKV, "127.0.0.1:20160"), Value: "8.5.1"},
	}
	now := []plans.Dependency{
		{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Value: "1"},
		{Addr: state.VariableAddress("tidb_gc_enable"), Value: "1"}, // SELECT @@ prints ON as 1: not moved
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20160", "coprocessor.region-split-size"), Value: "96MiB"},
		// 127.0.0.1:20161 did not report the key
		// not depended on by the plan: not reported
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20163", "coprocessor.region-split-size"), Value: "96MiB"},
		{Addr: state.UserAddress(state.UserRef{User: "app", Host: "%"}), Value: "oltp"},
		// an instance that appeared: reported
		{Addr: state.VersionAddress(state.TiKV, "127.0.0.1:20160"), Value: "8.5.1"},
		{Addr: state.VersionAddress(state.TiKV, "127.0.0.1:20163"), Value: "8.5.1"},
	}
	want := []StaleDependency{
		{Dependency: planned[4], Now: plans.Absent},
		{Dependency: planned[0], Now: "1"},
		{Dependency: plans.Dependency{Addr: state.VersionAddress(state.TiKV, "127.0.0.1:20163"), Value: plans.Absent}, Now: "8.5.1"},
	}
	if d := cmp.Diff(want, Stale(planned, now)); d != "" {
		t.Errorf("Stale (-want +got):\n%s", d)
	}
	if s := Stale(planned, planned); len(s) != 0 {
		t.Errorf("a plan is stale against its own fingerprint: %+v", s)
	}
}

package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/state"
)

// TestStale: what moved since the plan, as apply's stale-plan check reports
// it (the applier calls Stale with its direct re-read and with a recomputed
// fingerprint).
func TestStale(t *testing.T) {
	planned := []Dependency{
		{Kind: KindVariable, Component: state.TiDB, Key: "tidb_enable_instance_plan_cache", Value: "false"},
		{Kind: KindVariable, Component: state.TiDB, Key: "tidb_gc_enable", Value: "ON"}, // not in the catalog
		{Kind: KindResourceGroup, Key: "oltp", Value: Absent},
		{Kind: KindConfig, Component: state.TiKV, Instance: "127.0.0.1:20160", Key: "coprocessor.region-split-size", Value: "100663296"},
		{Kind: KindConfig, Component: state.TiKV, Instance: "127.0.0.1:20161", Key: "coprocessor.region-split-size", Value: "100663296"},
		{Kind: KindVersion, Component: state.TiKV, Instance: "127.0.0.1:20160", Value: "8.5.1"},
	}
	now := []Dependency{
		{Kind: KindVariable, Component: state.TiDB, Key: "tidb_enable_instance_plan_cache", Value: "1"},
		{Kind: KindVariable, Component: state.TiDB, Key: "tidb_gc_enable", Value: "1"}, // SELECT @@ prints ON as 1: not moved
		{Kind: KindConfig, Component: state.TiKV, Instance: "127.0.0.1:20160", Key: "coprocessor.region-split-size", Value: "96MiB"},
		// 127.0.0.1:20161 did not report the key
		// not depended on by the plan: not reported
		{Kind: KindConfig, Component: state.TiKV, Instance: "127.0.0.1:20163", Key: "coprocessor.region-split-size", Value: "96MiB"},
		{Kind: KindUser, Key: "app@%", Value: "oltp"},
		// an instance that appeared: reported
		{Kind: KindVersion, Component: state.TiKV, Instance: "127.0.0.1:20160", Value: "8.5.1"},
		{Kind: KindVersion, Component: state.TiKV, Instance: "127.0.0.1:20163", Value: "8.5.1"},
	}
	want := []StaleDependency{
		{Dependency: planned[4], Now: Absent},
		{Dependency: planned[0], Now: "1"},
		{Dependency: Dependency{Kind: KindVersion, Component: state.TiKV, Instance: "127.0.0.1:20163", Value: Absent}, Now: "8.5.1"},
	}
	if d := cmp.Diff(want, Stale(planned, now)); d != "" {
		t.Errorf("Stale (-want +got):\n%s", d)
	}
	if s := Stale(planned, planned); len(s) != 0 {
		t.Errorf("a plan is stale against its own fingerprint: %+v", s)
	}
}

package planner

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

func TestFingerprint(t *testing.T) {
	l := cluster("8.5.4")
	l.Instances = l.Instances[3:4] // one TiKV keeps the list short
	tikvAll(l, "coprocessor.region-split-size", "96MiB")
	l.Variables["tidb_enable_resource_control"] = "ON"
	l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "oltp", RUPerSec: i64(100), Priority: str("HIGH")})
	l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "app", Host: "%"}, ResourceGroup: "oltp"}, {UserRef: state.UserRef{User: "root", Host: "%"}}}
	dc := &state.DesiredCluster{
		Config:    []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1), cfgS("tikv", "storage.block-cache.capacity", "1GiB", 2)},
		Variables: []state.VariableSetting{varS("TiDB_Enable_Resource_Control", "ON", state.LiteralBool, 3), varS("tidb_enable_instance_plan_cache", "ON", state.LiteralBool, 4)},
		ResourceGroups: []state.ResourceGroup{
			{Name: "new", RUPerSec: i64(1), Users: []state.UserRef{{User: "ghost", Host: "%"}}},
		},
	}
	want := []plans.Dependency{
		{Addr: state.ConfigAddress("tikv", "10.0.1.17:20160", "coprocessor.region-split-size"), Value: "100663296"},
		{Addr: state.ConfigAddress("tikv", "10.0.1.17:20160", "storage.block-cache.capacity"), Value: plans.Absent},
		{Addr: state.GroupAddress("default"), Value: "RU_PER_SEC=UNLIMITED, PRIORITY=MEDIUM, BURSTABLE=UNLIMITED, QUERY_LIMIT=NULL, BACKGROUND=NULL"},
		{Addr: state.GroupAddress("new"), Value: plans.Absent},
		{Addr: state.GroupAddress("oltp"), Value: "RU_PER_SEC=100, PRIORITY=HIGH, QUERY_LIMIT=NULL"},
		{Addr: state.UserAddress(state.UserRef{User: "app", Host: "%"}), Value: "oltp"},
		{Addr: state.UserAddress(state.UserRef{User: "ghost", Host: "%"}), Value: plans.Absent},
		{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Value: plans.Absent},
		{Addr: state.VariableAddress("tidb_enable_resource_control"), Value: "true"},
		{Addr: state.VersionAddress("tikv", "10.0.1.17:20160"), Value: "8.5.4"},
	}
	got := Fingerprint(dc, l)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fingerprint (-want +got):\n%s", diff)
	}

	// A fresh read where one value moved is stale in exactly that value.
	l2 := *l
	l2.Config = []state.ConfigRow{{Component: "tikv", Instance: "10.0.1.17:20160", Key: "coprocessor.region-split-size", Value: "128MiB"}}
	stale := Stale(got, Fingerprint(dc, &l2))
	if diff := cmp.Diff([]StaleDependency{{Dependency: want[0], Now: "134217728"}}, stale); diff != "" {
		t.Errorf("stale (-want +got):\n%s", diff)
	}
	// Another spelling of the same value is not stale.
	l2.Config = []state.ConfigRow{{Component: "tikv", Instance: "10.0.1.17:20160", Key: "coprocessor.region-split-size", Value: "100663296"}}
	if s := Stale(got, Fingerprint(dc, &l2)); len(s) != 0 {
		t.Errorf("respelled value reported stale: %v", s)
	}
	// A new instance appears.
	l2.Instances = append(l2.Instances, inst(state.TiKV, "10.0.1.99:20160", "8.5.4"))
	newInst := plans.Dependency{Addr: state.VersionAddress(state.TiKV, "10.0.1.99:20160"), Value: plans.Absent}
	if diff := cmp.Diff([]StaleDependency{{Dependency: newInst, Now: "8.5.4"}}, Stale(got, Fingerprint(dc, &l2))); diff != "" {
		t.Errorf("a new instance (-want +got):\n%s", diff)
	}
}

func TestPlanFile(t *testing.T) {
	l := cluster("8.5.4")
	tikvAll(l, "storage.block-cache.capacity", "4GiB")
	l.Offline = &state.SnapshotInfo{Path: "s.json", TakenAt: testNow.Add(-3600e9), Hash: "h"}
	d := &state.Desired{ConfigHash: "sha256:x", Clusters: []*state.DesiredCluster{{Name: "prod", DSN: "root:pw@tcp(h)/",
		Config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)}}}}
	p, err := Build(d, map[string]*state.Live{"prod": l}, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePlanFile(&b, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "pw@") {
		t.Fatal("plan file contains the DSN")
	}
	q, err := ReadPlanFile(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, q); diff != "" {
		t.Errorf("round trip (-written +read):\n%s", diff)
	}

	bad := map[string]string{
		"format version":  strings.Replace(b.String(), `"format_version": 3`, `"format_version": 2`, 1),
		"kind":            strings.Replace(b.String(), `"kind": "tiform-plan"`, `"kind": "snapshot"`, 1),
		"action":          strings.Replace(b.String(), `"action": "update"`, `"action": "replace"`, 1),
		"address":         strings.Replace(b.String(), `"address": "tikv.storage.block-cache.capacity"`, `"address": "tiup.storage.block-cache.capacity"`, 1),
		"version address": strings.Replace(b.String(), `"address": "tikv.storage.block-cache.capacity"`, `"address": "version.tikv[\"h:1\"]"`, 1),
		"unknown field":   strings.Replace(b.String(), `"config_hash"`, `"dsn": "x", "config_hash"`, 1),
		"not json":        "plan",
	}
	for name, s := range bad {
		if _, err := ReadPlanFile(strings.NewReader(s)); err == nil {
			t.Errorf("%s: ReadPlanFile accepted a bad file", name)
		}
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	mk := func() (*state.Desired, map[string]*state.Live) {
		l := cluster("8.5.4")
		tikvAll(l, "coprocessor.region-split-size", "96MiB")
		tikvAll(l, "coprocessor.region-max-size", "144MiB")
		l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "b", RUPerSec: i64(1)}, state.ResourceGroup{Name: "a", RUPerSec: i64(1)})
		d := &state.Desired{Clusters: []*state.DesiredCluster{{Name: "prod", DropUnmanagedGroups: true,
			Config:         []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1), cfgS("tikv", "coprocessor.region-max-size", "384MiB", 2)},
			ResourceGroups: []state.ResourceGroup{{Name: "c", RUPerSec: i64(1)}, {Name: "d", RUPerSec: i64(1)}},
		}}}
		return d, map[string]*state.Live{"prod": l}
	}
	var first []byte
	for i := 0; i < 30; i++ {
		d, lives := mk()
		p, err := Build(d, lives, Options{Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePlanFile(&b, p); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b.Bytes()
			continue
		}
		if !bytes.Equal(first, b.Bytes()) {
			t.Fatalf("build %d differs from the first", i)
		}
	}
}

func TestSameValue(t *testing.T) {
	cfg := func(c state.Component, key string) state.Address { return state.ConfigAddress(c, "", key) }
	tests := []struct {
		addr  state.Address
		a, b  string
		equal bool
	}{
		{cfg("tikv", "coprocessor.region-split-size"), "256MB", "268435456", true},
		{cfg("tikv", "coprocessor.region-split-size"), "256MiB", "0.25GiB", true},
		{cfg("tikv", "coprocessor.region-split-size"), "256MiB", "255MiB", false},
		{state.VariableAddress("tidb_enable_prepared_plan_cache"), "ON", "1", true},
		{state.VariableAddress("tidb_enable_prepared_plan_cache"), "true", "OFF", false},
		{cfg("pd", "schedule.split-merge-interval"), "1h", "1h0m0s", true},
		{cfg("tikv", "unknown.size"), "256MB", "256MiB", true},
		{cfg("tikv", "unknown.text"), "abc", " abc ", true},
		{cfg("tikv", "unknown.text"), "abc", "ABC", false},
		{state.VariableAddress("tidb_unknown_bool"), "true", "1", true},
		{state.VariableAddress("tidb_unknown_bool"), "ON", plans.Absent, false},
		{state.UserAddress(state.UserRef{User: "app", Host: "%"}), "OLTP", "oltp", true},
		{state.GroupAddress("g"), "RU_PER_SEC=1", "RU_PER_SEC=2", false},
		{state.VersionAddress("tikv", "h:1"), plans.Absent, plans.Absent, true},
	}
	for _, tt := range tests {
		if got := SameValue(tt.addr, tt.a, tt.b); got != tt.equal {
			t.Errorf("%s %q vs %q: equal=%v, want %v", tt.addr, tt.a, tt.b, got, tt.equal)
		}
	}
}

// TestFingerprintConfig: the config dependencies are every declared key on
// every instance its declarations cover, once per address, in canonical form
// and in address order, however l lists instances and rows; a plan's
// fingerprint (which shares the comparison's canonical values) equals a fresh
// Fingerprint of the same inputs.
func TestFingerprintConfig(t *testing.T) {
	const k17, k18, k19 = "10.0.1.17:20160", "10.0.1.18:20160", "10.0.1.19:20160"
	l := cluster("8.5.4")
	// Unsorted, and one TiKV listed twice.
	l.Instances = append([]state.Instance{l.Instances[5], l.Instances[4]}, l.Instances...)
	l.Config = []state.ConfigRow{
		{Component: state.TiKV, Instance: k19, Key: "COPROCESSOR.REGION-SPLIT-SIZE", Value: "0.09375GiB"},
		{Component: state.PD, Instance: "10.0.1.10:2379", Key: "schedule.leader-schedule-limit", Value: "4"},
		{Component: state.TiKV, Instance: k17, Key: "coprocessor.region-split-size", Value: "96MiB"},
		{Component: state.TiKV, Instance: k18, Key: "coprocessor.region-split-size", Value: "100663296"},
		{Component: state.TiKV, Instance: k18, Key: "storage.block-cache.capacity", Value: "1GiB"},
	}
	dc := &state.DesiredCluster{Config: []state.ConfigSetting{
		cfgS("tikv", " Coprocessor.Region-Split-Size ", "96MiB", 1),
		cfgI("tikv", k17, "coprocessor.region-split-size", "96MiB", 2), // the type-wide address on k17: listed once
		cfgI("tikv", k19, "storage.block-cache.capacity", "1GiB", 3),   // k19 printed none: absent
		cfgS("pd", "schedule.leader-schedule-limit", "4", 4),
	}}
	want := []plans.Dependency{
		{Addr: state.ConfigAddress("pd", "10.0.1.10:2379", "schedule.leader-schedule-limit"), Value: "4"},
		{Addr: state.ConfigAddress("tikv", k17, "coprocessor.region-split-size"), Value: "100663296"},
		{Addr: state.ConfigAddress("tikv", k18, "coprocessor.region-split-size"), Value: "100663296"},
		{Addr: state.ConfigAddress("tikv", k19, "coprocessor.region-split-size"), Value: "100663296"},
		{Addr: state.ConfigAddress("tikv", k19, "storage.block-cache.capacity"), Value: plans.Absent},
	}
	configOnly := func(deps []plans.Dependency) (out []plans.Dependency, versions int) {
		for _, d := range deps {
			switch d.Addr.Kind {
			case state.KindConfig:
				out = append(out, d)
			case state.KindVersion:
				versions++
			}
		}
		return out, versions
	}
	got := Fingerprint(dc, l)
	cfg, versions := configOnly(got)
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("config dependencies (-want +got):\n%s", diff)
	}
	if versions != 6 {
		t.Errorf("%d version dependencies, want one per instance (6)", versions)
	}
	if !slices.IsSortedFunc(got, compareDependency) {
		t.Errorf("fingerprint not sorted: %v", got)
	}
	cp, err := BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, cp.Fingerprint); diff != "" {
		t.Errorf("plan fingerprint vs Fingerprint (-fresh +plan):\n%s", diff)
	}
	// The comparison reads the same values: every spelling of the split
	// size is the declared one, on the instance listed twice too.
	var changed []state.Address
	for _, c := range cp.Changes {
		changed = append(changed, c.Addr)
	}
	if diff := cmp.Diff([]state.Address{state.ConfigAddress("tikv", k19, "storage.block-cache.capacity")}, changed); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}

	// An instance declared on its own that the cluster lacks adds nothing
	// (planning refuses it; a fresh read for apply must not fail on it).
	dc.Config = append(dc.Config, cfgI("tikv", "10.9.9.9:20160", "storage.block-cache.capacity", "1GiB", 5))
	if cfg, _ := configOnly(Fingerprint(dc, l)); !cmp.Equal(want, cfg) {
		t.Errorf("a missing instance changed the config dependencies: %v", cfg)
	}
}

// A saved plan keeps the BURSTABLE vocabulary the cluster showed: read back,
// its group statements derive as written (a v9.0 development build that
// shows YES/NO takes bare BURSTABLE, not BURSTABLE = UNLIMITED), and a
// syntax it does not know is refused.
func TestPlanFileBurstSyntax(t *testing.T) {
	l := cluster("9.0.0")
	l.BurstSyntax = state.BurstSyntaxBool
	yes := true
	d := &state.Desired{ConfigHash: "sha256:x", Clusters: []*state.DesiredCluster{{Name: "prod",
		ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(100), BurstableBool: &yes}}}}}
	p, err := Build(d, map[string]*state.Live{"prod": l}, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePlanFile(&b, p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadPlanFile(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Clusters[0].Changes[0].Statements[0].SQL; got != "CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 100, BURSTABLE" {
		t.Errorf("statement %q", got)
	}
	if _, err := ReadPlanFile(strings.NewReader(strings.Replace(b.String(), `"burst_syntax": "bool"`, `"burst_syntax": "maybe"`, 1))); err == nil {
		t.Error("an unknown burst_syntax was accepted")
	}
}

package live

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

func baseLive() *state.Live {
	return &state.Live{
		Instances: []state.Instance{
			{Component: state.TiKV, Address: "k1:20160", StatusAddress: "k1:20180", VersionText: "8.5.1"},
			{Component: state.TiKV, Address: "k2:20160", StatusAddress: "k2:20180", VersionText: "8.5.1"},
			{Component: state.PD, Address: "p1:2379", StatusAddress: "p1:2379", VersionText: "8.5.1"},
		},
		ConfigRead: []state.Component{state.TiKV},
		Config: []state.ConfigRow{
			{Component: state.TiKV, Instance: "k1:20160", Key: "coprocessor.region-split-size", Value: "256MiB"},
			{Component: state.TiKV, Instance: "k2:20160", Key: "coprocessor.region-split-size", Value: "256MiB"},
			{Component: state.TiKV, Instance: "k1:20160", Key: "log.level", Value: "info"},
		},
		VariablesRead: true,
		Variables:     map[string]string{"tidb_enable_prepared_plan_cache": "ON"},
	}
}

func TestCheck(t *testing.T) {
	split := ManagedKey{Key: "coprocessor.region-split-size"}
	tests := []struct {
		name    string
		live    func() *state.Live
		req     Request
		want    []state.Gap
		reasons []string // substrings, one per gap
	}{
		{name: "complete", live: baseLive,
			req: Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{split}}}, Variables: []string{"TIDB_ENABLE_PREPARED_PLAN_CACHE"}}},
		{name: "key missing on one instance", live: baseLive,
			req:     Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{{Key: "log.level"}}}}},
			want:    []state.Gap{{Kind: state.GapConfigKey, Component: state.TiKV, Instance: "k2:20160", Key: "log.level"}},
			reasons: []string{"tikv k2:20160 reported no row for log.level"}},
		{name: "per-instance key on the instance that has it", live: baseLive,
			req: Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{{Instance: "k1:20160", Key: "log.level"}}}}}},
		{name: "per-instance key for an unknown instance", live: baseLive,
			req:     Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{{Instance: "k9:20160", Key: "log.level"}}}}},
			want:    []state.Gap{{Kind: state.GapInstance, Component: state.TiKV, Instance: "k9:20160", Key: "log.level"}},
			reasons: []string{"k9:20160 (declared for log.level) is not in CLUSTER_INFO"}},
		{name: "instance without rows", live: func() *state.Live {
			l := baseLive()
			l.Config = l.Config[:1]
			l.Config = append(l.Config, state.ConfigRow{Component: state.TiKV, Instance: "k1:20160", Key: "log.level", Value: "info"})
			return l
		}, req: Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{split}}}},
			want:    []state.Gap{{Kind: state.GapInstance, Component: state.TiKV, Instance: "k2:20160"}},
			reasons: []string{"tikv k2:20160 returned no config rows"}},
		{name: "instance without a status address, its keys declared", live: func() *state.Live {
			l := baseLive()
			l.Instances[1].StatusAddress, l.Instances[1].VersionText = "", ""
			l.Config = l.Config[:1]
			return l
		}, req: Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{split}}}},
			want:    []state.Gap{{Kind: state.GapInstance, Component: state.TiKV, Instance: "k2:20160"}},
			reasons: []string{"tikv k2:20160 reports no status address in CLUSTER_INFO, so TiDB cannot read its configuration"}},
		{name: "instance without a status address, nothing of it declared", live: func() *state.Live {
			l := baseLive()
			l.Instances[1].StatusAddress = ""
			l.Config = l.Config[:1]
			return l
		}, req: Request{Config: []ComponentRequest{{Component: state.TiKV}}}},
		{name: "component not read", live: baseLive,
			req:     Request{Config: []ComponentRequest{{Component: state.PD, Keys: []ManagedKey{{Key: "schedule.max-merge-region-size"}}}}},
			want:    []state.Gap{{Kind: state.GapComponent, Component: state.PD}},
			reasons: []string{"pd config was not read"}},
		{name: "component not in snapshot", live: func() *state.Live {
			l := baseLive()
			l.Offline = &state.SnapshotInfo{Path: "snap.json"}
			return l
		}, req: Request{Config: []ComponentRequest{{Component: state.PD, Keys: []ManagedKey{{Key: "schedule.max-merge-region-size"}}}}},
			want:    []state.Gap{{Kind: state.GapComponent, Component: state.PD}},
			reasons: []string{"pd config is not in the snapshot snap.json"}},
		{name: "declared component without instances", live: func() *state.Live {
			l := baseLive()
			l.ConfigRead = append(l.ConfigRead, state.TiFlash)
			return l
		}, req: Request{Config: []ComponentRequest{{Component: state.TiFlash, Keys: []ManagedKey{{Key: "raftstore-proxy.server.labels"}}}}},
			want:    []state.Gap{{Kind: state.GapComponent, Component: state.TiFlash}},
			reasons: []string{"CLUSTER_INFO lists no tiflash instance"}},
		{name: "Everything on a cluster without tiflash", live: func() *state.Live {
			l := baseLive()
			l.ConfigRead = []state.Component{state.TiDB, state.PD, state.TiKV, state.TiFlash}
			l.ResourceGroupsRead, l.UsersRead = true, true
			l.Config = append(l.Config, state.ConfigRow{Component: state.PD, Instance: "p1:2379", Key: "schedule.max-merge-region-size", Value: "54"})
			return l
		}, req: Everything()},
		{name: "CLUSTER_INFO hidden: keys checked on the instances that answered", live: func() *state.Live {
			l := baseLive()
			l.Instances, l.SEM = nil, true
			return l
		}, req: Request{Config: []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{{Key: "log.level"}}}}},
			want:    []state.Gap{{Kind: state.GapConfigKey, Component: state.TiKV, Instance: "k2:20160", Key: "log.level"}},
			reasons: []string{"tikv k2:20160 reported no row for log.level"}},
		{name: "variable missing", live: baseLive,
			req:     Request{Variables: []string{"tidb_enable_instance_plan_cache"}},
			want:    []state.Gap{{Kind: state.GapVariable, Key: "tidb_enable_instance_plan_cache"}},
			reasons: []string{"variable tidb_enable_instance_plan_cache was not reported"}},
		{name: "variables not read", live: func() *state.Live {
			l := baseLive()
			l.VariablesRead, l.Variables = false, nil
			return l
		}, req: Request{Variables: []string{"tidb_enable_prepared_plan_cache"}},
			want:    []state.Gap{{Kind: state.GapVariable}},
			reasons: []string{"system variables were not read"}},
		{name: "groups and users not read", live: baseLive,
			req:     Request{ResourceGroups: true, Users: true},
			want:    []state.Gap{{Kind: state.GapRead, Key: "RESOURCE_GROUPS"}, {Kind: state.GapRead, Key: "mysql.user"}},
			reasons: []string{"resource groups were not read", "user bindings were not read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.live()
			RecordGaps(l, tt.req)
			RecordGaps(l, tt.req) // idempotent
			var got []state.Gap
			for _, g := range l.Gaps {
				g.Reason = ""
				got = append(got, g)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("gaps (-want +got):\n%s", diff)
			}
			reasons := l.Incomplete()
			for i, r := range tt.reasons {
				if i >= len(reasons) || !strings.Contains(reasons[i], r) {
					t.Errorf("reason %d = %q, want it to contain %q", i, reasons, r)
				}
			}
		})
	}
}

func TestStatementsForRequests(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want []string
	}{
		{"nothing declared", Request{}, []string{"SELECT VERSION()", stmtClusterInfo, "SHOW WARNINGS"}},
		{"only variables", Request{Variables: []string{"B", "a", "b"}}, []string{"SELECT VERSION()", stmtClusterInfo, "SHOW WARNINGS",
			"SHOW GLOBAL VARIABLES WHERE Variable_name IN ('a', 'b')", "SHOW WARNINGS"}},
		{"config", Request{Config: []ComponentRequest{{Component: state.TiKV}, {Component: state.PD}, {Component: state.TiKV}}}, []string{"SELECT VERSION()", stmtClusterInfo, "SHOW WARNINGS",
			"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('tikv', 'pd')", "SHOW WARNINGS"}},
		{"quoting", Request{Variables: []string{"x' OR '1'='1"}}, []string{"SELECT VERSION()", stmtClusterInfo, "SHOW WARNINGS",
			`SHOW GLOBAL VARIABLES WHERE Variable_name IN ('x'' or ''1''=''1')`, "SHOW WARNINGS"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Statements(tt.req)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestRequestFor(t *testing.T) {
	d := &state.DesiredCluster{
		Config: []state.ConfigSetting{
			{Component: state.TiKV, Key: "a"},
			{Component: state.PD, Key: "b"},
			{Component: state.TiKV, Instance: "k1:20160", Key: "c"},
		},
		Variables:      []state.VariableSetting{{Name: "v"}},
		ResourceGroups: []state.ResourceGroup{{Name: "rg"}},
	}
	want := Request{
		Config: []ComponentRequest{
			{Component: state.PD, Keys: []ManagedKey{{Key: "b"}}, Also: guard.LiveConfigKeys(state.PD)},
			{Component: state.TiKV, Keys: []ManagedKey{{Key: "a"}, {Instance: "k1:20160", Key: "c"}}, Also: guard.LiveConfigKeys(state.TiKV)},
		},
		Variables:       []string{"v"},
		AlsoVariables:   guard.LiveVariables(),
		ResourceGroups:  true,
		OnlyManagedKeys: true,
	}
	if diff := cmp.Diff(want, RequestFor(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	d.ResourceGroups[0].Users = []state.UserRef{}
	if !RequestFor(d).Users {
		t.Error("a group managing users does not request users")
	}
	if r := RequestFor(&state.DesiredCluster{DropUnmanagedGroups: true}); !r.ResourceGroups || !r.Users {
		t.Errorf("dropping unmanaged groups needs groups and users: %+v", r)
	}
	if r := RequestFor(&state.DesiredCluster{}); len(Statements(r)) != 3 {
		t.Errorf("empty configuration: %q", Statements(r))
	}
	// The variables guards and statement statistics read ride in the one
	// statement of the declared ones, and only when there is one.
	r := RequestFor(&state.DesiredCluster{Variables: []state.VariableSetting{{Name: "tidb_enable_non_prepared_plan_cache"}}})
	q := strings.Join(Statements(r), "\n")
	for _, n := range append([]string{"tidb_enable_non_prepared_plan_cache", "tidb_enable_instance_plan_cache"}, guard.LiveVariables()...) {
		if strings.Count(q, "'"+n+"'") != 1 {
			t.Errorf("the variables statement does not read %s once:\n%s", n, q)
		}
	}
	for _, n := range r.Variables {
		if n != "tidb_enable_non_prepared_plan_cache" {
			t.Errorf("%s is managed (its absence would be a note or a gap), yet the configuration does not declare it", n)
		}
	}
	if n := strings.Count(q, "SHOW GLOBAL VARIABLES"); n != 1 {
		t.Errorf("%d variable statements, want 1:\n%s", n, q)
	}
	if q := strings.Join(Statements(RequestFor(&state.DesiredCluster{Config: []state.ConfigSetting{{Component: state.TiKV, Key: "a"}}})), "\n"); strings.Contains(q, "VARIABLES") {
		t.Errorf("no variable declared, yet variables are read:\n%s", q)
	}
}

// TestCheckAbsentInVersion: a managed key or variable the catalog says does
// not exist in the running version is a known absence (a note; the guards make
// it an error), not a gap; one that should exist stays a gap.
func TestCheckAbsentInVersion(t *testing.T) {
	v812 := func() *state.Live {
		l := baseLive()
		for i := range l.Instances {
			l.Instances[i].Version = version.MustParse("8.1.2")
		}
		l.Instances = append(l.Instances, state.Instance{Component: state.TiDB, Address: "t1:4000", Version: version.MustParse("8.1.2")})
		return l
	}
	l := v812()
	req := Request{
		Config:    []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{{Key: "in-memory-engine.enable"}}}},
		Variables: []string{"tidb_enable_instance_plan_cache"},
	}
	RecordGaps(l, req)
	once := append([]string(nil), l.Notes...)
	// Check is idempotent: FromSnapshot runs it again on a state that already
	// holds the notes.
	RecordGaps(l, req)
	if diff := cmp.Diff(once, l.Notes); diff != "" {
		t.Errorf("a second Check changed the notes (-first +second):\n%s", diff)
	}
	if len(l.Gaps) != 0 {
		t.Errorf("gaps %v, want none: both items do not exist in v8.1.2", l.Gaps)
	}
	notes := strings.Join(l.Notes, "\n")
	for _, want := range []string{"tikv.in-memory-engine.enable does not exist on k1:20160", "variable.tidb_enable_instance_plan_cache does not exist on the cluster"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// A variable read along with the declared ones (statement statistics,
	// guards) that the version lacks is neither a note nor a gap: the
	// configuration never mentioned it.
	l = v812()
	RecordGaps(l, Request{Variables: []string{"tidb_enable_non_prepared_plan_cache"},
		AlsoVariables: []string{"tidb_enable_instance_plan_cache", "tidb_enable_non_prepared_plan_cache"}})
	for _, n := range l.Notes {
		if strings.Contains(n, "tidb_enable_instance_plan_cache") {
			t.Errorf("a note about a variable the configuration does not declare: %s", n)
		}
	}
	for _, g := range l.Gaps {
		if strings.Contains(g.Reason, "tidb_enable_instance_plan_cache") {
			t.Errorf("a gap about a variable the configuration does not declare: %s", g.Reason)
		}
	}
	// On v8.5.1 the same absences cannot be explained: gaps.
	l = baseLive()
	for i := range l.Instances {
		l.Instances[i].Version = version.MustParse("8.5.1")
	}
	l.Instances = append(l.Instances, state.Instance{Component: state.TiDB, Address: "t1:4000", Version: version.MustParse("8.5.1")})
	RecordGaps(l, Request{
		Config:    []ComponentRequest{{Component: state.TiKV, Keys: []ManagedKey{{Key: "in-memory-engine.enable"}}}},
		Variables: []string{"tidb_enable_instance_plan_cache"},
	})
	if len(l.Gaps) != 3 { // two TiKV instances + the variable
		t.Errorf("gaps %v, want 3 on v8.5.1", l.Gaps)
	}
}

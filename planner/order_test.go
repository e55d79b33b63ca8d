package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

func addresses(cp *ClusterPlan) []string {
	var out []string
	for _, c := range cp.Changes {
		out = append(out, c.Addr.String())
	}
	return out
}

// One test per ordering rule. Each case declares its settings in the order
// that would be wrong, so declaration order cannot be what makes it pass.
func TestOrderingRules(t *testing.T) {
	tests := []struct {
		name  string
		setup func(l *state.Live)
		dc    state.DesiredCluster
		want  []string
		// deps are the ordering edges the rule must record ({from, to}: to's
		// DependsOn holds from). The tie-break (kind, then address) alone puts
		// some cases in the right order, so the order is not enough to prove
		// the rule; the edge is.
		deps [][2]string
	}{
		{
			name: "resource control on before groups",
			setup: func(l *state.Live) {
				l.Variables["tidb_enable_resource_control"] = "OFF"
			},
			dc: state.DesiredCluster{
				ResourceGroups: []state.ResourceGroup{{Name: "a_group", RUPerSec: i64(100)}},
				Variables:      []state.VariableSetting{varS("tidb_enable_resource_control", "ON", state.LiteralBool, 9)},
			},
			want: []string{"variable.tidb_enable_resource_control", "resource_group.a_group"},
			deps: [][2]string{{"variable.tidb_enable_resource_control", "resource_group.a_group"}},
		},
		{
			name: "resource control off after groups",
			setup: func(l *state.Live) {
				l.Variables["tidb_enable_resource_control"] = "ON"
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "zz", RUPerSec: i64(100)})
			},
			dc: state.DesiredCluster{
				ResourceGroups: []state.ResourceGroup{{Name: "zz", RUPerSec: i64(200)}},
				Variables:      []state.VariableSetting{varS("tidb_enable_resource_control", "OFF", state.LiteralBool, 9)},
			},
			want: []string{"resource_group.zz", "variable.tidb_enable_resource_control"},
			deps: [][2]string{{"resource_group.zz", "variable.tidb_enable_resource_control"}},
		},
		{
			name: "groups created before users are bound",
			setup: func(l *state.Live) {
				l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "app", Host: "%"}}}
			},
			dc: state.DesiredCluster{
				ResourceGroups: []state.ResourceGroup{{Name: "zz_oltp", RUPerSec: i64(100), Users: []state.UserRef{{User: "app", Host: "%"}}}},
			},
			want: []string{"resource_group.zz_oltp", `user."app"@"%".resource_group`},
			deps: [][2]string{{"resource_group.zz_oltp", `user."app"@"%".resource_group`}},
		},
		{
			name: "users unbound before a group is dropped",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "a_old", RUPerSec: i64(100)})
				l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "app", Host: "%"}, ResourceGroup: "a_old"}}
			},
			dc:   state.DesiredCluster{DropUnmanagedGroups: true},
			want: []string{`user."app"@"%".resource_group`, "resource_group.a_old"},
			deps: [][2]string{{`user."app"@"%".resource_group`, "resource_group.a_old"}},
		},
		{
			name: "a user moved off a dropped group is bound first",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups,
					state.ResourceGroup{Name: "a_old", RUPerSec: i64(100)},
					state.ResourceGroup{Name: "b_new", RUPerSec: i64(100)})
				l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "app", Host: "%"}, ResourceGroup: "a_old"}}
			},
			dc: state.DesiredCluster{
				DropUnmanagedGroups: true,
				ResourceGroups:      []state.ResourceGroup{{Name: "b_new", RUPerSec: i64(100), Users: []state.UserRef{{User: "app", Host: "%"}}}},
			},
			want: []string{`user."app"@"%".resource_group`, "resource_group.a_old"},
			deps: [][2]string{{`user."app"@"%".resource_group`, "resource_group.a_old"}},
		},
		{
			name: "plan-cache switches before the instance plan cache",
			setup: func(l *state.Live) {
				l.Variables["tidb_enable_prepared_plan_cache"] = "OFF"
				l.Variables["tidb_enable_non_prepared_plan_cache"] = "OFF"
				l.Variables["tidb_enable_instance_plan_cache"] = "OFF"
			},
			dc: state.DesiredCluster{Variables: []state.VariableSetting{
				varS("tidb_enable_instance_plan_cache", "ON", state.LiteralBool, 1),
				varS("tidb_enable_prepared_plan_cache", "ON", state.LiteralBool, 2),
				varS("tidb_enable_non_prepared_plan_cache", "ON", state.LiteralBool, 3),
			}},
			want: []string{"variable.tidb_enable_non_prepared_plan_cache", "variable.tidb_enable_prepared_plan_cache", "variable.tidb_enable_instance_plan_cache"},
			deps: [][2]string{{"variable.tidb_enable_prepared_plan_cache", "variable.tidb_enable_instance_plan_cache"}, {"variable.tidb_enable_non_prepared_plan_cache", "variable.tidb_enable_instance_plan_cache"}},
		},
		{
			name: "sql_mode after every other change",
			setup: func(l *state.Live) {
				l.Variables["sql_mode"] = "STRICT_TRANS_TABLES"
				l.Variables["tidb_enable_prepared_plan_cache"] = "OFF"
				l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "app", Host: "%"}}}
			},
			dc: state.DesiredCluster{
				Variables: []state.VariableSetting{
					varS("sql_mode", "STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES", state.LiteralString, 1),
					varS("tidb_enable_prepared_plan_cache", "ON", state.LiteralBool, 2),
				},
				ResourceGroups: []state.ResourceGroup{{Name: "rg", RUPerSec: i64(100), Users: []state.UserRef{{User: "app", Host: "%"}}}},
			},
			want: []string{"variable.tidb_enable_prepared_plan_cache", "resource_group.rg", `user."app"@"%".resource_group`, "variable.sql_mode"},
			deps: [][2]string{
				{"variable.tidb_enable_prepared_plan_cache", "variable.sql_mode"},
				{"resource_group.rg", "variable.sql_mode"},
				{`user."app"@"%".resource_group`, "variable.sql_mode"},
			},
		},
		{
			name: "region size growing: max before split",
			setup: func(l *state.Live) {
				tikvAll(l, "coprocessor.region-split-size", "96MiB")
				tikvAll(l, "coprocessor.region-max-size", "144MiB")
			},
			dc: state.DesiredCluster{Config: []state.ConfigSetting{
				cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1),
				cfgS("tikv", "coprocessor.region-max-size", "384MiB", 2),
			}},
			want: []string{"tikv.coprocessor.region-max-size", "tikv.coprocessor.region-split-size"},
			deps: [][2]string{{"tikv.coprocessor.region-max-size", "tikv.coprocessor.region-split-size"}},
		},
		{
			name: "region size shrinking: split before max",
			setup: func(l *state.Live) {
				tikvAll(l, "coprocessor.region-split-size", "256MiB")
				tikvAll(l, "coprocessor.region-max-size", "384MiB")
			},
			dc: state.DesiredCluster{Config: []state.ConfigSetting{
				cfgS("tikv", "coprocessor.region-max-size", "144MiB", 1),
				cfgS("tikv", "coprocessor.region-split-size", "96MiB", 2),
			}},
			want: []string{"tikv.coprocessor.region-split-size", "tikv.coprocessor.region-max-size"},
			deps: [][2]string{{"tikv.coprocessor.region-split-size", "tikv.coprocessor.region-max-size"}},
		},
		{
			name: "region keys shrinking: split-keys before max-keys",
			setup: func(l *state.Live) {
				tikvAll(l, "coprocessor.region-split-keys", "2560000")
				tikvAll(l, "coprocessor.region-max-keys", "3840000")
			},
			dc: state.DesiredCluster{Config: []state.ConfigSetting{
				cfgN("tikv", "coprocessor.region-max-keys", "1440000", 1),
				cfgN("tikv", "coprocessor.region-split-keys", "960000", 2),
			}},
			want: []string{"tikv.coprocessor.region-split-keys", "tikv.coprocessor.region-max-keys"},
			deps: [][2]string{{"tikv.coprocessor.region-split-keys", "tikv.coprocessor.region-max-keys"}},
		},
		{
			name: "region size per instance: one instance's live max decides",
			setup: func(l *state.Live) {
				// Two instances already at 512MiB max; one still at 144MiB: the new
				// split (256MiB) exceeds it there, so max must go first.
				tikvAll(l, "coprocessor.region-split-size", "96MiB")
				tikvAll(l, "coprocessor.region-max-size", "512MiB")
				setRow(l, "tikv", "10.0.1.19:20160", "coprocessor.region-max-size", "144MiB")
			},
			dc: state.DesiredCluster{Config: []state.ConfigSetting{
				cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1),
				cfgS("tikv", "coprocessor.region-max-size", "384MiB", 2),
			}},
			want: []string{"tikv.coprocessor.region-max-size", "tikv.coprocessor.region-split-size"},
			deps: [][2]string{{"tikv.coprocessor.region-max-size", "tikv.coprocessor.region-split-size"}},
		},
		{
			name: "PD merge thresholds after split size",
			setup: func(l *state.Live) {
				tikvAll(l, "coprocessor.region-split-size", "96MiB")
				tikvAll(l, "coprocessor.region-max-size", "1GiB")
				setRow(l, "pd", "10.0.1.10:2379", "schedule.max-merge-region-size", "20")
			},
			dc: state.DesiredCluster{Config: []state.ConfigSetting{
				cfgN("pd", "schedule.max-merge-region-size", "54", 1),
				cfgS("tikv", "coprocessor.region-split-size", "256MiB", 2),
			}},
			want: []string{"tikv.coprocessor.region-split-size", "pd.schedule.max-merge-region-size"},
			deps: [][2]string{{"tikv.coprocessor.region-split-size", "pd.schedule.max-merge-region-size"}},
		},
		{
			name: "a group is created before a query limit switches to it",
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{
				{Name: "a_oltp", RUPerSec: i64(100), QueryLimit: &state.QueryLimit{ExecElapsed: "60s", Action: "SWITCH_GROUP", SwitchGroup: "z_slow"}},
				{Name: "z_slow", RUPerSec: i64(10)},
			}},
			want: []string{"resource_group.z_slow", "resource_group.a_oltp"},
			deps: [][2]string{{"resource_group.z_slow", "resource_group.a_oltp"}},
		},
		{
			name: "PD merge keys after split keys",
			setup: func(l *state.Live) {
				tikvAll(l, "coprocessor.region-split-keys", "960000")
				tikvAll(l, "coprocessor.region-max-keys", "10000000")
				setRow(l, "pd", "10.0.1.10:2379", "schedule.max-merge-region-keys", "200000")
			},
			dc: state.DesiredCluster{Config: []state.ConfigSetting{
				cfgN("pd", "schedule.max-merge-region-keys", "540000", 1),
				cfgN("tikv", "coprocessor.region-split-keys", "2560000", 2),
			}},
			want: []string{"tikv.coprocessor.region-split-keys", "pd.schedule.max-merge-region-keys"},
			deps: [][2]string{{"tikv.coprocessor.region-split-keys", "pd.schedule.max-merge-region-keys"}},
		},
		{
			name: "independent changes: kind, then address",
			setup: func(l *state.Live) {
				tikvAll(l, "storage.block-cache.capacity", "1GiB")
				l.Variables["tidb_enable_non_prepared_plan_cache"] = "OFF"
			},
			dc: state.DesiredCluster{
				Config:         []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "2GiB", 1)},
				ResourceGroups: []state.ResourceGroup{{Name: "a", RUPerSec: i64(1)}},
				Variables:      []state.VariableSetting{varS("tidb_enable_non_prepared_plan_cache", "ON", state.LiteralBool, 3)},
			},
			want: []string{"variable.tidb_enable_non_prepared_plan_cache", "tikv.storage.block-cache.capacity", "resource_group.a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := cluster("8.5.4")
			if tt.setup != nil {
				tt.setup(l)
			}
			dc := tt.dc
			cp := build(t, &dc, l)
			if diff := cmp.Diff(tt.want, addresses(cp)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
			if len(tt.deps) == 0 {
				// Independent changes: the tie-break orders them, no edge does.
				for _, c := range cp.Changes {
					if len(c.DependsOn) > 0 {
						t.Errorf("%s depends on %v, want no edges", c.Addr, c.DependsOn)
					}
				}
			}
			byAddr := map[string]*plans.Change{}
			for _, c := range cp.Changes {
				byAddr[c.Addr.String()] = c
			}
			for _, d := range tt.deps {
				to := byAddr[d[1]]
				if to == nil {
					t.Fatalf("no change %s", d[1])
				}
				found := false
				for _, a := range to.DependsOn {
					found = found || a.String() == d[0]
				}
				if !found {
					t.Errorf("%s does not depend on %s (DependsOn %q)", d[1], d[0], to.DependsOn)
				}
			}
		})
	}
}

func TestOrderingRecordsWhy(t *testing.T) {
	l := cluster("8.5.4")
	tikvAll(l, "coprocessor.region-split-size", "96MiB")
	tikvAll(l, "coprocessor.region-max-size", "144MiB")
	cp := build(t, &state.DesiredCluster{Config: []state.ConfigSetting{
		cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1),
		cfgS("tikv", "coprocessor.region-max-size", "384MiB", 2),
	}}, l)
	split := cp.Changes[1]
	if diff := cmp.Diff([]state.Address{state.ConfigAddress(state.TiKV, "", "coprocessor.region-max-size")}, split.DependsOn); diff != "" {
		t.Errorf("DependsOn (-want +got):\n%s", diff)
	}
	if !strings.Contains(split.Reason, "max is raised first") {
		t.Errorf("Reason does not explain the order: %q", split.Reason)
	}
}

func TestOrderingConflictIsAnError(t *testing.T) {
	// 10.0.1.17 needs max raised first (new split 256MiB > live max 200MiB),
	// 10.0.1.18 needs split lowered first (new max 300MiB < live split 400MiB).
	l := cluster("8.5.4")
	setRow(l, "tikv", "10.0.1.17:20160", "coprocessor.region-split-size", "96MiB")
	setRow(l, "tikv", "10.0.1.17:20160", "coprocessor.region-max-size", "200MiB")
	setRow(l, "tikv", "10.0.1.18:20160", "coprocessor.region-split-size", "400MiB")
	setRow(l, "tikv", "10.0.1.18:20160", "coprocessor.region-max-size", "600MiB")
	setRow(l, "tikv", "10.0.1.19:20160", "coprocessor.region-split-size", "96MiB")
	setRow(l, "tikv", "10.0.1.19:20160", "coprocessor.region-max-size", "144MiB")
	_, err := BuildCluster(&state.DesiredCluster{Name: "prod", Config: []state.ConfigSetting{
		cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1),
		cfgS("tikv", "coprocessor.region-max-size", "300MiB", 2),
	}}, l, Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot be ordered") {
		t.Fatalf("want an ordering error, got %v", err)
	}
}

func TestOrderRejectsCycles(t *testing.T) {
	a := &plans.Change{Addr: state.VariableAddress(varResourceControl), Verify: []plans.Check{{Want: "true"}}}
	b := &plans.Change{Addr: state.GroupAddress("g"), Action: plans.Delete}
	c := &plans.Change{Addr: state.UserAddress(state.UserRef{User: "c"}), Before: []plans.InstanceValue{{Value: "g"}}, After: "g2"}
	if _, err := order([]*plans.Change{a, b, c}, orderFacts{}); err != nil {
		t.Fatalf("acyclic graph rejected: %v", err)
	}
	if _, err := order([]*plans.Change{a, {Addr: a.Addr}}, orderFacts{}); err == nil {
		t.Fatal("duplicate address accepted")
	}
}

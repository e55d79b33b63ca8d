package guard_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// TestRuleEdgesThroughPlannerDetail covers the bounds where the rule fires
// on both sides but says something different (TF102's consequence, TF123's
// STATEMENTS_SUMMARY columns, TF111's current meaning), the bounds of rules
// the first table leaves out (TF130 at v8.5.0, TF121/TF122 below v8.4.0,
// TF133 at its lower bound, TF153), and the size bounds of TF105/TF106,
// all through planner.BuildCluster.
func TestRuleEdgesThroughPlannerDetail(t *testing.T) {
	yes, ru := true, int64(1000)
	// A new group needs RU_PER_SEC (TiDB: "unknown resource group mode").
	burst := state.ResourceGroup{Name: "oltp", RUPerSec: &ru, BurstableBool: &yes, Range: rng(40)}
	ipc := []state.VariableSetting{sysvar("tidb_enable_instance_plan_cache", "ON", 30)}
	np := []state.VariableSetting{sysvar("tidb_enable_non_prepared_plan_cache", "ON", 31)}
	npOff := map[string]string{"tidb_enable_non_prepared_plan_cache": "OFF"}
	ime := []state.ConfigSetting{kv(state.TiKV, imeEnable, "true", 12)}
	imeOff := []state.ConfigRow{row(state.TiKV, imeEnable, "false")}
	split := func(size string) []state.ConfigSetting {
		return []state.ConfigSetting{kv(state.TiKV, splitSize, size, 11)}
	}
	base := []state.ConfigRow{row(state.TiKV, splitSize, "96MiB"), row(state.TiKV, "coprocessor.region-max-size", "144MiB"),
		row(state.PD, mergeSize, "20")}
	at := func(v string) liveSpec { return liveSpec{tidb: v, tikv: v, pd: v, config: base} }
	tests := []struct {
		name   string
		config []state.ConfigSetting
		vars   []state.VariableSetting
		groups []state.ResourceGroup
		live   liveSpec
		code   string
		want   bool
		detail string // a text the finding's detail or link must contain
	}{
		{"TF102 8.5.2: reset", split("128MiB"), nil, nil, at("8.5.2"), "TF102", true, "tikv/issues/18503"},
		{"TF102 8.5.3: inherited", split("128MiB"), nil, nil, at("8.5.3"), "TF102", true, "last_tikv.toml"},
		{"TF102 8.3.2: re-derived", split("128MiB"), nil, nil, at("8.3.2"), "TF102", true, "re-derived"},
		{"TF102 9.0.0-beta.1: reset", split("128MiB"), nil, nil, at("9.0.0-beta.1"), "TF102", true, "tikv/issues/18503"},
		{"TF102 9.0.0-beta.2: inherited", split("128MiB"), nil, nil, at("9.0.0-beta.2"), "TF102", true, "last_tikv.toml"},
		{"TF102 8.4.0: reset", split("128MiB"), nil, nil, at("8.4.0"), "TF102", true, "tikv/issues/18503"},
		{"TF104 96MiB on 8.3.2: the old default", split("96MiB"), nil, nil, at("8.3.2"), "TF104", false, ""},
		{"TF104 96MiB on 8.4.0", split("96MiB"), nil, nil, at("8.4.0"), "TF104", true, "tikv/tikv#17311"},
		{"TF105 1GiB with TiFlash", split("1GiB"), nil, nil, liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", config: base, tiflash: true},
			"TF105", false, ""},
		{"TF105 1025MiB with TiFlash", split("1025MiB"), nil, nil, liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", config: base, tiflash: true},
			"TF105", true, "1GiB"},
		{"TF106 48MiB", split("48MiB"), nil, nil, at("8.5.4"), "TF106", false, ""},
		{"TF106 47MiB", split("47MiB"), nil, nil, at("8.5.4"), "TF106", true, "48MiB"},
		{"TF106 256MiB", split("256MiB"), nil, nil, at("8.5.4"), "TF106", false, ""},
		{"TF106 257MiB", split("257MiB"), nil, nil, at("8.5.4"), "TF106", true, "256MiB"},
		{"TF111 on 8.5.4", nil, nil, []state.ResourceGroup{burst}, at("8.5.4"), "TF111", true, "the plan says BURSTABLE and the group will show YES"},
		{"TF111 on 9.0.0", nil, nil, []state.ResourceGroup{burst}, at("9.0.0"), "TF111", true, "the plan says BURSTABLE = UNLIMITED and the group will show UNLIMITED"},
		{"TF121 8.3.0: TF120 instead", nil, ipc, nil, liveSpec{tidb: "8.3.0", tikv: "8.3.0", pd: "8.3.0",
			vars: map[string]string{"tidb_enable_prepared_plan_cache": "OFF", "tidb_enable_non_prepared_plan_cache": "OFF"}}, "TF121", false, ""},
		{"TF122 8.3.0: TF120 instead", nil, ipc, nil, liveSpec{tidb: "8.3.0", tikv: "8.3.0", pd: "8.3.0"}, "TF122", false, ""},
		{"TF123 8.1.2: no UNQUALIFIED columns", nil, np, nil, liveSpec{tidb: "8.1.2", tikv: "8.1.2", pd: "8.1.2", vars: npOff},
			"TF123", true, "no PLAN_CACHE_UNQUALIFIED columns"},
		{"TF123 8.2.0: UNQUALIFIED columns", nil, np, nil, liveSpec{tidb: "8.2.0", tikv: "8.2.0", pd: "8.2.0", vars: npOff},
			"TF123", true, "PLAN_CACHE_UNQUALIFIED_LAST_REASON"},
		{"TF130 8.5.0: exists", ime, nil, nil, liveSpec{tidb: "8.5.0", tikv: "8.5.0", pd: "8.5.0", config: imeOff}, "TF130", false, ""},
		{"TF131 8.4.0: TF130 instead", ime, nil, nil, liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0"}, "TF131", false, ""},
		{"TF133 8.5.0: lower bound", ime, nil, nil, liveSpec{tidb: "8.5.0", tikv: "8.5.0", pd: "8.5.0", config: imeOff}, "TF133", true, "tikv#18046"},
		{"TF133 8.4.0: no IME", ime, nil, nil, liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0"}, "TF133", false, ""},
		{"TF153 telemetry on 8.0.0", nil, []state.VariableSetting{sysvar("tidb_enable_telemetry", "OFF", 34)}, nil,
			liveSpec{tidb: "8.0.0", tikv: "8.0.0", pd: "8.0.0", vars: map[string]string{"tidb_enable_telemetry": "ON"}}, "TF153", false, ""},
		{"TF153 telemetry on 8.1.0", nil, []state.VariableSetting{sysvar("tidb_enable_telemetry", "OFF", 34)}, nil,
			liveSpec{tidb: "8.1.0", tikv: "8.1.0", pd: "8.1.0", vars: map[string]string{"tidb_enable_telemetry": "ON"}}, "TF153", true, "v8.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dc := &state.DesiredCluster{Name: "prod", Config: tt.config, Variables: tt.vars, ResourceGroups: tt.groups, Range: rng(1)}
			cp, err := planner.BuildCluster(dc, buildLive(tt.live), planner.Options{Now: e2eNow, AllowPartial: true})
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			var got *guard.Finding
			for i := range cp.Findings {
				if cp.Findings[i].Code == tt.code {
					got = &cp.Findings[i]
					break
				}
			}
			if diff := cmp.Diff(tt.want, got != nil); diff != "" {
				t.Fatalf("%s fired (-want +got)\n%s\nfindings: %v", tt.code, diff, codes(cp.Findings))
			}
			if got != nil && !strings.Contains(got.Detail+" "+got.Link+" "+got.Summary, tt.detail) {
				t.Errorf("%s lacks %q:\n%s\n%s", tt.code, tt.detail, got.Summary, got.Detail)
			}
		})
	}
}

// Version edges through the real planner: the planner builds guard.Input
// (planned changes, addresses, actions) from a desired and a live state and
// calls guard.Evaluate; these cases pin that every rule still fires (or
// not) on each side of its bounds after that hand-over.

type liveSpec struct {
	tidb, tikv, pd string
	config         []state.ConfigRow
	vars           map[string]string
	groups         map[string]string
	tiflash        bool
	sem            bool
}

func buildLive(s liveSpec) *state.Live {
	l := &state.Live{Variables: map[string]string{}, VariablesRead: true, ResourceGroupsRead: true, SEM: s.sem,
		ConfigRead: []state.Component{state.TiKV, state.PD}}
	add := func(c state.Component, addr, v string) {
		if v != "" {
			l.Instances = append(l.Instances, state.Instance{Component: c, Address: addr, VersionText: v, Version: version.MustParse(v)})
		}
	}
	add(state.TiDB, "10.0.0.1:4000", s.tidb)
	add(state.PD, "10.0.0.2:2379", s.pd)
	for i, v := range strings.Split(s.tikv, ",") {
		add(state.TiKV, fmt.Sprintf("10.0.1.%d:20160", i+1), v)
	}
	if s.tiflash {
		add(state.TiFlash, "10.0.2.1:3930", s.tikv)
	}
	l.ServerVersion = "8.0.11-TiDB-v" + s.tidb
	for _, r := range s.config {
		if r.Instance != "" {
			l.Config = append(l.Config, r)
			continue
		}
		for _, addr := range l.InstancesOf(r.Component) {
			r.Instance = addr
			l.Config = append(l.Config, r)
		}
	}
	for k, v := range s.vars {
		l.Variables[k] = v
	}
	names := make([]string, 0, len(s.groups))
	for n := range s.groups {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.groups[n]
		l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: n, Priority: &p})
	}
	return l
}

func rng(line int) diag.SourceRange {
	return diag.SourceRange{Filename: "main.hcl", Start: diag.Pos{Line: line, Column: 3}, End: diag.Pos{Line: line, Column: 20}}
}

func kv(c state.Component, key, val string, line int) state.ConfigSetting {
	return state.ConfigSetting{Component: c, Key: key, Value: state.Value{Text: val}, Range: rng(line)}
}

func sysvar(name, val string, line int) state.VariableSetting {
	return state.VariableSetting{Name: name, Value: state.Value{Text: val}, Range: rng(line)}
}

func row(c state.Component, key, val string) state.ConfigRow {
	return state.ConfigRow{Component: c, Key: key, Value: val}
}

const (
	splitSize = "coprocessor.region-split-size"
	mergeSize = "schedule.max-merge-region-size"
	imeEnable = "in-memory-engine.enable"
)

func TestRuleEdgesThroughPlanner(t *testing.T) {
	base := []state.ConfigRow{row(state.TiKV, splitSize, "96MiB"), row(state.TiKV, "coprocessor.region-max-size", "144MiB"),
		row(state.PD, mergeSize, "20")}
	family := func(size string) []state.ConfigSetting {
		return []state.ConfigSetting{kv(state.TiKV, splitSize, size, 11)}
	}
	low := map[string]string{"default": "MEDIUM", "batch": "LOW"}
	tests := []struct {
		name   string
		config []state.ConfigSetting
		vars   []state.VariableSetting
		live   liveSpec
		code   string
		want   bool
		// change, when set, is the address whose Change must carry code.
		change string
	}{
		{"TF101 8.5.2", family("256MiB"), nil, liveSpec{tidb: "8.5.2", tikv: "8.5.2", pd: "8.5.2", config: base}, "TF101", true, splitSize},
		{"TF101 8.5.3", family("256MiB"), nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base}, "TF101", false, ""},
		{"TF101 8.3.2", family("128MiB"), nil, liveSpec{tidb: "8.3.2", tikv: "8.3.2", pd: "8.3.2", config: base}, "TF101", false, ""},
		{"TF101 8.4.0", family("128MiB"), nil, liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0", config: base}, "TF101", true, splitSize},
		{"TF102 8.5.3", family("128MiB"), nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base}, "TF102", true, splitSize},
		{"TF103 split above live max", family("256MiB"), nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base}, "TF103", true, splitSize},
		{"TF103 split at live max", family("144MiB"), nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base}, "TF103", false, ""},
		{"TF104 128MiB on 8.3.2", family("128MiB"), nil, liveSpec{tidb: "8.3.2", tikv: "8.3.2", pd: "8.3.2", config: base}, "TF104", false, ""},
		{"TF104 128MiB on 8.4.0", family("128MiB"), nil, liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0", config: base}, "TF104", true, splitSize},
		{"TF105 with TiFlash", family("2GiB"), nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base, tiflash: true}, "TF105", true, splitSize},
		{"TF107 256MiB vs 20", family("256MiB"), nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base}, "TF107", true, ""},
		{"TF107 with merge 54 declared", append(family("256MiB"), kv(state.PD, mergeSize, "54", 20)), nil,
			liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", config: base}, "TF107", false, ""},
		{"TF110 8.5.3", nil, nil, liveSpec{tidb: "8.5.3", tikv: "8.5.3", pd: "8.5.3", groups: low}, "TF110", true, ""},
		{"TF110 8.5.4", nil, nil, liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", groups: low}, "TF110", false, ""},
		{"TF110 7.4.0", nil, nil, liveSpec{tidb: "7.4.0", tikv: "7.4.0", pd: "7.4.0", groups: low}, "TF110", false, ""},
		{"TF110 7.5.0", nil, nil, liveSpec{tidb: "7.5.0", tikv: "7.5.0", pd: "7.5.0", groups: low}, "TF110", true, ""},
		{"TF120 8.3.0", nil, []state.VariableSetting{sysvar("tidb_enable_instance_plan_cache", "ON", 30)},
			liveSpec{tidb: "8.3.0", tikv: "8.3.0", pd: "8.3.0"}, "TF120", true, ""},
		{"TF120 8.4.0", nil, []state.VariableSetting{sysvar("tidb_enable_instance_plan_cache", "ON", 30)},
			liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0", vars: map[string]string{"tidb_enable_instance_plan_cache": "OFF"}},
			"TF120", false, ""},
		{"TF122 8.4.0", nil, []state.VariableSetting{sysvar("tidb_enable_instance_plan_cache", "ON", 30)},
			liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0", vars: map[string]string{"tidb_enable_instance_plan_cache": "OFF"}},
			"TF122", true, "variable.tidb_enable_instance_plan_cache"},
		{"TF121 both switches off", nil, []state.VariableSetting{sysvar("tidb_enable_instance_plan_cache", "ON", 30)},
			liveSpec{tidb: "8.5.1", tikv: "8.5.1", pd: "8.5.1", vars: map[string]string{"tidb_enable_instance_plan_cache": "OFF",
				"tidb_enable_prepared_plan_cache": "OFF", "tidb_enable_non_prepared_plan_cache": "OFF"}},
			"TF121", true, "variable.tidb_enable_instance_plan_cache"},
		{"TF124 8.3.0", nil, []state.VariableSetting{sysvar("tidb_enable_non_prepared_plan_cache", "ON", 31)},
			liveSpec{tidb: "8.3.0", tikv: "8.3.0", pd: "8.3.0", vars: map[string]string{"tidb_enable_non_prepared_plan_cache": "OFF"}},
			"TF124", false, ""},
		{"TF124 8.4.0", nil, []state.VariableSetting{sysvar("tidb_enable_non_prepared_plan_cache", "ON", 31)},
			liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0", vars: map[string]string{"tidb_enable_non_prepared_plan_cache": "OFF"}},
			"TF124", true, "variable.tidb_enable_non_prepared_plan_cache"},
		{"TF130 8.4.0", []state.ConfigSetting{kv(state.TiKV, imeEnable, "true", 12)}, nil,
			liveSpec{tidb: "8.4.0", tikv: "8.4.0", pd: "8.4.0"}, "TF130", true, ""},
		{"TF131 8.5.0", []state.ConfigSetting{kv(state.TiKV, imeEnable, "true", 12)}, nil,
			liveSpec{tidb: "8.5.0", tikv: "8.5.0", pd: "8.5.0", config: []state.ConfigRow{row(state.TiKV, imeEnable, "false")}},
			"TF131", true, "tikv." + imeEnable},
		{"TF133 8.5.6", []state.ConfigSetting{kv(state.TiKV, imeEnable, "true", 12)}, nil,
			liveSpec{tidb: "8.5.6", tikv: "8.5.6", pd: "8.5.6", config: []state.ConfigRow{row(state.TiKV, imeEnable, "false")}},
			"TF133", true, "tikv." + imeEnable},
		{"TF133 8.5.7", []state.ConfigSetting{kv(state.TiKV, imeEnable, "true", 12)}, nil,
			liveSpec{tidb: "8.5.7", tikv: "8.5.7", pd: "8.5.7", config: []state.ConfigRow{row(state.TiKV, imeEnable, "false")}},
			"TF133", false, ""},
		{"TF140 resource-control.enabled", []state.ConfigSetting{kv(state.TiKV, "resource-control.enabled", "false", 13)}, nil,
			liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", config: []state.ConfigRow{row(state.TiKV, "resource-control.enabled", "true")}},
			"TF140", true, "tikv.resource-control.enabled"},
		{"TF141 on a TiKV change", family("256MiB"), nil, liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", config: base},
			"TF141", true, splitSize},
		{"TF142 on a PD change", []state.ConfigSetting{kv(state.PD, mergeSize, "54", 20)}, nil,
			liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", config: base}, "TF142", true, "pd." + mergeSize},
		{"TF143 max_connections", nil, []state.VariableSetting{sysvar("max_connections", "2000", 32)},
			liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", vars: map[string]string{"max_connections": "0"}}, "TF143", true, "variable.max_connections"},
		{"TF150 strict mode on 8.1.2", nil, []state.VariableSetting{sysvar("tidb_resource_control_strict_mode", "ON", 33)},
			liveSpec{tidb: "8.1.2", tikv: "8.1.2", pd: "8.1.2"}, "TF150", true, ""},
		{"TF150 strict mode on 8.2.0", nil, []state.VariableSetting{sysvar("tidb_resource_control_strict_mode", "ON", 33)},
			liveSpec{tidb: "8.2.0", tikv: "8.2.0", pd: "8.2.0", vars: map[string]string{"tidb_resource_control_strict_mode": "OFF"}},
			"TF150", false, ""},
		{"TF151 mixed TiKV", nil, nil, liveSpec{tidb: "8.5.4", tikv: "8.5.3,8.5.4", pd: "8.5.4"}, "TF151", true, ""},
		{"TF152 SEM", family("256MiB"), nil, liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4", config: base, sem: true}, "TF152", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dc := &state.DesiredCluster{Name: "prod", Config: tt.config, Variables: tt.vars, Range: rng(1)}
			cp, err := planner.BuildCluster(dc, buildLive(tt.live), planner.Options{Now: e2eNow, AllowPartial: true})
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			got := false
			for _, f := range cp.Findings {
				got = got || f.Code == tt.code
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s fired (-want +got)\n%s\nfindings: %v", tt.code, diff, codes(cp.Findings))
			}
			if tt.change == "" {
				return
			}
			for _, c := range cp.Changes {
				if a := c.Addr.String(); a == tt.change || a == "tikv."+tt.change {
					if !strings.Contains(strings.Join(c.Findings, " "), tt.code) {
						t.Errorf("change %s carries %v, want %s", c.Addr, c.Findings, tt.code)
					}
					return
				}
			}
			var addrs []string
			for _, c := range cp.Changes {
				addrs = append(addrs, c.Addr.String())
			}
			t.Errorf("no change %s in the plan: %v", tt.change, addrs)
		})
	}
	// Blocking findings from the planner's plan are exactly the unacknowledged errors.
	dc := &state.DesiredCluster{Name: "prod", Config: []state.ConfigSetting{kv(state.TiKV, "resource-control.enabled", "false", 13)}}
	cp, err := planner.BuildCluster(dc, buildLive(liveSpec{tidb: "8.5.4", tikv: "8.5.4", pd: "8.5.4",
		config: []state.ConfigRow{row(state.TiKV, "resource-control.enabled", "true")}}), planner.Options{Now: e2eNow, AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if b := guard.Blocking(cp.Findings); len(b) != 1 || b[0].Code != "TF140" {
		t.Errorf("blocking: %v", codes(b))
	}
}

// TestTF111AgreesWithThePlansSQL: on every version TF111 names the SQL the
// plan holds for `burstable = true` and what the cluster will show, so the
// finding can never contradict the statement next to it.
func TestTF111AgreesWithThePlansSQL(t *testing.T) {
	yes := true
	ru := int64(1000)
	burst := regexp.MustCompile(`BURSTABLE( = [A-Z]+)?`)
	for _, v := range []string{"8.1.2", "8.5.1", "8.5.4", "8.5.7", "9.0.0", "9.0.0-beta.2"} {
		t.Run(v, func(t *testing.T) {
			dc := &state.DesiredCluster{Name: "prod", Range: rng(1),
				ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: &ru, BurstableBool: &yes, Range: rng(40)}}}
			cp, err := planner.BuildCluster(dc, buildLive(liveSpec{tidb: v, tikv: v, pd: v}), planner.Options{Now: e2eNow, AllowPartial: true})
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			var sql string
			for _, c := range cp.Changes {
				if c.Addr.String() == "resource_group.oltp" {
					for _, st := range c.Statements {
						sql += st.SQL
					}
				}
			}
			clause := burst.FindString(sql)
			if clause == "" {
				t.Fatalf("no BURSTABLE in the plan's SQL %q", sql)
			}
			var f *guard.Finding
			for i := range cp.Findings {
				if cp.Findings[i].Code == "TF111" {
					f = &cp.Findings[i]
				}
			}
			if f == nil {
				t.Fatalf("no TF111: %v", codes(cp.Findings))
			}
			shows := map[string]string{"BURSTABLE": "YES", "BURSTABLE = UNLIMITED": "UNLIMITED"}[clause]
			if shows == "" {
				t.Fatalf("the plan sends %q for burstable = true", clause)
			}
			if want := "the plan says " + clause + " and the group will show " + shows; !strings.Contains(f.Detail, want) {
				t.Errorf("TF111 does not say what the plan does (%q):\n%s", want, f.Detail)
			}
		})
	}
}

// TestNewRulesThroughPlanner: the rules of issue 28 on each side of their
// upstream ranges, through planner.BuildCluster (which builds the changes
// and their Before values the rules read).
func TestNewRulesThroughPlanner(t *testing.T) {
	compact := []state.ConfigSetting{kv(state.TiKV, "raftstore.periodic-full-compact-start-times", `["03:00 +0000"]`, 14)}
	compactLive := []state.ConfigRow{row(state.TiKV, "raftstore.periodic-full-compact-start-times", "[]")}
	pool := func(v string) []state.ConfigSetting {
		return []state.ConfigSetting{kv(state.TiKV, "raftstore.store-io-pool-size", v, 15)}
	}
	poolLive := func(v string) []state.ConfigRow {
		return []state.ConfigRow{row(state.TiKV, "raftstore.store-io-pool-size", v)}
	}
	np := []state.VariableSetting{sysvar("tidb_enable_non_prepared_plan_cache", "ON", 31)}
	digest := func(value string) map[string]string {
		return map[string]string{"tidb_enable_non_prepared_plan_cache": "OFF", "tidb_ignore_inlist_plan_digest": value}
	}
	at := func(v string, config []state.ConfigRow) liveSpec {
		return liveSpec{tidb: v, tikv: v, pd: v, config: config}
	}
	tests := []struct {
		name   string
		config []state.ConfigSetting
		vars   []state.VariableSetting
		live   liveSpec
		code   string
		want   bool
	}{
		{"TF144 7.5.7: no such item", compact, nil, at("7.5.7", nil), "TF144", false},
		{"TF144 7.6.0", compact, nil, at("7.6.0", compactLive), "TF144", true},
		{"TF144 8.0.0", compact, nil, at("8.0.0", compactLive), "TF144", true},
		{"TF144 8.1.0", compact, nil, at("8.1.0", compactLive), "TF144", true},
		{"TF144 8.1.1: fixed", compact, nil, at("8.1.1", compactLive), "TF144", false},
		{"TF144 8.2.0: fixed", compact, nil, at("8.2.0", compactLive), "TF144", false},
		{"TF144 8.5.4", compact, nil, at("8.5.4", compactLive), "TF144", false},
		{"TF145 6.5.12: restart-only, TF140", pool("2"), nil, at("6.5.12", poolLive("0")), "TF145", false},
		{"TF140 6.5.12", pool("2"), nil, at("6.5.12", poolLive("0")), "TF140", true},
		{"TF145 6.6.0: 0 → 2", pool("2"), nil, at("6.6.0", poolLive("0")), "TF145", true},
		{"TF145 8.5.4: 1 → 0", pool("0"), nil, at("8.5.4", poolLive("1")), "TF145", true},
		{"TF145 8.5.4: 1 → 4", pool("4"), nil, at("8.5.4", poolLive("1")), "TF145", false},
		{"TF141 8.5.4: 1 → 4 needs no reload", pool("4"), nil, at("8.5.4", poolLive("1")), "TF141", true},
		{"TF141 8.5.4: 1 → 0 is TF145's", pool("0"), nil, at("8.5.4", poolLive("1")), "TF141", false},
		{"TF127 8.5.5", nil, np, liveSpec{tidb: "8.5.5", tikv: "8.5.5", pd: "8.5.5", vars: digest("OFF")}, "TF127", false},
		{"TF127 8.5.6 ON", nil, np, liveSpec{tidb: "8.5.6", tikv: "8.5.6", pd: "8.5.6", vars: digest("ON")}, "TF127", true},
		{"TF127 8.5.6 OFF", nil, np, liveSpec{tidb: "8.5.6", tikv: "8.5.6", pd: "8.5.6", vars: digest("OFF")}, "TF127", false},
		{"TF127 8.5.6 declared", nil, append(np, sysvar("tidb_ignore_inlist_plan_digest", "ON", 32)),
			liveSpec{tidb: "8.5.6", tikv: "8.5.6", pd: "8.5.6", vars: digest("ON")}, "TF127", false},
		{"TF127 8.5.7 ON", nil, np, liveSpec{tidb: "8.5.7", tikv: "8.5.7", pd: "8.5.7", vars: digest("ON")}, "TF127", false},
		{"TF127 8.5.6, no variable declared", pool("4"), nil, liveSpec{tidb: "8.5.6", tikv: "8.5.6", pd: "8.5.6",
			config: poolLive("1"), vars: digest("ON")}, "TF127", false},
		{"TF154 8.5.7", pool("4"), nil, at("8.5.7", poolLive("1")), "TF154", false},
		{"TF154 8.5.9", pool("4"), nil, at("8.5.9", poolLive("1")), "TF154", true},
		{"TF154 9.0.0", pool("4"), nil, at("9.0.0", poolLive("1")), "TF154", true},
		{"TF154 6.1.0", pool("4"), nil, at("6.1.0", poolLive("1")), "TF154", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dc := &state.DesiredCluster{Name: "prod", Config: tt.config, Variables: tt.vars, Range: rng(1)}
			cp, err := planner.BuildCluster(dc, buildLive(tt.live), planner.Options{Now: e2eNow, AllowPartial: true})
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			got := false
			for _, f := range cp.Findings {
				got = got || f.Code == tt.code
			}
			if got != tt.want {
				t.Errorf("%s fired = %v, want %v; findings: %v", tt.code, got, tt.want, codes(cp.Findings))
			}
		})
	}
}

package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

func TestPriorityLimiterTF110(t *testing.T) {
	mk := func(v string) *state.Live {
		l := withGroup(live("tikv="+v, "tidb="+v), "default", "MEDIUM")
		return withGroup(l, "batch", "LOW")
	}
	both := []brief{{"TF110", "warning", "resource_group.batch", 0}, {"TF110", "warning", "resource_group.default", 0}}
	tests := []struct {
		name string
		l    *state.Live
		want []brief
	}{
		{"7.4.1: before the tuner", mk("7.4.1"), nil},
		{"7.5.0: lower bound", mk("7.5.0"), both},
		{"8.1.2", mk("8.1.2"), both},
		{"8.5.3: upper bound", mk("8.5.3"), both},
		{"8.5.4: fixed", mk("8.5.4"), nil},
		{"9.0.0-beta.1: branch cut before the fix", mk("9.0.0-beta.1"), both},
		{"9.0.0", mk("9.0.0"), nil},
		{"only the default group: limiter inactive", withGroup(live("tikv=8.5.1"), "default", "MEDIUM"), nil},
		{"HIGH user group, default MEDIUM", withGroup(withGroup(live("tikv=8.5.1"), "default", "MEDIUM"), "oltp", "HIGH"),
			[]brief{{"TF110", "warning", "resource_group.default", 0}}},
		{"mixed 8.5.3 and 8.5.4: the lowest decides", mk("8.5.4,8.5.3"), both},
		{"TiKV resource control off: no limiter", withConfig(mk("8.5.1"), state.TiKV, "resource-control.enabled", "false"), nil},
		{"TiKV resource control on", withConfig(mk("8.5.1"), state.TiKV, "resource-control.enabled", "true"), both},
		{"TiDB resource control off", withVar(mk("8.5.1"), "tidb_enable_resource_control", "OFF"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(CheckCluster(tt.l, now), "TF110")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPriorityLimiterTF110Desired(t *testing.T) {
	l := withGroup(live("tikv=8.5.1"), "default", "MEDIUM")
	oltp := group("oltp", "MEDIUM")
	oltp.FieldRanges = map[string]diag.SourceRange{"priority": at(42)}
	tests := []struct {
		name string
		d    *state.DesiredCluster
		want []brief
	}{
		{"new group without priority is MEDIUM", desired(group("etl", "")),
			[]brief{{"TF110", "warning", "resource_group.default", 0}, {"TF110", "warning", "resource_group.etl", 10}}},
		{"points at the priority attribute", desired(oltp),
			[]brief{{"TF110", "warning", "resource_group.default", 0}, {"TF110", "warning", "resource_group.oltp", 42}}},
		{"new HIGH group still exposes default", desired(group("oltp", "HIGH")),
			[]brief{{"TF110", "warning", "resource_group.default", 0}}},
		{"default raised to HIGH too", desired(group("oltp", "HIGH"), group("default", "HIGH")), nil},
		{"TiKV resource control declared off", desired(group("etl", "LOW"), tikv("resource-control.enabled", "false")), nil},
		{"TiDB resource control declared OFF", desired(group("etl", "LOW"), variable("tidb_enable_resource_control", "OFF")), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: tt.d, Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF110")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	// resource-control.enabled is restart-only: while TiKV still runs with it
	// on, declaring it off does not stop the limiter (resource-control.enabled is restart-only).
	on := withConfig(withGroup(live("tikv=8.5.1"), "default", "MEDIUM"), state.TiKV, "resource-control.enabled", "true")
	off := withConfig(withGroup(live("tikv=8.5.1"), "default", "MEDIUM"), state.TiKV, "resource-control.enabled", "false")
	for _, tt := range []struct {
		name string
		l    *state.Live
		want []brief
	}{
		{"declared off, live on: active until the restart", on,
			[]brief{{"TF110", "warning", "resource_group.default", 0}, {"TF110", "warning", "resource_group.etl", 10}}},
		{"declared off, live off", off, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(group("etl", "LOW"), tikv("resource-control.enabled", "false")), Live: tt.l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF110")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	f := find(t, Evaluate(Input{Desired: desired(oltp), Live: l, Now: now}), "TF110")
	for _, want := range []string{`priority = "HIGH"`, "v8.5.4", "release tags", "tikv#18940"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, f.Detail)
		}
	}
	// A live group that the configuration drops does not count.
	d := desired()
	d.DropUnmanagedGroups = true
	fs := Evaluate(Input{Desired: d, Live: withGroup(withGroup(live("tikv=8.5.1"), "default", "MEDIUM"), "old", "LOW"), Now: now})
	if got := only(fs, "TF110"); got != nil {
		t.Errorf("dropped group still counted: %v", got)
	}
}

func TestBurstableTF111(t *testing.T) {
	yes, no := true, false
	mk := func(b *bool) state.ResourceGroup {
		g := group("oltp", "HIGH")
		g.BurstableBool = b
		g.FieldRanges = map[string]diag.SourceRange{"burstable": at(33)}
		return g
	}
	w := []brief{{"TF111", "warning", "resource_group.oltp", 33}}
	tests := []struct {
		name   string
		tidb   string
		b      *bool
		want   []brief
		detail string
	}{
		{"true on 8.5.4", "tidb=8.5.4", &yes, w, "the plan says BURSTABLE and the group will show YES"},
		{"true on 9.0.0", "tidb=9.0.0", &yes, w, "the plan says BURSTABLE = UNLIMITED and the group will show UNLIMITED"},
		{"false means OFF everywhere", "tidb=8.5.4", &no, nil, ""},
		{"not declared", "tidb=9.0.0", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(mk(tt.b)), Live: live(tt.tidb), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF111")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.detail != "" && !strings.Contains(find(t, fs, "TF111").Detail, tt.detail) {
				t.Errorf("detail lacks %q", tt.detail)
			}
			// The finding never says that the declaration means MODERATED
			// on this cluster: tiform sends UNLIMITED (planner burstSQL).
			for _, f := range fs {
				if strings.Contains(f.Detail, "today it means MODERATED") {
					t.Errorf("TF111 contradicts the plan: %s", f.Detail)
				}
			}
		})
	}
	// v8.5's other spellings of unlimited burst, which the planner reads the
	// same way, are the same ambiguity; an explicit mode is not.
	for _, text := range []string{"YES", "on", "TRUE"} {
		g := group("oltp", "HIGH")
		g.Burstable = &text
		if got := only(Evaluate(Input{Desired: desired(g), Live: live("tidb=9.0.0"), Now: now}), "TF111"); len(got) != 1 {
			t.Errorf("burstable = %q: %v, want one TF111", text, got)
		}
	}
	for _, text := range []string{"UNLIMITED", "MODERATED", "OFF", "NO"} {
		g := group("oltp", "HIGH")
		g.Burstable = &text
		if got := only(Evaluate(Input{Desired: desired(g), Live: live("tidb=9.0.0"), Now: now}), "TF111"); got != nil {
			t.Errorf("burstable = %q: %v, want none", text, got)
		}
	}
}

// TestSchedulerQueueTF112: the first resource group other than `default`
// switches TiKV's transaction scheduler to its priority queue from v7.1.0
// (tikv/tikv#14582); on the 8.5 line from v8.5.7 background task control
// alone does too (tikv/tikv#19554, tikv/tikv#19858).
func TestSchedulerQueueTF112(t *testing.T) {
	bg := func(name string, types ...string) state.ResourceGroup {
		g := group(name, "")
		g.Background = &state.Background{TaskTypes: types}
		g.FieldRanges = map[string]diag.SourceRange{"background": at(44)}
		return g
	}
	groupsOnly := func(v string, names ...string) *state.Live {
		l := withGroupsRead(withGroup(live("tikv="+v, "tidb="+v), "default", "MEDIUM"))
		for _, n := range names {
			l = withGroup(l, n, "MEDIUM")
		}
		return l
	}
	liveBG := func(l *state.Live) *state.Live {
		for i := range l.ResourceGroups {
			if l.ResourceGroups[i].Name == "default" {
				l.ResourceGroups[i].Background = &state.Background{TaskTypes: []string{"br"}}
			}
		}
		return l
	}
	create := []brief{{"TF112", "warning", "resource_group.oltp", 10}}
	onBG := []brief{{"TF112", "warning", "resource_group.default", 44}}
	tests := []struct {
		name string
		d    *state.DesiredCluster
		l    *state.Live
		want []brief
	}{
		{"7.0.0: before the switch", desired(group("oltp", "HIGH")), groupsOnly("7.0.0"), nil},
		{"7.1.0: first group", desired(group("oltp", "HIGH")), groupsOnly("7.1.0"), create},
		{"8.5.4: first group", desired(group("oltp", "HIGH")), groupsOnly("8.5.4"), create},
		{"9.0.0: first group", desired(group("oltp", "HIGH")), groupsOnly("9.0.0"), create},
		{"8.5.4: a group exists already", desired(group("oltp", "HIGH")), groupsOnly("8.5.4", "etl"), nil},
		{"8.5.4: the group exists", desired(group("oltp", "LOW")), groupsOnly("8.5.4", "oltp"), nil},
		{"8.5.4: only default declared", desired(group("default", "HIGH")), groupsOnly("8.5.4"), nil},
		{"8.5.4: groups not read", desired(group("oltp", "HIGH")), func() *state.Live {
			l := groupsOnly("8.5.4")
			l.ResourceGroupsRead = false
			return l
		}(), nil},
		{"8.5.4: TiKV resource control off", desired(group("oltp", "HIGH")),
			withConfig(groupsOnly("8.5.4"), state.TiKV, "resource-control.enabled", "false"), nil},
		{"8.5.4: TiDB resource control OFF", desired(group("oltp", "HIGH")),
			withVar(groupsOnly("8.5.4"), "tidb_enable_resource_control", "OFF"), nil},
		{"8.5.6: background alone keeps the FIFO queue", desired(bg("default", "br")), groupsOnly("8.5.6"), nil},
		{"8.5.7: background alone switches", desired(bg("default", "br")), groupsOnly("8.5.7"), onBG},
		{"8.5.8: no tag has the fix yet", desired(bg("default", "br")), groupsOnly("8.5.8"), onBG},
		{"9.0.0: no 9.x tag has the change", desired(bg("default", "br")), groupsOnly("9.0.0"), nil},
		{"8.5.7: background already set", desired(bg("default", "br")), liveBG(groupsOnly("8.5.7")), nil},
		{"8.5.7: empty background", desired(bg("default")), groupsOnly("8.5.7"), nil},
		{"8.5.7: first group while background is set: already the priority queue", desired(group("oltp", "HIGH")),
			liveBG(groupsOnly("8.5.7")), nil},
		{"8.5.6: first group while background is set", desired(group("oltp", "HIGH")), liveBG(groupsOnly("8.5.6")), create},
		{"8.5.7: background with a first group: the group is the switch", desired(bg("default", "br"), group("oltp", "HIGH")),
			groupsOnly("8.5.7"), []brief{{"TF112", "warning", "resource_group.oltp", 11}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: tt.d, Live: tt.l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF112")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	f := find(t, Evaluate(Input{Desired: desired(group("oltp", "HIGH")), Live: groupsOnly("8.5.4"), Now: now}), "TF112")
	for _, want := range []string{"tikv/tikv#19858", "tikv/tikv#14582", "5–10%", "measure write latency"} {
		if !strings.Contains(f.Summary+f.Detail, want) {
			t.Errorf("finding lacks %q:\n%s\n%s", want, f.Summary, f.Detail)
		}
	}
	f = find(t, Evaluate(Input{Desired: desired(bg("default", "br")), Live: groupsOnly("8.5.7"), Now: now}), "TF112")
	for _, want := range []string{"tikv/tikv#19855", "tikv/tikv#19895", "no release tag"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("background finding lacks %q:\n%s", want, f.Detail)
		}
	}
	// tiform check: a v8.5.7 cluster on the priority queue only because of
	// BACKGROUND; not when a user group exists, not on v8.5.6.
	for _, tt := range []struct {
		name string
		l    *state.Live
		want []brief
	}{
		{"8.5.7 background only", liveBG(groupsOnly("8.5.7")), []brief{{"TF112", "warning", "resource_group.default", 0}}},
		{"8.5.7 background and a group", liveBG(groupsOnly("8.5.7", "oltp")), nil},
		{"8.5.6 background only", liveBG(groupsOnly("8.5.6")), nil},
		{"8.5.7 no background", groupsOnly("8.5.7"), nil},
	} {
		t.Run("check "+tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(CheckCluster(tt.l, now), "TF112")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

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
		{"true on 8.5.4", "tidb=8.5.4", &yes, w, "today it means unlimited"},
		{"true on 9.0.0", "tidb=9.0.0", &yes, w, "today it means MODERATED"},
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
		})
	}
}

package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

const split = "tikv.coprocessor.region-split-size"

func TestRegionUpgradeTF101(t *testing.T) {
	family := []any{tikv(keySplitSize, "256MiB"), tikv(keyMaxSize, "384MiB"), tikv(keySplitKeys, "2560000"), tikv(keyMaxKeys, "3840000")}
	w := []brief{{"TF101", "warning", split, 10}}
	tests := []struct {
		name string
		in   Input
		want []brief
	}{
		{"declared family on 8.3.1: before the range", Input{Desired: desired(family...), Live: live("tikv=8.3.1")}, nil},
		{"declared family on 8.4.0: lower bound", Input{Desired: desired(family...), Live: live("tikv=8.4.0")}, w},
		{"declared family on 8.5.2: upper bound", Input{Desired: desired(family...), Live: live("tikv=8.5.2")}, w},
		{"declared family on 8.5.3: fixed", Input{Desired: desired(family...), Live: live("tikv=8.5.3")}, nil},
		{"declared family on 9.0.0-beta.1: cut before the fix", Input{Desired: desired(family...), Live: live("tikv=9.0.0-beta.1")}, w},
		{"declared family on 9.0.0", Input{Desired: desired(family...), Live: live("tikv=9.0.0")}, nil},
		{"only max-keys declared on 8.5.1 points at it",
			Input{Desired: desired(variable("x", "1"), tikv(keyMaxKeys, "3840000")), Live: live("tikv=8.5.1")},
			[]brief{{"TF101", "warning", "tikv.coprocessor.region-max-keys", 11}}},
		{"nothing declared on 8.5.1", Input{Desired: desired(), Live: live("tikv=8.5.1")}, nil},
		{"mixed 8.5.2 and 8.5.3: the lowest decides", Input{Desired: desired(family...), Live: live("tikv=8.5.3,8.5.2")}, w},
		{"upgrade 8.1.2 → 8.4.0", Input{Desired: desired(), Live: live("tikv=8.1.2"),
			TargetVersions: map[state.Component]version.Version{state.TiKV: version.MustParse("8.4.0")}},
			[]brief{{"TF101", "warning", split, 1}}},
		{"upgrade 8.1.2 → 8.5.2", Input{Desired: desired(), Live: live("tikv=8.1.2"),
			TargetVersions: map[state.Component]version.Version{state.TiKV: version.MustParse("8.5.2")}},
			[]brief{{"TF101", "warning", split, 1}}},
		{"upgrade 8.1.2 → 8.5.3: inherited, no switch", Input{Desired: desired(), Live: live("tikv=8.1.2"),
			TargetVersions: map[state.Component]version.Version{state.TiKV: version.MustParse("8.5.3")}}, nil},
		{"upgrade 8.1.2 → 8.3.0: still 96MiB", Input{Desired: desired(), Live: live("tikv=8.1.2"),
			TargetVersions: map[state.Component]version.Version{state.TiKV: version.MustParse("8.3.0")}}, nil},
		{"declared 96MiB, live 256MiB on 8.5.3 (switch survived the fix)",
			Input{Desired: desired(tikv(keySplitSize, "96MiB")), Live: withConfig(live("tikv=8.5.3"), state.TiKV, keySplitSize, "256MiB")}, w},
		{"declared 96MiB, live 256MiB on 8.3.0: not this rule",
			Input{Desired: desired(tikv(keySplitSize, "96MiB")), Live: withConfig(live("tikv=8.3.0"), state.TiKV, keySplitSize, "256MiB")}, nil},
		{"declared 256MiB, live 256MiB on 8.5.3", Input{Desired: desired(tikv(keySplitSize, "256MiB")),
			Live: withConfig(live("tikv=8.5.3"), state.TiKV, keySplitSize, "256MiB")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = now
			if diff := cmp.Diff(tt.want, only(Evaluate(tt.in), "TF101")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRegionUpgradeTF101Live(t *testing.T) {
	mk := func(v, size, merge string) *state.Live {
		l := withConfig(live("tikv="+v, "pd="+v), state.TiKV, keySplitSize, size)
		return withConfig(l, state.PD, keyMergeSize, merge)
	}
	w := []brief{{"TF101", "warning", split, 0}}
	tests := []struct {
		name string
		l    *state.Live
		want []brief
	}{
		{"8.3.2 with 256MiB and PD 20: before the default changed", mk("8.3.2", "256MiB", "20"), nil},
		{"8.4.0 with 256MiB and PD 20", mk("8.4.0", "256MiB", "20"), w},
		{"8.5.2 with 256MiB and PD 20", mk("8.5.2", "256MiB", "20"), w},
		{"8.5.3 with 256MiB and PD 20: inherited, still switched", mk("8.5.3", "256MiB", "20"), w},
		{"8.5.1 with 256MiB and PD 54: a v8.4+ cluster", mk("8.5.1", "256MiB", "54"), nil},
		{"8.5.1 with 96MiB and PD 20: not switched", mk("8.5.1", "96MiB", "20"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(CheckCluster(tt.l, now), "TF101")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRegionUpgradeTF101MidUpgrade(t *testing.T) {
	mk := func(versions string, sizes ...string) *state.Live {
		l := live("tikv=" + versions)
		for i, addr := range l.InstancesOf(state.TiKV) {
			l.Config = append(l.Config, state.ConfigRow{Component: state.TiKV, Instance: addr, Key: keySplitSize, Value: sizes[i]})
		}
		return l
	}
	w := []brief{{"TF101", "warning", split, 0}}
	tests := []struct {
		name string
		l    *state.Live
		want []brief
	}{
		{"8.1.2 → 8.5.1: the restarted instance switched", mk("8.1.2,8.5.1,8.1.2", "96MiB", "256MiB", "96MiB"), w},
		{"8.1.2 → 8.3.2: no switch", mk("8.1.2,8.3.2", "96MiB", "96MiB"), nil},
		{"8.3.2 reporting 256MiB is set on purpose", mk("8.1.2,8.3.2", "96MiB", "256MiB"), nil},
		{"all upgraded, all 256MiB, no PD hint", mk("8.5.1,8.5.1", "256MiB", "256MiB"), nil},
		{"8.4.0 → 8.5.3 with one 128MiB", mk("8.4.0,8.5.3", "128MiB", "256MiB"), w},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(CheckCluster(tt.l, now), "TF101")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	f := find(t, CheckCluster(mk("8.1.2,8.5.1", "96MiB", "256MiB"), now), "TF101")
	if !strings.Contains(f.Detail, "10.0.1.11:20160 v8.5.1") || !strings.Contains(f.Detail, "10.0.1.10:20160 v8.1.2: 96MiB") {
		t.Errorf("detail does not name the instances:\n%s", f.Detail)
	}
}

func TestRegionUpgradeTF101Text(t *testing.T) {
	fs := Evaluate(Input{Desired: desired(tikv(keySplitSize, "256MiB")), Live: live("tikv=8.5.1"), Now: now})
	f := find(t, fs, "TF101")
	for _, want := range []string{"v8.5.1", "tiup cluster edit-config tidb-prod", "v8.5.3",
		"coprocessor.region-max-size, coprocessor.region-split-keys, coprocessor.region-max-keys"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, f.Detail)
		}
	}
	if f.Link != "https://github.com/tikv/tikv/issues/18503" || f.Range != at(10) {
		t.Errorf("link %q range %+v", f.Link, f.Range)
	}
}

func TestRegionFamilyTF102(t *testing.T) {
	tests := []struct {
		name     string
		tikv     string
		settings []any
		want     []brief
		link     string
	}{
		{"all four on 8.5.3", "8.5.3", []any{tikv(keySplitSize, "128MiB"), tikv(keyMaxSize, "192MiB"),
			tikv(keySplitKeys, "1280000"), tikv(keyMaxKeys, "1920000")}, nil, ""},
		{"split only on 8.5.3: inherited", "8.5.3", []any{tikv(keySplitSize, "128MiB")},
			[]brief{{"TF102", "warning", split, 10}}, linkTikv18567},
		{"split only on 8.5.2: reset", "8.5.2", []any{tikv(keySplitSize, "128MiB")},
			[]brief{{"TF102", "warning", split, 10}}, linkTikv18503},
		{"split only on 8.4.0: reset", "8.4.0", []any{tikv(keySplitSize, "128MiB")},
			[]brief{{"TF102", "warning", split, 10}}, linkTikv18503},
		{"split only on 8.3.9: re-derived", "8.3.9", []any{tikv(keySplitSize, "128MiB")},
			[]brief{{"TF102", "warning", split, 10}}, linkRegionTuning},
		{"nothing declared", "8.5.3", nil, nil, ""},
		{"per-instance split with type-wide rest", "8.5.3", []any{tikv(keyMaxSize, "384MiB"), tikv(keySplitKeys, "2560000"),
			tikv(keyMaxKeys, "3840000"), tikvOn("10.0.1.10:20160", keySplitSize, "256MiB")},
			[]brief{{"TF102", "warning", split, 10 + 0}}, linkTikv18567},
	}
	// The per-instance case: the type-wide group lacks split-size; the instance
	// group is complete. Only the type-wide declaration is reported, at max-size.
	tests[len(tests)-1].want = []brief{{"TF102", "warning", "tikv.coprocessor.region-max-size", 10}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.settings...), Live: live("tikv=" + tt.tikv), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF102")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.link != "" && find(t, fs, "TF102").Link != tt.link {
				t.Errorf("link = %q, want %q", find(t, fs, "TF102").Link, tt.link)
			}
		})
	}
	f := find(t, Evaluate(Input{Desired: desired(tikv(keySplitSize, "128MiB")), Live: live("tikv=8.5.3"), Now: now}), "TF102")
	want := `coprocessor.region-max-size = "192MiB", coprocessor.region-split-keys = 1280000, coprocessor.region-max-keys = 1920000`
	if !strings.Contains(f.Detail, want) || !strings.Contains(f.Detail, "last_tikv.toml") {
		t.Errorf("detail lacks the derivation or the inheritance note:\n%s", f.Detail)
	}
}

func TestRegionSplitAboveMaxTF103(t *testing.T) {
	tests := []struct {
		name     string
		settings []any
		liveMax  string
		want     []brief
	}{
		{"declared pair consistent", []any{tikv(keySplitSize, "256MiB"), tikv(keyMaxSize, "384MiB")}, "144MiB", nil},
		{"split equals max", []any{tikv(keySplitSize, "256MiB"), tikv(keyMaxSize, "256MiB")}, "", nil},
		{"split one MiB above declared max", []any{tikv(keySplitSize, "257MiB"), tikv(keyMaxSize, "256MiB")}, "",
			[]brief{{"TF103", "error", split, 10}}},
		{"split above live max", []any{tikv(keySplitSize, "256MiB")}, "144MiB", []brief{{"TF103", "error", split, 10}}},
		{"split equal to live max", []any{tikv(keySplitSize, "144MiB")}, "144MiB", nil},
		{"keys: split above max", []any{tikv(keySplitKeys, "2560001"), tikv(keyMaxKeys, "2560000")}, "",
			[]brief{{"TF103", "error", "tikv.coprocessor.region-split-keys", 10}}},
		{"max lowered below live split", []any{tikv(keyMaxSize, "64MiB")}, "",
			[]brief{{"TF103", "error", "tikv.coprocessor.region-max-size", 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := withConfig(live("tikv=8.5.3"), state.TiKV, keySplitSize, "96MiB")
			if tt.liveMax != "" {
				l = withConfig(l, state.TiKV, keyMaxSize, tt.liveMax)
			}
			fs := Evaluate(Input{Desired: desired(tt.settings...), Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF103")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRegionSizeTF104to106(t *testing.T) {
	tests := []struct {
		name string
		spec []string
		size string
		want []brief
	}{
		{"128MiB on 8.3.2: above the 96MiB default", []string{"tikv=8.3.2"}, "128MiB", nil},
		{"128MiB on 8.4.0: below the 256MiB default", []string{"tikv=8.4.0"}, "128MiB", []brief{{"TF104", "info", split, 10}}},
		{"96MiB on 8.3.2: the default", []string{"tikv=8.3.2"}, "96MiB", nil},
		{"256MiB on 8.4.0: the default", []string{"tikv=8.4.0"}, "256MiB", nil},
		{"48MiB: lower bound", []string{"tikv=8.3.2"}, "48MiB", []brief{{"TF104", "info", split, 10}}},
		{"47MiB: below the range", []string{"tikv=8.3.2"}, "47MiB",
			[]brief{{"TF106", "warning", split, 10}, {"TF104", "info", split, 10}}},
		{"257MiB: above the range", []string{"tikv=8.5.3"}, "257MiB", []brief{{"TF106", "warning", split, 10}}},
		{"1GiB with TiFlash: warning only", []string{"tikv=8.5.3", "tiflash=8.5.3"}, "1GiB", []brief{{"TF106", "warning", split, 10}}},
		{"1025MiB with TiFlash: error", []string{"tikv=8.5.3", "tiflash=8.5.3"}, "1025MiB", []brief{{"TF105", "error", split, 10}}},
		{"1025MiB without TiFlash: warning", []string{"tikv=8.5.3"}, "1025MiB", []brief{{"TF106", "warning", split, 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tikv(keySplitSize, tt.size)), Live: live(tt.spec...), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF104", "TF105", "TF106")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	// The live check (tiform check): 96MiB on an 8.4+ cluster.
	l := withConfig(live("tikv=8.4.0"), state.TiKV, keySplitSize, "96MiB")
	if diff := cmp.Diff([]brief{{"TF104", "info", split, 0}}, only(CheckCluster(l, now), "TF104")); diff != "" {
		t.Errorf("CheckCluster (-want +got)\n%s", diff)
	}
	f := find(t, CheckCluster(l, now), "TF104")
	if !strings.Contains(f.Detail, "fewer Regions") || !strings.Contains(f.Detail, "tikv/tikv#17311") {
		t.Errorf("TF104 lacks why the default grew and its source:\n%s", f.Detail)
	}
}

func TestMergeScaledTF107(t *testing.T) {
	mk := func(size, merge string) *state.Live {
		l := withConfig(live("tikv=8.5.3", "pd=8.5.3"), state.TiKV, keySplitSize, size)
		return withConfig(l, state.PD, keyMergeSize, merge)
	}
	pdAddr := "pd.schedule.max-merge-region-size"
	tests := []struct {
		name string
		l    *state.Live
		want []brief
	}{
		{"256MiB with 20: not scaled", mk("256MiB", "20"), []brief{{"TF107", "warning", pdAddr, 0}}},
		{"256MiB with 54: v8.4 defaults", mk("256MiB", "54"), nil},
		{"96MiB with 20: pre-v8.4 defaults", mk("96MiB", "20"), nil},
		{"96MiB with 54: ping-pong", mk("96MiB", "54"), []brief{{"TF107", "warning", pdAddr, 0}}},
		{"256MiB with 27: at half the suggestion", mk("256MiB", "27"), nil},
		{"256MiB with 26: below half the suggestion", mk("256MiB", "26"), []brief{{"TF107", "warning", pdAddr, 0}}},
		{"merge disabled (0)", mk("256MiB", "0"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(CheckCluster(tt.l, now), "TF107")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	// Keys not scaled with the size.
	keysAddr := "pd.schedule.max-merge-region-keys"
	lk := withConfig(mk("256MiB", "54"), state.PD, keyMergeKeys, "200000")
	if diff := cmp.Diff([]brief{{"TF107", "warning", keysAddr, 0}}, only(CheckCluster(lk, now), "TF107")); diff != "" {
		t.Errorf("keys 200000 with size 54 (-want +got)\n%s", diff)
	}
	lk = withConfig(mk("256MiB", "54"), state.PD, keyMergeKeys, "270000")
	if diff := cmp.Diff([]brief(nil), only(CheckCluster(lk, now), "TF107")); diff != "" {
		t.Errorf("keys 270000 (half) with size 54 (-want +got)\n%s", diff)
	}
	lk = withConfig(mk("256MiB", "20"), state.PD, keyMergeKeys, "200000")
	if diff := cmp.Diff([]brief{{"TF107", "warning", pdAddr, 0}}, only(CheckCluster(lk, now), "TF107")); diff != "" {
		t.Errorf("pre-v8.4 pair 20/200000 (-want +got)\n%s", diff)
	}
	in0 := Input{Desired: desired(pd(keyMergeSize, "54"), pd(keyMergeKeys, "540000")), Live: lk, Now: now}
	if diff := cmp.Diff([]brief(nil), only(Evaluate(in0), "TF107")); diff != "" {
		t.Errorf("declared 54/540000 (-want +got)\n%s", diff)
	}
	in0.Desired = desired(pd(keyMergeSize, "54"))
	if diff := cmp.Diff([]brief{{"TF107", "warning", keysAddr, 10}}, only(Evaluate(in0), "TF107")); diff != "" {
		t.Errorf("declared 54 with live keys 200000 (-want +got)\n%s", diff)
	}
	f := find(t, CheckCluster(mk("256MiB", "20"), now), "TF107")
	if !strings.Contains(f.Summary, "set schedule.max-merge-region-size = 54") {
		t.Errorf("summary lacks the suggestion: %s", f.Summary)
	}
	// Declared values win over live ones, and the finding points at the declaration.
	in := Input{Desired: desired(tikv(keySplitSize, "128MiB"), pd(keyMergeSize, "20")), Live: mk("256MiB", "54"), Now: now}
	if diff := cmp.Diff([]brief(nil), only(Evaluate(in), "TF107")); diff != "" {
		t.Errorf("declared 128MiB/20 (-want +got)\n%s", diff)
	}
	in.Desired = desired(tikv(keySplitSize, "256MiB"), pd(keyMergeSize, "20"))
	if diff := cmp.Diff([]brief{{"TF107", "warning", pdAddr, 11}}, only(Evaluate(in), "TF107")); diff != "" {
		t.Errorf("declared 256MiB/20 (-want +got)\n%s", diff)
	}
}

func TestRaftstoreDerivedTF108(t *testing.T) {
	ch := &plans.Change{Addr: state.ConfigAddress(state.TiKV, "", keySplitSize), Action: plans.Update, After: "256MiB", Range: at(11)}
	tests := []struct {
		name     string
		settings []any
		ch       *plans.Change
		want     []brief
	}{
		{"split changed online", []any{tikv(keySplitSize, "256MiB")}, ch, []brief{{"TF108", "info", split, 11}}},
		{"derived values declared", []any{tikv(keySplitSize, "256MiB"), tikv("raftstore.region-split-check-diff", "16MiB"),
			tikv("raftstore.raft-log-gc-size-limit", "192MiB"), tikv("raftstore.raft-log-gc-count-limit", "196608")}, ch, nil},
		{"another key changed", []any{tikv(keyMaxSize, "384MiB")},
			&plans.Change{Addr: state.ConfigAddress(state.TiKV, "", keyMaxSize), Action: plans.Update, After: "384MiB"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.settings...), Live: live("tikv=8.5.4"), Changes: []*plans.Change{tt.ch}, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF108")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	fs := Evaluate(Input{Desired: desired(tikv(keySplitSize, "256MiB")), Live: live("tikv=8.5.4"), Changes: []*plans.Change{ch}, Now: now})
	want := `raftstore.region-split-check-diff = "16MiB", raftstore.raft-log-gc-size-limit = "192MiB", raftstore.raft-log-gc-count-limit = 196608`
	if f := find(t, fs, "TF108"); !strings.Contains(f.Detail, want) {
		t.Errorf("detail lacks the derived values (TiKV's derivation from a 256MiB split size: 16MiB, 192MiB, 196608):\n%s", f.Detail)
	}
}

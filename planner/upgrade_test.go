package planner

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// liveAt is a one-instance-per-component cluster at v with config rows and
// global variables.
func liveAt(v string, config map[string]string, vars map[string]string) *state.Live {
	ver := version.MustParse(v)
	l := &state.Live{ServerVersionParsed: ver, VariablesRead: true, Variables: vars}
	for _, c := range []state.Component{state.TiDB, state.PD, state.TiKV} {
		l.Instances = append(l.Instances, state.Instance{Component: c, Address: "10.0.0.1:" + string(c), Version: ver, VersionText: v})
	}
	for k, val := range config {
		addr := mustAddr(k)
		l.Config = append(l.Config, state.ConfigRow{Component: addr.Component, Instance: "10.0.0.1:" + string(addr.Component), Key: addr.Key, Value: val})
	}
	return l
}

func upgradeSettingOf(t *testing.T, u *Upgrade, addr string) UpgradeSetting {
	t.Helper()
	for _, s := range u.Settings {
		if s.Addr.String() == addr {
			return s
		}
	}
	t.Fatalf("%s is not in the upgrade's settings", addr)
	return UpgradeSetting{}
}

// What the cluster runs after the upgrade follows where each component
// keeps a value across a restart: TiKV v8.4.0–v8.5.2 reset the region-size
// keys (tikv/tikv#18503), v8.5.3+ inherit them; PD keeps its persisted
// sections; a variable set with SET GLOBAL is kept; a pinned setting is
// what the configuration says.
func TestUpgradeImpact(t *testing.T) {
	config := map[string]string{"tikv.coprocessor.region-split-size": "96MiB", "pd.schedule.max-merge-region-size": "20",
		"pd.lease": "3", "tikv.raftstore.raft-log-gc-size-limit": "100MiB"}
	vars := map[string]string{"tidb_ignore_inlist_plan_digest": "OFF", "tidb_opt_prefer_range_scan": "ON"}
	dc := &state.DesiredCluster{Name: "prod", Variables: []state.VariableSetting{{Name: "tidb_enable_fast_create_table", Value: state.Value{Text: "false", Type: state.LiteralBool}}}}
	now := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	type want struct {
		runs    string
		certain bool
		pinned  bool
		pin     string
	}
	for _, tc := range []struct {
		to    string
		wants map[string]want
	}{
		{to: "v8.5.6", wants: map[string]want{
			"tikv.coprocessor.region-split-size":      {runs: "96MiB", certain: true, pin: "96MiB"},
			"pd.schedule.max-merge-region-size":       {runs: "20", certain: true, pin: "20"},
			"pd.lease":                                {runs: "5", pin: "3"},
			"tikv.raftstore.raft-log-gc-size-limit":   {runs: "192MiB", pin: "100MiB"}, // tuned: kept only if the config file has it
			"variable.tidb_ignore_inlist_plan_digest": {runs: "ON", pin: "OFF"},
			"variable.tidb_opt_prefer_range_scan":     {runs: "ON", certain: true, pin: "ON"}, // set: stored, kept
			"variable.tidb_enable_fast_create_table":  {runs: "false", certain: true, pinned: true},
		}},
		{to: "v8.5.1", wants: map[string]want{
			"tikv.coprocessor.region-split-size": {runs: "256MiB", certain: true, pin: "96MiB"},
		}},
	} {
		t.Run(tc.to, func(t *testing.T) {
			u := UpgradeImpact(dc, liveAt("v8.1.2", config, vars), version.MustParse(tc.to), now)
			for addr, w := range tc.wants {
				s := upgradeSettingOf(t, u, addr)
				got := want{runs: s.Runs, certain: s.Certain, pinned: s.Pinned, pin: s.Pin}
				if d := cmp.Diff(w, got, cmp.AllowUnexported(want{})); d != "" {
					t.Errorf("%s (-want +got):\n%s\nwhy: %s", addr, d, s.Why)
				}
			}
			if s := upgradeSettingOf(t, u, "tikv.coprocessor.region-split-size"); s.Before.Value != "96MiB" || s.After.Value != "256MiB" || s.After.Since.Short() != "v8.4.0" {
				t.Errorf("region-split-size defaults %+v -> %+v", s.Before, s.After)
			}
		})
	}
	// Upgrading into the range that resets the Region size is what TF101
	// warns about: the guards' finding comes with the impact.
	u := UpgradeImpact(dc, liveAt("v8.1.2", config, vars), version.MustParse("v8.5.1"), now)
	found := false
	for _, f := range u.Findings {
		found = found || f.Code == "TF101"
	}
	if !found {
		t.Errorf("no TF101 for an upgrade to v8.5.1: %v", u.Findings)
	}
}

// The pins are the values common to every cluster; one whose today's value
// differs between clusters, or that cannot be pinned, is left out with the
// reason.
func TestUpgradePins(t *testing.T) {
	s := func(addr, pin, note string) UpgradeSetting {
		return UpgradeSetting{Addr: mustAddr(addr), Pin: pin, PinNote: note}
	}
	us := []*Upgrade{
		{Cluster: "a", Settings: []UpgradeSetting{s("variable.x", "OFF", ""), s("variable.y", "1", ""), s("variable.z", "", "read-only")}},
		{Cluster: "b", Settings: []UpgradeSetting{s("variable.x", "OFF", ""), s("variable.y", "2", ""), {Addr: mustAddr("variable.w"), Pinned: true}}},
	}
	pins, skipped := Pins(us)
	if d := cmp.Diff([]UpgradePin{{Addr: mustAddr("variable.x"), Text: "OFF"}}, pins); d != "" {
		t.Errorf("pins (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"variable.y: today's value differs between clusters (a, b): declare it in each cluster block",
		"variable.z: read-only"}, skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
}

func mustAddr(s string) state.Address {
	a, err := state.ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}

package render

import (
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Plan scenarios shared by the golden tests. Each builds a plan through the
// real planner; guard findings come from fakeGuards (fixed texts), so the
// goldens change only when the planner or the renderers change.

var now = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

type scenario struct {
	name    string
	desired *state.Desired
	lives   map[string]*state.Live
	opts    planner.Options
}

func mkInst(c state.Component, addr, v string) state.Instance {
	return state.Instance{Component: c, Address: addr, StatusAddress: addr, VersionText: v, Version: version.MustParse(v)}
}

// liveCluster: 2 TiDB, 1 PD, 3 TiKV at version v; prefix is the first three
// octets of the addresses, so fleet members differ.
func liveCluster(v, prefix string) *state.Live {
	l := &state.Live{
		ReadAt:            now,
		ServerVersion:     "8.0.11-TiDB-v" + v,
		ConnectedInstance: prefix + ".1:4000",
		Instances: []state.Instance{
			mkInst(state.TiDB, prefix+".1:4000", v),
			mkInst(state.TiDB, prefix+".2:4000", v),
			mkInst(state.PD, prefix+".10:2379", v),
			mkInst(state.TiKV, prefix+".17:20160", v),
			mkInst(state.TiKV, prefix+".18:20160", v),
			mkInst(state.TiKV, prefix+".19:20160", v),
		},
		ConfigRead:         []state.Component{state.TiKV, state.PD},
		Variables:          map[string]string{"tidb_enable_resource_control": "ON", "tidb_enable_prepared_plan_cache": "ON", "tidb_enable_non_prepared_plan_cache": "OFF", "tidb_enable_instance_plan_cache": "OFF", "tidb_slow_log_threshold": "300"},
		VariablesRead:      true,
		ResourceGroupsRead: true,
		UsersRead:          true,
		ResourceGroups: []state.ResourceGroup{
			{Name: "default", RUPerSec: i64(state.UnlimitedRU), Priority: str("MEDIUM"), Burstable: str(state.BurstUnlimited)},
		},
		Users: []state.UserBinding{
			{UserRef: state.UserRef{User: "app", Host: "%"}},
			{UserRef: state.UserRef{User: "report", Host: "10.0.%"}},
			{UserRef: state.UserRef{User: "root", Host: "%"}},
		},
	}
	region(l, "96MiB", "144MiB", "960000", "1440000")
	l.Config = append(l.Config,
		state.ConfigRow{Component: state.PD, Instance: prefix + ".10:2379", Key: "schedule.max-merge-region-size", Value: "20"},
		state.ConfigRow{Component: state.PD, Instance: prefix + ".10:2379", Key: "schedule.max-merge-region-keys", Value: "200000"},
	)
	for _, a := range l.InstancesOf(state.TiKV) {
		l.Config = append(l.Config, state.ConfigRow{Component: state.TiKV, Instance: a, Key: "storage.block-cache.capacity", Value: "8GiB"})
	}
	return l
}

func region(l *state.Live, split, max, splitKeys, maxKeys string) {
	for _, a := range l.InstancesOf(state.TiKV) {
		setRow(l, state.TiKV, a, "coprocessor.region-split-size", split)
		setRow(l, state.TiKV, a, "coprocessor.region-max-size", max)
		setRow(l, state.TiKV, a, "coprocessor.region-split-keys", splitKeys)
		setRow(l, state.TiKV, a, "coprocessor.region-max-keys", maxKeys)
	}
}

func setRow(l *state.Live, c state.Component, instance, key, value string) {
	for i, r := range l.Config {
		if r.Component == c && r.Instance == instance && r.Key == key {
			l.Config[i].Value = value
			return
		}
	}
	l.Config = append(l.Config, state.ConfigRow{Component: c, Instance: instance, Key: key, Value: value})
}

func at(line int) diag.SourceRange {
	return diag.SourceRange{Filename: "prod.hcl", Start: diag.Pos{Line: line, Column: 5, Byte: line * 40}, End: diag.Pos{Line: line, Column: 40, Byte: line*40 + 35}}
}

func cfg(c state.Component, key, text string, line int) state.ConfigSetting {
	typ := state.LiteralString
	if !strings.ContainsAny(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		typ = state.LiteralNumber
	}
	return state.ConfigSetting{Component: c, Key: key, Value: state.Value{Text: text, Type: typ}, Range: at(line)}
}

func cfgAt(c state.Component, instance, key, text string, line int) state.ConfigSetting {
	s := cfg(c, key, text, line)
	s.Instance = instance
	return s
}

func variable(name, text string, line int) state.VariableSetting {
	typ := state.LiteralString
	switch strings.ToLower(text) {
	case "on", "off", "true", "false":
		typ = state.LiteralBool
	}
	return state.VariableSetting{Name: name, Value: state.Value{Text: text, Type: typ}, Range: at(line)}
}

func i64(n int64) *int64   { return &n }
func str(s string) *string { return &s }
func bl(b bool) *bool      { return &b }

func one(name string, dc *state.DesiredCluster, l *state.Live) scenario {
	dc.Name = "prod"
	dc.Range = at(1)
	return scenario{
		name:    name,
		desired: &state.Desired{Clusters: []*state.DesiredCluster{dc}, ConfigHash: "sha256:5d41402abc4b2a76b9719d911017c592"},
		lives:   map[string]*state.Live{"prod": l},
		opts:    planner.Options{Now: now, Guards: fakeGuards},
	}
}

// fakeGuards returns fixed findings keyed on what the plan touches, so the
// renderers' handling of findings is covered without depending on rule texts.
func fakeGuards(in guard.Input) []guard.Finding {
	var out []guard.Finding
	for _, c := range in.Changes {
		switch {
		case c.Addr.Key == "coprocessor.region-split-size":
			out = append(out, guard.Finding{Code: "TF101", Severity: diag.Warning, Address: c.Addr.String(),
				Summary: "the Region size may switch to 256MiB at the next restart (tikv#18503)",
				Detail:  "Declare all four region-size keys.\nRecord them in the TiUP topology too.",
				Link:    "https://github.com/tikv/tikv/issues/18503", Range: c.Range})
		case c.Addr.Kind == state.KindResourceGroup && c.Action == plans.Create && !strings.Contains(c.After, "PRIORITY=HIGH"):
			out = append(out, guard.Finding{Code: "TF110", Severity: diag.Warning, Address: c.Addr.String(),
				Summary: "MEDIUM priority may be throttled with idle CPU (tikv#18939)",
				Link:    "https://github.com/tikv/tikv/issues/18939", Range: c.Range})
		case c.Addr.Key == "tidb_slow_log_threshold":
			out = append(out, guard.Finding{Code: "TF111", Severity: diag.Error, Address: c.Addr.String(),
				Summary: "INSTANCE-scoped variable reaches only the connected TiDB", Detail: "Opt in to per-instance application.",
				Range: c.Range, Acknowledged: true, AckReason: "single TiDB in staging"})
		case c.Addr.Key == "storage.block-cache.capacity":
			out = append(out, guard.Finding{Code: "TF141", Severity: diag.Info, Address: c.Addr.String(),
				Summary: "keep the TiUP topology in step", Detail: "tiup cluster edit-config prod", Range: c.Range})
		}
	}
	if in.Live != nil && in.Live.Mixed(state.TiKV) {
		out = append(out, guard.Finding{Code: "TF113", Severity: diag.Warning, Summary: "TiKV instances run different versions; rules use the lowest"})
	}
	guard.Sort(out)
	return out
}

func scenarios() []scenario {
	var out []scenario

	// 1. Nothing to do: every spelling matches the live values.
	{
		l := liveCluster("8.5.1", "10.0.1")
		out = append(out, one("empty", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				cfg(state.TiKV, "coprocessor.region-split-size", "96MB", 3),
				cfg(state.TiKV, "coprocessor.region-max-size", "150994944", 4),
				cfg(state.PD, "schedule.max-merge-region-size", "20", 8),
			},
			Variables:      []state.VariableSetting{variable("tidb_enable_resource_control", "true", 12)},
			ResourceGroups: []state.ResourceGroup{{Name: "default", Priority: str("medium"), Range: at(15)}},
		}, l))
	}

	// 2. Every action kind: create, update, delete, drift.
	{
		l := liveCluster("8.5.1", "10.0.1")
		setRow(l, state.TiKV, "10.0.1.18:20160", "storage.block-cache.capacity", "6GiB")
		l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "legacy", RUPerSec: i64(500), Priority: str("LOW"), Burstable: str(state.BurstOff)})
		out = append(out, one("every-action", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				cfg(state.TiKV, "storage.block-cache.capacity", "8GiB", 5),
				cfg(state.PD, "schedule.max-merge-region-size", "54", 8),
			},
			ResourceGroups:      []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), Priority: str("HIGH"), BurstableBool: bl(true), Range: at(20)}},
			DropUnmanagedGroups: true,
		}, l))
	}

	// 3. Per-instance drift: one of three TiKV differs.
	{
		l := liveCluster("8.5.1", "10.0.1")
		setRow(l, state.TiKV, "10.0.1.19:20160", "storage.block-cache.capacity", "4GiB")
		setRow(l, state.TiKV, "10.0.1.17:20160", "storage.block-cache.capacity", "4GiB")
		out = append(out, one("per-instance-drift", &state.DesiredCluster{
			Config: []state.ConfigSetting{cfg(state.TiKV, "storage.block-cache.capacity", "8GiB", 5)},
		}, l))
	}

	// 4. Heterogeneous cluster: mixed TiKV versions and a per-instance value.
	{
		l := liveCluster("8.5.1", "10.0.1")
		l.Instances[5] = mkInst(state.TiKV, "10.0.1.19:20160", "8.5.3")
		setRow(l, state.TiKV, "10.0.1.19:20160", "storage.block-cache.capacity", "8GiB")
		out = append(out, one("heterogeneous", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				cfg(state.TiKV, "storage.block-cache.capacity", "12GiB", 5),
				cfgAt(state.TiKV, "10.0.1.19:20160", "storage.block-cache.capacity", "16GiB", 6),
			},
		}, l))
	}

	// 5. Ordering: growing the region size raises max before split; PD merge
	// thresholds follow.
	{
		l := liveCluster("8.5.3", "10.0.1")
		out = append(out, one("order-region-grow", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				cfg(state.PD, "schedule.max-merge-region-keys", "540000", 2),
				cfg(state.PD, "schedule.max-merge-region-size", "54", 3),
				cfg(state.TiKV, "coprocessor.region-split-size", "256MiB", 4),
				cfg(state.TiKV, "coprocessor.region-split-keys", "2560000", 5),
				cfg(state.TiKV, "coprocessor.region-max-size", "384MiB", 6),
				cfg(state.TiKV, "coprocessor.region-max-keys", "3840000", 7),
			},
		}, l))
	}

	// 6. Ordering: shrinking lowers split before max.
	{
		l := liveCluster("8.5.3", "10.0.1")
		region(l, "256MiB", "384MiB", "2560000", "3840000")
		out = append(out, one("order-region-shrink", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				cfg(state.TiKV, "coprocessor.region-max-size", "144MiB", 3),
				cfg(state.TiKV, "coprocessor.region-split-size", "96MiB", 4),
				cfg(state.TiKV, "coprocessor.region-max-keys", "1440000", 5),
				cfg(state.TiKV, "coprocessor.region-split-keys", "960000", 6),
			},
		}, l))
	}

	// 7. Ordering: resource control on, then groups, then users bound.
	{
		l := liveCluster("8.5.4", "10.0.1")
		l.Variables["tidb_enable_resource_control"] = "OFF"
		out = append(out, one("order-resource-control", &state.DesiredCluster{
			Variables: []state.VariableSetting{variable("tidb_enable_resource_control", "ON", 30)},
			ResourceGroups: []state.ResourceGroup{
				{Name: "batch", RUPerSec: i64(1000), Priority: str("LOW"), Range: at(10),
					QueryLimit: &state.QueryLimit{ExecElapsed: "60s", Action: "SWITCH_GROUP", SwitchGroup: "oltp_slow"}},
				{Name: "oltp", RUPerSec: i64(4000), Priority: str("HIGH"), Users: []state.UserRef{{User: "app", Host: "%"}}, Range: at(2)},
				{Name: "oltp_slow", RUPerSec: i64(200), Range: at(20)},
			},
		}, l))
	}

	// 8. Ordering: users unbound before an unmanaged group is dropped.
	{
		l := liveCluster("8.5.4", "10.0.1")
		l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "old_reports", RUPerSec: i64(300), Priority: str("MEDIUM"), Burstable: str(state.BurstOff)})
		l.Users[1].ResourceGroup = "old_reports"
		l.Users[0].ResourceGroup = "old_reports"
		out = append(out, one("order-unbind-before-drop", &state.DesiredCluster{
			ResourceGroups: []state.ResourceGroup{
				{Name: "oltp", RUPerSec: i64(4000), Priority: str("HIGH"), Users: []state.UserRef{{User: "app", Host: "%"}}, Range: at(2)},
			},
			DropUnmanagedGroups: true,
		}, l))
	}

	// 9. Ordering: plan-cache switches before the instance plan cache.
	{
		l := liveCluster("8.5.1", "10.0.1")
		l.Variables["tidb_enable_prepared_plan_cache"] = "OFF"
		out = append(out, one("order-plan-cache", &state.DesiredCluster{
			Variables: []state.VariableSetting{
				variable("tidb_enable_instance_plan_cache", "ON", 2),
				variable("tidb_enable_non_prepared_plan_cache", "ON", 3),
				variable("tidb_enable_prepared_plan_cache", "ON", 4),
			},
		}, l))
	}

	// 10. Unmanaged groups are listed, never dropped without opt-in; `default`
	// is never listed. A group update shows a long-value diff.
	{
		l := liveCluster("8.5.1", "10.0.1")
		l.ResourceGroups = append(l.ResourceGroups,
			state.ResourceGroup{Name: "etl", RUPerSec: i64(800), Priority: str("LOW"), Burstable: str(state.BurstOff)},
			state.ResourceGroup{Name: "adhoc", RUPerSec: i64(100), Priority: str("LOW"), Burstable: str(state.BurstOff)},
			state.ResourceGroup{Name: "oltp", RUPerSec: i64(2000), Priority: str("MEDIUM"), Burstable: str(state.BurstOff),
				QueryLimit: &state.QueryLimit{ExecElapsed: "1m0s", Action: "COOLDOWN", Watch: "EXACT", WatchDuration: "10m0s"}},
		)
		out = append(out, one("unmanaged-groups", &state.DesiredCluster{
			ResourceGroups: []state.ResourceGroup{
				{Name: "oltp", RUPerSec: i64(2000), Priority: str("HIGH"), Range: at(2),
					QueryLimit: &state.QueryLimit{ExecElapsed: "30s", Action: "KILL", Watch: "SIMILAR", WatchDuration: "30m"}},
			},
		}, l))
	}

	// 11. prevent_destroy: with unmanaged_resource_groups = "drop", a protected declared
	// group is kept and altered, an undeclared one is dropped.
	{
		l := liveCluster("8.5.4", "10.0.1")
		l.ResourceGroups = append(l.ResourceGroups,
			state.ResourceGroup{Name: "payments", RUPerSec: i64(5000), Priority: str("HIGH"), Burstable: str(state.BurstOff)},
			state.ResourceGroup{Name: "scratch", RUPerSec: i64(50), Priority: str("LOW"), Burstable: str(state.BurstOff)},
		)
		out = append(out, one("prevent-destroy", &state.DesiredCluster{
			ResourceGroups: []state.ResourceGroup{
				{Name: "payments", RUPerSec: i64(6000), PreventDestroy: true, Range: at(2), FieldRanges: map[string]diag.SourceRange{"ru_per_sec": at(3)}},
			},
			DropUnmanagedGroups: true,
		}, l))
	}

	// 12. A fleet of three clusters from one configuration.
	{
		base := func(name, prefix, v string) (*state.DesiredCluster, *state.Live) {
			l := liveCluster(v, prefix)
			dc := &state.DesiredCluster{Name: name, Range: at(1),
				Config:    []state.ConfigSetting{cfg(state.TiKV, "coprocessor.region-split-size", "96MiB", 3)},
				Variables: []state.VariableSetting{variable("tidb_enable_non_prepared_plan_cache", "ON", 9)},
			}
			return dc, l
		}
		d1, l1 := base("tokyo", "10.1.0", "8.5.1")
		d2, l2 := base("osaka", "10.2.0", "8.5.4")
		d3, l3 := base("staging", "10.3.0", "8.5.1")
		region(l2, "256MiB", "384MiB", "2560000", "3840000")
		l3.Variables["tidb_enable_non_prepared_plan_cache"] = "ON"
		out = append(out, scenario{
			name:    "fleet",
			desired: &state.Desired{Clusters: []*state.DesiredCluster{d1, d2, d3}, ConfigHash: "sha256:fleet"},
			lives:   map[string]*state.Live{"tokyo": l1, "osaka": l2, "staging": l3},
			opts:    planner.Options{Now: now, Guards: fakeGuards},
		})
	}

	// 13. Offline plan from a snapshot with an incomplete read.
	{
		l := liveCluster("8.5.1", "10.0.1")
		l.Offline = &state.SnapshotInfo{Path: "snapshots/prod.json", TakenAt: now.Add(-26*time.Hour - 15*time.Minute), Hash: "sha256:abc"}
		l.Gaps = []state.Gap{{Kind: state.GapRead, Reason: "tikv 10.0.1.19:20160 did not answer SHOW CONFIG"}}
		sc := one("offline-incomplete", &state.DesiredCluster{
			Config: []state.ConfigSetting{cfg(state.TiKV, "coprocessor.region-split-size", "96MiB", 3)},
		}, l)
		sc.opts.AllowPartial = true
		out = append(out, sc)
	}

	// 14. INSTANCE-scoped variable and an acknowledged error; a v9.0 cluster
	// writes BURSTABLE explicitly.
	{
		l := liveCluster("9.0.0", "10.0.1")
		l.InstanceVariables = []string{"tidb_slow_log_threshold"}
		l.Notes = []string{"INSTANCE-scoped variables (tidb_slow_log_threshold) were read from 10.0.1.1:4000 only; other TiDB instances may hold other values (https://docs.pingcap.com/tidb/stable/system-variables)"}
		out = append(out, one("instance-variable-v9", &state.DesiredCluster{
			Variables:      []state.VariableSetting{variable("tidb_slow_log_threshold", "1000", 4)},
			ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(3000), Priority: str("HIGH"), BurstableBool: bl(true), Range: at(8)}},
		}, l))
	}

	// 16. A partial plan (--allow-partial) with one TiKV down: the readable
	// instances are changed one by one, the unread one is left alone and
	// listed as incomplete, never shown as <absent>.
	{
		l := liveCluster("8.5.1", "10.0.1")
		down := "10.0.1.19:20160"
		var rows []state.ConfigRow
		for _, r := range l.Config {
			if r.Instance != down {
				rows = append(rows, r)
			}
		}
		l.Config = rows
		reason := "tikv " + down + " returned no config rows (instance down or unreachable): request http://10.0.1.19:20180/config failed: connection refused"
		l.Gaps = []state.Gap{{Kind: state.GapInstance, Component: state.TiKV, Instance: down, Reason: reason}}
		sc := one("partial-instance-down", &state.DesiredCluster{
			Config: []state.ConfigSetting{cfg(state.TiKV, "storage.block-cache.capacity", "16GiB", 3)},
		}, l)
		sc.opts.AllowPartial = true
		out = append(out, sc)
	}

	// 17. A change that takes effect only after a TiKV restart: the IME
	// switched on is accepted online but the engine is built at start only
	// (https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine#usage).
	{
		l := liveCluster("8.5.1", "10.0.1")
		for _, a := range l.InstancesOf(state.TiKV) {
			setRow(l, state.TiKV, a, "in-memory-engine.enable", "false")
		}
		out = append(out, one("restart-required", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				{Component: state.TiKV, Key: "in-memory-engine.enable", Value: state.Value{Text: "true", Type: state.LiteralBool}, Range: at(4)},
			},
		}, l))
	}

	// 15. Many drifted instances: statements fold unless verbose.
	{
		l := liveCluster("8.5.1", "10.0.1")
		for i := 20; i < 26; i++ {
			a := "10.0.1." + string(rune('0'+i/10)) + string(rune('0'+i%10)) + ":20160"
			l.Instances = append(l.Instances, mkInst(state.TiKV, a, "8.5.1"))
			setRow(l, state.TiKV, a, "storage.block-cache.capacity", "4GiB")
		}
		out = append(out, one("many-instances", &state.DesiredCluster{
			Config: []state.ConfigSetting{cfg(state.TiKV, "storage.block-cache.capacity", "8GiB", 5)},
		}, l))
	}

	// 18. Accepted drift: an ignore block keeps one difference out of the
	// plan (shown, never applied); an expired one keeps nothing out.
	{
		l := liveCluster("8.5.1", "10.0.1")
		for _, a := range l.InstancesOf(state.TiKV) {
			setRow(l, state.TiKV, a, "raftstore.store-pool-size", "4")
			setRow(l, state.TiKV, a, "gc.ratio-threshold", "1.1")
		}
		until := time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)
		expired := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		out = append(out, one("ignored-drift", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				cfg(state.TiKV, "raftstore.store-pool-size", "2", 3),
				cfg(state.TiKV, "gc.ratio-threshold", "1.3", 4),
			},
			Ignores: []state.Ignore{
				{Pattern: "tikv.gc.*", Reason: "tuned during INC-7", Until: expired, Range: at(12)},
				{Pattern: "tikv.raftstore.*", Reason: "INC-123: raised during the incident, revert after the postmortem", Until: until, Range: at(8)},
			},
		}, l))
	}
	return append(out, evidenceScenarios()...)
}

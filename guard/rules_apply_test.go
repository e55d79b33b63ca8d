package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

func change(comp state.Component, key, after string, line int) *plans.Change {
	return &plans.Change{Addr: state.ConfigAddress(comp, "", key), Action: plans.Update, After: after, Range: at(line)}
}

func TestRestartOnlyTF140(t *testing.T) {
	tests := []struct {
		name string
		ch   *plans.Change
		want []brief
	}{
		{"resource-control.enabled", change(state.TiKV, "resource-control.enabled", "false", 20),
			[]brief{{"TF140", "error", "tikv.resource-control.enabled", 20}}},
		{"in-memory-engine.cross-check-interval", change(state.TiKV, "in-memory-engine.cross-check-interval", "1m", 21),
			[]brief{{"TF140", "error", "tikv.in-memory-engine.cross-check-interval", 21}}},
		{"region-split-size is online", change(state.TiKV, keySplitSize, "256MiB", 22), nil},
		{"in-memory-engine.enable is TF131's", change(state.TiKV, keyIMEEnable, "true", 23), nil},
		{"TiFlash outside raftstore-proxy", change(state.TiFlash, "profiles.default.max_memory_usage", "0", 24),
			[]brief{{"TF140", "error", "tiflash.profiles.default.max_memory_usage", 24}}},
		{"TiFlash raftstore-proxy is online", change(state.TiFlash, "raftstore-proxy.server.snap-io-max-bytes-per-sec", "300MiB", 25), nil},
		{"PD schedule item is online", change(state.PD, keyMergeSize, "54", 26), nil},
		{"no-op is not applied", func() *plans.Change {
			ch := change(state.TiKV, "resource-control.enabled", "true", 27)
			ch.Action = plans.NoOp
			return ch
		}(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(), Live: live("tikv=8.5.3", "pd=8.5.3", "tiflash=8.5.3"),
				Changes: []*plans.Change{tt.ch}, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF140")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	fs := Evaluate(Input{Desired: desired(), Live: live("tikv=8.5.3"),
		Changes: []*plans.Change{change(state.TiKV, "resource-control.enabled", "false", 20)}, Now: now})
	f := find(t, fs, "TF140")
	for _, want := range []string{"tiup cluster edit-config tidb-prod", "resource-control.enabled: false", "reload"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("TF140 lacks %q:\n%s", want, f.Detail)
		}
	}
	if len(Blocking(fs)) != 1 {
		t.Errorf("TF140 must block apply: %v", only(Blocking(fs), "TF"))
	}
	// The way to apply it is the persisted layer's export, with the rollout.
	if want := "`tiform export tiup` prints exactly what to merge with `tiup cluster edit-config tidb-prod`; then `tiup cluster reload tidb-prod -R tikv` (a rolling restart of every tikv instance)"; !strings.Contains(f.Detail, want) {
		t.Errorf("TF140 lacks %q:\n%s", want, f.Detail)
	}
	op := desired()
	op.Persisted = &state.Persisted{Tool: state.PersistOperator, Files: []string{"tikv-group.yaml"}}
	fs = Evaluate(Input{Desired: op, Live: live("tikv=8.5.3"),
		Changes: []*plans.Change{change(state.TiKV, "resource-control.enabled", "false", 20)}, Now: now})
	f = find(t, fs, "TF140")
	if want := "`tiform export operator` prints the merge patch of the resource that configures tikv, with its kubectl command; the Operator then restarts every tikv pod of it, one at a time (rolling restart)"; !strings.Contains(f.Detail, want) {
		t.Errorf("TF140 of an Operator cluster lacks %q:\n%s", want, f.Detail)
	}
}

func TestTiUPNotesTF141TF142(t *testing.T) {
	per := change(state.TiKV, "storage.block-cache.capacity", "8GiB", 30)
	per.Addr.Instance = "10.0.1.17:20160"
	changes := []*plans.Change{
		change(state.TiKV, keySplitSize, "256MiB", 10),
		change(state.PD, keyMergeSize, "54", 20),
		per,
		{Addr: state.VariableAddress("tidb_enable_non_prepared_plan_cache"), Action: plans.Update, After: "ON", Range: at(40)},
		// Restart-only (TF140) and IME enable (TF131) need a reload: their
		// own findings carry the topology step, TF141 ("no reload needed")
		// would contradict them.
		change(state.TiKV, "resource-control.enabled", "false", 50),
		change(state.TiKV, keyIMEEnable, "true", 51),
	}
	fs := Evaluate(Input{Desired: desired(), Live: live("tikv=8.5.3", "pd=8.5.3"), Changes: changes, Now: now})
	want := []brief{
		{"TF141", "info", split, 10},
		{"TF141", "info", `tikv["10.0.1.17:20160"].storage.block-cache.capacity`, 30},
		{"TF142", "info", "pd.schedule.max-merge-region-size", 20},
	}
	if diff := cmp.Diff(want, only(fs, "TF141", "TF142")); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	wide := "tiup cluster edit-config tidb-prod\n  server_configs:\n    tikv:\n      coprocessor.region-split-size: 256MiB"
	if f := find(t, fs, "TF141"); !strings.Contains(f.Detail, wide) {
		t.Errorf("type-wide snippet missing:\n%s", f.Detail)
	}
	host := "  tikv_servers:\n    - host: 10.0.1.17\n      port: 20160\n      config:\n        storage.block-cache.capacity: 8GiB"
	// One topology edit for every change: each TF141 carries the same
	// detail, with both the type-wide and the per-instance value, so that a
	// view grouping the findings shows the snippet once.
	for _, f := range fs {
		if f.Code == "TF141" && (!strings.Contains(f.Detail, host) || !strings.Contains(f.Detail, wide) || f.Detail != find(t, fs, "TF141").Detail) {
			t.Errorf("TF141 %s: the detail is not the one topology edit of every change:\n%s", f.Address, f.Detail)
		}
	}
	if f := find(t, fs, "TF142"); !strings.Contains(f.Detail, "etcd") || f.Link != linkTiup442 {
		t.Errorf("TF142: %+v", f)
	}
}

func TestInstanceVariablesTF143(t *testing.T) {
	tests := []struct {
		name  string
		v     state.VariableSetting
		allow bool
		want  []brief
	}{
		{"max_connections", variable("max_connections", "1000"), false,
			[]brief{{"TF143", "error", "variable.max_connections", 10}}},
		{"tidb_slow_log_threshold, any case", variable("TiDB_Slow_Log_Threshold", "300"), false,
			[]brief{{"TF143", "error", "variable.tidb_slow_log_threshold", 10}}},
		{"opted in", variable("max_connections", "1000"), true, nil},
		{"a GLOBAL variable", variable("tidb_enable_non_prepared_plan_cache", "ON"), false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := desired(tt.v)
			d.AllowInstanceVariables = tt.allow
			l := live("tidb=8.5.3,8.5.3,8.5.3")
			l.ConnectedInstance = "10.0.1.10:4000"
			fs := Evaluate(Input{Desired: d, Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF143")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.want != nil {
				f := find(t, fs, "TF143")
				if !strings.Contains(f.Detail, "10.0.1.10:4000") || !strings.Contains(f.Detail, "other 2 TiDB instances") {
					t.Errorf("detail:\n%s", f.Detail)
				}
			}
		})
	}
}

func TestGroupOptionsTF150(t *testing.T) {
	ten := int64(10)
	withLimit := func(q *state.QueryLimit, b *state.Background) state.ResourceGroup {
		g := group("rg", "")
		g.QueryLimit, g.Background = q, b
		g.FieldRanges = map[string]diag.SourceRange{"query_limit": at(50), "background": at(60)}
		return g
	}
	e := func(line int) []brief { return []brief{{"TF150", "error", "resource_group.rg", line}} }
	tests := []struct {
		name string
		tidb string
		g    state.ResourceGroup
		want []brief
	}{
		{"PRIORITY on 6.6.0", "6.6.0", group("rg", "HIGH"), e(10)},
		{"PRIORITY on 7.0.0", "7.0.0", group("rg", "HIGH"), nil},
		{"QUERY_LIMIT on 7.1.9", "7.1.9", withLimit(&state.QueryLimit{ExecElapsed: "60s", Action: "KILL"}, nil), e(50)},
		{"QUERY_LIMIT on 7.2.0", "7.2.0", withLimit(&state.QueryLimit{ExecElapsed: "60s", Action: "KILL"}, nil), nil},
		{"empty QUERY_LIMIT (removal) on 7.1.9", "7.1.9", withLimit(&state.QueryLimit{Empty: true}, nil), nil},
		{"PROCESSED_KEYS on 8.3.0", "8.3.0", withLimit(&state.QueryLimit{ProcessedKeys: &ten, Action: "KILL"}, nil), e(50)},
		{"PROCESSED_KEYS on 8.4.0", "8.4.0", withLimit(&state.QueryLimit{ProcessedKeys: &ten, Action: "KILL"}, nil), nil},
		{"SWITCH_GROUP on 8.3.0", "8.3.0", withLimit(&state.QueryLimit{ExecElapsed: "1s", Action: "SWITCH_GROUP", SwitchGroup: "slow"}, nil), e(50)},
		{"BACKGROUND on 7.3.0", "7.3.0", withLimit(nil, &state.Background{TaskTypes: []string{"br"}}), e(60)},
		{"BACKGROUND on 7.4.0", "7.4.0", withLimit(nil, &state.Background{TaskTypes: []string{"br"}}), nil},
		{"UTILIZATION_LIMIT on 8.3.0", "8.3.0", withLimit(nil, &state.Background{TaskTypes: []string{"br"}, UtilizationLimit: &ten}), e(60)},
		{"UTILIZATION_LIMIT on 8.4.0", "8.4.0", withLimit(nil, &state.Background{TaskTypes: []string{"br"}, UtilizationLimit: &ten}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.g), Live: live("tidb=" + tt.tidb), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF150")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestExistsInVersionTF150(t *testing.T) {
	moderated := group("oltp", "HIGH")
	m := state.BurstModerated
	moderated.Burstable = &m
	tests := []struct {
		name    string
		spec    []string
		setting any
		want    []brief
		has     string
	}{
		{"strict mode on 8.1.2: introduced in 8.2.0", []string{"tidb=8.1.2"}, variable("tidb_resource_control_strict_mode", "ON"),
			[]brief{{"TF150", "error", "variable.tidb_resource_control_strict_mode", 10}}, "exists in v8.2.0+"},
		{"strict mode on 8.2.0", []string{"tidb=8.2.0"}, variable("tidb_resource_control_strict_mode", "ON"), nil, ""},
		{"log_bin on 8.3.9", []string{"tidb=8.3.9"}, variable("log_bin", "OFF"), nil, ""},
		{"log_bin on 8.4.0: removed", []string{"tidb=8.4.0"}, variable("log_bin", "OFF"),
			[]brief{{"TF150", "error", "variable.log_bin", 10}}, "removed in v8.4.0"},
		{"priority-ctl-strategy on 8.3.0", []string{"tikv=8.3.0"}, tikv("resource-control.priority-ctl-strategy", "conservative"),
			[]brief{{"TF150", "error", "tikv.resource-control.priority-ctl-strategy", 10}}, "exists in v8.4.0+"},
		{"priority-ctl-strategy on 8.4.0", []string{"tikv=8.4.0"}, tikv("resource-control.priority-ctl-strategy", "conservative"), nil, ""},
		{"MODERATED on 8.5.7", []string{"tidb=8.5.7"}, moderated,
			[]brief{{"TF150", "error", "resource_group.oltp", 10}}, "v9.0.0"},
		{"MODERATED on 9.0.0", []string{"tidb=9.0.0"}, moderated, nil, ""},
		{"IME keys are TF130's", []string{"tikv=8.4.0"}, tikv(keyIMEEnable, "true"), nil, ""},
		{"unknown version: silent", nil, variable("tidb_resource_control_strict_mode", "ON"), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.setting), Live: live(tt.spec...), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF150")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.has != "" && !strings.Contains(find(t, fs, "TF150").Summary, tt.has) {
				t.Errorf("summary lacks %q: %s", tt.has, find(t, fs, "TF150").Summary)
			}
		})
	}
}

func TestOnlineSinceTF140(t *testing.T) {
	ch := change(state.TiKV, "import.num-threads", "16", 40)
	for _, tt := range []struct {
		tikv string
		want []brief
	}{
		// online in v7.0.0–v7.2.0, v8.1.2 and v8.5.2+ (tikv/tikv components/sst_importer/src/config.rs at each tag)
		{"8.1.1", []brief{{"TF140", "error", "tikv.import.num-threads", 40}}},
		{"8.1.2", nil},
		{"8.2.0", []brief{{"TF140", "error", "tikv.import.num-threads", 40}}},
		{"8.5.2", nil},
	} {
		fs := Evaluate(Input{Desired: desired(), Live: live("tikv=" + tt.tikv), Changes: []*plans.Change{ch}, Now: now})
		if diff := cmp.Diff(tt.want, only(fs, "TF140")); diff != "" {
			t.Errorf("%s (-want +got)\n%s", tt.tikv, diff)
		}
		if tt.want != nil && !strings.Contains(find(t, fs, "TF140").Detail, "online in v7.0.0–v7.2.0, v8.1.2, v8.5.2+") {
			t.Errorf("detail: %s", find(t, fs, "TF140").Detail)
		}
	}
}

// A key the cluster's version does not have is TF150's, not restart-only:
// raftstore.periodic-full-compact-start-max-cpu arrived in v7.6.0
// (tikv/tikv@v7.6.0:components/raftstore/src/store/config.rs).
func TestAbsentKeyIsNotTF140(t *testing.T) {
	ch := change(state.TiKV, "raftstore.periodic-full-compact-start-max-cpu", "0.2", 40)
	for _, tt := range []struct {
		tikv  string
		tf140 bool
	}{
		{"7.5.6", false}, // absent: TF150
		{"8.5.1", false}, // online
		{"7.6.0", false},
	} {
		fs := Evaluate(Input{Desired: desired(), Live: live("tikv=" + tt.tikv), Changes: []*plans.Change{ch}, Now: now})
		if got := len(only(fs, "TF140")) > 0; got != tt.tf140 {
			t.Errorf("tikv %s: TF140 %v, want %v", tt.tikv, got, tt.tf140)
		}
	}
}

func TestDeprecatedTF153(t *testing.T) {
	tests := []struct {
		name, tidb string
		v          state.VariableSetting
		want       []brief
		has        string
	}{
		{"telemetry on 8.0.0", "8.0.0", variable("tidb_enable_telemetry", "OFF"), nil, ""},
		{"telemetry on 8.1.0", "8.1.0", variable("tidb_enable_telemetry", "OFF"),
			[]brief{{"TF153", "warning", "variable.tidb_enable_telemetry", 10}}, "Remove it"},
		{"prepared cache size on 7.0.0", "7.0.0", variable("tidb_prepared_plan_cache_size", "50"), nil, ""},
		{"prepared cache size on 7.1.0", "7.1.0", variable("tidb_prepared_plan_cache_size", "50"),
			[]brief{{"TF153", "warning", "variable.tidb_prepared_plan_cache_size", 10}}, "Declare tidb_session_plan_cache_size instead"},
		{"current variable", "8.5.4", variable("tidb_enable_non_prepared_plan_cache", "ON"), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.v), Live: live("tidb=" + tt.tidb), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF153")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.has != "" && !strings.Contains(find(t, fs, "TF153").Detail, tt.has) {
				t.Errorf("detail: %s", find(t, fs, "TF153").Detail)
			}
		})
	}
}

// TestTiUPNameNotDeclared: without tiup_cluster the advice does not invent
// a name (tiform's cluster name is often not TiUP's): it shows a
// placeholder and says how to declare the name.
func TestTiUPNameNotDeclared(t *testing.T) {
	d := desired()
	d.TiUPCluster = ""
	fs := Evaluate(Input{Desired: d, Live: live("tikv=8.5.3"), Changes: []*plans.Change{change(state.TiKV, keySplitSize, "256MiB", 10)}, Now: now})
	f := find(t, fs, "TF141")
	for _, want := range []string{"tiup cluster edit-config <tiup-cluster>\n", `tiup_cluster = "NAME"`} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("TF141 lacks %q:\n%s", want, f.Detail)
		}
	}
	if strings.Contains(f.Detail, "edit-config prod") {
		t.Errorf("TF141 names tiform's cluster as the TiUP cluster:\n%s", f.Detail)
	}
}

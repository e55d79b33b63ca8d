package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
)

// topology is a TiUP persisted layer read from YAML (tiup.Parse, Places).
func topology(t *testing.T, y string) *state.Persisted {
	t.Helper()
	top, err := tiup.Parse([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return &state.Persisted{Tool: state.PersistTiUP, Files: []string{"meta.yaml"}, Places: top.Places("meta.yaml")}
}

type layerBrief struct {
	Addr    string
	Status  LayerStatus
	Planned bool
}

func layerBriefs(l *Layers) []layerBrief {
	if l == nil {
		return nil
	}
	var out []layerBrief
	for _, s := range l.Settings {
		out = append(out, layerBrief{s.Addr.String(), s.Status, s.Planned})
	}
	return out
}

const tikvHosts = "tikv_servers:\n  - host: 10.0.1.17\n  - host: 10.0.1.18\n  - host: 10.0.1.19\n"

func TestLayers(t *testing.T) {
	ratio := "gc.ratio-threshold"
	tests := []struct {
		name    string
		topo    string
		running string // gc.ratio-threshold on every TiKV
		host17  string // its value on 10.0.1.17 when set
		want    []layerBrief
		reason  string
	}{
		{"applied online, the topology lacks it", tikvHosts, "1.5", "", []layerBrief{{"tikv.gc.ratio-threshold", LayerReverted, false}},
			"running differs from persisted: the next `tiup cluster reload` (or restart, or upgrade) reverts it (3 of 3 instances)"},
		{"the topology holds another value", "server_configs:\n  tikv:\n    gc.ratio-threshold: 1.1\n" + tikvHosts, "1.5", "",
			[]layerBrief{{"tikv.gc.ratio-threshold", LayerReverted, false}}, "(3 of 3 instances)"},
		{"one host holds it", "server_configs:\n  tikv:\n    gc:\n      ratio-threshold: 1.5\n" + strings.Replace(tikvHosts, "10.0.1.17\n", "10.0.1.17\n    config:\n      gc.ratio-threshold: 1.2\n", 1),
			"1.5", "", []layerBrief{{"tikv.gc.ratio-threshold", LayerReverted, false}}, "(1 of 3 instances)"},
		{"in step", "server_configs:\n  tikv:\n    gc.ratio-threshold: 1.5\n" + tikvHosts, "1.5", "", []layerBrief{{"tikv.gc.ratio-threshold", LayerInStep, false}}, ""},
		{"planned, the topology lacks it", tikvHosts, "1.1", "", []layerBrief{{"tikv.gc.ratio-threshold", LayerNotPersisted, true}},
			"declared online but not persisted"},
		{"planned, the topology already holds it", "server_configs:\n  tikv:\n    gc.ratio-threshold: 1.5\n" + tikvHosts, "1.1", "",
			[]layerBrief{{"tikv.gc.ratio-threshold", LayerInStep, true}}, ""},
		{"drift on one instance, the topology holds the declared value", "server_configs:\n  tikv:\n    gc.ratio-threshold: 1.5\n" + tikvHosts, "1.5", "2.5",
			[]layerBrief{{"tikv.gc.ratio-threshold", LayerInStep, true}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := cluster("8.5.1")
			tikvAll(l, ratio, tt.running)
			if tt.host17 != "" {
				setRow(l, state.TiKV, "10.0.1.17:20160", ratio, tt.host17)
			}
			dc := &state.DesiredCluster{Name: "c", TiUPCluster: "prod", Config: []state.ConfigSetting{cfgN(state.TiKV, ratio, "1.5", 3)}, Persisted: topology(t, tt.topo)}
			cp, err := BuildCluster(dc, l, Options{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, layerBriefs(cp.Layers)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			s := cp.Layers.Settings[0]
			if !strings.Contains(s.Reason, tt.reason) {
				t.Errorf("reason %q, want %q", s.Reason, tt.reason)
			}
			if (s.Status == LayerReverted || s.Status == LayerNotPersisted) != (s.Fix != "") {
				t.Errorf("fix %q for status %s", s.Fix, s.Status)
			}
			if s.Status == LayerReverted && !strings.Contains(s.Fix, "`tiup cluster reload prod -R tikv --skip-restart`") {
				t.Errorf("fix %q", s.Fix)
			}
			if got := cp.Layers.Reverted(); got != (s.Status == LayerReverted) {
				t.Errorf("Reverted() = %v for %s", got, s.Status)
			}
		})
	}
}

// TestLayersMeaning: values compare by meaning (268435456 = 256MiB), a PD
// item PD keeps in etcd is never reverted, a component the layer does not
// hold is not reported, and a sensitive value is never shown.
func TestLayersMeaning(t *testing.T) {
	l := cluster("8.5.1")
	tikvAll(l, "coprocessor.region-split-size", "256MiB")
	tikvAll(l, "split.qps-threshold", "3000")
	setRow(l, state.PD, "10.0.1.10:2379", "schedule.max-merge-region-size", "54")
	split := cfgS(state.TiKV, "coprocessor.region-split-size", "256MiB", 3)
	secret := cfgN(state.TiKV, "split.qps-threshold", "3000", 4)
	secret.Value.Sensitive = true
	dc := &state.DesiredCluster{Name: "c", Config: []state.ConfigSetting{split, secret, cfgN(state.PD, "schedule.max-merge-region-size", "54", 5)},
		Persisted: topology(t, "server_configs:\n  tikv:\n    coprocessor.region-split-size: 268435456\n    split.qps-threshold: 2000\n"+tikvHosts)}
	cp, err := BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	want := []layerBrief{{"tikv.coprocessor.region-split-size", LayerInStep, false}, {"tikv.split.qps-threshold", LayerReverted, false}}
	if diff := cmp.Diff(want, layerBriefs(cp.Layers)); diff != "" {
		t.Errorf("the topology has no PD: PD is not reported (-want +got)\n%s", diff)
	}
	s := cp.Layers.Settings[1]
	if s.Desired != state.SensitiveText || s.Running[0].Value != state.SensitiveText || s.Persisted[0].Value != state.SensitiveText {
		t.Errorf("a sensitive value is shown: %+v", s)
	}
	dc.Persisted = topology(t, "server_configs:\n  pd:\n    replication.max-replicas: 3\npd_servers:\n  - host: 10.0.1.10\n")
	cp, err = BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]layerBrief{{"pd.schedule.max-merge-region-size", LayerPDEtcd, false}}, layerBriefs(cp.Layers)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if !catalog.PDKeepsInEtcd("schedule.max-merge-region-size") || cp.Layers.Reverted() || cp.Layers.Flagged() != 0 {
		t.Errorf("a PD item kept in etcd is flagged: %+v", cp.Layers.Settings)
	}
}

// TestLayersOperatorGroups: every group of a component is a place its
// instances may take; one lacking the value is enough to revert it.
func TestLayersOperatorGroups(t *testing.T) {
	l := cluster("8.5.1")
	tikvAll(l, "gc.ratio-threshold", "1.5")
	p := &state.Persisted{Tool: state.PersistOperator, Files: []string{"groups.yaml"}, Places: []state.PersistedPlace{
		{Component: state.TiKV, Where: "TiKVGroup a: spec.template.spec.config (groups.yaml)", Values: map[string]string{"gc.ratio-threshold": "1.5"}},
		{Component: state.TiKV, Where: "TiKVGroup b: spec.template.spec.config (groups.yaml)", Values: map[string]string{}},
	}}
	dc := &state.DesiredCluster{Name: "c", Config: []state.ConfigSetting{cfgN(state.TiKV, "gc.ratio-threshold", "1.5", 3)}, Persisted: p}
	cp, err := BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	s := cp.Layers.Settings[0]
	if s.Status != LayerReverted || !strings.Contains(s.Reason, "rolling update") || !strings.Contains(s.Fix, "tiform export operator") || len(s.Persisted) != 2 {
		t.Errorf("%+v", s)
	}
	p.Places[1].Values["gc.ratio-threshold"] = "1.50"
	cp, err = BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if s := cp.Layers.Settings[0]; s.Status != LayerInStep {
		t.Errorf("both groups hold it: %+v", s)
	}
}

// TestLayersInstanceVariable: an INSTANCE-scope variable is not persisted,
// with or without a persisted layer; a GLOBAL one is not listed.
func TestLayersInstanceVariable(t *testing.T) {
	l := cluster("8.5.1")
	l.Variables["tidb_general_log"] = "OFF"
	l.Variables["tidb_session_plan_cache_size"] = "100"
	l.InstanceVariables = []string{"tidb_general_log"}
	dc := &state.DesiredCluster{Name: "c", AllowInstanceVariables: true, Variables: []state.VariableSetting{
		varS("tidb_general_log", "true", state.LiteralBool, 3), varS("tidb_session_plan_cache_size", "100", state.LiteralNumber, 4)}}
	cp, err := BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]layerBrief{{"variable.tidb_general_log", LayerNotPersisted, true}}, layerBriefs(cp.Layers)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if s := cp.Layers.Settings[0]; s.Desired != "ON" || !strings.Contains(s.Reason, "INSTANCE scope") || cp.Layers.Tool != "" {
		t.Errorf("%+v", s)
	}
	dc.Variables = dc.Variables[1:]
	cp, err = BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if cp.Layers != nil {
		t.Errorf("no layer and no INSTANCE variable: %+v", cp.Layers)
	}
}

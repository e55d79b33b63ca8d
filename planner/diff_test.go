package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// summary is the part of a change the diff tests compare.
type summary struct {
	Address    string
	Action     string
	Before     []plans.InstanceValue
	After      string
	Statements []string
	Rollback   []string
}

func summarize(cp *ClusterPlan) []summary {
	var out []summary
	for _, c := range cp.Changes {
		s := summary{Address: c.Addr.String(), Action: c.Action.String(), Before: c.Before, After: c.After}
		for _, st := range c.Statements {
			s.Statements = append(s.Statements, st.SQL)
		}
		for _, st := range c.Rollback {
			s.Rollback = append(s.Rollback, st.SQL)
		}
		out = append(out, s)
	}
	return out
}

func build(t *testing.T, dc *state.DesiredCluster, l *state.Live) *ClusterPlan {
	t.Helper()
	if dc.Name == "" {
		dc.Name = "prod"
	}
	cp, err := BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatalf("BuildCluster: %v", err)
	}
	return cp
}

func TestSemanticComparison(t *testing.T) {
	tests := []struct {
		name     string
		config   []state.ConfigSetting
		vars     []state.VariableSetting
		rows     [][2]string // key, value on every tikv
		liveVars map[string]string
		want     []summary
	}{
		{
			name:   "size spellings are equal",
			config: []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "256MB", 1)},
			rows:   [][2]string{{"coprocessor.region-split-size", "256MiB"}},
		},
		{
			name:   "size as bytes is equal",
			config: []state.ConfigSetting{cfgN("tikv", "coprocessor.region-split-size", "268435456", 1)},
			rows:   [][2]string{{"coprocessor.region-split-size", "256MiB"}},
		},
		{
			name:     "bool spellings are equal",
			vars:     []state.VariableSetting{varS("tidb_enable_prepared_plan_cache", "true", state.LiteralBool, 1), varS("tidb_enable_non_prepared_plan_cache", "1", state.LiteralNumber, 2)},
			liveVars: map[string]string{"tidb_enable_prepared_plan_cache": "ON", "tidb_enable_non_prepared_plan_cache": "ON"},
		},
		{
			name:   "float64-rendered keys are equal",
			config: []state.ConfigSetting{cfgN("tikv", "coprocessor.region-max-keys", "1440000", 1)},
			rows:   [][2]string{{"coprocessor.region-max-keys", "1.44e+06"}},
		},
		{
			name:   "unknown keys compare as text (trimmed)",
			config: []state.ConfigSetting{cfgS("tikv", "made-up.item", "abc", 1)},
			rows:   [][2]string{{"made-up.item", "abd"}},
			want: []summary{{
				Address: "tikv.made-up.item", Action: "update",
				Before: []plans.InstanceValue{{Instance: "10.0.1.17:20160", Value: "abd"}, {Instance: "10.0.1.18:20160", Value: "abd"}, {Instance: "10.0.1.19:20160", Value: "abd"}},
				After:  "abc", Statements: []string{"SET CONFIG tikv `made-up.item` = 'abc'"},
				Rollback: []string{"SET CONFIG tikv `made-up.item` = 'abd'"},
			}},
		},
		{
			name:   "type-wide update renders the component's way",
			config: []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "0.25GiB", 1)},
			rows:   [][2]string{{"coprocessor.region-split-size", "96MiB"}},
			want: []summary{{
				Address: "tikv.coprocessor.region-split-size", Action: "update",
				Before: []plans.InstanceValue{{Instance: "10.0.1.17:20160", Value: "96MiB"}, {Instance: "10.0.1.18:20160", Value: "96MiB"}, {Instance: "10.0.1.19:20160", Value: "96MiB"}},
				After:  "256MiB", Statements: []string{"SET CONFIG tikv `coprocessor.region-split-size` = '256MiB'"},
				Rollback: []string{"SET CONFIG tikv `coprocessor.region-split-size` = '96MiB'"},
			}},
		},
		{
			name:     "variable update",
			vars:     []state.VariableSetting{varS("tidb_enable_non_prepared_plan_cache", "true", state.LiteralBool, 1)},
			liveVars: map[string]string{"tidb_enable_non_prepared_plan_cache": "OFF"},
			want: []summary{{
				Address: "variable.tidb_enable_non_prepared_plan_cache", Action: "update",
				Before: []plans.InstanceValue{{Instance: "", Value: "OFF"}}, After: "ON",
				Statements: []string{"SET GLOBAL tidb_enable_non_prepared_plan_cache = ON"},
				Rollback:   []string{"SET GLOBAL tidb_enable_non_prepared_plan_cache = OFF"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := cluster("8.5.1")
			for _, r := range tt.rows {
				tikvAll(l, r[0], r[1])
			}
			for k, v := range tt.liveVars {
				l.Variables[k] = v
			}
			cp := build(t, &state.DesiredCluster{Config: tt.config, Variables: tt.vars}, l)
			if diff := cmp.Diff(tt.want, summarize(cp)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}
}

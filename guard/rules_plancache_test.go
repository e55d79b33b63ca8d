package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInstancePlanCacheTF120to122(t *testing.T) {
	ipc := "variable.tidb_enable_instance_plan_cache"
	tests := []struct {
		name     string
		tidb     string
		settings []any
		liveVars map[string]string
		want     []brief
	}{
		{"8.3.9: does not exist", "8.3.9", []any{variable(varInstancePlanCache, "ON")}, nil,
			[]brief{{"TF120", "error", ipc, 10}}},
		{"8.3.9: max size does not exist either", "8.3.9", []any{variable("tidb_instance_plan_cache_max_size", "2GiB")}, nil,
			[]brief{{"TF120", "error", "variable.tidb_instance_plan_cache_max_size", 10}}},
		{"8.4.0: exists, experimental", "8.4.0", []any{variable(varInstancePlanCache, "ON")},
			map[string]string{varPreparedPlanCache: "ON"}, []brief{{"TF122", "warning", ipc, 10}}},
		{"8.4.0: OFF declared, nothing to say", "8.4.0", []any{variable(varInstancePlanCache, "OFF")}, nil, nil},
		{"both switches OFF live: nothing cached", "8.5.1", []any{variable(varInstancePlanCache, "ON")},
			map[string]string{varPreparedPlanCache: "OFF", varNonPreparedPlanCache: "OFF"},
			[]brief{{"TF121", "error", ipc, 10}, {"TF122", "warning", ipc, 10}}},
		{"prepared declared OFF, non-prepared live OFF", "8.5.1",
			[]any{variable(varPreparedPlanCache, "OFF"), variable(varInstancePlanCache, "true")},
			map[string]string{varPreparedPlanCache: "ON", varNonPreparedPlanCache: "OFF"},
			[]brief{{"TF121", "error", ipc, 11}, {"TF122", "warning", ipc, 11}}},
		{"non-prepared declared ON rescues it", "8.5.1",
			[]any{variable(varNonPreparedPlanCache, "ON"), variable(varInstancePlanCache, "ON")},
			map[string]string{varPreparedPlanCache: "OFF", varNonPreparedPlanCache: "OFF"},
			[]brief{{"TF122", "warning", ipc, 11}}},
		{"prepared unknown live: default ON", "8.5.1", []any{variable(varInstancePlanCache, "ON")}, nil,
			[]brief{{"TF122", "warning", ipc, 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := live("tidb=" + tt.tidb)
			for k, v := range tt.liveVars {
				withVar(l, k, v)
			}
			fs := Evaluate(Input{Desired: desired(tt.settings...), Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF120", "TF121", "TF122", "TF150")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestNonPreparedTF123TF124(t *testing.T) {
	np := "variable.tidb_enable_non_prepared_plan_cache"
	tests := []struct {
		name    string
		tidb    string
		liveVal string
		want    []brief
		has     string
		hasNot  string
	}{
		{"8.1.2: no UNQUALIFIED columns", "8.1.2", "OFF", []brief{{"TF123", "info", np, 10}}, "PLAN_IN_CACHE", "PLAN_CACHE_UNQUALIFIED,"},
		{"8.2.0: UNQUALIFIED columns", "8.2.0", "OFF", []brief{{"TF123", "info", np, 10}}, "PLAN_CACHE_UNQUALIFIED_LAST_REASON", ""},
		{"8.3.9: no OR note yet", "8.3.9", "OFF", []brief{{"TF123", "info", np, 10}}, "", ""},
		{"8.4.0: OR note", "8.4.0", "OFF", []brief{{"TF123", "info", np, 10}, {"TF124", "info", np, 10}}, "", ""},
		{"already ON: nothing is enabled", "8.5.1", "ON", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := withVar(live("tidb="+tt.tidb), varNonPreparedPlanCache, tt.liveVal)
			fs := Evaluate(Input{Desired: desired(variable(varNonPreparedPlanCache, "ON")), Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF123", "TF124")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.has != "" && !strings.Contains(find(t, fs, "TF123").Detail, tt.has) {
				t.Errorf("TF123 lacks %q", tt.has)
			}
			if tt.hasNot != "" && strings.Contains(find(t, fs, "TF123").Detail, tt.hasNot) {
				t.Errorf("TF123 mentions %q on %s", tt.hasNot, tt.tidb)
			}
		})
	}
}

func TestPlanCacheLive(t *testing.T) {
	ipc, np := "variable.tidb_enable_instance_plan_cache", "variable.tidb_enable_non_prepared_plan_cache"
	tests := []struct {
		name string
		tidb string
		vars map[string]string
		want []brief
	}{
		{"all off", "8.5.1", map[string]string{varInstancePlanCache: "OFF", varPreparedPlanCache: "ON", varNonPreparedPlanCache: "OFF"}, nil},
		{"instance cache on, prepared on", "8.5.1", map[string]string{varInstancePlanCache: "ON", varPreparedPlanCache: "ON", varNonPreparedPlanCache: "OFF"},
			[]brief{{"TF122", "warning", ipc, 0}}},
		{"instance cache on, both switches off", "8.5.1", map[string]string{varInstancePlanCache: "ON", varPreparedPlanCache: "OFF", varNonPreparedPlanCache: "OFF"},
			[]brief{{"TF121", "error", ipc, 0}, {"TF122", "warning", ipc, 0}}},
		{"non-prepared on, 8.4.0", "8.4.0", map[string]string{varNonPreparedPlanCache: "ON"}, []brief{{"TF124", "info", np, 0}}},
		{"non-prepared on, 8.3.0", "8.3.0", map[string]string{varNonPreparedPlanCache: "ON"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := live("tidb=" + tt.tidb)
			for k, v := range tt.vars {
				withVar(l, k, v)
			}
			if diff := cmp.Diff(tt.want, only(CheckCluster(l, now), "TF12")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

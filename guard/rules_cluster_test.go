package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

func TestMixedTF151(t *testing.T) {
	tests := []struct {
		name string
		spec []string
		want []brief
	}{
		{"uniform", []string{"tikv=8.5.3,8.5.3", "tidb=8.5.3"}, nil},
		{"TiKV mid-upgrade", []string{"tikv=8.5.3,8.5.4,8.5.4", "tidb=8.5.4"}, []brief{{"TF151", "warning", "tikv", 0}}},
		{"TiDB and PD mid-upgrade", []string{"tidb=8.1.2,8.5.1", "pd=8.5.1,8.1.2"},
			[]brief{{"TF151", "warning", "pd", 0}, {"TF151", "warning", "tidb", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(CheckCluster(live(tt.spec...), now), "TF151")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	f := find(t, CheckCluster(live("tikv=8.5.3,8.5.4,8.5.4"), now), "TF151")
	if !strings.Contains(f.Summary, "v8.5.3 ×1, v8.5.4 ×2") || !strings.Contains(f.Summary, "the lowest, v8.5.3") {
		t.Errorf("summary: %s", f.Summary)
	}
}

func TestSEMTF152(t *testing.T) {
	tests := []struct {
		name     string
		sem      bool
		tidb     string
		settings []any
		want     []brief
	}{
		{"SEM with TiKV config", true, "tidb=8.5.1", []any{variable("x", "1"), tikv(keySplitSize, "256MiB")},
			[]brief{{"TF152", "error", split, 11}}},
		{"SEM with variables only", true, "tidb=8.5.1", []any{variable("tidb_enable_non_prepared_plan_cache", "ON")}, nil},
		{"serverless build", false, "tidb=8.0.11-TiDB-v7.5.2-serverless", []any{pd(keyMergeSize, "54")},
			[]brief{{"TF152", "error", "pd.schedule.max-merge-region-size", 10}}},
		{"self-hosted", false, "tidb=8.5.1", []any{tikv(keySplitSize, "256MiB")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := live(tt.tidb)
			l.SEM = tt.sem
			fs := Evaluate(Input{Desired: desired(tt.settings...), Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF152")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestFactsVersionTF154: one finding per cluster for the versions the
// catalog has no facts for, naming the version whose facts are used; in a
// plan only for the components the configuration declares settings of.
func TestFactsVersionTF154(t *testing.T) {
	split := tikv(keySplitSize, "256MiB")
	np := variable("tidb_enable_non_prepared_plan_cache", "ON")
	tests := []struct {
		name    string
		d       *state.DesiredCluster
		spec    []string
		summary string // "" = no finding
	}{
		{"observed releases", desired(split, np), []string{"tikv=8.5.1", "tidb=8.5.1"}, ""},
		{"a hot-fix build of an observed release", desired(split), []string{"tikv=8.5.4-20251130-c38c58d"}, ""},
		{"a newer patch", desired(split), []string{"tikv=8.5.9"}, "TiKV v8.5.9 → v8.5.7"},
		{"master's line released", desired(np), []string{"tidb=9.0.0"}, "TiDB v9.0.0 → master (9.0.0-beta.2)"},
		{"a master build", desired(np), []string{"tidb=9.0.0-beta.2.pre-20251126-e4e814fdc0af"}, ""},
		{"an older 9.0 beta", desired(np), []string{"tidb=9.0.0-beta.1"}, "TiDB v9.0.0-beta.1 → master (9.0.0-beta.2)"},
		{"older than the catalog", desired(split), []string{"tikv=6.1.0"}, "TiKV v6.1.0 → v6.5.0"},
		{"an unobserved line", desired(split), []string{"tikv=8.6.0"}, "TiKV v8.6.0 → v8.5.7"},
		{"both, in one finding", desired(split, np), []string{"tikv=8.5.9", "tidb=9.0.0"},
			"TiDB v9.0.0 → master (9.0.0-beta.2); TiKV v8.5.9 → v8.5.7"},
		{"only what the configuration declares", desired(np), []string{"tikv=8.5.9", "tidb=8.5.1", "pd=6.1.0"}, ""},
		{"resource groups are TiDB's", desired(group("oltp", "HIGH")), []string{"tidb=9.0.0", "tikv=8.5.9"}, "TiDB v9.0.0 → master (9.0.0-beta.2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := only(Evaluate(Input{Desired: tt.d, Live: live(tt.spec...), Now: now}), "TF154")
			if tt.summary == "" {
				if fs != nil {
					t.Errorf("got %v, want none", fs)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("got %v, want one TF154", fs)
			}
			f := find(t, Evaluate(Input{Desired: tt.d, Live: live(tt.spec...), Now: now}), "TF154")
			if !strings.Contains(f.Summary, "("+tt.summary+")") || f.Severity != diag.Info {
				t.Errorf("summary %q (%s), want it to name %q", f.Summary, f.Severity, tt.summary)
			}
		})
	}
	// tiform check names every component.
	f := find(t, CheckCluster(live("tikv=8.5.9", "tidb=8.5.1", "pd=6.1.0"), now), "TF154")
	if !strings.Contains(f.Summary, "TiKV v8.5.9 → v8.5.7; PD v6.1.0 → v6.5.0") {
		t.Errorf("check: %s", f.Summary)
	}
}

package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

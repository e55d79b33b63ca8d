package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// TestInlistDigestTF127: tidb_ignore_inlist_plan_digest flips at the
// upgrade to v8.5.6 for a cluster that never set it (pingcap/tidb#68136);
// v8.5.7 keeps the value (pingcap/tidb#68137, #68138).
func TestInlistDigestTF127(t *testing.T) {
	other := variable("tidb_enable_non_prepared_plan_cache", "ON")
	mk := func(v, value string) *state.Live {
		l := live("tidb=" + v)
		if value != "" {
			l = withVar(l, varInlistDigest, value)
		}
		return l
	}
	fire := []brief{{"TF127", "warning", "variable.tidb_ignore_inlist_plan_digest", 1}}
	tests := []struct {
		name string
		d    *state.DesiredCluster
		l    *state.Live
		want []brief
	}{
		{"8.5.5 OFF", desired(other), mk("8.5.5", "OFF"), nil},
		{"8.5.6 ON", desired(other), mk("8.5.6", "ON"), fire},
		{"8.5.6 OFF: set", desired(other), mk("8.5.6", "OFF"), nil},
		{"8.5.6 not read", desired(other), mk("8.5.6", ""), nil},
		{"8.5.6 declared", desired(other, variable(varInlistDigest, "ON")), mk("8.5.6", "ON"), nil},
		{"8.5.6 no variable declared", desired(tikv(keySplitSize, "256MiB")), mk("8.5.6", "ON"), nil},
		{"8.5.7 ON", desired(other), mk("8.5.7", "ON"), nil},
		{"9.0.0 ON", desired(other), mk("9.0.0", "ON"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only(Evaluate(Input{Desired: tt.d, Live: tt.l, Now: now}), "TF127")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	// tiform check reads every variable: the same rule without a configuration.
	if got := only(CheckCluster(mk("8.5.6", "ON"), now), "TF127"); len(got) != 1 {
		t.Errorf("check on 8.5.6: %v", got)
	}
	// A planned upgrade into v8.5.6 (tiform check --upgrade-to), not past it.
	for _, tt := range []struct {
		from, to string
		want     int
	}{{"8.5.4", "8.5.6", 1}, {"8.5.4", "8.5.7", 0}, {"8.5.6", "8.5.6", 1}, {"8.1.2", "8.5.6", 1}} {
		in := Input{Live: mk(tt.from, "OFF"), Now: now, TargetVersions: map[state.Component]version.Version{state.TiDB: version.MustParse(tt.to)}}
		fs := only(Check(in), "TF127")
		if tt.from == "8.5.6" {
			// already on v8.5.6 with OFF: set, nothing flips
			tt.want = 0
		}
		if len(fs) != tt.want {
			t.Errorf("upgrade %s → %s: %v, want %d finding(s)", tt.from, tt.to, fs, tt.want)
		}
	}
	f := find(t, Evaluate(Input{Desired: desired(other), Live: mk("8.5.6", "ON"), Now: now}), "TF127")
	for _, want := range []string{"pingcap/tidb#66624", "pingcap/tidb#68137", "mysql.global_variables", "tidb_ignore_inlist_plan_digest = false"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, f.Detail)
		}
	}
}

package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

func TestFullCompactOnlineTF144(t *testing.T) {
	ch := change(state.TiKV, keyFullCompactTimes, `["03:00"]`, 14)
	fire := []brief{{"TF144", "error", "tikv.raftstore.periodic-full-compact-start-times", 14}}
	for _, tt := range []struct {
		tikv string
		want []brief
	}{
		{"7.5.7", nil}, {"7.6.0", fire}, {"8.0.0", fire}, {"8.1.0", fire}, {"8.1.1", nil}, {"8.1.2", nil},
		{"8.2.0", nil}, {"8.5.4", nil}, {"8.1.1,8.1.0", fire},
	} {
		t.Run(tt.tikv, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(), Live: live("tikv=" + tt.tikv), Changes: []*plans.Change{ch}, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF144")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.want != nil && only(fs, "TF141") != nil {
				t.Errorf("TF141 says no reload is needed next to TF144: %v", only(fs, "TF14"))
			}
		})
	}
	f := find(t, Evaluate(Input{Desired: desired(), Live: live("tikv=8.1.0"), Changes: []*plans.Change{ch}, Now: now}), "TF144")
	for _, want := range []string{"tikv/tikv#17066", "v8.1.1", "v8.2.0", "tiup cluster edit-config tidb-prod", "-R tikv"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, f.Detail)
		}
	}
	// A delete sets nothing.
	del := change(state.TiKV, keyFullCompactTimes, "", 14)
	del.Action = plans.Delete
	if got := only(Evaluate(Input{Desired: desired(), Live: live("tikv=8.1.0"), Changes: []*plans.Change{del}, Now: now}), "TF144"); got != nil {
		t.Errorf("delete: %v", got)
	}
}

func TestStoreIOPoolModeTF145(t *testing.T) {
	mk := func(after string, before ...string) *plans.Change {
		ch := change(state.TiKV, keyStoreIOPool, after, 15)
		for i, b := range before {
			ch.Before = append(ch.Before, plans.InstanceValue{Instance: "10.0.1." + string(rune('0'+i)) + ":20160", Value: b})
		}
		return ch
	}
	fire := []brief{{"TF145", "error", "tikv.raftstore.store-io-pool-size", 15}}
	for _, tt := range []struct {
		name, tikv string
		ch         *plans.Change
		want       []brief
	}{
		{"6.5.12: restart-only (TF140)", "6.5.12", mk("2", "0"), nil},
		{"6.6.0: 0 → 2", "6.6.0", mk("2", "0"), fire},
		{"8.5.4: 1 → 0", "8.5.4", mk("0", "1"), fire},
		{"8.5.4: 1 → 4", "8.5.4", mk("4", "1"), nil},
		{"8.5.4: one instance at 0", "8.5.4", mk("2", "1", "0"), fire},
		{"8.5.4: no value before", "8.5.4", mk("2"), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(), Live: live("tikv=" + tt.tikv), Changes: []*plans.Change{tt.ch}, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF145")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	f := find(t, Evaluate(Input{Desired: desired(), Live: live("tikv=8.5.4"), Changes: []*plans.Change{mk("2", "1", "0")}, Now: now}), "TF145")
	if !strings.Contains(f.Detail, "10.0.1.1:20160 (0)") || strings.Contains(f.Detail, "10.0.1.0:20160") {
		t.Errorf("the finding must name exactly the instances that would cross 0:\n%s", f.Detail)
	}
}

package schema

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tiform/tiform/state"
)

// The documented rollout decodes to the model apply follows: stages with
// their selectors and gates, the stop conditions, the windows with their
// times in their time zone.
func TestLoadRollout(t *testing.T) {
	d, diags := Load("testdata/valid/docs-rollout", Options{Env: env(map[string]string{}), Offline: true})
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	prod := map[string]string{"env": "prod"}
	want := &state.Rollout{
		StopOn: []state.StopCondition{state.StopFailedChange, state.StopErrorFinding, state.StopUnreachable},
		Stages: []state.Stage{
			{Name: "canary", Clusters: []string{"alpha"}, Pause: 15 * time.Minute, Approval: true,
				Checks: []state.StageCheck{{Kind: state.CheckNoDrift}, {Kind: state.CheckPlanCacheHitRatio, MaxDrop: 0.02}}},
			{Name: "wave-1", Labels: prod, MaxClusters: 2, Checks: []state.StageCheck{{Kind: state.CheckNoDrift}}},
			{Name: "rest", Labels: prod},
		},
	}
	ignoreRanges := cmpopts.IgnoreFields(state.Stage{}, "Range", "Members")
	if diff := cmp.Diff(want, d.Rollout, ignoreRanges, cmpopts.IgnoreFields(state.Rollout{}, "Range"),
		cmpopts.IgnoreFields(state.StageCheck{}, "Range")); diff != "" {
		t.Errorf("rollout (-want +got):\n%s", diff)
	}
	stages, rest := d.Rollout.Assign(d.Clusters)
	var got, members [][]string
	for i, s := range stages {
		got = append(got, s.Clusters)
		members = append(members, d.Rollout.Stages[i].Members)
	}
	if diff := cmp.Diff(got, members); diff != "" {
		t.Errorf("Members are not Assign's result (-assign +members):\n%s", diff)
	}
	if diff := cmp.Diff([][]string{{"alpha"}, {"beta", "gamma"}, {"delta", "epsilon"}}, got); diff != "" || len(rest) > 0 {
		t.Errorf("stages (-want +got):\n%s rest %v", diff, rest)
	}
	if len(d.Windows) != 2 {
		t.Fatalf("windows: %+v", d.Windows)
	}
	w := d.Windows[0]
	if w.Name != "prod-nights" || w.From != 22*60 || w.To != 6*60 || w.TimeZone != "Asia/Tokyo" || w.Location.String() != "Asia/Tokyo" ||
		len(w.Days) != 5 || w.Blackout || w.Labels["env"] != "prod" || w.Range.Start.Line == 0 {
		t.Errorf("window %+v", w)
	}
	if b := d.Windows[1]; !b.Blackout || b.From != 0 || b.To != 0 || len(b.Days) != 2 || b.Location.String() != "Asia/Tokyo" {
		t.Errorf("blackout %+v", b)
	}
}

// A configuration without a rollout has none: apply changes every selected
// cluster at once, as before.
func TestNoRollout(t *testing.T) {
	d, diags := Load("testdata/valid/fleet", Options{Env: env(map[string]string{}), Offline: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if d.Rollout != nil || d.Windows != nil {
		t.Errorf("rollout %+v windows %+v", d.Rollout, d.Windows)
	}
}

package rollout

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views/viewstest"
	"github.com/tiform/tiform/workload"
)

// gateRun is a run whose stage "canary" (alpha, beta) was applied, with the
// gate st, followed by stage "rest" (gamma), and the hooks a gate uses.
func gateRun(t *testing.T, st state.Stage, hooks Hooks) (*run, *bytes.Buffer) {
	t.Helper()
	st.Name = "canary"
	rest := state.Stage{Name: "rest"}
	alpha, beta, gamma := &state.DesiredCluster{Name: "alpha"}, &state.DesiredCluster{Name: "beta"}, &state.DesiredCluster{Name: "gamma"}
	d := &state.Desired{Clusters: []*state.DesiredCluster{alpha, beta, gamma}, Rollout: &state.Rollout{Stages: []state.Stage{st, rest}}}
	var out bytes.Buffer
	hooks.Now = func() time.Time { return time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC) }
	op := &Operation{Desired: d, Hooks: hooks, Progress: &TextProgress{W: &out}, StatePath: filepath.Join(t.TempDir(), "state.json")}
	runs := []stageRun{{stage: &d.Rollout.Stages[0], clusters: []*state.DesiredCluster{alpha, beta}},
		{stage: &d.Rollout.Stages[1], clusters: []*state.DesiredCluster{gamma}}}
	r := &run{op: op, ctx: context.Background(), runs: runs, st: newState("h", runs, hooks.Now())}
	for _, n := range []string{"alpha", "beta"} {
		r.st.cluster(n).Status = ClusterApplied
	}
	return r, &out
}

// The plan_cache_hit_ratio check compares each cluster's ratio measured
// before the stage with the one after: a drop beyond max_drop stops the
// rollout, naming the cluster and the figures; a cluster with nothing to
// compare fails it too (tiform does not pass what it cannot measure).
func TestGatePlanCacheHitRatio(t *testing.T) {
	for _, tc := range []struct {
		name          string
		maxDrop       float64
		before, after map[string]workload.Ratio
		ok            bool
		detail        string
	}{
		{name: "no drop", before: map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 80}, "beta": {Executions: 10, Hits: 5}},
			after: map[string]workload.Ratio{"alpha": {Executions: 50, Hits: 41}, "beta": {Executions: 10, Hits: 5}}, ok: true,
			detail: "plan-cache hit ratio did not drop: alpha: 80.0% before, 82.0% after; beta: 50.0% before, 50.0% after"},
		{name: "a drop beyond max_drop", maxDrop: 0.02,
			before: map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 80}, "beta": {Executions: 10, Hits: 5}},
			after:  map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 70}, "beta": {Executions: 10, Hits: 5}},
			detail: "alpha: plan-cache hit ratio 80.0% before, 70.0% after: down 10.0 points (max_drop 2.0)"},
		{name: "a drop within max_drop", maxDrop: 0.15,
			before: map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 80}, "beta": {Executions: 10, Hits: 5}},
			after:  map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 70}, "beta": {Executions: 10, Hits: 5}}, ok: true,
			detail: "plan-cache hit ratio did not drop: alpha: 80.0% before, 70.0% after; beta: 50.0% before, 50.0% after"},
		{name: "nothing to compare", before: map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 80}, "beta": {}},
			after:  map[string]workload.Ratio{"alpha": {Executions: 100, Hits: 80}, "beta": {}},
			detail: "beta: no cacheable execution in the statement summary before the stage, so the hit ratio cannot be compared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phase := tc.before
			hooks := Hooks{HitRatio: func(_ context.Context, dc *state.DesiredCluster, since time.Duration) (workload.Ratio, error) {
				if since != 30*time.Minute {
					t.Errorf("measured over %s, want the summary's 30m", since)
				}
				return phase[dc.Name], nil
			}}
			r, out := gateRun(t, state.Stage{Checks: []state.StageCheck{{Kind: state.CheckPlanCacheHitRatio, MaxDrop: tc.maxDrop}}}, hooks)
			r.measureBefore(0, r.runs[0].clusters)
			phase = tc.after
			res, stop := r.gate(0)
			if stop == tc.ok {
				t.Fatalf("gate stopped = %v (%+v), want %v\n%s", stop, res, !tc.ok, out)
			}
			g := r.st.stage("canary").Gate
			if len(g) != 1 || g[0].Detail != tc.detail {
				t.Errorf("gate %+v\nwant detail %q", g, tc.detail)
			}
			if !tc.ok && (res.Outcome != Stopped || !strings.Contains(res.Err.Error(), "check plan_cache_hit_ratio after stage \"canary\" failed")) {
				t.Errorf("result %+v", res)
			}
			// Stopped at the gate, the next stage is where a resume starts.
			if !tc.ok {
				st, err := ReadState(r.op.StatePath)
				if err != nil || st.Status != RunStopped || st.Next != "rest" {
					t.Errorf("state %+v, %v", st, err)
				}
			}
		})
	}
}

// no_drift plans the stage's clusters again: one with a change left (or
// that cannot be planned) fails the check.
func TestGateNoDrift(t *testing.T) {
	planned := []*planner.ClusterPlan{{Name: "alpha"}, {Name: "beta", Changes: []*plans.Change{{Addr: state.VariableAddress("tidb_x")}}}}
	hooks := Hooks{PlanFleet: func(_ context.Context, cs []*state.DesiredCluster) *planner.Plan {
		if len(cs) != 2 || cs[0].Name != "alpha" || cs[1].Name != "beta" {
			t.Errorf("planned %v", names(cs))
		}
		return &planner.Plan{Clusters: planned}
	}}
	r, _ := gateRun(t, state.Stage{Checks: []state.StageCheck{{Kind: state.CheckNoDrift}}}, hooks)
	res, stop := r.gate(0)
	if !stop || res.Outcome != Stopped || !strings.Contains(res.Err.Error(), "beta has 1 change(s) again: variable.tidb_x") {
		t.Fatalf("gate: %v %+v", stop, res)
	}
	planned[1].Changes = nil
	r, _ = gateRun(t, state.Stage{Checks: []state.StageCheck{{Kind: state.CheckNoDrift}}}, hooks)
	if _, stop := r.gate(0); stop {
		t.Fatal("no_drift failed with no change left")
	}
	planned[1].Failure = &planner.Failure{Status: planner.StatusUnreachable, Message: "cannot reach\nmore"}
	r, _ = gateRun(t, state.Stage{Checks: []state.StageCheck{{Kind: state.CheckNoDrift}}}, hooks)
	if res, stop := r.gate(0); !stop || !strings.Contains(res.Err.Error(), "beta could not be planned again (unreachable): cannot reach;") {
		t.Fatalf("an unreadable cluster passed no_drift: %+v", res)
	}
}

// The pause waits before the checks; Ctrl-C during it interrupts the
// rollout with the next stage to resume from. An approval nobody gives
// pauses.
func TestGatePauseAndApproval(t *testing.T) {
	var waited time.Duration
	hooks := Hooks{Sleep: func(_ context.Context, d time.Duration) error { waited = d; return nil },
		Approve: func(stage string) (bool, error) { return stage == "rest", nil }}
	r, out := gateRun(t, state.Stage{Pause: 10 * time.Minute, Approval: true}, hooks)
	if _, stop := r.gate(0); stop || waited != 10*time.Minute {
		t.Fatalf("gate stopped, or waited %s\n%s", waited, out)
	}
	if !strings.Contains(out.String(), `Gate after "canary": approval: ok: stage "rest" approved`) {
		t.Errorf("progress:\n%s", out)
	}
	hooks.Sleep = func(context.Context, time.Duration) error { return context.Canceled }
	r, _ = gateRun(t, state.Stage{Pause: time.Minute}, hooks)
	if res, stop := r.gate(0); !stop || res.Outcome != Interrupted || r.st.Next != "rest" {
		t.Errorf("interrupted pause: %+v next %q", res, r.st.Next)
	}
	hooks.Approve = func(string) (bool, error) { return false, errors.New("no answer on standard input") }
	r, _ = gateRun(t, state.Stage{Approval: true}, hooks)
	res, stop := r.gate(0)
	if !stop || res.Outcome != Paused || r.st.PausedFor != "approval" || r.st.Next != "rest" ||
		!strings.Contains(res.Err.Error(), "waits for a person's approval (no answer on standard input)") {
		t.Errorf("unanswered approval: %+v %+v", res, r.st)
	}
}

// A cluster's plan is the reviewed one when its hash is; for a cluster the
// rollout touched, when each of its changes is one it recorded, to the same
// values (what is left of it).
func TestPlanMoved(t *testing.T) {
	ch := func(addr, want string) *plans.Change {
		return &plans.Change{Addr: state.VariableAddress(addr), Action: plans.Update,
			Verify: []plans.Check{{Addr: state.VariableAddress(addr), Want: want}}}
	}
	reviewed := &planner.ClusterPlan{Name: "beta", Changes: []*plans.Change{ch("a", "1"), ch("b", "2")}}
	cs := &ClusterState{Name: "beta", Status: ClusterPending, PlanHash: reviewed.Hash(), Changes: Targets(reviewed)}
	if why := planMoved(cs, reviewed); why != "" {
		t.Errorf("the reviewed plan moved: %s", why)
	}
	left := &planner.ClusterPlan{Name: "beta", Changes: []*plans.Change{ch("b", "2")}}
	if why := planMoved(cs, left); !strings.HasPrefix(why, "plan hash ") {
		t.Errorf("a pending cluster accepted another plan: %q", why)
	}
	cs.Status = ClusterFailed
	if why := planMoved(cs, left); why != "" {
		t.Errorf("what is left of a failed cluster's plan refused: %s", why)
	}
	other := &planner.ClusterPlan{Name: "beta", Changes: []*plans.Change{ch("b", "3")}}
	if why := planMoved(cs, other); !strings.Contains(why, "not what is left of its recorded plan: variable.b") {
		t.Errorf("a changed target accepted: %q", why)
	}
}

// The state file round-trips, validates against its schema, is written
// private, and --resume refuses another kind of file.
func TestStateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	alpha, beta := &state.DesiredCluster{Name: "alpha"}, &state.DesiredCluster{Name: "beta"}
	runs := []stageRun{{stage: &state.Stage{Name: "canary"}, clusters: []*state.DesiredCluster{alpha}},
		{stage: &state.Stage{Name: "rest"}, clusters: []*state.DesiredCluster{beta}}}
	st := newState("cfg", runs, time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC))
	st.UpdatedAt = st.StartedAt
	st.cluster("alpha").Status, st.cluster("alpha").PlanHash = ClusterApplied, "sha256:"+strings.Repeat("ab", 32)
	if err := WriteState(path, st); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	viewstest.Validate(t, "rollout-state.schema.json", b)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	got, err := ReadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("round trip (-wrote +read):\n%s", diff)
	}
	if d := cmp.Diff([]string{"alpha"}, got.Done); d != "" || len(got.Remain) != 1 || got.Remain[0] != "beta" {
		t.Errorf("done %v remaining %v", got.Done, got.Remain)
	}
	other := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(other, []byte(`{"format_version":"2.0","kind":"plan"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadState(other); err == nil || !strings.Contains(err.Error(), "is not a rollout state file") {
		t.Errorf("another file read as a state: %v", err)
	}
}

// A refusal names each cluster's windows and the next time apply may
// change them all, in the window's zone with UTC.
func TestWindowsText(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	w := state.Window{Name: "prod-nights", Labels: map[string]string{"env": "prod"}, From: 22 * 60, To: 6 * 60,
		Days: []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}, TimeZone: "Asia/Tokyo", Location: tokyo}
	op := &Operation{Desired: &state.Desired{Windows: []state.Window{w}}}
	now := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC) // Saturday 12:00 JST
	out := op.closed([]*state.DesiredCluster{{Name: "prod", Labels: map[string]string{"env": "prod"}}, {Name: "dev"}}, now)
	got := windowsText(out, now)
	want := `cluster "prod" is outside its change window prod-nights (Mon–Fri 22:00–06:00 Asia/Tokyo) at Sat 2026-11-28 12:00 JST; ` +
		`the next window, prod-nights, opens Mon 2026-11-30 22:00 JST (13:00 UTC).`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// A window opening after midnight UTC names the UTC date too.
	if got := whenText(time.Date(2026, 12, 1, 0, 30, 0, 0, tokyo), tokyo); got != "Tue 2026-12-01 00:30 JST (Mon 2026-11-30 15:30 UTC)" {
		t.Errorf("whenText = %q", got)
	}
}

// What the state file keeps of an error never holds a DSN's password, even
// when the error does.
func TestStateFileHoldsNoSecret(t *testing.T) {
	r, _ := gateRun(t, state.Stage{}, Hooks{})
	r.op.Audit.Secrets = []string{"Sup3r-s3cret"}
	cs := r.st.cluster("gamma")
	out := clusterOutcome{status: ClusterFailed, err: errors.New("dial root:Sup3r-s3cret@tcp(db:4000): refused")}
	cs.Status, cs.Error = out.status, r.errTextFor(out)
	res := r.end(Stopped, "rest", errors.New("stopped: root:Sup3r-s3cret@tcp(db:4000)"))
	b, err := os.ReadFile(r.op.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("Sup3r-s3cret")) || res.Outcome != Stopped {
		t.Errorf("state file holds the password:\n%s", b)
	}
	if !bytes.Contains(b, []byte("root:****@tcp(db:4000)")) {
		t.Errorf("the error was dropped instead of masked:\n%s", b)
	}
}

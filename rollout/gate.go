package rollout

import (
	"fmt"
	"strings"
	"time"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// The gate after a stage, before the next one starts (state.Stage): the
// pause, then every check on the stage's clusters, then the approval. A
// failed check stops the rollout; an approval nobody gives pauses it. After
// the last stage only the checks run (nothing follows to wait for or
// approve).

// ratio is a plan-cache hit ratio measurement of one cluster.
type ratio struct {
	r   workload.Ratio
	err error
}

// value is hits / executions (ok false when there is no execution).
func (r ratio) value() (float64, bool) {
	if r.err != nil || r.r.Executions == 0 {
		return 0, false
	}
	return float64(r.r.Hits) / float64(r.r.Executions), true
}

// measureBefore measures, before stage i is applied, the plan-cache hit
// ratio of its clusters when its gate checks it.
func (r *run) measureBefore(i int, todo []*state.DesiredCluster) {
	r.ratios = nil
	if !hasCheck(r.runs[i].stage, state.CheckPlanCacheHitRatio) {
		return
	}
	r.ratios = map[string]ratio{}
	for _, dc := range todo {
		x, err := r.op.Hooks.HitRatio(r.ctx, dc, ratioWindow(r.runs[i].stage))
		r.ratios[dc.Name] = ratio{r: x, err: err}
	}
}

// ratioWindow is how far back a hit-ratio measurement looks: the stage's
// pause, and at least the statement summary's default refresh interval
// (tidb_stmt_summary_refresh_interval, 30 minutes:
// https://docs.pingcap.com/tidb/stable/statement-summary-tables), its
// history's granularity. Measured before the stage, it covers the
// executions before the change; after the pause, mostly those after it.
func ratioWindow(st *state.Stage) time.Duration {
	return max(st.Pause, 30*time.Minute)
}

func hasCheck(st *state.Stage, k state.CheckKind) bool {
	for _, c := range st.Checks {
		if c.Kind == k {
			return true
		}
	}
	return false
}

// nextStage is the index of the next stage with a cluster not done after
// i, -1 for none.
func (r *run) nextStage(i int) int {
	for j := i + 1; j < len(r.runs); j++ {
		if len(r.notDone(j)) > 0 {
			return j
		}
	}
	return -1
}

// gate runs the gate after stage i.
func (r *run) gate(i int) (Result, bool) {
	st := r.runs[i].stage
	next := r.nextStage(i)
	nextName := ""
	if next >= 0 {
		nextName = r.runs[next].stage.Name
	}
	where := nextName
	if where == "" {
		where = st.Name
	}
	if st.Pause > 0 && next >= 0 {
		detail := fmt.Sprintf("waiting %s before the checks and stage %q", st.Pause, nextName)
		r.op.progress(Event{Kind: EventGate, Stage: st.Name, Check: "pause", Result: "waiting", Detail: detail})
		if err := r.sleep(st.Pause); err != nil {
			r.gateStep(i, "pause", "paused", "interrupted while waiting", nil)
			return r.end(Interrupted, where, fmt.Errorf("interrupted during the pause after stage %q: %w", st.Name, err)), true
		}
		if err := r.gateStep(i, "pause", "ok", fmt.Sprintf("waited %s", st.Pause), nil); err != nil {
			return r.end(Stopped, where, err), true
		}
	}
	for _, c := range st.Checks {
		var ok bool
		var detail string
		var cs []string
		switch c.Kind {
		case state.CheckNoDrift:
			ok, detail, cs = r.checkNoDrift(i)
		case state.CheckPlanCacheHitRatio:
			ok, detail, cs = r.checkHitRatio(i, c.MaxDrop)
		}
		result := "ok"
		if !ok {
			result = "failed"
		}
		if err := r.gateStep(i, string(c.Kind), result, detail, cs); err != nil {
			return r.end(Stopped, where, err), true
		}
		if !ok {
			return r.end(Stopped, where, fmt.Errorf("check %s after stage %q failed: %s; look at the clusters, then continue with tiform apply --resume %s",
				c.Kind, st.Name, detail, r.op.StatePath)), true
		}
	}
	if st.Approval && next >= 0 {
		approved, err := false, fmt.Errorf("nobody can answer here")
		if r.op.Hooks.Approve != nil {
			approved, err = r.op.Hooks.Approve(nextName)
		}
		if !approved {
			why := "not approved"
			if err != nil {
				why = err.Error()
			}
			_ = r.gateStep(i, "approval", "paused", why, nil)
			r.st.PausedFor = "approval"
			return r.end(Paused, nextName, fmt.Errorf("paused before stage %q: it waits for a person's approval (%s); to approve it, continue: tiform apply --resume %s",
				nextName, why, r.op.StatePath)), true
		}
		if err := r.gateStep(i, "approval", "ok", fmt.Sprintf("stage %q approved", nextName), nil); err != nil {
			return r.end(Stopped, where, err), true
		}
	}
	return Result{}, false
}

// gateStep records one step of the gate after stage i in the state and the
// audit log.
func (r *run) gateStep(i int, check, result, detail string, clusters []string) error {
	st := r.runs[i].stage
	ss := r.st.stage(st.Name)
	ss.Gate = append(ss.Gate, GateResult{Check: check, Result: result, Detail: detail, At: r.op.now().UTC()})
	if err := r.save(); err != nil {
		return err
	}
	return r.record(Event{Kind: EventGate, Stage: st.Name, Check: check, Result: result, Detail: detail, Clusters: clusters})
}

func (r *run) sleep(d time.Duration) error {
	if r.op.Hooks.Sleep != nil {
		return r.op.Hooks.Sleep(r.ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.ctx.Done():
		return r.ctx.Err()
	case <-t.C:
		return nil
	}
}

// doneIn lists the clusters of stage i that are done (the ones its checks
// look at).
func (r *run) doneIn(i int) []*state.DesiredCluster {
	var out []*state.DesiredCluster
	for _, dc := range r.runs[i].clusters {
		if r.st.cluster(dc.Name).Status.Done() {
			out = append(out, dc)
		}
	}
	return out
}

// checkNoDrift plans the stage's clusters again (without the lock): each
// must show no change.
func (r *run) checkNoDrift(i int) (ok bool, detail string, clusters []string) {
	cs := r.doneIn(i)
	if len(cs) == 0 {
		return true, "no cluster of the stage was applied", nil
	}
	p := r.op.Hooks.PlanFleet(r.ctx, cs)
	var bad []string
	for _, cp := range p.Clusters {
		switch {
		case cp.Failure != nil:
			bad = append(bad, fmt.Sprintf("%s could not be planned again (%s): %s", cp.Name, cp.Failure.Status, firstLine(cp.Failure.Message)))
		case len(cp.Changes) > 0:
			addrs := make([]string, 0, len(cp.Changes))
			for _, ch := range cp.Changes {
				addrs = append(addrs, ch.Addr.String())
			}
			bad = append(bad, fmt.Sprintf("%s has %d change(s) again: %s", cp.Name, len(cp.Changes), strings.Join(addrs, ", ")))
		}
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; "), names(cs)
	}
	return true, fmt.Sprintf("%s planned again: no change", strings.Join(names(cs), ", ")), names(cs)
}

// checkHitRatio measures the plan-cache hit ratio of the stage's clusters
// again and compares it with the measure before the stage: it must not be
// lower by more than maxDrop. A cluster whose ratio cannot be measured
// (no cacheable execution, the statement summary unreadable) fails the
// check: tiform does not pass what it cannot see.
func (r *run) checkHitRatio(i int, maxDrop float64) (ok bool, detail string, clusters []string) {
	cs := r.doneIn(i)
	var bad, good []string
	for _, dc := range cs {
		before, measured := r.ratios[dc.Name]
		if !measured {
			bad = append(bad, fmt.Sprintf("%s: not measured before the stage (the stage was applied by an earlier run)", dc.Name))
			continue
		}
		x, err := r.op.Hooks.HitRatio(r.ctx, dc, ratioWindow(r.runs[i].stage))
		after := ratio{r: x, err: err}
		b, bok := before.value()
		a, aok := after.value()
		switch {
		case before.err != nil:
			bad = append(bad, fmt.Sprintf("%s: the statement summary could not be read before the stage: %s", dc.Name, firstLine(before.err.Error())))
		case after.err != nil:
			bad = append(bad, fmt.Sprintf("%s: the statement summary could not be read after the stage: %s", dc.Name, firstLine(after.err.Error())))
		case !bok || !aok:
			bad = append(bad, fmt.Sprintf("%s: no cacheable execution in the statement summary %s, so the hit ratio cannot be compared",
				dc.Name, map[bool]string{true: "after the stage", false: "before the stage"}[bok]))
		case b-a > maxDrop+1e-9:
			bad = append(bad, fmt.Sprintf("%s: plan-cache hit ratio %.1f%% before, %.1f%% after: down %.1f points (max_drop %.1f)",
				dc.Name, b*100, a*100, (b-a)*100, maxDrop*100))
		default:
			good = append(good, fmt.Sprintf("%s: %.1f%% before, %.1f%% after", dc.Name, b*100, a*100))
		}
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; "), names(cs)
	}
	if len(good) == 0 {
		return true, "no cluster of the stage was applied", nil
	}
	return true, "plan-cache hit ratio did not drop: " + strings.Join(good, "; "), names(cs)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

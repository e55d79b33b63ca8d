package rollout

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// stageRun is one stage of this rollout: the stage as declared and the
// clusters it applies (its members among the selected clusters, or the
// state's on a resume).
type stageRun struct {
	stage    *state.Stage
	clusters []*state.DesiredCluster
}

// rollout applies the selected clusters stage by stage (docs/apply.md,
// "Rollouts"): windows for the first stage before anything is read; the
// review (every cluster not done, planned without the lock, shown once and
// approved; a resume refuses when a plan changed since the state recorded
// it); then, stage after stage, each cluster held, planned again from the
// read under its lock, applied only with the reviewed plan, the state file
// written after each; the stop conditions; the gate after each stage.
func (op *Operation) rollout(ctx context.Context) Result {
	runs, err := op.stageRuns()
	if err != nil {
		return Result{Outcome: Refused, Err: err}
	}
	if op.StatePath == "" {
		return Result{Outcome: Refused, Err: errors.New("rollout: a rollout writes its progress to a state file: pass --state FILE")}
	}
	st := op.Resume
	if st == nil {
		st = newState(op.Desired.ConfigHash, runs, op.now())
	}
	r := &run{op: op, ctx: ctx, runs: runs, st: st}
	return r.run()
}

// stageRuns is the stages of this rollout: of a new one, each stage's
// members among the selected clusters (a stage left with none is dropped);
// of a resumed one, the state's, which the configuration must still hold
// (same stages, same clusters).
func (op *Operation) stageRuns() ([]stageRun, error) {
	byName := map[string]*state.DesiredCluster{}
	for _, dc := range op.Desired.Clusters {
		byName[dc.Name] = dc
	}
	r := op.Desired.Rollout
	var out []stageRun
	if op.Resume == nil {
		selected := map[string]bool{}
		for _, n := range op.Selected {
			selected[n] = true
		}
		for i := range r.Stages {
			sr := stageRun{stage: &r.Stages[i]}
			for _, n := range r.Stages[i].Members {
				if selected[n] {
					sr.clusters = append(sr.clusters, byName[n])
				}
			}
			if len(sr.clusters) > 0 {
				out = append(out, sr)
			}
		}
		return out, nil
	}
	for _, ss := range op.Resume.Stages {
		i := slices.IndexFunc(r.Stages, func(s state.Stage) bool { return s.Name == ss.Name })
		if i < 0 {
			return nil, fmt.Errorf("rollout: the state file's stage %q is no longer in the configuration's rollout: finish the rollout with the configuration it started with, or start a new one (without --resume)", ss.Name)
		}
		sr := stageRun{stage: &r.Stages[i]}
		for _, cs := range ss.Clusters {
			dc := byName[cs.Name]
			if dc == nil || !slices.Contains(r.Stages[i].Members, cs.Name) {
				return nil, fmt.Errorf("rollout: the state file has cluster %q in stage %q, and the configuration's rollout does not (it has %s): finish the rollout with the configuration it started with, or start a new one (without --resume)",
					cs.Name, ss.Name, orNone(r.Stages[i].Members))
			}
			sr.clusters = append(sr.clusters, dc)
		}
		out = append(out, sr)
	}
	return out, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// run is the state of one rollout run.
type run struct {
	op   *Operation
	ctx  context.Context
	runs []stageRun
	st   *State
	// applied counts the changes applied in this run; started is set once a
	// cluster's apply started (a closed window then pauses, not refuses).
	applied int
	started bool
	// ratios are the plan-cache hit ratios measured before the current
	// stage, by cluster.
	ratios map[string]ratio
	// left are the clusters the review left out (stop_on): not applied in
	// this run.
	left map[string]bool
}

func (r *run) run() Result {
	first := r.firstStage()
	if first < 0 {
		return r.end(Complete, "", nil)
	}
	if res, stop := r.op.windowsBeforeStart(r.notDone(first), r.runs[first].stage.Name); stop {
		return res
	}
	if res, stop := r.review(first); stop {
		return res
	}
	if err := r.record(r.startEvent(first)); err != nil {
		return r.end(Stopped, "", err)
	}
	for i := first; i < len(r.runs); i++ {
		if res, stop := r.stage(i); stop {
			return res
		}
		if res, stop := r.gate(i); stop {
			return res
		}
	}
	if rest := r.st.remaining(); len(rest) > 0 {
		return r.end(Stopped, "", fmt.Errorf("the rollout went through every stage, and %s not applied: %s; resume once they can be (tiform apply --resume %s)",
			pluralIs(len(rest), "cluster"), strings.Join(rest, ", "), r.op.StatePath))
	}
	return r.end(Complete, "", nil)
}

// firstStage is the index of the first stage with a cluster not done (-1:
// none).
func (r *run) firstStage() int {
	for i := range r.runs {
		if len(r.notDone(i)) > 0 {
			return i
		}
	}
	return -1
}

// notDone lists the clusters of stage i not done.
func (r *run) notDone(i int) []*state.DesiredCluster {
	var out []*state.DesiredCluster
	for _, dc := range r.runs[i].clusters {
		if cs := r.st.cluster(dc.Name); cs == nil || !cs.Status.Done() {
			out = append(out, dc)
		}
	}
	return out
}

// review plans every cluster not done without the lock, shows the plan, and
// asks for approval: the plan the rollout applies (each cluster's hash and
// changes go into the state). Clusters that could not be read, or whose
// plan has an error finding, stop the rollout before it starts when stop_on
// says so, and are left out (remain) otherwise. A resume refuses when a
// plan is not the one the state recorded.
func (r *run) review(first int) (Result, bool) {
	var todo []*state.DesiredCluster
	for i := first; i < len(r.runs); i++ {
		todo = append(todo, r.notDone(i)...)
	}
	p := r.op.Hooks.PlanFleet(r.ctx, todo)
	if err := r.op.Hooks.Show(p); err != nil {
		return r.end(Refused, "", err), true
	}
	ro := r.op.Desired.Rollout
	apply := &planner.Plan{ConfigHash: p.ConfigHash, CreatedAt: p.CreatedAt}
	var left []*planner.ClusterPlan
	for _, cp := range p.Clusters {
		switch {
		case unreachable(cp) && !ro.Stops(state.StopUnreachable):
			left = append(left, cp)
		case cp.Failure == nil && len(guard.Blocking(cp.Findings)) > 0 && !ro.Stops(state.StopErrorFinding):
			left = append(left, cp)
		default:
			apply.Clusters = append(apply.Clusters, cp)
		}
	}
	if err := r.op.Hooks.Refuse(apply); err != nil {
		return r.end(Refused, "", err), true
	}
	if err := r.checkResumed(apply); err != nil {
		return r.end(Refused, "", err), true
	}
	if !p.HasChanges() && len(left) == 0 {
		// Nothing to change anywhere: the rollout is done as soon as the
		// clusters are recorded as such.
		for _, cp := range apply.Clusters {
			r.setReviewed(cp)
			cs := r.st.cluster(cp.Name)
			cs.Status, cs.At = ClusterNothing, r.op.now()
		}
		return r.end(Complete, "", nil), true
	}
	if r.op.Hooks.Confirm != nil {
		ok, err := r.op.Hooks.Confirm()
		if err != nil {
			return r.end(Refused, "", err), true
		}
		if !ok {
			return Result{Outcome: Cancelled}, true
		}
	}
	for _, cp := range apply.Clusters {
		r.setReviewed(cp)
	}
	r.left = map[string]bool{}
	for _, cp := range left {
		r.left[cp.Name] = true
		cs := r.st.cluster(cp.Name)
		if unreachable(cp) {
			cs.Status, cs.Error = ClusterUnreachable, r.op.scrub(cp.Failure.Message)
		} else {
			cs.Status, cs.Error = ClusterSkipped, "error findings "+strings.Join(blockingCodes(cp), ", ")+" (the rollout does not stop on them: stop_on)"
		}
		cs.At = r.op.now()
	}
	r.st.Status, r.st.Reason = RunRunning, ""
	if err := r.save(); err != nil {
		return r.end(Stopped, "", err), true
	}
	return Result{}, false
}

// unreachable reports whether cp could not be read (or only in part).
func unreachable(cp *planner.ClusterPlan) bool {
	return cp.Failure != nil && (cp.Failure.Status == planner.StatusUnreachable || cp.Failure.Status == planner.StatusIncomplete)
}

func blockingCodes(cp *planner.ClusterPlan) []string {
	var codes []string
	for _, f := range guard.Blocking(cp.Findings) {
		if !slices.Contains(codes, f.Code) {
			codes = append(codes, f.Code)
		}
	}
	return codes
}

// setReviewed records the reviewed plan of a cluster: its hash and changes
// (a cluster a stopped rollout touched keeps those it was first reviewed
// with: what is left of them is what a resume applies).
func (r *run) setReviewed(cp *planner.ClusterPlan) {
	cs := r.st.cluster(cp.Name)
	if cs == nil || cs.Status.Touched() {
		return
	}
	cs.PlanHash, cs.Changes = cp.Hash(), Targets(cp)
	if cs.Status != ClusterPending {
		cs.Status, cs.Error = ClusterPending, ""
	}
}

// checkResumed refuses a resumed rollout when a cluster's plan is not the
// one the state recorded: for a cluster never touched, the same hash; for
// one the rollout touched, only what is left of its recorded changes.
func (r *run) checkResumed(p *planner.Plan) error {
	if r.op.Resume == nil {
		return nil
	}
	var moved []string
	for _, cp := range p.Clusters {
		cs := r.st.cluster(cp.Name)
		if cs == nil || cp.Failure != nil {
			continue
		}
		if why := planMoved(cs, cp); why != "" {
			moved = append(moved, fmt.Sprintf("%s: %s", cp.Name, why))
		}
	}
	if len(moved) == 0 {
		return nil
	}
	return fmt.Errorf("rollout: the plan changed underneath since the state %s recorded it, so this is not the rollout that was reviewed:\n  %s\nnothing was applied; review a new plan: tiform apply (without --resume)",
		r.op.StatePath, strings.Join(moved, "\n  "))
}

// planMoved says how cp differs from what cs recorded ("" when it is the
// recorded plan, or for a touched cluster what is left of it).
func planMoved(cs *ClusterState, cp *planner.ClusterPlan) string {
	if cs.PlanHash == "" {
		return "" // never reviewed (it could not be read): reviewed now
	}
	if !cs.Status.Touched() {
		if h := cp.Hash(); h != cs.PlanHash {
			return fmt.Sprintf("plan hash %s, recorded %s", h, cs.PlanHash)
		}
		return ""
	}
	recorded := map[string]string{}
	for _, c := range cs.Changes {
		recorded[c.Address] = c.Target
	}
	var extra []string
	for _, c := range Targets(cp) {
		if t, ok := recorded[c.Address]; !ok || t != c.Target {
			extra = append(extra, c.Address)
		}
	}
	if len(extra) > 0 {
		return "changes that are not what is left of its recorded plan: " + strings.Join(extra, ", ")
	}
	return ""
}

// stage applies the clusters of stage i that are not done, in order,
// stopping as stop_on says.
func (r *run) stage(i int) (Result, bool) {
	sr := r.runs[i]
	todo := r.notDone(i)
	if len(todo) == 0 {
		return Result{}, false
	}
	if r.started {
		if res, stop := r.windowsAtStage(i, todo); stop {
			return res, true
		}
	}
	ss := r.st.stage(sr.stage.Name)
	ss.Status = "running"
	r.st.Next = sr.stage.Name
	if err := r.record(Event{Kind: EventStageStart, Stage: sr.stage.Name, Index: i + 1, Of: len(r.runs), Clusters: names(todo)}); err != nil {
		return r.end(Stopped, sr.stage.Name, err), true
	}
	r.measureBefore(i, todo)
	ro := r.op.Desired.Rollout
	for _, dc := range todo {
		cs := r.st.cluster(dc.Name)
		if r.left[dc.Name] {
			// Left out at the review (stop_on): say so where it would have
			// been applied.
			if err := r.record(Event{Kind: EventClusterDone, Stage: sr.stage.Name, Cluster: dc.Name, PlanHash: cs.PlanHash,
				Result: string(cs.Status), Detail: "left out at the review: " + cs.Error}); err != nil {
				return r.end(Stopped, sr.stage.Name, err), true
			}
			continue
		}
		out := r.applyCluster(dc, cs)
		cs.Status, cs.Error, cs.At = out.status, r.errTextFor(out), r.op.now()
		cs.Applied += out.applied
		r.applied += out.applied
		if out.sent {
			r.started = true
		}
		if err := r.save(); err != nil {
			return r.end(Stopped, sr.stage.Name, err), true
		}
		if err := r.record(Event{Kind: EventClusterDone, Stage: sr.stage.Name, Cluster: dc.Name, PlanHash: cs.PlanHash,
			Result: string(out.status), Detail: cs.Error, Applied: out.applied, Reported: out.reported}); err != nil {
			return r.end(Stopped, sr.stage.Name, err), true
		}
		var cond state.StopCondition
		switch out.status {
		case ClusterInterrupted:
			ss.Status = "stopped"
			_ = r.record(Event{Kind: EventStageEnd, Stage: sr.stage.Name, Index: i + 1, Of: len(r.runs), Result: "interrupted"})
			return r.end(Interrupted, sr.stage.Name, fmt.Errorf("interrupted in stage %q at cluster %q: %w", sr.stage.Name, dc.Name, out.err)), true
		case ClusterFailed, ClusterRefused:
			cond = state.StopFailedChange
		case ClusterUnreachable:
			cond = state.StopUnreachable
		case ClusterSkipped:
			cond = state.StopErrorFinding
		default:
			continue
		}
		if ro.Stops(cond) {
			ss.Status = "stopped"
			_ = r.record(Event{Kind: EventStageEnd, Stage: sr.stage.Name, Index: i + 1, Of: len(r.runs), Result: "stopped",
				Detail: fmt.Sprintf("cluster %q %s", dc.Name, out.status)})
			why := fmt.Errorf("cluster %q %s (stop_on %s): %s", dc.Name, out.status, cond, r.errTextFor(out))
			if out.reported {
				why = fmt.Errorf("cluster %q %s (stop_on %s; its report is above)", dc.Name, out.status, cond)
			}
			return r.end(Stopped, sr.stage.Name, why), true
		}
	}
	ss.Status = "complete"
	if err := r.record(Event{Kind: EventStageEnd, Stage: sr.stage.Name, Index: i + 1, Of: len(r.runs), Result: "complete",
		Detail: r.stageSummary(i)}); err != nil {
		return r.end(Stopped, sr.stage.Name, err), true
	}
	return Result{}, false
}

// stageSummary counts the stage's clusters by status: "2 applied, 1 nothing to change".
func (r *run) stageSummary(i int) string {
	counts := map[Status]int{}
	var order []Status
	for _, dc := range r.runs[i].clusters {
		s := r.st.cluster(dc.Name).Status
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	parts := make([]string, 0, len(order))
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], statusText(s)))
	}
	return strings.Join(parts, ", ")
}

// statusText is a status as a count reads it.
func statusText(s Status) string {
	if s == ClusterNothing {
		return "with nothing to change"
	}
	return string(s)
}

// clusterOutcome is what applying one cluster did.
type clusterOutcome struct {
	status  Status
	applied int
	err     error
	// sent: a statement may have been sent (the apply started).
	sent bool
	// reported: its apply report was written (Hooks.Reported).
	reported bool
}

func (o clusterOutcome) errText() string {
	if o.err == nil {
		return ""
	}
	return o.err.Error()
}

// errTextFor is o's error as the state file and the events keep it.
func (r *run) errTextFor(o clusterOutcome) string { return r.op.scrub(o.errText()) }

// applyCluster holds dc, plans it from the read under its lock, and applies
// that plan only when it is the reviewed one (cs: its hash; for a cluster
// the rollout touched, what is left of its changes).
func (r *run) applyCluster(dc *state.DesiredCluster, cs *ClusterState) clusterOutcome {
	r.op.progress(Event{Kind: EventCluster, Cluster: dc.Name})
	x, cp := r.op.hold(r.ctx, dc)
	if x == nil {
		f := cp.Failure
		if r.ctx.Err() != nil {
			return clusterOutcome{status: ClusterInterrupted, err: errors.New(f.Message)}
		}
		if f.Status == planner.StatusUnreachable || f.Status == planner.StatusIncomplete {
			return clusterOutcome{status: ClusterUnreachable, err: errors.New(f.Message)}
		}
		return clusterOutcome{status: ClusterRefused, err: errors.New(f.Message)}
	}
	defer x.release()
	if why := planMoved(cs, cp); why != "" {
		return clusterOutcome{status: ClusterRefused, err: fmt.Errorf("nothing was sent: the plan made under its lock is not the one the rollout reviewed (%s): it changed underneath", why)}
	}
	if codes := blockingCodes(cp); len(codes) > 0 {
		return clusterOutcome{status: ClusterSkipped, err: fmt.Errorf("nothing was sent: its plan has error findings %s", strings.Join(codes, ", "))}
	}
	if len(cp.Changes) == 0 {
		return clusterOutcome{status: ClusterNothing}
	}
	rep, err := x.h.Apply(r.ctx, cp, r.op.Hooks.Options(dc))
	out := clusterOutcome{status: ClusterApplied, err: err}
	if rep != nil {
		out.applied = appliedIn(rep)
		out.reported = true
		out.sent = rep.Refused == "" && rep.Aborted == ""
		if r.op.Hooks.Reported != nil {
			r.op.Hooks.Reported(rep)
		}
	}
	switch {
	case err == nil:
	case errors.Is(err, applier.ErrInterrupted):
		out.status = ClusterInterrupted
	case errors.Is(err, applier.ErrRefused), errors.Is(err, applier.ErrLocked):
		out.status = ClusterRefused
	default:
		out.status = ClusterFailed
		out.sent = true
	}
	return out
}

// appliedIn counts the changes rep applied.
func appliedIn(rep *applier.Report) int {
	n := 0
	for _, c := range rep.Changes {
		if c.Status == applier.Applied {
			n++
		}
	}
	return n
}

// end records the rollout's end in the state file (but for a refusal:
// nothing happened that a resume would continue from) and the audit log,
// and returns the result; where names the stage it stopped in or paused
// before.
func (r *run) end(o Outcome, where string, err error) Result {
	res := Result{Outcome: o, Err: err, Applied: r.applied}
	if o != Refused {
		r.st.Status = map[Outcome]string{Complete: RunComplete, Stopped: RunStopped, Paused: RunPaused, Interrupted: RunInterrupted}[o]
		r.st.Reason, r.st.Next = "", ""
		if o != Paused {
			r.st.PausedFor = ""
		}
		if err != nil {
			r.st.Reason = r.op.scrub(err.Error())
		}
		if o != Complete {
			r.st.Next = where
		}
		if serr := r.save(); serr != nil && res.Err == nil {
			res = Result{Outcome: Stopped, Err: serr, Applied: r.applied}
		}
	}
	e := Event{Kind: EventEnd, Result: string(res.Outcome), Stage: where, Done: r.st.done(), Remain: r.st.remaining()}
	if o != Refused {
		e.State = r.op.StatePath
	}
	if res.Err != nil {
		e.Detail = res.Err.Error()
	}
	if rerr := r.record(e); rerr != nil && res.Err == nil {
		res = Result{Outcome: Stopped, Err: rerr, Applied: r.applied}
	}
	return res
}

// save writes the state file.
func (r *run) save() error {
	r.st.UpdatedAt = r.op.now().UTC()
	if r.st.Status == "" {
		r.st.Status = RunRunning
	}
	if r.st.Next == "" && r.st.Status == RunRunning {
		if i := r.firstStage(); i >= 0 {
			r.st.Next = r.runs[i].stage.Name
		}
	}
	return WriteState(r.op.StatePath, r.st)
}

// names lists the clusters' names.
func names(cs []*state.DesiredCluster) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// pluralIs is "1 cluster is" or "3 clusters are".
func pluralIs(n int, noun string) string {
	if n == 1 {
		return "1 " + noun + " is"
	}
	return fmt.Sprintf("%d %ss are", n, noun)
}

// newState is the state of a new rollout over runs: every cluster pending.
func newState(configHash string, runs []stageRun, now time.Time) *State {
	st := &State{ConfigHash: configHash, StartedAt: now.UTC(), Status: RunRunning}
	for _, sr := range runs {
		ss := &StageState{Name: sr.stage.Name, Status: "pending"}
		for _, dc := range sr.clusters {
			ss.Clusters = append(ss.Clusters, &ClusterState{Name: dc.Name, Status: ClusterPending})
		}
		st.Stages = append(st.Stages, ss)
	}
	return st
}

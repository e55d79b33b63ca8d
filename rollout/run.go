package rollout

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// Hooks are how an operation reaches the clusters and the person running it:
// the wiring the command gives (its flags: timeouts, TLS, formats). Every
// hook but the optional ones must be set.
type Hooks struct {
	// Connect opens a connection pool to dc (its DSN, the command's TLS and
	// timeouts); the operation closes it.
	Connect func(ctx context.Context, dc *state.DesiredCluster) (*sql.DB, error)
	// PlanFleet reads and plans clusters without the lock, concurrently: a
	// rollout's review and its no_drift checks. A cluster that could not be
	// read or planned has a Failure. Plans are in the order of clusters.
	PlanFleet func(ctx context.Context, clusters []*state.DesiredCluster) *planner.Plan
	// PlanRead plans dc from l, the read made under the lock over db (which
	// the evidence a plan shows is read over).
	PlanRead func(ctx context.Context, db *sql.DB, dc *state.DesiredCluster, l *state.Live) (*planner.ClusterPlan, error)
	// Failure says why a cluster could not be held, read or planned.
	Failure func(err error) *planner.Failure
	// Show shows the plan about to be applied: the review.
	Show func(p *planner.Plan) error
	// Refuse returns why the plan shown must not be applied at all (a
	// cluster that could not be planned, a partial read, an error finding,
	// a --plan-hash that does not match), nil to go on.
	Refuse func(p *planner.Plan) error
	// Confirm asks whether to apply the plan shown (nil: never asks, as
	// with --auto-approve).
	Confirm func() (bool, error)
	// Approve asks a person whether stage may start (a rollout's approval
	// gate); false, or an error (nobody can answer here), pauses the
	// rollout. Nil: nobody can answer.
	Approve func(stage string) (bool, error)
	// Options are the applier's options for dc (audit log, progress, event
	// stream, rollback path, operator, secrets).
	Options func(dc *state.DesiredCluster) applier.Options
	// Reported receives each cluster's apply report, and the report of a
	// cluster that could not be held.
	Reported func(rep *applier.Report)
	// HitRatio measures dc's plan-cache hit ratio from the statements of
	// its statement summary over the last since (the plan_cache_hit_ratio
	// check).
	HitRatio func(ctx context.Context, dc *state.DesiredCluster, since time.Duration) (workload.Ratio, error)
	// Sleep waits d or until ctx is done (a stage's pause); nil: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock (windows, the state file); nil: time.Now.
	Now func() time.Time
}

// Operation is one apply of a configuration: at once, or following its
// rollout.
type Operation struct {
	// Desired is the configuration; Selected names the clusters of it this
	// apply changes (--cluster, --label), in declaration order.
	Desired  *state.Desired
	Selected []string
	Hooks    Hooks
	// Progress receives what the operation does, for people (text or
	// Markdown); nil: nothing. The JSON lines are the audit log's events.
	Progress Progress
	// Audit names the audit log and the event stream the operation's own
	// events (rollout, stage, gate, window override) go to.
	Audit applier.Options
	// Parallelism bounds how many clusters are held or read at once.
	Parallelism int
	// ContinueOnError applies the other clusters after one failed (at once
	// only: a rollout has stop_on).
	ContinueOnError bool
	// StatePath is where a rollout writes its state (required with a
	// rollout); Resume the state a resumed rollout continues from.
	StatePath string
	Resume    *State
	// IgnoreWindows is the reason given with --ignore-windows: clusters
	// outside their change windows are applied, and the override recorded.
	IgnoreWindows string

	// reportMu keeps the report of one cluster that could not be held in one
	// piece while the others are held at the same time.
	reportMu sync.Mutex
}

// Outcome is how an operation ended.
type Outcome string

const (
	// Complete: every cluster was applied (or had nothing to change).
	Complete Outcome = "complete"
	// NothingToDo: no selected cluster had a change.
	NothingToDo Outcome = "nothing"
	// Cancelled: the person did not approve the plan; nothing was sent.
	Cancelled Outcome = "cancelled"
	// Refused: nothing was applied in this run (a window, a cluster that
	// could not be planned, an error finding, the plan changed).
	Refused Outcome = "refused"
	// Stopped: a cluster failed (or a check), the rollout stopped; the
	// state file says what was done.
	Stopped Outcome = "stopped"
	// Paused: a rollout waits before a stage (an approval, a closed
	// window); nothing failed.
	Paused Outcome = "paused"
	// Interrupted: Ctrl-C.
	Interrupted Outcome = "interrupted"
)

// Result is what Run did: how it ended, why (Err: the command's message;
// nil when complete, nothing to do or cancelled), and how many changes it
// applied.
type Result struct {
	Outcome Outcome
	Err     error
	Applied int
}

// ErrNoRollout is returned for --resume on a configuration without a rollout.
var ErrNoRollout = errors.New("rollout: the configuration has no rollout block")

// Run applies the selected clusters: at once without a rollout, stage by
// stage with one.
func (op *Operation) Run(ctx context.Context) Result {
	if op.Desired.Rollout == nil {
		if op.Resume != nil {
			return Result{Outcome: Refused, Err: ErrNoRollout}
		}
		return op.atOnce(ctx)
	}
	return op.rollout(ctx)
}

// scrub replaces every secret of op.Audit (the DSNs' passwords) in s: what
// the state file and the events keep of an error never holds one, whatever
// produced the error (live and the applier redact them already).
func (op *Operation) scrub(s string) string {
	for _, x := range op.Audit.Secrets {
		if x != "" {
			s = strings.ReplaceAll(s, x, "****")
		}
	}
	return s
}

func (op *Operation) now() time.Time {
	if op.Hooks.Now != nil {
		return op.Hooks.Now()
	}
	return time.Now()
}

// selected returns the selected clusters of the configuration, in
// declaration order.
func (op *Operation) selected() []*state.DesiredCluster {
	want := map[string]bool{}
	for _, n := range op.Selected {
		want[n] = true
	}
	var out []*state.DesiredCluster
	for _, dc := range op.Desired.Clusters {
		if want[dc.Name] {
			out = append(out, dc)
		}
	}
	return out
}

// held is one cluster held for its apply: the connection pool, the applier's
// hold, and the plan made from its read.
type held struct {
	dc   *state.DesiredCluster
	db   *sql.DB
	h    *applier.Held
	plan *planner.ClusterPlan
}

func (h *held) release() {
	if h == nil {
		return
	}
	h.h.Release()
	if h.db != nil {
		h.db.Close()
	}
}

// hold takes dc for its apply: connect, applier.Hold (the lock, then the one
// read under it: what a plan of dc reads), and the plan of that read. A
// cluster that cannot be held or planned gets a plan with a Failure (its
// report, when the applier wrote one, goes to Reported).
func (op *Operation) hold(ctx context.Context, dc *state.DesiredCluster) (*held, *planner.ClusterPlan) {
	fail := func(err error) *planner.ClusterPlan {
		return &planner.ClusterPlan{Name: dc.Name, Labels: dc.Labels, Failure: op.Hooks.Failure(err)}
	}
	if dc.DSN == "" {
		return nil, fail(fmt.Errorf("cluster %q has no DSN: set dsn = env(\"…\") in its cluster block, pass --dsn, or set TIFORM_DSN (go-sql-driver form, e.g. user:password@tcp(host:4000)/)", dc.Name))
	}
	db, err := op.Hooks.Connect(ctx, dc)
	if err != nil {
		return nil, fail(fmt.Errorf("cluster %q: %w", dc.Name, err))
	}
	h, rep, err := applier.Hold(ctx, db, dc.Name, live.RequestFor(dc), op.Hooks.Options(dc))
	if err != nil {
		db.Close()
		if rep != nil && op.Hooks.Reported != nil {
			op.reportMu.Lock()
			op.Hooks.Reported(rep)
			op.reportMu.Unlock()
		}
		return nil, fail(fmt.Errorf("cluster %q: %w", dc.Name, err))
	}
	x := &held{dc: dc, db: db, h: h}
	cp, err := op.Hooks.PlanRead(ctx, db, dc, h.Live())
	if err != nil {
		x.release()
		return nil, fail(err)
	}
	x.plan = cp
	return x, cp
}

// atOnce is apply without a rollout: every selected cluster is held and
// planned from its read under the lock (at most Parallelism at once), the
// plan is shown once and, approved, applied cluster after cluster without
// reading any cluster again; every lock is held until its cluster is done.
func (op *Operation) atOnce(ctx context.Context) Result {
	clusters := op.selected()
	if res, stop := op.windowsBeforeStart(clusters, ""); stop {
		return res
	}
	helds := make([]*held, len(clusters))
	p := &planner.Plan{ConfigHash: op.Desired.ConfigHash, CreatedAt: op.now(), Clusters: make([]*planner.ClusterPlan, len(clusters))}
	ForEach(op.Parallelism, len(clusters), func(i int) {
		helds[i], p.Clusters[i] = op.hold(ctx, clusters[i])
	})
	defer func() {
		for _, h := range helds {
			h.release()
		}
	}()
	if ctx.Err() != nil {
		// Ctrl-C while waiting for a lock or reading: nothing was sent.
		return Result{Outcome: Interrupted, Err: fmt.Errorf("%w: %w", applier.ErrInterrupted, firstFailure(p))}
	}
	if err := op.Hooks.Show(p); err != nil {
		return Result{Outcome: Refused, Err: err}
	}
	if err := op.Hooks.Refuse(p); err != nil {
		return Result{Outcome: Refused, Err: err}
	}
	if !p.HasChanges() {
		return Result{Outcome: NothingToDo}
	}
	if op.Hooks.Confirm != nil {
		ok, err := op.Hooks.Confirm()
		if err != nil {
			return Result{Outcome: Refused, Err: err}
		}
		if !ok {
			return Result{Outcome: Cancelled}
		}
	}
	res := Result{Outcome: Complete}
	var firstErr error
	for i, cp := range p.Clusters {
		h := helds[i]
		if len(cp.Changes) == 0 || h == nil {
			continue
		}
		op.progress(Event{Kind: EventCluster, Cluster: cp.Name})
		rep, err := h.h.Apply(ctx, cp, op.Hooks.Options(h.dc))
		h.release()
		helds[i] = nil
		if rep != nil {
			res.Applied += appliedIn(rep)
			if op.Hooks.Reported != nil {
				op.Hooks.Reported(rep)
			}
		}
		if err == nil {
			continue
		}
		if rep != nil {
			err = &ClusterError{Cluster: cp.Name, Err: err}
		}
		if errors.Is(err, applier.ErrInterrupted) {
			return Result{Outcome: Interrupted, Err: err, Applied: res.Applied}
		}
		if firstErr == nil {
			firstErr = err
		}
		if !op.ContinueOnError {
			return Result{Outcome: Stopped, Err: err, Applied: res.Applied}
		}
	}
	if firstErr != nil {
		return Result{Outcome: Stopped, Err: firstErr, Applied: res.Applied}
	}
	return res
}

// firstFailure is the first cluster failure of p, for the error of a run
// interrupted before anything was sent.
func firstFailure(p *planner.Plan) error {
	for _, cp := range p.Clusters {
		if cp.Failure != nil {
			return errors.New(cp.Failure.Message)
		}
	}
	return errors.New("interrupted before the plan was shown")
}

// ClusterError is a cluster's apply that did not complete, after its report
// was written: the message points at the report, which says why.
type ClusterError struct {
	Cluster string
	Err     error
}

func (e *ClusterError) Error() string {
	return fmt.Sprintf("apply did not complete for cluster %q (see the report above)", e.Cluster)
}

func (e *ClusterError) Unwrap() error { return e.Err }

// ForEach calls fn(i) for each of n items concurrently, at most parallelism
// at once, and returns when every call has returned: the one fan-out of the
// commands that read or hold a fleet.
func ForEach(parallelism, n int, fn func(i int)) {
	sem := make(chan struct{}, max(parallelism, 1))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			fn(i)
		}()
	}
	wg.Wait()
}

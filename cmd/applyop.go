package cmd

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/rollout"
	"github.com/tiform/tiform/secret"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// The wiring of `tiform apply` (without a saved plan) to the rollout
// package, which runs the operation: at once, or following the
// configuration's rollout. Everything here turns flags into hooks; the
// decisions are the rollout package's.

// clock is tiform's clock: change windows and the state file read it. The
// test binary pins it (TestMain).
var clock = time.Now

// defaultStateFile is where a rollout records its progress without --state.
const defaultStateFile = "rollout-state.json"

// rolloutFlags are apply's rollout flags.
type rolloutFlags struct {
	state         string
	resume        string
	ignoreWindows string
}

func (r *rolloutFlags) bind(fl interface {
	StringVar(p *string, name, value, usage string)
}) {
	fl.StringVar(&r.state, "state", "", "with a rollout: write its state (done and remaining clusters, plan hashes) to FILE, atomically, after every cluster and gate (default <--chdir>/"+defaultStateFile+")")
	fl.StringVar(&r.resume, "resume", "", "continue the rollout whose state FILE records, after an interruption, a stop or a pause: refused when a plan changed since it was recorded")
	fl.StringVar(&r.ignoreWindows, "ignore-windows", "", "apply now to clusters outside their change windows or in a blackout; the REASON is recorded in the audit log")
}

// checkRolloutFlags refuses, before anything is read, flags that do not go
// together.
func (f *applyFlags) checkRolloutFlags(changed func(string) bool) error {
	switch {
	case changed("ignore-windows") && strings.TrimSpace(f.rollout.ignoreWindows) == "":
		return errors.New(`apply: --ignore-windows needs a reason, recorded in the audit log: --ignore-windows "INC-1234: hotfix approved by the on-call lead"`)
	case f.rollout.resume != "" && (len(f.clusters) > 0 || len(f.labels) > 0):
		return errors.New("apply: --resume continues the clusters its state file records; --cluster and --label cannot change them")
	case f.rollout.resume != "" && f.rollout.state != "" && f.rollout.state != f.rollout.resume:
		return errors.New("apply: --resume FILE keeps writing FILE; drop --state")
	}
	return nil
}

// newApplyOperation is the operation tiform apply runs over d, and the
// fleet's outcome tally of an apply at once (started when its plan is
// shown; a rollout reports its own progress): end writes its totals.
func newApplyOperation(env *Env, f *applyFlags, out applyOutput, d *state.Desired, resume *rollout.State, stdin *bufio.Reader) (op *rollout.Operation, end func()) {
	var tally *tallyWriter
	audit, _ := auditLogPath(f.auditLog) // checked before (runApply)
	many := len(d.Clusters) > 1
	opts := func(dc *state.DesiredCluster) applier.Options {
		o := applier.Options{
			Desired:         dc,
			LockTimeout:     f.lockTimeout,
			ContinueOnError: f.continueOnError,
			Concurrency:     f.concurrency,
			Progress:        out.human,
			Events:          out.reporter(),
			AuditPath:       audit,
			Operator:        operator(""),
			ConfigHash:      d.ConfigHash,
			Secrets:         env.Secrets.List(),
			Now:             clock,
		}
		if dc != nil {
			o.Operator = operator(dc.DSN)
			o.RollbackPath = rollbackPath(f.chdir, dc.Name, many)
			o.Secrets = append(secret.DSNSecrets(dc.DSN), o.Secrets...)
		}
		return o
	}
	po := planner.Options{Now: clock(), AllowPartial: f.allowPartial}
	op = &rollout.Operation{
		Desired:         d,
		Selected:        clusterNames(d.Clusters),
		Audit:           opts(nil),
		Parallelism:     f.parallelism,
		ContinueOnError: f.continueOnError,
		Resume:          resume,
		IgnoreWindows:   strings.TrimSpace(f.rollout.ignoreWindows),
		Progress:        &rollout.TextProgress{W: out.human},
		Hooks: rollout.Hooks{
			Connect: func(ctx context.Context, dc *state.DesiredCluster) (*sql.DB, error) {
				return f.open(ctx, dc.DSN)
			},
			PlanFleet: func(ctx context.Context, cs []*state.DesiredCluster) *planner.Plan {
				sub := &state.Desired{Clusters: cs, ConfigHash: d.ConfigHash, Sources: d.Sources}
				read := func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, *sql.DB, error) {
					return readLiveOpen(ctx, &f.configFlags, dc)
				}
				return planFleet(ctx, sub, f.parallelism, read, readEvidence(&f.configFlags), po)
			},
			PlanRead: func(ctx context.Context, db *sql.DB, dc *state.DesiredCluster, l *state.Live) (*planner.ClusterPlan, error) {
				return planRead(ctx, dc, l, db, readEvidence(&f.configFlags), po)
			},
			Failure: func(err error) *planner.Failure { return failureOf(err, d.Sources) },
			Show: func(p *planner.Plan) error {
				tally = out.startTally(p, f.view.noColor)
				return renderApplyPlan(out, p, f.view, f.chdir)
			},
			Refuse: func(p *planner.Plan) error {
				if err := failuresError(p); err != nil {
					return fmt.Errorf("apply: refusing to apply anything: %w. Deselect them with --cluster or --label to apply the others", err)
				}
				if p.Incomplete() {
					return errors.New("apply: refusing to apply a partial plan: part of the cluster could not be read (listed above)")
				}
				if !p.HasChanges() {
					return nil
				}
				if err := refuseBlocking(p); err != nil {
					return err
				}
				return checkPlanHashes(p, f.planHashes)
			},
			Options: opts,
			Reported: func(rep *applier.Report) {
				if tally != nil {
					tally.record(rep.Cluster, rep, nil)
				}
				fmt.Fprintln(out.human)
				rep.WriteText(out.human)
			},
			HitRatio: func(ctx context.Context, dc *state.DesiredCluster, since time.Duration) (workload.Ratio, error) {
				return hitRatio(ctx, &f.configFlags, dc, since)
			},
			Now: clock,
		},
	}
	if f.view.format == "markdown" {
		op.Progress = &rollout.MarkdownProgress{W: out.human}
	}
	if !f.autoApprove {
		op.Hooks.Confirm = func() (bool, error) { return confirm(env, stdin) }
	}
	if out.events == nil {
		op.Hooks.Approve = func(stage string) (bool, error) { return approveStage(env, stdin, stage) }
	}
	if d.Rollout != nil {
		op.StatePath = f.rollout.state
		if f.rollout.resume != "" {
			op.StatePath = f.rollout.resume
		}
		if op.StatePath == "" {
			op.StatePath = filepath.Join(f.chdir, defaultStateFile)
		}
	}
	return op, func() {
		if tally != nil {
			tally.end()
		}
	}
}

// runOperation runs op, SIGINT/SIGTERM stopping it between statements, and
// turns how it ended into the command's exit status and message.
func runOperation(ctx context.Context, env *Env, out applyOutput, op *rollout.Operation) error {
	ctx, stop := interruptible(ctx, env)
	defer stop()
	res := op.Run(ctx)
	code := operationExitCode(res.Outcome)
	switch {
	case res.Outcome == rollout.Cancelled:
		fmt.Fprintln(out.human, "\nApply cancelled: nothing was changed.")
		return exitCode(ExitError, nil)
	case res.Err == nil:
		return exitCode(code, nil)
	}
	err := res.Err
	var ce *rollout.ClusterError
	if out.events != nil && errors.As(err, &ce) {
		err = fmt.Errorf("apply did not complete for cluster %q (its apply_end event says why; the report is on standard error)", ce.Cluster)
	}
	return exitCode(code, err)
}

// interruptible is ctx cancelled by the first SIGINT or SIGTERM: the
// running statement finishes, the apply stops and reports; a second signal
// gets the default behaviour.
func interruptible(ctx context.Context, env *Env) (context.Context, func()) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			if ctx.Err() == context.Canceled {
				stop()
				fmt.Fprintln(env.Stderr, "\nInterrupted: finishing the running statement, then stopping with a report (press Ctrl-C again to quit at once).")
			}
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		stop()
	}
}

// approveStage asks on standard input whether stage may start. No answer
// (no terminal, end of input) is not an approval: the rollout pauses.
func approveStage(env *Env, stdin *bufio.Reader, stage string) (bool, error) {
	fmt.Fprintf(env.Stdout, "\nStart stage %q?\n  Only 'yes' will be accepted to approve; anything else pauses the rollout (tiform apply --resume continues it).\n\n  Enter a value: ", stage)
	flush(env.Stdout)
	line, err := stdin.ReadString('\n')
	fmt.Fprintln(env.Stdout) // the progress goes on under the question
	if err != nil && line == "" {
		if errors.Is(err, io.EOF) {
			return false, errors.New("no answer on standard input")
		}
		return false, err
	}
	return strings.TrimSpace(line) == "yes", nil
}

func flush(w io.Writer) {
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush() // nothing of the question may be held back while waiting
	}
}

// hitRatio reads dc's plan-cache hit ratio from its statement summary over
// the last since, within --timeout: the executions of cacheable statements
// and how many hit a cache (workload.PlanCache).
func hitRatio(ctx context.Context, f *configFlags, dc *state.DesiredCluster, since time.Duration) (workload.Ratio, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	db, err := f.open(ctx, dc.DSN)
	if err != nil {
		return workload.Ratio{}, err
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, live.Request{})
	if err != nil {
		return workload.Ratio{}, err
	}
	q := workload.Query{Since: since, Limit: workload.DefaultLimit, Order: workload.ByLatency}
	sample, err := live.StatementReader{DB: db, Live: l, Variables: true, User: operator(dc.DSN).DBUser}.ReadStatements(ctx, q)
	if err != nil {
		return workload.Ratio{}, err
	}
	return workload.PlanCache(*sample).All, nil
}

// savedPlanRollout decides what a saved plan may do when the configuration
// in --chdir (d; nil when there is none) has change windows or a rollout:
// the windows hold as for any apply (refused outside them, naming the next
// one, unless --ignore-windows); a rollout's order, gates and state cannot
// be followed by a plan saved for several clusters, so such a plan is
// refused: apply from the configuration, or save one plan per cluster.
func savedPlanRollout(d *state.Desired, p *planner.Plan, f *applyFlags) error {
	if d == nil {
		return nil
	}
	var names []string
	for _, cp := range p.Clusters {
		if len(cp.Changes) > 0 {
			names = append(names, cp.Name)
		}
	}
	if d.Rollout != nil && len(names) > 1 {
		return fmt.Errorf("apply: the configuration in %s has a rollout block, which a plan saved for several clusters (%s) cannot follow (its stages, gates and state file): apply from the configuration (tiform apply --chdir %s), or save and apply one plan per cluster (--cluster)",
			f.chdir, strings.Join(names, ", "), f.chdir)
	}
	if f.rollout.resume != "" || f.rollout.state != "" {
		return errors.New("apply: --state and --resume follow a rollout from the configuration, not a saved plan")
	}
	audit, err := auditLogPath(f.auditLog)
	if err != nil {
		return err
	}
	return rollout.CheckWindows(d, names, clock(), strings.TrimSpace(f.rollout.ignoreWindows),
		applier.Options{AuditPath: audit, Operator: operator(""), Secrets: nil, Now: clock})
}

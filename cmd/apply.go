package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/rollout"
	"github.com/tiform/tiform/secret"
	"github.com/tiform/tiform/state"
)

func init() { register(newApplyCmd) }

type applyFlags struct {
	configFlags
	view            viewFlags
	autoApprove     bool
	lockTimeout     time.Duration
	continueOnError bool
	concurrency     int
	auditLog        string
	planHashes      []string
	planMaxAge      time.Duration
	forceReapply    string
	rollout         rolloutFlags
}

// planMaxAgeEnv sets --plan-max-age when the flag is not given.
const planMaxAgeEnv = "TIFORM_PLAN_MAX_AGE"

func newApplyCmd(env *Env) *cobra.Command {
	var f applyFlags
	c := &cobra.Command{
		Use:   "apply [PLANFILE]",
		Short: "Change the live clusters to match the configuration",
		Long: `Without PLANFILE: plan (as 'tiform plan'), show the plan, ask for 'yes', then
apply it. With PLANFILE (from 'tiform plan --out'): apply exactly that plan,
without asking; the plan was the review.

Before the first statement apply takes a cluster-wide lock (GET_LOCK
'tiform.apply') and reads the cluster once under it: without PLANFILE the plan
shown is made from that read; with PLANFILE apply refuses if the cluster moved
since the plan was made. It then runs the statements in the
plan's order, reads SHOW WARNINGS after each SET CONFIG (TiDB reports
per-instance failures only as warnings), and reads every value back from every
affected instance. Config changes the plan does not order (no dependency
between them) are sent --concurrency at a time, each on its own connection;
variables, resource groups and users one after another. A plan with an unacknowledged error finding is refused
before anything is sent.

On the first failure apply starts nothing more (or goes on with
--continue-on-error), lets the statements in flight finish, reports
exactly what was applied, what failed and what was not attempted, and writes a
rollback plan that 'tiform apply rollback.tfplan' runs. Every statement is
recorded in an append-only audit log (JSON lines, no credentials).

When the configuration has a rollout block, apply follows it: the plan of
every cluster is reviewed once, then stage after stage each cluster is read
under its lock and applied only if its plan is the one reviewed, stopping as
stop_on says, with the gate (pause, checks, approval) after each stage. Its
state file (--state, written after every cluster) lets --resume FILE continue
after an interruption, a stop or a pause. Change windows refuse an apply
outside them, naming the next window; --ignore-windows REASON overrides and
is recorded in the audit log (docs/apply.md).

With --format json, standard output carries only events, one JSON line each
as they happen (statement, warning, verify, change, apply_end, and a last
summary with the exit code; docs/apply.md); the plan, progress and report go
to standard error, and --auto-approve (or a saved plan) is required.

Exit codes: 0 applied (or nothing to do); 1 error, refused, or a rollout
stopped; 4 a rollout paused before a stage (approval, closed window); 130
interrupted (Ctrl-C finishes the running statement, then stops and reports).`,
		Example: `  # plan, review, type yes
  tiform apply

  # CI after merge: exactly the reviewed plan
  tiform plan --out plan.tfplan   # in the pull request
  tiform apply plan.tfplan        # after merge

  # undo a failed apply
  tiform apply rollback.tfplan

  # a configuration with a rollout block, stopped or paused: continue it
  tiform apply --resume rollout-state.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ctx := c.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if err := f.view.check(); err != nil {
				return err
			}
			if f.concurrency < 1 {
				return exitCode(ExitError, fmt.Errorf("apply: --concurrency %d: want 1 (one change after another) or more", f.concurrency))
			}
			if err := f.savedPlanFlags(c, len(args) == 1); err != nil {
				return exitCode(ExitError, err)
			}
			out := newApplyOutput(env, f.view.format, f.chdir)
			err := f.checkRolloutFlags(c.Flags().Changed)
			switch {
			case err != nil:
				err = exitCode(ExitError, err)
			case f.fromSnapshot != "":
				err = errApplyFromSnapshot
			case len(args) == 1:
				err = runApplySaved(ctx, env, &f, out, args[0])
			case out.events != nil && !f.autoApprove:
				// Standard output carries events only: there is no place
				// to ask, and no answer a program could give.
				err = exitCode(ExitError, errors.New("apply: --format json streams events on standard output and cannot ask for 'yes': pass --auto-approve, or apply a saved plan (tiform apply PLANFILE)"))
			case out.md != nil && !f.autoApprove:
				err = exitCode(ExitError, errors.New("apply: --format markdown writes one document for a pull request or a job summary and cannot ask for 'yes': pass --auto-approve, or apply a saved plan (tiform apply PLANFILE)"))
			default:
				err = runApply(ctx, env, &f, out)
			}
			if out.events != nil {
				out.events.summary(err)
			}
			if out.md != nil {
				if werr := out.md.flush(err); werr != nil && err == nil {
					err = exitCode(ExitError, werr)
				}
			}
			return err
		},
	}
	f.configFlags.bind(c)
	f.view.bind(c)
	fl := c.Flags()
	_ = fl.MarkHidden("from-snapshot") // refused: errApplyFromSnapshot
	fl.BoolVar(&f.autoApprove, "auto-approve", false, "apply without asking for 'yes'")
	fl.DurationVar(&f.lockTimeout, "lock-timeout", applier.DefaultLockTimeout, "how long to wait for another apply's lock")
	fl.BoolVar(&f.continueOnError, "continue-on-error", false, "keep applying the remaining changes after a failure")
	fl.IntVar(&f.concurrency, "concurrency", applier.DefaultConcurrency, "how many SET CONFIG statements of config changes the plan does not order apply sends at once, each on its own connection (1: one after another)")
	fl.StringSliceVar(&f.planHashes, "plan-hash", nil, "apply only if every cluster plan with changes has one of these hashes, as the reviewed plan comment shows them (repeatable or comma-separated)")
	fl.DurationVar(&f.planMaxAge, "plan-max-age", planner.DefaultMaxAge, "a saved plan older than this is refused (also $"+planMaxAgeEnv+"; 0s: never)")
	fl.StringVar(&f.forceReapply, "force-reapply", "", "apply a saved plan the audit log records as applied before, for this REASON (recorded)")
	fl.StringVar(&f.auditLog, "audit-log", "", "append-only audit log (default $"+auditLogEnv+", else $XDG_STATE_HOME/tiform/audit.log, else ~/.local/state/tiform/audit.log)")
	f.rollout.bind(fl)
	return c
}

// savedPlanFlags checks the flags that only a saved plan takes and reads
// $TIFORM_PLAN_MAX_AGE.
func (f *applyFlags) savedPlanFlags(c *cobra.Command, saved bool) error {
	if !saved {
		for _, name := range []string{"plan-max-age", "force-reapply"} {
			if c.Flags().Changed(name) {
				return fmt.Errorf("apply: --%s applies to a saved plan (tiform apply PLANFILE); without one, apply plans now", name)
			}
		}
		return nil
	}
	if c.Flags().Changed("force-reapply") && strings.TrimSpace(f.forceReapply) == "" {
		return errors.New("apply: --force-reapply needs the reason to apply the plan again, recorded in the audit log")
	}
	if v := os.Getenv(planMaxAgeEnv); v != "" && !c.Flags().Changed("plan-max-age") {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("apply: $%s=%q: want a duration such as 12h", planMaxAgeEnv, v)
		}
		f.planMaxAge = d
	}
	if f.planMaxAge < 0 {
		return fmt.Errorf("apply: --plan-max-age %s: want a duration such as 12h (0s: never expires)", f.planMaxAge)
	}
	return nil
}

// savedPlanOptions are the applier's options for a saved plan: it expires
// after --plan-max-age (0: never) and is applied once unless
// --force-reapply.
func (f *applyFlags) savedPlanOptions(p *planner.Plan) *applier.SavedPlan {
	maxAge := f.planMaxAge
	if maxAge == 0 {
		maxAge = -1
	}
	return &applier.SavedPlan{CreatedAt: p.CreatedAt, MaxAge: maxAge, Reapply: strings.TrimSpace(f.forceReapply)}
}

// runApply plans and applies the configuration: the rollout package runs
// it (applyop.go).
func runApply(ctx context.Context, env *Env, f *applyFlags, out applyOutput) error {
	audit, err := auditLogPath(f.auditLog)
	if err != nil {
		return exitCode(ExitError, err)
	}
	if err := checkOutPath(env, "apply --audit-log", audit); err != nil {
		return exitCode(ExitError, err)
	}
	var resume *rollout.State
	if f.rollout.resume != "" {
		st, err := rollout.ReadState(f.rollout.resume)
		if err != nil {
			return exitCode(ExitError, fmt.Errorf("apply: --resume: %w", err))
		}
		resume = st
	}
	d, err := loadConfig(env, &f.configFlags, f.view.noColor)
	if err != nil {
		return err
	}
	if d.Rollout == nil && (resume != nil || f.rollout.state != "") {
		return exitCode(ExitError, fmt.Errorf("apply: --state and --resume record and continue a rollout, and the configuration in %s has no rollout block", f.chdir))
	}
	op, end := newApplyOperation(env, f, out, d, resume, bufio.NewReader(env.Stdin))
	defer end()
	return runOperation(ctx, env, out, op)
}

// runApplySaved applies a saved plan exactly. DSNs come from the configuration
// (when --chdir has one) or --dsn / TIFORM_DSN: a plan file never holds them.
func runApplySaved(ctx context.Context, env *Env, f *applyFlags, out applyOutput, path string) error {
	p, err := readPlanFile(path)
	if err != nil {
		return exitCode(ExitError, err)
	}
	saved := f.savedPlanOptions(p)
	if err := planner.CheckAge(p, time.Now(), saved.MaxAge); err != nil {
		return exitCode(ExitError, fmt.Errorf("apply: %s: %w; nothing was sent", path, err))
	}
	if p.HasSensitive() {
		return exitCode(ExitError, fmt.Errorf("apply: %s sets values from variables marked sensitive, which a plan file never holds (it shows them as %s); nothing was sent. Apply from the configuration instead: tiform apply --chdir DIR with the same variables", path, planner.SensitiveText))
	}
	// Every statement must be what its change's values derive, before any
	// connection is made (the applier checks again: planner.CheckDerivable).
	for _, cp := range p.Clusters {
		if err := planner.CheckDerivable(cp); err != nil {
			return exitCode(ExitError, fmt.Errorf("apply: %s, cluster %q: %w; nothing was sent", path, cp.Name, err))
		}
	}
	var d *state.Desired
	if hcl, _ := filepath.Glob(filepath.Join(f.chdir, "*.hcl")); len(hcl) > 0 {
		if d, err = loadConfig(env, &f.configFlags, f.view.noColor); err != nil {
			return err
		}
	}
	if err := checkPlanHashes(p, f.planHashes); err != nil {
		return exitCode(ExitError, err) // first and short: the plan is not the reviewed one
	}
	if err := showSavedPlan(out, p, path, f.view); err != nil {
		return exitCode(ExitError, err)
	}
	if !p.HasChanges() {
		return nil
	}
	if err := refuseBlocking(p); err != nil {
		return err
	}
	if err := savedPlanRollout(d, p, f); err != nil {
		return exitCode(ExitError, err)
	}
	return applyPlan(ctx, env, f, out, p, saved, func(name string) (*state.DesiredCluster, string) {
		var dc *state.DesiredCluster
		if d != nil {
			for _, c := range d.Clusters {
				if c.Name == name {
					dc = c
				}
			}
		}
		dsn := f.flagDSN()
		if dc != nil && dc.DSN != "" && f.dsn == "" {
			dsn = dc.DSN
		}
		// The configuration may have changed since the plan: its desired state
		// then says nothing about this plan, and only the plan's own
		// fingerprint is re-checked.
		if dc != nil && d.ConfigHash != p.ConfigHash {
			dc = nil
		}
		return dc, dsn
	})
}

// renderApplyPlan shows the plan apply is about to run: in the chosen format,
// or, with --format json, as text to the people reading stderr (standard
// output carries only events).
func renderApplyPlan(out applyOutput, p *planner.Plan, v viewFlags, chdir string) error {
	w := out.human
	switch {
	case out.events != nil:
		v.format = "text"
	case out.md != nil:
		w = &out.md.plan
	}
	return renderPlan(w, p, v, render.MarkdownOptions{Dir: commentDir(chdir)})
}

// refuseBlocking ends the command when any unacknowledged error finding exists.
func refuseBlocking(p *planner.Plan) error {
	var codes []string
	for _, cp := range p.Clusters {
		for _, fd := range guard.Blocking(cp.Findings) {
			codes = append(codes, fmt.Sprintf("%s (%s)", fd.Code, cp.Name))
		}
	}
	if len(codes) == 0 {
		return nil
	}
	return exitCode(ExitError, fmt.Errorf("apply: refused before sending anything: the plan has error findings %s. Fix the configuration, or acknowledge a finding with an acknowledge \"CODE\" { reason = \"…\", until = \"YYYY-MM-DD\" } block after review", strings.Join(codes, ", ")))
}

func confirm(env *Env, stdin *bufio.Reader) (bool, error) {
	fmt.Fprint(env.Stdout, "\nDo you want to perform these actions?\n  tiform will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ")
	flush(env.Stdout)
	line, err := stdin.ReadString('\n')
	if err != nil && line == "" {
		return false, errors.New("apply: no answer on standard input; use --auto-approve to apply without asking")
	}
	return strings.TrimSpace(line) == "yes", nil
}

// applyPlan applies each cluster plan in turn; saved is set for a plan
// from a file (it expires and is applied once). SIGINT/SIGTERM cancel the
// context: the running statement finishes, the applier stops and reports.
func applyPlan(ctx context.Context, env *Env, f *applyFlags, out applyOutput, p *planner.Plan, saved *applier.SavedPlan, target func(name string) (*state.DesiredCluster, string)) error {
	ctx, stop := interruptible(ctx, env)
	defer stop()
	if err := checkPlanHashes(p, f.planHashes); err != nil {
		return exitCode(ExitError, err)
	}
	audit, err := auditLogPath(f.auditLog)
	if err != nil {
		return exitCode(ExitError, err)
	}
	if err := checkOutPath(env, "apply --audit-log", audit); err != nil {
		return exitCode(ExitError, err)
	}
	many := len(p.Clusters) > 1
	tally := out.startTally(p, f.view.noColor)
	defer tally.end()
	var firstErr error
	for _, cp := range p.Clusters {
		if len(cp.Changes) == 0 {
			continue
		}
		dc, dsn := target(cp.Name)
		if dsn == "" {
			err := fmt.Errorf("apply: cluster %q has no DSN: set dsn in its cluster block, pass --dsn, or set TIFORM_DSN", cp.Name)
			tally.record(cp.Name, nil, err)
			return exitCode(ExitError, err)
		}
		db, err := f.open(ctx, dsn)
		if err != nil {
			tally.record(cp.Name, nil, err)
			return exitCode(ExitError, fmt.Errorf("apply: cluster %q: %w", cp.Name, err))
		}
		fmt.Fprintf(out.human, "\nApplying to cluster %q:\n", cp.Name)
		rep, err := applier.Apply(ctx, db, cp, applier.Options{
			Desired:         dc,
			LockTimeout:     f.lockTimeout,
			ContinueOnError: f.continueOnError,
			Concurrency:     f.concurrency,
			Progress:        out.human,
			Events:          out.reporter(),
			AuditPath:       audit,
			Operator:        operator(dsn),
			RollbackPath:    rollbackPath(f.chdir, cp.Name, many),
			ConfigHash:      p.ConfigHash,
			Secrets:         append(secret.DSNSecrets(dsn), env.Secrets.List()...),
			Saved:           saved,
		})
		db.Close()
		tally.record(cp.Name, rep, err)
		if rep != nil {
			fmt.Fprintln(out.human)
			rep.WriteText(out.human)
		}
		if err != nil {
			code := applyExitCode(err)
			if rep != nil {
				// The report already lists what happened and why; say it
				// once.
				where := "see the report above"
				if out.events != nil {
					where = "its apply_end event says why; the report is on standard error"
				}
				err = fmt.Errorf("apply did not complete for cluster %q (%s)", cp.Name, where)
			}
			if code == ExitInterrupted {
				return exitCode(code, err)
			}
			if firstErr == nil {
				firstErr = err
			}
			if !f.continueOnError {
				return exitCode(code, err)
			}
		}
	}
	if firstErr != nil {
		return exitCode(ExitError, firstErr)
	}
	return nil
}

// checkPlanHashes refuses, before anything is sent, a plan whose cluster
// plans with changes do not all have a hash among want (--plan-hash: the
// hashes the reviewed Markdown showed). No --plan-hash: nothing to check.
func checkPlanHashes(p *planner.Plan, want []string) error {
	if len(want) == 0 {
		return nil
	}
	for _, cp := range p.Clusters {
		if len(cp.Changes) == 0 {
			continue
		}
		if h := cp.Hash(); !slices.Contains(want, h) {
			return fmt.Errorf("apply: refused before sending anything: the plan of cluster %q has hash %s, which is not one of --plan-hash %s: this is not the plan that was reviewed", cp.Name, h, strings.Join(want, ", "))
		}
	}
	return nil
}

// errApplyFromSnapshot refuses `apply --from-snapshot` (decision 0018): apply
// changes the live cluster, so it cannot run "instead of connecting" as the
// flag does for plan; planning from the snapshot and applying live would
// apply a plan nobody saw against values it never read.
var errApplyFromSnapshot = exitCode(ExitError, errors.New("apply: --from-snapshot is not an apply flag: apply changes the live cluster, so it connects. Plan from the snapshot and save the plan (tiform plan --from-snapshot FILE --out plan.tfplan), review it, then apply that plan (tiform apply plan.tfplan): apply re-reads every value it depends on and refuses it if the cluster moved since the snapshot"))

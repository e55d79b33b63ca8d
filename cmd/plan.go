package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/secret"
	"github.com/tiform/tiform/views"
)

func init() { register(newPlanCmd) }

// viewFlags choose how a plan is shown.
type viewFlags struct {
	format  string
	noColor bool
	verbose bool
}

func (v *viewFlags) bind(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&v.format, "format", "text", "output format: text, json or markdown")
	fl.BoolVar(&v.noColor, "no-color", false, "never use colour (also: NO_COLOR set in the environment)")
	fl.BoolVar(&v.verbose, "verbose", false, "show every instance's value, every statement, the read-back checks and the rollback statements")
}

func (v *viewFlags) check() error {
	switch v.format {
	case "text", "json", "markdown":
		return nil
	}
	return exitCode(ExitError, fmt.Errorf("--format must be text, json or markdown, not %q", v.format))
}

// renderPlan writes p to w in the chosen format; mo says what the
// Markdown comment is about beyond the plan (its directory, the saved plan).
func renderPlan(w io.Writer, p *planner.Plan, v viewFlags, mo render.MarkdownOptions) error {
	switch v.format {
	case "json":
		return render.JSON(w, p)
	case "markdown":
		return render.Markdown(w, p, mo)
	}
	return render.Text(w, p, render.TextOptions{Color: useColor(w, v.noColor), Verbose: v.verbose})
}

type planFlags struct {
	configFlags
	view         viewFlags
	out          string
	detailedExit bool
	failOn       string
	drift        bool
	unmanaged    bool
	previous     string
	rendered     bool // the plan or drift report was written to stdout
	// targetVersion and pinsOut: the upgrade-impact report (upgrade.go).
	targetVersion string
	pinsOut       string
}

func newPlanCmd(env *Env) *cobra.Command {
	var f planFlags
	c := &cobra.Command{
		Use:   "plan",
		Short: "Show what apply would change on the live clusters",
		Long: `Read the configuration (every *.hcl file in --chdir), read each declared
cluster, and show exactly what 'tiform apply' would change: every statement, on
which instances, in which order and why, with the guards' findings.

Nothing is changed. Values are compared by meaning, not spelling: "256MB",
256MiB and 268435456 are the same size; true, ON and 1 the same boolean.

If part of a cluster cannot be read (an instance down, a missing privilege),
plan lists what it could not read and exits 1: it never reports "no changes"
for a cluster it has not fully seen. With --allow-partial it plans over what
could be read, leaves the unread instances alone, says the plan is partial,
and exits as usual (0, or 2 with --detailed-exitcode when there are changes).

With --drift, plan shows the drift report instead: per cluster, only what
differs between the live cluster and the configuration (no statements), which
differences ignore blocks accepted, and, with --previous REPORT (an earlier
--drift --format json), which differences are new since and which resolved.
With --drift --unmanaged (or unmanaged_settings = "report" in the
configuration), the report also lists, apart, the settings the configuration
does not declare whose live value is not the default of the version the
cluster runs: a hand-run SET CONFIG or SET GLOBAL nobody reviewed.

With --target-version V, plan shows the upgrade impact instead: per cluster,
every setting whose default differs between the version it runs and V (from
the catalog's defaults per version), whether the configuration pins it, what
the cluster will run after the upgrade and why, and what the guards say at V;
then the HCL that keeps today's values (--pins-out FILE writes it). With
--detailed-exitcode it exits 2 while such a setting is not pinned.

Exit codes: 0 success; 1 error; with --detailed-exitcode, 0 means no changes,
2 means there are changes, and 1 is still an error.`,
		Example: `  # plan the configuration in the current directory against $TIFORM_DSN
  tiform plan

  # a pull-request comment, and a saved plan for apply after merge
  tiform plan --chdir clusters/ --format markdown --out plan.tfplan > plan.md

  # drift detection from cron: exit 2 when a live cluster differs
  tiform plan --chdir clusters/ --drift --detailed-exitcode --format json \
    --previous last-drift.json > drift.json

  # plan offline against a snapshot taken with 'tiform state pull'
  tiform plan --from-snapshot prod.snapshot.json

  # what upgrading to v8.5.6 changes, and the HCL that keeps today's values
  tiform plan --target-version v8.5.6 --pins-out pins.hcl`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			err := runPlan(c.Context(), env, &f)
			if f.view.format == "markdown" && !f.drift && !f.rendered {
				err = planFailureComment(env, f.chdir, err)
			}
			return err
		},
	}
	f.configFlags.bind(c)
	f.view.bind(c)
	c.Flags().StringVar(&f.out, "out", "", "also save the plan to FILE, for 'tiform apply FILE' and 'tiform show FILE'")
	c.Flags().BoolVar(&f.detailedExit, "detailed-exitcode", false, "exit 0 when there are no changes, 2 when there are changes, 1 on error")
	c.Flags().StringVar(&f.failOn, "fail-on", "error", "exit 1 when an unacknowledged finding of this severity or higher exists: warning, error or never")
	c.Flags().BoolVar(&f.drift, "drift", false, "show only what differs between each live cluster and the configuration (the drift report), not how to change it")
	c.Flags().BoolVar(&f.unmanaged, "unmanaged", false, "with --drift: also report every setting the configuration does not declare whose live value is not the default of the cluster's version (reads each cluster's whole config and variables)")
	c.Flags().StringVar(&f.previous, "previous", "", "with --drift: a previous drift report (--drift --format json) to mark the differences that are new since, and those resolved")
	c.Flags().StringVar(&f.targetVersion, "target-version", "", "report what upgrading to version V changes instead of the plan: every setting whose default differs, whether the configuration pins it, what the cluster runs after, and the HCL that keeps today's values")
	c.Flags().StringVar(&f.pinsOut, "pins-out", "", "with --target-version: also write the HCL that keeps today's values to FILE (never overwritten)")
	return c
}

func runPlan(ctx context.Context, env *Env, f *planFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := f.view.check(); err != nil {
		return err
	}
	failAt, err := parseFailOn(f.failOn)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("plan: %w", err))
	}
	prev, err := f.checkDrift()
	if err != nil {
		return exitCode(ExitError, err)
	}
	if f.out != "" {
		if err := checkOutPath(env, "plan --out", f.out); err != nil {
			return exitCode(ExitError, err)
		}
	}
	to, err := f.checkUpgrade()
	if err != nil {
		return exitCode(ExitError, err)
	}
	if !to.IsZero() {
		return runUpgrade(ctx, env, f, to)
	}
	_, p, err := makePlan(ctx, env, &f.configFlags, f.view.noColor, f.drift, f.unmanaged)
	if err != nil {
		return err
	}
	f.rendered = true
	if f.drift {
		err = renderDrift(env, p, f, prev)
	} else {
		err = renderPlan(env.Stdout, p, f.view, f.markdownOptions(p))
	}
	if err != nil {
		return exitCode(ExitError, err)
	}
	if err := failuresError(p); err != nil {
		if f.out != "" {
			err = fmt.Errorf("%w; no plan was saved to %s", err, f.out)
		}
		return exitCode(ExitError, err)
	}
	if f.out != "" {
		if err := writePlanFile(env.Secrets, f.out, p); err != nil {
			return exitCode(ExitError, err)
		}
		if f.view.format == "text" {
			fmt.Fprintf(env.Stdout, "\nSaved the plan to %s. To perform exactly these actions, run:\n    tiform apply %s\n", f.out, f.out)
		}
	}
	// A partial plan exists only with --allow-partial: the user accepted partial
	// reads explicitly, so the exit code follows the changes found in what was
	// read; the plan itself says it is partial and never "No changes" (issue 5).
	if err := failOnFindings(p, failAt, f.failOn); err != nil {
		return err
	}
	if f.detailedExit && (p.HasChanges() || f.drift && (p.Reverted() || p.HasUnmanagedDrift())) {
		// --drift: a running value the next reload, restart or rolling
		// update reverts is drift from the persisted layer (docs/persisted.md);
		// an undeclared setting off its default is unmanaged drift (decision 0022).
		return exitCode(ExitChanges, nil)
	}
	return nil
}

// markdownOptions are the comment's: named by --chdir, pointing to the
// saved plan when one is saved (not when a cluster failed: failuresError).
func (f *planFlags) markdownOptions(p *planner.Plan) render.MarkdownOptions {
	mo := render.MarkdownOptions{Dir: commentDir(f.chdir)}
	if !p.Failed() {
		mo.PlanFile = f.out
	}
	return mo
}

// commentDir is the directory a Markdown comment is named by: --chdir in
// one spelling ("clusters/", "./clusters" and "clusters" are one comment).
func commentDir(chdir string) string { return filepath.ToSlash(filepath.Clean(chdir)) }

// checkDrift refuses, before any cluster is read, the flags that do not go
// with the drift report and a --previous report that cannot be read; it
// returns the previous report (nil without --previous).
func (f *planFlags) checkDrift() (*views.Drift, error) {
	switch {
	case f.unmanaged && !f.drift:
		return nil, errors.New("plan: --unmanaged adds the undeclared settings to the drift report: add --drift")
	case f.previous != "" && !f.drift:
		return nil, errors.New("plan: --previous compares drift reports: add --drift")
	case f.drift && f.out != "":
		return nil, errors.New("plan: --drift reports differences, it is not a plan to apply: drop --out (or --drift to save the plan)")
	case f.drift && f.view.verbose:
		return nil, errors.New("plan: --verbose shows the statements of a plan, which the drift report leaves out: drop one of them")
	case f.previous == "":
		return nil, nil
	}
	return readPreviousDrift(f.previous)
}

// readPreviousDrift reads --previous.
func readPreviousDrift(path string) (*views.Drift, error) {
	b, err := input.ReadFile(path, input.Report)
	if err != nil {
		return nil, fmt.Errorf("plan: --previous: %w", err)
	}
	doc, err := render.ParseDrift(b)
	if err != nil {
		return nil, fmt.Errorf("plan: --previous %s: %w", path, err)
	}
	return doc, nil
}

// renderDrift writes p's drift report in the chosen format, compared with
// prev (--previous; nil for none).
func renderDrift(env *Env, p *planner.Plan, f *planFlags, prev *views.Drift) error {
	doc := render.DriftReport(p, prev, f.previous)
	switch f.view.format {
	case "json":
		return render.DriftJSON(env.Stdout, doc)
	case "markdown":
		return render.DriftMarkdown(env.Stdout, doc)
	}
	return render.DriftText(env.Stdout, doc, useColor(env.Stdout, f.view.noColor))
}

// parseFailOn reads --fail-on: the lowest severity that fails the command,
// or ok=false for never.
func parseFailOn(s string) (failAt *diag.Severity, err error) {
	switch s {
	case "never", "":
		return nil, nil
	case "warning":
		w := diag.Warning
		return &w, nil
	case "error":
		e := diag.Error
		return &e, nil
	}
	return nil, fmt.Errorf("--fail-on %q: use warning, error or never", s)
}

// failOnFindings ends the command with exit 1 when an unacknowledged finding
// at or above failAt exists in any cluster.
func failOnFindings(p *planner.Plan, failAt *diag.Severity, flag string) error {
	if failAt == nil {
		return nil
	}
	var hits []string
	for _, cp := range p.Clusters {
		for _, fd := range cp.Findings {
			if !fd.Acknowledged && fd.Severity >= *failAt {
				hits = append(hits, fmt.Sprintf("%s %s (%s)", fd.Severity, fd.Code, cp.Name))
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	return exitCode(ExitError, fmt.Errorf("plan: %s at or above --fail-on %s: %s", plural(len(hits), "finding"), flag, strings.Join(uniqueStrings(hits), ", ")))
}

func uniqueStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// writePlanFile saves p to path, atomically and private (plans show the
// cluster's settings).
func writePlanFile(secrets *secret.Set, path string, p *planner.Plan) error {
	var b bytes.Buffer
	if err := planner.WritePlanFile(&b, p); err != nil {
		return fmt.Errorf("plan: save plan: %w", err)
	}
	if err := secrets.Refuse(b.Bytes()); err != nil {
		return fmt.Errorf("plan: save plan %s: %w", path, err)
	}
	if err := files.WriteBytes(path, b.Bytes(), files.Private); err != nil {
		return fmt.Errorf("plan: save plan: %w", err)
	}
	return nil
}

// readPlanFile reads a saved plan.
func readPlanFile(path string) (*planner.Plan, error) {
	data, err := input.ReadFile(path, input.Plan)
	if err != nil {
		return nil, fmt.Errorf("read plan file: %w", err)
	}
	p, err := planner.ReadPlanFile(bytes.NewReader(data))
	if err != nil {
		if _, serr := live.ReadSnapshot(path); serr == nil {
			return nil, fmt.Errorf("%s is a snapshot (tiform state pull), not a saved plan: plan against it with 'tiform plan --from-snapshot %s'", path, path)
		}
		return nil, fmt.Errorf("read plan file %s: %w", path, err)
	}
	return p, nil
}

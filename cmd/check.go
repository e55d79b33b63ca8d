package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views"
)

func init() { register(newCheckCmd) }

type checkFlags struct {
	connFlags
	fleetFlags
	snapshot     string
	format       string
	upgradeTo    string
	failOn       string
	allowPartial bool
}

func newCheckCmd(env *Env) *cobra.Command {
	var f checkFlags
	c := &cobra.Command{
		Use:   "check",
		Short: "Give version-aware advice about live clusters, without any configuration",
		Long: `Read a cluster and run the guards that need no HCL (docs/guards.md, rules marked
"live"): the Region size switched by an upgrade (TF101), Region size below the
version default (TF104), PD merge thresholds not scaled with the split size
(TF107), resource groups exposed to the TiKV priority limiter bug (TF110), TiKV
v8.5.7's transaction scheduler on its priority queue for BACKGROUND alone
(TF112), the plan cache switches and what to measure (TF121, TF122, TF124),
tidb_ignore_inlist_plan_digest turned on by the upgrade to v8.5.6 (TF127),
In-Memory Engine bugs by patch version (TF133), mixed versions (TF151) and a
version whose facts the catalog approximates (TF154).

Point it at a cluster before writing any configuration. --upgrade-to adds what
a planned upgrade would do (for example the Region size switch of TiKV
v8.4.0–v8.5.2). 'tiform check plan-cache' and 'tiform check mvcc' measure, on
the cluster's own statement statistics, whether the plan caches and the
In-Memory Engine would help.

The cluster is the one given by --dsn, or a snapshot file written by 'tiform
state pull' (--from-snapshot). When --chdir holds a configuration (*.hcl),
its clusters are checked instead, chosen with --cluster and --label and read
--parallelism at a time, and --dsn overrides the one selected cluster's dsn;
without either, the cluster in TIFORM_DSN. Each cluster gets a status (ok,
unreachable, incomplete, error) in the text and JSON reports.

Exit status (docs/workflows.md): 0 after printing the advice; 1 when a
cluster could not be read (or only partly, without --allow-partial), or an
unacknowledged finding at --fail-on (default error) was reported.`,
		Example: `  # advice for the cluster in TIFORM_DSN
  tiform check

  # before upgrading to v8.5.1
  tiform check --upgrade-to v8.5.1

  # every production cluster of the configuration in clusters/
  tiform check --chdir clusters --label env=prod

  # from a snapshot, as JSON, failing a CI job on any warning
  tiform check --from-snapshot prod.snapshot.json --format json --fail-on warning`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runCheck(c.Context(), env, f)
		},
	}
	fl := c.Flags()
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form); default $TIFORM_DSN")
	f.fleetFlags.bind(fl)
	fl.StringVar(&f.snapshot, "from-snapshot", "", "read the cluster state from a snapshot file instead of connecting")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.StringVar(&f.upgradeTo, "upgrade-to", "", "version of a planned upgrade of every component (e.g. v8.5.1)")
	fl.StringVar(&f.failOn, "fail-on", "error", "exit 1 when an unacknowledged finding of this severity or higher is reported: warning, error or never")
	fl.BoolVar(&f.allowPartial, "allow-partial", false, "exit as usual when part of a cluster could not be read (the advice may be partial)")
	c.AddCommand(newCheckPlanCacheCmd(env), newCheckMVCCCmd(env))
	return c
}

// checkRequest reads what the live rules look at: TiKV and PD config, the
// global variables (all of them: a named one the version lacks would make
// the read incomplete) and the resource groups.
func checkRequest() live.Request {
	return live.Request{
		Config:         []live.ComponentRequest{{Component: state.TiKV}, {Component: state.PD}},
		AllVariables:   true,
		ResourceGroups: true,
	}
}

// checked is one cluster's result: its read and the advice on it.
type checked struct {
	cluster  *state.DesiredCluster
	live     *state.Live
	failure  *planner.Failure
	findings []guard.Finding
}

// status is the cluster's outcome, decided here for check as
// ClusterPlan.Status decides it for plan: a failed read, else an
// unacknowledged error finding, else a partial read, else ok.
func (c *checked) status() planner.Status {
	switch {
	case c.failure != nil:
		return c.failure.Status
	case len(guard.Blocking(c.findings)) > 0:
		return planner.StatusError
	case len(c.live.Incomplete()) > 0:
		return planner.StatusIncomplete
	}
	return planner.StatusOK
}

// line is the cluster's entry in the per-cluster summary.
func (c *checked) line() render.ClusterLine {
	l := render.ClusterLine{Name: c.cluster.Name, Status: c.status()}
	switch {
	case c.failure != nil:
		l.Detail, _, _ = strings.Cut(c.failure.Message, "\n")
	case l.Status == planner.StatusIncomplete:
		l.Detail = plural(len(c.live.Incomplete()), "part") + " not read (the advice may be partial); " + guard.Summary(c.findings)
	default:
		l.Detail = guard.Summary(c.findings)
	}
	return l
}

func runCheck(ctx context.Context, env *Env, f checkFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.format != "text" && f.format != "json" {
		return exitCode(ExitError, fmt.Errorf("check: --format %q: use text or json", f.format))
	}
	failAt, err := parseFailOn(f.failOn)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("check: %w", err))
	}
	var targets map[state.Component]version.Version
	if f.upgradeTo != "" {
		v, err := version.Parse(f.upgradeTo)
		if err != nil {
			return exitCode(ExitError, fmt.Errorf("check: --upgrade-to: %w", err))
		}
		targets = map[state.Component]version.Version{state.TiDB: v, state.TiKV: v, state.PD: v, state.TiFlash: v}
	}
	clusters, read, err := checkTargets(env, &f)
	named := f.snapshot == "" && f.hasConfig()
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	results := make([]*checked, len(clusters))
	for i, r := range readFleet(ctx, f.parallelism, clusters, read) {
		c := &checked{cluster: clusters[i], live: r.live}
		if r.err != nil {
			c.failure = failureOf(r.err, diag.Sources{}) // a read error: no configuration source
		} else {
			c.findings = guard.Check(guard.Input{Live: r.live, Now: now, TargetVersions: targets})
		}
		results[i] = c
	}
	switch f.format {
	case "json":
		if err := writeCheckJSON(env, results); err != nil {
			return exitCode(ExitError, err)
		}
	default:
		writeCheckText(env, results, named)
	}
	return checkExit(results, f, failAt)
}

// checkExit is check's exit: 1 when a cluster could not be read (or only
// partly, without --allow-partial), else 1 when a finding reaches --fail-on.
func checkExit(results []*checked, f checkFlags, failAt *diag.Severity) error {
	var failed []render.ClusterLine
	var all []guard.Finding
	for _, c := range results {
		if c.failure != nil || len(c.live.Incomplete()) > 0 && !f.allowPartial {
			failed = append(failed, c.line())
		}
		all = append(all, c.findings...)
	}
	if err := fleetFailure("checked", failed); err != nil {
		if len(results) == 1 && results[0].failure != nil {
			err = errors.New(results[0].failure.Message) // one cluster: its own message says it all
		}
		return exitCode(ExitError, fmt.Errorf("check: %w", err))
	}
	if failAt != nil {
		for _, x := range all {
			if !x.Acknowledged && x.Severity >= *failAt {
				return exitCode(ExitError, fmt.Errorf("check: %s (--fail-on %s)", guard.Summary(all), f.failOn))
			}
		}
	}
	return nil
}

// checkTargets says which clusters check reads and how: a snapshot; the
// clusters of the configuration in --chdir (selected as plan selects them);
// else the one cluster of --dsn or TIFORM_DSN, named "default".
func checkTargets(env *Env, f *checkFlags) ([]*state.DesiredCluster, readFunc, error) {
	read := func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, error) {
		if dc.DSN == "" {
			return nil, fmt.Errorf("cluster %q has no DSN: set dsn in its cluster block, pass --dsn or set TIFORM_DSN", dc.Name)
		}
		return checkLive(ctx, f.connFlags, dc.DSN)
	}
	switch {
	case f.snapshot != "":
		if f.dsn != "" {
			return nil, nil, exitCode(ExitError, errors.New("check: --dsn and --from-snapshot exclude each other"))
		}
		fromSnapshot := func(context.Context, *state.DesiredCluster) (*state.Live, error) {
			return live.ReadSnapshot(f.snapshot)
		}
		return []*state.DesiredCluster{{Name: "default"}}, fromSnapshot, nil
	case f.hasConfig():
		d, err := loadFleet(env, &f.fleetFlags, &f.connFlags, false)
		if err != nil {
			return nil, nil, err
		}
		named := func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, error) {
			l, err := read(ctx, dc)
			if err != nil {
				return nil, fmt.Errorf("cluster %q: %w", dc.Name, err)
			}
			return l, nil
		}
		return d.Clusters, named, nil
	case len(f.clusters) > 0 || len(f.labels) > 0:
		return nil, nil, exitCode(ExitError, fmt.Errorf("check: --cluster and --label choose among the clusters of a configuration, and %s has no *.hcl file", f.chdir))
	}
	dsn := f.flagDSN()
	if dsn == "" {
		return nil, nil, exitCode(ExitError, errors.New("check: no cluster to read: pass --dsn, set TIFORM_DSN, use --from-snapshot FILE, or run it in a configuration directory (--chdir)"))
	}
	return []*state.DesiredCluster{{Name: "default", DSN: dsn}}, read, nil
}

// checkLive reads what the live rules need from the cluster at dsn, within
// --timeout.
func checkLive(ctx context.Context, f connFlags, dsn string) (*state.Live, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	db, err := f.open(ctx, dsn)
	if err != nil {
		return nil, err // Open's errors never contain the password
	}
	defer db.Close()
	req := checkRequest()
	l, err := live.Inspect(ctx, db, req)
	var le *live.Error
	if err != nil && errors.As(err, &le) && le.Op == live.OpReadResourceGroups &&
		(le.Kind == live.KindHidden || le.Kind == live.KindPrivilege) {
		// Before v6.6 there are no resource groups, and the account may lack
		// the privilege: the other checks still stand. Say what was skipped.
		req.ResourceGroups = false
		l, err = live.Inspect(ctx, db, req)
		if err == nil {
			l.AddGap(state.Gap{Kind: state.GapRead, Key: "RESOURCE_GROUPS",
				Reason: "resource groups could not be read, so TF110 was not evaluated: " + le.Msg})
		}
	}
	return l, err
}

// clusterLine summarises versions and topology: "TiDB v8.5.1 (1), PD v8.5.1
// (1), TiKV v8.5.1 (3)"; a component mid-upgrade shows its range, lowest
// first (the version the guards use): "TiKV v8.5.1–v8.5.3 (3, mixed)".
func clusterLine(l *state.Live) string {
	var parts []string
	names := map[state.Component]string{state.TiDB: "TiDB", state.PD: "PD", state.TiKV: "TiKV", state.TiFlash: "TiFlash"}
	for _, c := range state.Components {
		v, ok := l.MinVersion(c)
		if !ok {
			continue
		}
		n := len(l.InstancesOf(c))
		p := fmt.Sprintf("%s %s (%d)", names[c], v.String(), n)
		if l.Mixed(c) {
			hi := v
			for _, in := range l.Instances {
				if in.Component == c && in.Version.Compare(hi) > 0 {
					hi = in.Version
				}
			}
			p = fmt.Sprintf("%s %s–%s (%d, mixed)", names[c], v.String(), hi.String(), n)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "no instances reported"
	}
	return strings.Join(parts, ", ")
}

// writeCheckText writes each cluster's advice, under the cluster's name when
// it comes from a configuration (named); several end with one line per
// cluster. A cluster given by --dsn or a snapshot keeps the short form
// "tiform check: …".
func writeCheckText(env *Env, results []*checked, named bool) {
	fleet := len(results) > 1
	for i, c := range results {
		if i > 0 {
			fmt.Fprintln(env.Stdout)
		}
		switch {
		case c.failure != nil:
			fmt.Fprintf(env.Stdout, "Cluster %q: not checked (%s)\n", c.cluster.Name, c.failure.Status)
			for _, line := range strings.Split(strings.TrimRight(c.failure.Message, "\n"), "\n") {
				fmt.Fprintf(env.Stdout, "  %s\n", diag.Printable(line))
			}
			continue
		case named:
			fmt.Fprintf(env.Stdout, "Cluster %q: %s\n\n", c.cluster.Name, diag.Printable(clusterLine(c.live)))
		default:
			fmt.Fprintf(env.Stdout, "tiform check: %s\n\n", diag.Printable(clusterLine(c.live)))
		}
		writeCheckAdvice(env, c.live, c.findings)
	}
	if fleet {
		lines := make([]render.ClusterLine, len(results))
		for i, c := range results {
			lines[i] = c.line()
		}
		fmt.Fprintf(env.Stdout, "\nFleet: %s checked.\n", plural(len(results), "cluster"))
		_ = render.StatusLines(env.Stdout, lines, false)
	}
}

// writeCheckAdvice writes one cluster's findings, or that there are none,
// and what could not be read.
func writeCheckAdvice(env *Env, l *state.Live, fs []guard.Finding) {
	if len(fs) == 0 {
		var codes []string
		for _, r := range guard.Rules() {
			if r.Live {
				codes = append(codes, r.Code)
			}
		}
		fmt.Fprintf(env.Stdout, "No advice: the live checks (%s) found nothing to report.\n", strings.Join(codes, ", "))
	} else {
		guard.WriteText(env.Stdout, fs)
		fmt.Fprintf(env.Stdout, "\n%s.\n", guard.Summary(fs))
	}
	if len(l.Notes) > 0 {
		fmt.Fprintf(env.Stdout, "\nNotes:\n")
		for _, n := range l.Notes {
			fmt.Fprintf(env.Stdout, "  - %s\n", diag.Printable(n))
		}
	}
	if len(l.Gaps) > 0 {
		fmt.Fprintf(env.Stdout, "\nThe read was incomplete, so the advice may be too:\n")
		for _, r := range l.Incomplete() {
			fmt.Fprintf(env.Stdout, "  - %s\n", diag.Printable(r))
		}
	}
}

// writeCheckJSON writes views.Check.
func writeCheckJSON(env *Env, results []*checked) error {
	out := views.Check{Header: views.NewHeader(), Clusters: []views.CheckCluster{}}
	out.Summary.Clusters = len(results)
	out.Summary.Statuses = map[string]int{}
	var top *diag.Severity
	for _, c := range results {
		st := c.status()
		out.Summary.Statuses[string(st)]++
		jc := views.CheckCluster{Name: c.cluster.Name, ClusterStatus: views.ClusterStatus{Status: string(st)},
			Labels: map[string]string{}, Versions: map[string]string{}, Mixed: []string{}, Incomplete: []string{}, Notes: []string{},
			Summary: guard.Summary(c.findings), Findings: []views.Finding{}}
		for k, v := range c.cluster.Labels {
			jc.Labels[k] = v
		}
		if c.failure != nil {
			msg := c.failure.Message
			jc.Error = &msg
			jc.Summary = ""
		} else {
			jc.Incomplete = views.Strings(c.live.Incomplete())
			jc.Notes = views.Strings(c.live.Notes)
			for _, comp := range state.Components {
				if v, ok := c.live.MinVersion(comp); ok {
					jc.Versions[string(comp)] = v.String()
				}
				if c.live.Mixed(comp) {
					jc.Mixed = append(jc.Mixed, string(comp))
				}
			}
		}
		for _, x := range c.findings {
			jc.Findings = append(jc.Findings, x.View())
			if !x.Acknowledged && (top == nil || x.Severity > *top) {
				sev := x.Severity
				top = &sev
			}
		}
		out.Clusters = append(out.Clusters, jc)
	}
	if top != nil {
		name := top.String()
		out.Summary.HighestSeverity = &name
	}
	return views.Write(env.Stdout, out)
}

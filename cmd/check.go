package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views"
)

func init() { register(newCheckCmd) }

type checkFlags struct {
	connFlags
	snapshot  string
	format    string
	upgradeTo string
	failOn    string
}

func newCheckCmd(env *Env) *cobra.Command {
	var f checkFlags
	c := &cobra.Command{
		Use:   "check",
		Short: "Give version-aware advice about a live cluster, without any configuration",
		Long: `Read a cluster and run the guards that need no HCL (docs/guards.md, rules marked
"live"): the Region size switched by an upgrade (TF101), Region size below the
version default (TF104), PD merge thresholds not scaled with the split size
(TF107), resource groups exposed to the TiKV priority limiter bug (TF110), the
plan cache switches and what to measure (TF121, TF122, TF124), In-Memory Engine
bugs by patch version (TF133) and mixed versions (TF151).

Point it at a cluster before writing any configuration. --upgrade-to adds what
a planned upgrade would do (for example the Region size switch of TiKV
v8.4.0–v8.5.2). 'tiform check plan-cache' and 'tiform check mvcc' measure, on
the cluster's own statement statistics, whether the plan caches and the
In-Memory Engine would help.

The cluster is the one given by --dsn, else TIFORM_DSN, or a snapshot file
written by 'tiform state pull' (--from-snapshot). Exit status: 0 after
printing the advice (unless --fail-on says otherwise), 1 on error.`,
		Example: `  # advice for the cluster in TIFORM_DSN
  tiform check

  # before upgrading to v8.5.1
  tiform check --upgrade-to v8.5.1

  # from a snapshot, as JSON, failing a CI job on any warning
  tiform check --from-snapshot prod.snapshot.json --format json --fail-on warning`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runCheck(c.Context(), env, f)
		},
	}
	fl := c.Flags()
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form); default $TIFORM_DSN")
	fl.StringVar(&f.snapshot, "from-snapshot", "", "read the cluster state from a snapshot file instead of connecting")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.StringVar(&f.upgradeTo, "upgrade-to", "", "version of a planned upgrade of every component (e.g. v8.5.1)")
	fl.StringVar(&f.failOn, "fail-on", "", "exit 1 when an unacknowledged finding of this severity or higher is reported: warning, error or never (the default)")
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
	l, err := checkLive(ctx, f)
	if err != nil {
		return exitCode(ExitError, err)
	}
	fs := guard.Check(guard.Input{Live: l, Now: time.Now().UTC(), TargetVersions: targets})
	switch f.format {
	case "json":
		if err := writeCheckJSON(env, l, fs); err != nil {
			return exitCode(ExitError, err)
		}
	default:
		writeCheckText(env, l, fs)
	}
	if failAt != nil {
		for _, x := range fs {
			if !x.Acknowledged && x.Severity >= *failAt {
				return exitCode(ExitError, fmt.Errorf("check: %s (--fail-on %s)", guard.Summary(fs), f.failOn))
			}
		}
	}
	return nil
}

func checkLive(ctx context.Context, f checkFlags) (*state.Live, error) {
	if f.snapshot != "" {
		if f.dsn != "" {
			return nil, errors.New("check: --dsn and --from-snapshot exclude each other")
		}
		return live.ReadSnapshot(f.snapshot)
	}
	dsn := f.flagDSN()
	if dsn == "" {
		return nil, errors.New("check: no cluster to read: pass --dsn, set TIFORM_DSN, or use --from-snapshot FILE")
	}
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

func writeCheckText(env *Env, l *state.Live, fs []guard.Finding) {
	fmt.Fprintf(env.Stdout, "tiform check: %s\n\n", clusterLine(l))
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
	if len(l.Gaps) > 0 {
		fmt.Fprintf(env.Stdout, "\nThe read was incomplete, so the advice may be too:\n")
		for _, r := range l.Incomplete() {
			fmt.Fprintf(env.Stdout, "  - %s\n", r)
		}
	}
}

// writeCheckJSON writes views.Check.
func writeCheckJSON(env *Env, l *state.Live, fs []guard.Finding) error {
	out := views.Check{Header: views.NewHeader(), Versions: map[string]string{}, Mixed: []string{},
		Incomplete: views.Strings(l.Incomplete()), Summary: guard.Summary(fs), Findings: []views.Finding{}}
	for _, c := range state.Components {
		if v, ok := l.MinVersion(c); ok {
			out.Versions[string(c)] = v.String()
		}
		if l.Mixed(c) {
			out.Mixed = append(out.Mixed, string(c))
		}
	}
	for _, f := range fs {
		out.Findings = append(out.Findings, f.View())
	}
	return views.Write(env.Stdout, out)
}

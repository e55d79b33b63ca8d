package cmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// workloadFlags are the flags of `tiform check plan-cache` and `tiform check
// mvcc`.
type workloadFlags struct {
	connFlags
	fleetFlags
	format string
	since  time.Duration
	limit  int
}

func (f *workloadFlags) bind(c *cobra.Command) {
	fl := c.Flags()
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form); default $TIFORM_DSN; with a configuration, overrides the one selected cluster's dsn")
	f.fleetFlags.bind(fl)
	fl.StringVar(&f.format, "format", "text", "output format: text, json or markdown")
	fl.DurationVar(&f.since, "since", workload.DefaultSince, "statement summary windows overlapping this period before now (1m to 744h)")
	fl.IntVar(&f.limit, "limit", workload.DefaultLimit, fmt.Sprintf("at most this many statement shapes are read (1 to %d)", workload.MaxLimit))
}

func (f *workloadFlags) query(order workload.Order) (workload.Query, error) {
	switch f.format {
	case "text", "json", "markdown":
	default:
		return workload.Query{}, fmt.Errorf("--format %q: use text, json or markdown", f.format)
	}
	q := workload.Query{Since: f.since, Limit: f.limit, Order: order}
	return q, q.Validate()
}

func newCheckPlanCacheCmd(env *Env) *cobra.Command {
	var f workloadFlags
	c := &cobra.Command{
		Use:   "plan-cache",
		Short: "Measure the plan caches on the cluster's own statement statistics",
		Long: `Read the cluster's statement summary (INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY,
windows overlapping --since) and report: the plan-cache hit ratio weighted by
executions and by latency, prepared and not; the statements that would gain
most; the top reasons statements cannot use the cache, each with what it
means and how to fix it (TiDB v8.2.0+: PLAN_CACHE_UNQUALIFIED); and a
recommendation for the plan-cache variables with the figures behind it. Older
versions get a reduced report that says what it cannot see (docs/checks.md).

Read-only and bounded: one statement on the statement summary (grouped per
statement in TiDB, at most --limit rows) after the usual version and variable
reads. The account needs the PROCESS privilege to see other users' statements.

The cluster is the one of --dsn or TIFORM_DSN; when --chdir holds a
configuration (*.hcl), its clusters, chosen with --cluster and --label and
read --parallelism at a time, each report named by its cluster (as 'tiform
check'). --format json reports one cluster.

Exit status: 0 after printing the report, 1 on error.`,
		Example: `  # is the plan cache worth it on the cluster in TIFORM_DSN?
  tiform check plan-cache

  # the last hour, as a pull-request comment
  tiform check plan-cache --since 1h --format markdown

  # every production cluster of the configuration in clusters/
  tiform check plan-cache --chdir clusters --label env=prod`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runCheckPlanCache(c.Context(), env, f)
		},
	}
	f.bind(c)
	return c
}

func newCheckMVCCCmd(env *Env) *cobra.Command {
	var f workloadFlags
	c := &cobra.Command{
		Use:   "mvcc",
		Short: "Find the reads the TiKV In-Memory Engine would accelerate",
		Long: `Read the cluster's statement summary and list the statements whose coprocessor
reads scan far more MVCC versions than the keys they keep (AVG_TOTAL_KEYS vs
AVG_PROCESSED_KEYS, with RocksDB's skipped tombstones), grouped by table: the
queue-like and frequently updated tables the In-Memory Engine (TiKV v8.5.0+)
is built for. It says whether the engine is likely to help, what the guards
say about enabling it on this cluster (prerequisites, known bugs by patch),
and what to watch after enabling it (docs/checks.md).

The threshold is TiKV's in-memory-engine.mvcc-amplification-threshold when
the TiKV config can be read, else its default, 10. Read-only and bounded like
'tiform check plan-cache', and selects clusters as it does.

Exit status: 0 after printing the report, 1 on error.`,
		Example: `  # which tables would the In-Memory Engine help?
  tiform check mvcc

  # the last week, as JSON
  tiform check mvcc --since 168h --format json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runCheckMVCC(c.Context(), env, f)
		},
	}
	f.bind(c)
	return c
}

// readWorkload connects, inspects what req names and reads the statement
// statistics for q.
func readWorkload(ctx context.Context, f workloadFlags, dsn string, req live.Request, q workload.Query) (*state.Live, *workload.Sample, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	db, err := f.open(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, req)
	var le *live.Error
	if err != nil && len(req.Config) > 0 && errors.As(err, &le) && (le.Kind == live.KindPrivilege || le.Kind == live.KindHidden) {
		// The TiKV config only refines the MVCC report: go on without it.
		req.Config = nil
		l, err = live.Inspect(ctx, db, req)
		if err == nil {
			l.AddGap(state.Gap{Kind: state.GapRead, Key: "CLUSTER_CONFIG",
				Reason: "the TiKV config could not be read (" + le.Msg + "): the In-Memory Engine's state and threshold are unknown"})
		}
	}
	if err != nil {
		return nil, nil, err
	}
	sample, err := live.StatementReader{DB: db, Live: l, User: operator(dsn).DBUser}.ReadStatements(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	return l, sample, nil
}

func checkHeader(l *state.Live) render.CheckHeader {
	h := render.CheckHeader{Cluster: clusterLine(l), Versions: map[string]string{}, Incomplete: l.Incomplete()}
	for _, c := range state.Components {
		if v, ok := l.MinVersion(c); ok {
			h.Versions[string(c)] = v.String()
		}
	}
	return h
}

func runCheckPlanCache(ctx context.Context, env *Env, f workloadFlags) error {
	q, err := f.query(workload.ByLatency)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("check plan-cache: %w", err))
	}
	return runWorkloadFleet(ctx, env, f, "plan-cache", func(ctx context.Context, dsn string) (func(string) error, error) {
		l, sample, err := readWorkload(ctx, f, dsn, live.Request{AllVariables: true}, q)
		if err != nil {
			return nil, err
		}
		rep, h := workload.PlanCache(*sample), checkHeader(l)
		return func(name string) error {
			h.Name = name
			return writeView(f.format,
				func() error { return render.PlanCacheText(env.Stdout, h, rep) },
				func() error { return render.PlanCacheMarkdown(env.Stdout, h, rep) },
				func() error { return render.PlanCacheJSON(env.Stdout, h, rep) })
		}, nil
	})
}

// writeView writes a report in the chosen format (text, markdown or json).
func writeView(format string, text, markdown, json func() error) error {
	write := text
	switch format {
	case "json":
		write = json
	case "markdown":
		write = markdown
	}
	if err := write(); err != nil {
		return exitCode(ExitError, err)
	}
	return nil
}

func runCheckMVCC(ctx context.Context, env *Env, f workloadFlags) error {
	q, err := f.query(workload.ByScannedKeys)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("check mvcc: %w", err))
	}
	req := live.Request{AllVariables: true, Config: []live.ComponentRequest{{Component: state.TiKV}}}
	return runWorkloadFleet(ctx, env, f, "mvcc", func(ctx context.Context, dsn string) (func(string) error, error) {
		l, sample, err := readWorkload(ctx, f, dsn, req, q)
		if err != nil {
			return nil, err
		}
		v := render.MVCCView{
			Report:      workload.MVCC(*sample, mvccOptions(l)),
			IMEEnabled:  workload.IMEState(tikvValues(l, workload.IMEEnableKey)),
			IMEFindings: guard.EnableIMEFindings("", l, time.Now().UTC()),
		}
		h := checkHeader(l)
		return func(name string) error {
			h.Name = name
			return writeView(f.format,
				func() error { return render.MVCCText(env.Stdout, h, v) },
				func() error { return render.MVCCMarkdown(env.Stdout, h, v) },
				func() error { return render.MVCCJSON(env.Stdout, h, v) })
		}, nil
	})
}

// tikvValues are the live values of a TiKV config item, one per instance
// that reported it.
func tikvValues(l *state.Live, key string) []string {
	var out []string
	for _, r := range l.Config {
		if r.Component == state.TiKV && r.Key == key {
			out = append(out, r.Value)
		}
	}
	return out
}

func mvccOptions(l *state.Live) workload.MVCCOptions {
	return workload.ThresholdFrom(tikvValues(l, workload.IMEThresholdKey))
}

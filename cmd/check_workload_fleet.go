package cmd

import (
	"context"
	"errors"
	"fmt"
	"github.com/tiform/tiform/rollout"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/state"
)

// workloadReport reads one cluster's statement statistics at dsn and returns
// the writer of its report (named by the cluster, "" alone).
type workloadReport func(ctx context.Context, dsn string) (func(name string) error, error)

// runWorkloadFleet runs `tiform check plan-cache` or `check mvcc` (what) on
// the clusters check selects: those of the configuration in --chdir
// (--cluster, --label; --dsn overrides the one selected cluster's), read
// --parallelism at once, or else the one cluster of --dsn / $TIFORM_DSN. A
// fleet's reports are named by cluster, in declaration order, and end with
// a line per cluster; one that could not be read says why, the others are
// still reported, and the command exits 1. JSON reports one cluster.
func runWorkloadFleet(ctx context.Context, env *Env, f workloadFlags, what string, report workloadReport) error {
	if ctx == nil {
		ctx = context.Background()
	}
	clusters, named, err := workloadTargets(env, &f, what)
	if err != nil {
		return err
	}
	if f.format == "json" && len(clusters) > 1 {
		return exitCode(ExitError, fmt.Errorf("check %s: --format json reports one cluster, and %s are selected (%s): choose one with --cluster NAME",
			what, plural(len(clusters), "cluster"), strings.Join(clusterNames(clusters), ", ")))
	}
	writers := make([]func(string) error, len(clusters))
	errs := make([]error, len(clusters))
	rollout.ForEach(f.parallelism, len(clusters), func(i int) {
		if clusters[i].DSN == "" {
			errs[i] = fmt.Errorf("cluster %q has no DSN: set dsn in its cluster block, pass --dsn or set TIFORM_DSN", clusters[i].Name)
			return
		}
		writers[i], errs[i] = report(ctx, clusters[i].DSN)
	})
	if !named {
		if errs[0] != nil {
			return exitCode(ExitError, errs[0])
		}
		return writers[0]("")
	}
	var lines, failed []render.ClusterLine
	for i, dc := range clusters {
		if i > 0 {
			fmt.Fprintln(env.Stdout)
		}
		line := render.ClusterLine{Name: dc.Name, Status: planner.StatusOK, Detail: "reported"}
		if errs[i] != nil {
			fl := failureOf(fmt.Errorf("cluster %q: %w", dc.Name, errs[i]), diag.Sources{})
			line.Status = fl.Status
			line.Detail, _, _ = strings.Cut(fl.Message, "\n")
			failed = append(failed, line)
			writeWorkloadFailure(env, f.format, what, dc.Name, fl)
		} else if err := writers[i](dc.Name); err != nil {
			return err
		}
		lines = append(lines, line)
	}
	if len(clusters) > 1 && f.format == "text" {
		fmt.Fprintf(env.Stdout, "\nFleet: %s checked.\n", plural(len(clusters), "cluster"))
		_ = render.StatusLines(env.Stdout, lines, false)
	}
	if err := fleetFailure("checked", failed); err != nil {
		return exitCode(ExitError, fmt.Errorf("check %s: %w", what, err))
	}
	return nil
}

// writeWorkloadFailure says in the report why cluster has none.
func writeWorkloadFailure(env *Env, format, what, cluster string, fl *planner.Failure) {
	if format == "markdown" {
		fmt.Fprintf(env.Stdout, "## tiform check %s: cluster %s\n\n**Not checked (%s).**\n\n%s", what, render.MarkdownCode(cluster), fl.Status,
			render.MarkdownFence("text", diag.PrintableText(fl.Message)))
		return
	}
	fmt.Fprintf(env.Stdout, "tiform check %s: cluster %q: not checked (%s)\n", what, cluster, fl.Status)
	for _, l := range strings.Split(strings.TrimRight(fl.Message, "\n"), "\n") {
		fmt.Fprintf(env.Stdout, "  %s\n", diag.Printable(l))
	}
}

// workloadTargets are the clusters a workload check reads, and whether they
// come from a configuration (named).
func workloadTargets(env *Env, f *workloadFlags, what string) ([]*state.DesiredCluster, bool, error) {
	switch {
	case f.hasConfig():
		d, err := loadFleet(env, &f.fleetFlags, &f.connFlags, false)
		if err != nil {
			return nil, false, err
		}
		return d.Clusters, true, nil
	case len(f.clusters) > 0 || len(f.labels) > 0:
		return nil, false, exitCode(ExitError, fmt.Errorf("check %s: --cluster and --label choose among the clusters of a configuration, and %s has no *.hcl file", what, f.chdir))
	}
	dsn := f.flagDSN()
	if dsn == "" {
		return nil, false, exitCode(ExitError, errors.New("check "+what+": no cluster to read: pass --dsn, set TIFORM_DSN, or run it in a configuration directory (--chdir); statement statistics are not in snapshots"))
	}
	return []*state.DesiredCluster{{Name: "default", DSN: dsn}}, false, nil
}

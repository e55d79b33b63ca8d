package cmd

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/rollout"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// DefaultParallelism bounds how many clusters are read at once: reads wait on
// the network, not the CPU, so more than the cores, but few enough not to
// open a burst of connections from one CI runner.
var DefaultParallelism = max(8, 2*runtime.NumCPU())

// parseLabels parses --label key=value flags (AND of all).
func parseLabels(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--label %q: write key=value, for example --label env=prod", f)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// selectClusters returns the names --cluster and --label select among the
// clusters of d (both given: a cluster must satisfy both), in declaration
// order, or an error naming what the configuration declares.
func selectClusters(d *state.Desired, names []string, labels map[string]string) ([]string, error) {
	for _, want := range names {
		if _, err := findCluster(d, want, "--cluster"); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, dc := range d.Clusters {
		if len(names) > 0 && !slices.Contains(names, dc.Name) {
			continue
		}
		if !state.HasLabels(dc.Labels, labels) {
			continue
		}
		out = append(out, dc.Name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--label %s: no cluster has these labels (the configuration declares: %s)", labelText(labels), clusterLabelsText(d))
	}
	return out, nil
}

// labelText renders labels as "env=prod,region=tokyo" (keys sorted).
func labelText(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + labels[k]
	}
	return strings.Join(parts, ",")
}

// clusterLabelsText lists every cluster with its labels: "tokyo (env=prod), osaka".
func clusterLabelsText(d *state.Desired) string {
	parts := make([]string, len(d.Clusters))
	for i, dc := range d.Clusters {
		parts[i] = dc.Name
		if len(dc.Labels) > 0 {
			parts[i] += " (" + labelText(dc.Labels) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// clusterRead is the result of reading one cluster.
type clusterRead struct {
	live *state.Live
	err  error
}

// readFunc reads one cluster; each command says what it reads (plan: the
// managed keys; check: what the live rules look at; state pull: everything).
type readFunc func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, error)

// readFleet reads the clusters concurrently, at most parallelism at once,
// each with read (which applies that cluster's own --connect-timeout and
// --timeout): a cluster that never answers costs its own timeout, not the
// others'. Results are in the order of clusters. It is the one fleet reader
// of apply, check and state pull; plan reads through planFleet, which plans
// each cluster as soon as it is read.
func readFleet(ctx context.Context, parallelism int, clusters []*state.DesiredCluster, read readFunc) []clusterRead {
	out := make([]clusterRead, len(clusters))
	rollout.ForEach(parallelism, len(clusters), func(i int) {
		l, err := read(ctx, clusters[i])
		out[i] = clusterRead{live: l, err: err}
	})
	return out
}

// planReadFunc reads one cluster for plan: its live state, and the
// connection pool it read over (nil from a snapshot), which the evidence
// read reuses; planCluster closes it.
type planReadFunc func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, *sql.DB, error)

// evidenceFunc reads over db (the pool the cluster was read over; nil for a
// snapshot) the statement statistics a cluster's plan calls for
// (planner.EvidenceNeeds); a failed read is the Evidence's Unavailable
// reason, never an error: evidence is UI only.
type evidenceFunc func(ctx context.Context, db *sql.DB, dc *state.DesiredCluster, l *state.Live, need workload.Need) *workload.Evidence

// planFleet reads and plans every cluster of d, at most parallelism at once,
// as readFleet reads: each cluster is compared as soon as it is read, gets
// the statement statistics its plan calls for from evidence (one bounded read,
// only for such plans), and is concluded, while the others are still being
// read. A cluster that could not be read or planned gets a Failure; the
// others are planned as usual. Plans are in the order of d.Clusters.
func planFleet(ctx context.Context, d *state.Desired, parallelism int, read planReadFunc, evidence evidenceFunc, o planner.Options) *planner.Plan {
	p := &planner.Plan{ConfigHash: d.ConfigHash, CreatedAt: o.Now, Clusters: make([]*planner.ClusterPlan, len(d.Clusters))}
	errs := make([]error, len(d.Clusters))
	rollout.ForEach(parallelism, len(d.Clusters), func(i int) {
		p.Clusters[i], errs[i] = planCluster(ctx, d.Clusters[i], read, evidence, o)
	})
	for i, dc := range d.Clusters {
		if errs[i] != nil {
			p.Clusters[i] = &planner.ClusterPlan{Name: dc.Name, Labels: dc.Labels, Failure: failureOf(errs[i], d.Sources)}
		}
	}
	return p
}

// planCluster reads and plans one cluster (planRead), and closes the pool
// it read over.
func planCluster(ctx context.Context, dc *state.DesiredCluster, read planReadFunc, evidence evidenceFunc, o planner.Options) (*planner.ClusterPlan, error) {
	l, db, err := read(ctx, dc)
	if db != nil {
		defer db.Close()
	}
	if err != nil {
		return nil, err
	}
	return planRead(ctx, dc, l, db, evidence, o)
}

// planRead plans dc from l, read over db (nil for a snapshot; left open):
// compared once (DiffCluster), then concluded with the evidence the plan
// calls for, read over db.
func planRead(ctx context.Context, dc *state.DesiredCluster, l *state.Live, db *sql.DB, evidence evidenceFunc, o planner.Options) (*planner.ClusterPlan, error) {
	cp, err := planner.DiffCluster(dc, l, o)
	if err != nil {
		return nil, err
	}
	var ev *workload.Evidence
	if need := planner.EvidenceNeeds(cp); need.Any() {
		ev = evidence(ctx, db, dc, l, need)
	}
	planner.Conclude(cp, dc, l, ev, o)
	return cp, nil
}

// failureOf classifies why a cluster has no plan. An error the
// configuration caused keeps its diagnostics, with their source lines from
// src, and reads as they print.
func failureOf(err error, src diag.Sources) *planner.Failure {
	if ds, ok := diag.As(err); ok {
		src.Attach(ds)
		var b strings.Builder
		_ = diag.Write(&b, ds, false)
		return &planner.Failure{Status: planner.StatusError, Message: b.String(), Diagnostics: ds}
	}
	var inc *planner.IncompleteError
	if errors.As(err, &inc) {
		return &planner.Failure{Status: planner.StatusIncomplete, Message: incompleteMessage(inc).Error()}
	}
	var le *live.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &le) && le.Kind == live.KindUnreachable {
		return &planner.Failure{Status: planner.StatusUnreachable, Message: err.Error()}
	}
	return &planner.Failure{Status: planner.StatusError, Message: err.Error()}
}

// failuresError is the error plan and apply end with when clusters could not
// be read or planned, after the report listing every cluster was written.
func failuresError(p *planner.Plan) error {
	var failed []render.ClusterLine
	for _, cp := range p.Clusters {
		if cp.Failure != nil {
			failed = append(failed, render.ClusterLine{Name: cp.Name, Status: cp.Failure.Status})
		}
	}
	return fleetFailure("planned", failed)
}

// fleetFailure is the error a fleet command ends with when the failed
// clusters could not be verb ("planned", "checked", "read"), or nil when none
// failed: one message for every command.
func fleetFailure(verb string, failed []render.ClusterLine) error {
	if len(failed) == 0 {
		return nil
	}
	names := make([]string, len(failed))
	for i, l := range failed {
		names[i] = fmt.Sprintf("%s (%s)", l.Name, l.Status)
	}
	return fmt.Errorf("%s could not be %s: %s; the report above has every other cluster's result",
		plural(len(names), "cluster"), verb, strings.Join(names, ", "))
}

// suggestCluster is findCluster's "did you mean" for a --cluster name.
func suggestCluster(d *state.Desired, name string) string {
	names := make([]string, len(d.Clusters))
	for i, c := range d.Clusters {
		names[i] = c.Name
	}
	return schema.DidYouMean(name, names)
}

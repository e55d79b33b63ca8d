package cmd

import (
	"context"
	"sync"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// addEvidence reads, for each planned cluster whose changes touch a
// plan-cache variable or in-memory-engine.enable (planner.EvidenceNeeds), the
// statement statistics the plan shows — one bounded read per such cluster,
// at most --parallelism at once, none for the others — and plans that
// cluster again with them. A cluster planned from a snapshot gets the reason
// there are none; a failed read becomes the reason, never an error: evidence
// is UI only.
func addEvidence(ctx context.Context, f *configFlags, d *state.Desired, reads []clusterRead, p *planner.Plan, o planner.Options) {
	sem := make(chan struct{}, max(f.parallelism, 1))
	var wg sync.WaitGroup
	for i, cp := range p.Clusters {
		if cp.Failure != nil || i >= len(d.Clusters) || reads[i].live == nil {
			continue
		}
		need := planner.EvidenceNeeds(cp)
		if !need.Any() {
			continue
		}
		dc, r := d.Clusters[i], reads[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ev := &workload.Evidence{Unavailable: "planned from a snapshot, which holds no statement statistics"}
			if f.fromSnapshot == "" {
				ev = clusterEvidence(ctx, f, dc.DSN, r.live, need)
			}
			oi := o
			oi.Evidence = map[string]*workload.Evidence{dc.Name: ev}
			if again, err := planCluster(dc, r, oi); err == nil {
				p.Clusters[i] = again
			}
		}()
	}
	wg.Wait()
}

// clusterEvidence reads one cluster's evidence. With both needs, the read
// ordered by latency serves both reports.
func clusterEvidence(ctx context.Context, f *configFlags, dsn string, l *state.Live, need workload.Need) *workload.Evidence {
	q := workload.Query{Since: workload.DefaultSince, Limit: workload.DefaultLimit, Order: workload.ByLatency}
	if !need.PlanCache {
		q.Order = workload.ByScannedKeys
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	db, err := f.open(ctx, dsn)
	if err != nil {
		return &workload.Evidence{Unavailable: "reading the statement statistics failed: " + err.Error()}
	}
	defer db.Close()
	sample, err := live.StatementReader{DB: db, Live: l, Variables: true, User: operator(dsn).DBUser}.ReadStatements(ctx, q)
	if err != nil {
		return &workload.Evidence{Unavailable: "reading the statement statistics failed: " + err.Error()}
	}
	ev := &workload.Evidence{}
	if need.PlanCache {
		r := workload.PlanCache(*sample)
		ev.PlanCache = &r
	}
	if need.MVCC {
		r := workload.MVCC(*sample, mvccOptions(l))
		ev.MVCC = &r
	}
	return ev
}

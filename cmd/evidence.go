package cmd

import (
	"context"
	"database/sql"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// readEvidence is plan's evidenceFunc: it reads, for a cluster whose
// planned changes touch a plan-cache variable or in-memory-engine.enable,
// the statement statistics the plan shows (planFleet asks only for those,
// at most --parallelism at once). A cluster planned from a snapshot gets the
// reason there are none.
func readEvidence(f *configFlags) evidenceFunc {
	return func(ctx context.Context, db *sql.DB, dc *state.DesiredCluster, l *state.Live, need workload.Need) *workload.Evidence {
		if db == nil {
			return &workload.Evidence{Unavailable: "planned from a snapshot, which holds no statement statistics"}
		}
		return clusterEvidence(ctx, f, db, dc, l, need)
	}
}

// clusterEvidence reads one cluster's evidence over db, the pool its live
// state was read over, within --timeout. With both needs, the read ordered
// by latency serves both reports. The variables shown with the figures are
// read again only when the inspection did not read them with dc's
// (live.RequestFor, Request.ReadsEvidenceVariables).
func clusterEvidence(ctx context.Context, f *configFlags, db *sql.DB, dc *state.DesiredCluster, l *state.Live, need workload.Need) *workload.Evidence {
	q := workload.Query{Since: workload.DefaultSince, Limit: workload.DefaultLimit, Order: workload.ByLatency}
	if !need.PlanCache {
		q.Order = workload.ByScannedKeys
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	reread := !l.VariablesRead || !live.RequestFor(dc).ReadsEvidenceVariables()
	sample, err := live.StatementReader{DB: db, Live: l, Variables: reread, User: operator(dc.DSN).DBUser}.ReadStatements(ctx, q)
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

package planner

import (
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/workload"
)

// EvidenceNeeds says which statement statistics a cluster plan calls for:
// plan-cache figures when it changes a plan-cache variable, MVCC figures when
// it changes TiKV in-memory-engine.enable (workload.NeedFor). Other plans
// need none, and the caller reads nothing more for them.
func EvidenceNeeds(cp *ClusterPlan) workload.Need {
	var n workload.Need
	for _, c := range cp.Changes {
		if c.Action == plans.NoOp {
			continue
		}
		n = n.Or(workload.NeedFor(string(c.Addr.Kind), string(c.Addr.Component), c.Addr.Key))
	}
	return n
}

// evidenceFor keeps the parts of ev the plan needs; without them it says
// why (a plan built before the read, or from a snapshot, has none).
func evidenceFor(ev *workload.Evidence, need workload.Need) *workload.Evidence {
	out := &workload.Evidence{}
	if ev != nil {
		out.Unavailable = ev.Unavailable
		if need.PlanCache {
			out.PlanCache = ev.PlanCache
		}
		if need.MVCC {
			out.MVCC = ev.MVCC
		}
	}
	if out.Unavailable == "" && (need.PlanCache && out.PlanCache == nil || need.MVCC && out.MVCC == nil) {
		out.Unavailable = "they were not read for this plan"
	}
	return out
}

package workload

import (
	"fmt"
	"slices"
	"strings"
)

// IMEEnableKey is the TiKV config item that turns the In-Memory Engine on.
const IMEEnableKey = "in-memory-engine.enable"

// Evidence is what a plan shows about a planned plan-cache or In-Memory
// Engine change: the cluster's current figures, read once while planning.
// UI only: it never changes what apply does.
type Evidence struct {
	// PlanCache is set when the plan changes a plan-cache variable.
	PlanCache *PlanCacheReport
	// MVCC is set when the plan changes in-memory-engine.enable.
	MVCC *MVCCReport
	// Unavailable says why wanted figures could not be read (planned from a
	// snapshot, the read failed); "" when they were read.
	Unavailable string
}

// Need says which evidence planned changes call for.
type Need struct {
	PlanCache, MVCC bool
}

// Any reports whether any evidence is needed.
func (n Need) Any() bool { return n.PlanCache || n.MVCC }

// Or combines two needs.
func (n Need) Or(o Need) Need {
	return Need{PlanCache: n.PlanCache || o.PlanCache, MVCC: n.MVCC || o.MVCC}
}

// NeedFor reports the evidence a change of one setting calls for: a
// plan-cache variable (PlanCacheVariables) or TiKV in-memory-engine.enable.
// kind is "variable" or "config".
func NeedFor(kind, component, key string) Need {
	key = strings.ToLower(strings.TrimSpace(key))
	switch kind {
	case "variable":
		return Need{PlanCache: slices.Contains(PlanCacheVariables, key)}
	case "config":
		return Need{MVCC: component == "tikv" && key == IMEEnableKey}
	}
	return Need{}
}

// Headline is the one-line summary of the plan-cache figures a guard finding
// and a plan cite: "hit ratio 3% of executions (5% of latency) over 24h; 72%
// cannot use the cache, top reason: OR predicate simplification (tidb#56136)".
func (r PlanCacheReport) Headline() string {
	if r.All.Executions == 0 {
		return fmt.Sprintf("no cacheable statement ran over %s", Span(r.Since))
	}
	h := fmt.Sprintf("hit ratio %s of executions (%s of latency) over %s", Pct(r.All.ByExecutions()), Pct(r.All.ByLatency()), Span(r.Since))
	if r.Reduced {
		return h + fmt.Sprintf("; TiDB %s does not record why statements miss", orThis(r.Version))
	}
	if r.All.Unqualified > 0 {
		h += fmt.Sprintf("; %s cannot use the cache", Pct(r.All.UnqualifiedShare()))
		if len(r.Reasons) > 0 {
			h += ", top reason: " + r.Reasons[0].Title
		}
	}
	return h
}

// Headline is the one-line summary of the MVCC figures: the table with most
// stale versions, or that there is none.
func (r MVCCReport) Headline() string {
	if len(r.Tables) == 0 {
		switch r.Verdict {
		case MVCCNoData:
			return fmt.Sprintf("no coprocessor reads over %s", Span(r.Since))
		case MVCCCannotJudge:
			return fmt.Sprintf("coprocessor reads over %s report no keys scanned: the storage gives no MVCC figures", Span(r.Since))
		}
		return fmt.Sprintf("no read scans %sx more MVCC versions than it keeps over %s", amp(r.Threshold), Span(r.Since))
	}
	t := r.Tables[0]
	top := t.Statements[0]
	h := fmt.Sprintf("%s: reads scan %s versions per key kept (%s versions for %s keys per execution) over %s",
		t.Table, amp(t.Amplification), count(int64(top.AvgTotalKeys+0.5)), amp(top.AvgProcessedKeys), Span(r.Since))
	if n := len(r.Tables) - 1; n > 0 {
		h += fmt.Sprintf(", and %d more table%s", n, plural(n))
	}
	return h
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

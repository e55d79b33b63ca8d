package planner

import (
	"sort"
	"time"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
)

// evaluateGuards is the default guard evaluator (Options.Guards overrides it).
var evaluateGuards = guard.Evaluate

// GuardInput builds what guard rules see for a cluster plan: the planned
// changes themselves, with the desired and live state.
func GuardInput(cp *ClusterPlan, dc *state.DesiredCluster, l *state.Live, now time.Time) guard.Input {
	in := guard.Input{Desired: dc, Live: l, Now: now, Changes: cp.Changes, Ignored: cp.Ignored, Evidence: cp.Evidence}
	if u := cp.UnmanagedSettings; u != nil {
		for _, ig := range u.Ignored {
			in.IgnoredUnmanaged = append(in.IgnoredUnmanaged, ig.Pattern)
		}
	}
	return in
}

// attachFindings runs the guards and links each finding to the change with
// its address (codes in Change.Findings, sorted, without duplicates).
func attachFindings(cp *ClusterPlan, dc *state.DesiredCluster, l *state.Live, now time.Time, eval func(guard.Input) []guard.Finding) {
	fs := eval(GuardInput(cp, dc, l, now))
	cp.Findings = fs
	byAddr := map[string]int{}
	for i, c := range cp.Changes {
		byAddr[c.Addr.String()] = i
	}
	for _, f := range fs {
		i, ok := byAddr[f.Address]
		if !ok {
			continue
		}
		c := cp.Changes[i]
		dup := false
		for _, code := range c.Findings {
			if code == f.Code {
				dup = true
			}
		}
		if !dup {
			c.Findings = append(c.Findings, f.Code)
		}
	}
	for _, c := range cp.Changes {
		sort.Strings(c.Findings)
	}
}

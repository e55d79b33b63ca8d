package planner

import (
	"sort"
	"time"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
)

// evaluateGuards is the default guard evaluator (Options.Guards overrides it).
var evaluateGuards = guard.Evaluate

// GuardInput builds what guard rules see for a cluster plan.
func GuardInput(cp *ClusterPlan, dc *state.DesiredCluster, l *state.Live, now time.Time) guard.Input {
	in := guard.Input{Desired: dc, Live: l, Now: now, Evidence: cp.Evidence}
	for _, c := range cp.Changes {
		v := guard.ChangeView{
			Address:   c.Address,
			Kind:      string(c.Kind),
			Action:    c.Action.String(),
			Component: c.Component,
			Key:       c.Key,
			Instance:  c.Instance,
			After:     c.After,
			Range:     c.Range,
		}
		for _, b := range c.Before {
			v.Before = append(v.Before, b.Value)
		}
		in.Changes = append(in.Changes, v)
	}
	return in
}

// attachFindings runs the guards and links each finding to the change with
// its address (codes in Change.Findings, sorted, without duplicates).
func attachFindings(cp *ClusterPlan, dc *state.DesiredCluster, l *state.Live, now time.Time, eval func(guard.Input) []guard.Finding) {
	fs := eval(GuardInput(cp, dc, l, now))
	cp.Findings = fs
	byAddr := map[string]*Change{}
	for _, c := range cp.Changes {
		byAddr[c.Address] = c
	}
	for _, f := range fs {
		c := byAddr[f.Address]
		if c == nil {
			continue
		}
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

package planner

import (
	"slices"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Staleness. A plan is computed from live values (its Fingerprint); apply
// re-reads them and refuses the plan when any moved. This file is the one
// place that decides what "moved" means; the applier only reads and reports.

// StaleDependency is one value a plan depended on that moved since.
type StaleDependency struct {
	// Dependency is the planned one (Value: the value the plan saw; Absent
	// for an instance that appeared since).
	plans.Dependency
	// Now is the value read now (Absent when it is gone).
	Now string
}

// Stale compares the dependencies a plan was made from (planned) with the
// same values read now and returns those that moved, sorted:
//
//   - a planned value that changed (by SameValue: another spelling of the same
//     value has not moved) or that now lacks;
//   - an instance that appeared: a version dependency only now has (a
//     type-wide statement would reach that instance, which the plan never saw).
//
// Other dependencies only now has are not stale: the plan did not depend on
// them (a rollback plan's fingerprint lists only the values it restores).
func Stale(planned, now []plans.Dependency) []StaleDependency {
	fresh := make(map[state.Address]string, len(now))
	for _, d := range now {
		fresh[d.Addr] = d.Value
	}
	var out []StaleDependency
	seen := make(map[state.Address]bool, len(planned))
	for _, d := range planned {
		seen[d.Addr] = true
		v, ok := fresh[d.Addr]
		if !ok {
			v = plans.Absent
		}
		if !SameValue(d.Addr, d.Value, v) {
			out = append(out, StaleDependency{Dependency: d, Now: v})
		}
	}
	for _, d := range now {
		if d.Addr.Kind == state.KindVersion && !seen[d.Addr] {
			appeared := d
			appeared.Value = plans.Absent
			out = append(out, StaleDependency{Dependency: appeared, Now: d.Value})
		}
	}
	slices.SortFunc(out, func(a, b StaleDependency) int { return compareDependency(a.Dependency, b.Dependency) })
	return out
}

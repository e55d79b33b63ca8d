package planner

import (
	"sort"

	"github.com/tiform/tiform/state"
)

// Staleness. A plan is computed from live values (its Fingerprint); apply
// re-reads them and refuses the plan when any moved. This file is the one
// place that decides what "moved" means; the applier only reads and reports.

// StaleDependency is one value a plan depended on that moved since.
type StaleDependency struct {
	// Dependency is the planned one (Value: the value the plan saw; Absent
	// for an instance that appeared since).
	Dependency
	// Now is the value read now (Absent when it is gone).
	Now string
}

// depID identifies a dependency regardless of its value.
type depID struct {
	Kind      Kind
	Component state.Component
	Instance  string
	Key       string
}

func idOf(d Dependency) depID { return depID{d.Kind, d.Component, d.Instance, d.Key} }

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
func Stale(planned, now []Dependency) []StaleDependency {
	fresh := make(map[depID]string, len(now))
	for _, d := range now {
		fresh[idOf(d)] = d.Value
	}
	var out []StaleDependency
	seen := make(map[depID]bool, len(planned))
	for _, d := range planned {
		id := idOf(d)
		seen[id] = true
		v, ok := fresh[id]
		if !ok {
			v = Absent
		}
		if !SameValue(d.Kind, d.Component, d.Key, d.Value, v) {
			out = append(out, StaleDependency{Dependency: d, Now: v})
		}
	}
	for _, d := range now {
		if d.Kind == KindVersion && !seen[idOf(d)] {
			appeared := d
			appeared.Value = Absent
			out = append(out, StaleDependency{Dependency: appeared, Now: d.Value})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dependency.less(out[j].Dependency) })
	return out
}

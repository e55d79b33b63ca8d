package catalog

import (
	"github.com/tiform/tiform/version"
)

// What an upgrade changes, from the per-version defaults the generated table
// records (tiform plan --target-version): the catalog says which defaults
// differ between two versions; the planner says what a cluster runs after
// the upgrade.

// DefaultChange is a setting whose default differs between two versions.
type DefaultChange struct {
	Entry         *Entry
	Before, After Default
}

// DefaultChanges lists the settings of component ("tikv", "pd", "tiflash",
// or "tidb" for system variables) that exist in from and in to and whose
// default there differs in meaning (compared in the catalog's canonical
// form, so "1GiB" and "1024MiB" are one default), in catalog order.
func DefaultChanges(component string, from, to version.Version) []DefaultChange {
	var out []DefaultChange
	for _, e := range Entries() {
		if e.Component != component || e.Prefix {
			continue
		}
		if !e.ExistsIn(from) || !e.ExistsIn(to) {
			continue
		}
		b, bok := e.DefaultRecordIn(from)
		a, aok := e.DefaultRecordIn(to)
		if !bok || !aok || e.SameDefault(b.Value, a.Value) {
			continue
		}
		out = append(out, DefaultChange{Entry: e, Before: b, After: a})
	}
	return out
}

// SameDefault reports whether two values of e mean the same: their
// canonical forms are equal, or, when one does not parse, their texts.
func (e *Entry) SameDefault(a, b string) bool {
	ca, errA := e.Canonical(a)
	cb, errB := e.Canonical(b)
	if errA == nil && errB == nil {
		return ca == cb
	}
	return a == b
}

// DefaultsChangingUpTo lists the settings of component whose default is
// not the same in every version up to to: what a read must hold to tell
// what an upgrade to to changes, whatever version the cluster runs.
func DefaultsChangingUpTo(component string, to version.Version) []*Entry {
	var out []*Entry
	for _, e := range Entries() {
		if e.Component != component || e.Prefix || !e.ExistsIn(to) {
			continue
		}
		var first *Default
		for i := range e.Defaults {
			d := &e.Defaults[i]
			if !d.Since.IsZero() && !to.IsZero() && d.Since.Compare(to) > 0 {
				break
			}
			if first == nil {
				first = d
				continue
			}
			if !e.SameDefault(first.Value, d.Value) {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

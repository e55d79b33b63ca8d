package catalog

import (
	"sort"
	"strings"

	"github.com/tiform/tiform/version"
)

// The catalog's public API. Every other package uses only these functions and
// the Entry type; the tables behind them live in entries_*.go.

// registry is filled by the entries_*.go files' init functions via register.
var (
	configEntries   = map[string]*Entry{} // "component\x00key"
	variableEntries = map[string]*Entry{} // lower-case name
)

func register(es ...*Entry) {
	for _, e := range es {
		switch e.Target {
		case TargetConfig:
			configEntries[e.Component+"\x00"+e.Key] = e
		case TargetVariable:
			variableEntries[strings.ToLower(e.Key)] = e
		}
	}
}

// Config returns the entry for a component config key ("tikv",
// "coprocessor.region-split-size").
func Config(component, key string) (*Entry, bool) {
	e, ok := configEntries[strings.ToLower(component)+"\x00"+strings.ToLower(key)]
	return e, ok
}

// Variable returns the entry for a TiDB system variable (case-insensitive).
func Variable(name string) (*Entry, bool) {
	e, ok := variableEntries[strings.ToLower(name)]
	return e, ok
}

// Entries returns every entry, config items first (by component, key), then
// variables (by name).
func Entries() []*Entry {
	out := make([]*Entry, 0, len(configEntries)+len(variableEntries))
	for _, e := range configEntries {
		out = append(out, e)
	}
	for _, e := range variableEntries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		if a.Component != b.Component {
			return a.Component < b.Component
		}
		return a.Key < b.Key
	})
	return out
}

// ExistsIn reports whether the setting exists in version v: introduced at or
// before v and not removed at or before v. A zero v (unknown) counts as existing.
func (e *Entry) ExistsIn(v version.Version) bool {
	if v.IsZero() {
		return true
	}
	if !e.Introduced.IsZero() && v.Compare(e.Introduced) < 0 {
		return false
	}
	if !e.Removed.IsZero() && v.Compare(e.Removed) >= 0 {
		return false
	}
	return true
}

// DefaultIn returns the default value in version v, as the component renders it.
func (e *Entry) DefaultIn(v version.Version) (string, bool) {
	var out string
	found := false
	for _, d := range e.Defaults {
		if d.Since.IsZero() || v.IsZero() || v.Compare(d.Since) >= 0 {
			out, found = d.Value, true
		}
	}
	return out, found
}

package catalog

import (
	"fmt"
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

// duplicates records keys registered twice; a test asserts it stays empty.
var duplicates []string

// prefixRules are the config entries with Prefix set, for Config's fallback.
var prefixRules []*Entry

func register(es ...*Entry) {
	for _, e := range es {
		switch e.Target {
		case TargetConfig:
			k := e.Component + "\x00" + e.Key
			if _, dup := configEntries[k]; dup {
				duplicates = append(duplicates, e.Address())
			}
			configEntries[k] = e
			if e.Prefix {
				prefixRules = append(prefixRules, e)
			}
		case TargetVariable:
			k := strings.ToLower(e.Key)
			if _, dup := variableEntries[k]; dup {
				duplicates = append(duplicates, e.Address())
			}
			variableEntries[k] = e
		}
	}
}

// Config returns the entry for a component config key ("tikv",
// "coprocessor.region-split-size"). Component and key are case-insensitive
// (TiDB lower-cases both, tidb-facts.md §2.1).
//
// When no entry has exactly that key, the longest prefix rule of the
// component that matches is used (TiFlash "raftstore-proxy.", §2.2): Config
// then returns a copy of the rule with Key set to the full key, Prefix false
// and Pattern set to the rule ("raftstore-proxy.*"), so Address names the
// key the user wrote.
func Config(component, key string) (*Entry, bool) {
	component, key = strings.ToLower(component), strings.ToLower(key)
	if e, ok := configEntries[component+"\x00"+key]; ok {
		return e, true
	}
	var best *Entry
	for _, e := range prefixRules {
		if e.Component == component && strings.HasPrefix(key, e.Key) && len(key) > len(e.Key) {
			if best == nil || len(e.Key) > len(best.Key) {
				best = e
			}
		}
	}
	if best == nil {
		return nil, false
	}
	c := *best
	c.Key, c.Prefix, c.Pattern = key, false, best.Key+"*"
	return &c, true
}

// Variable returns the entry for a TiDB system variable (case-insensitive).
// The forms SELECT prints are accepted too: "@@name", "@@global.name".
func Variable(name string) (*Entry, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if strings.HasPrefix(n, "@@") {
		n = strings.TrimPrefix(strings.TrimPrefix(n, "@@"), "global.")
	}
	e, ok := variableEntries[n]
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
		return strings.ToLower(a.Key) < strings.ToLower(b.Key)
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

// DefaultIn returns the default value in version v, as the component renders
// it. It reports false when the setting does not exist in v or tidb-facts.md
// records no default for v. A zero v (unknown) gives the newest default.
func (e *Entry) DefaultIn(v version.Version) (string, bool) {
	d, ok := e.DefaultRecordIn(v)
	return d.Value, ok
}

// DefaultRecordIn is DefaultIn with the whole record, including its Since
// version and Note ("new clusters only…": an upgraded cluster may keep the
// previous default, tidb-facts.md §8.1).
func (e *Entry) DefaultRecordIn(v version.Version) (Default, bool) {
	if !e.ExistsIn(v) {
		return Default{}, false
	}
	var out Default
	found := false
	for _, d := range e.Defaults {
		if d.Since.IsZero() || v.IsZero() || v.Compare(d.Since) >= 0 {
			out, found = d, true
		}
	}
	return out, found
}

// Family returns the entries of a family managed as a set, in Entries order:
// "region-size" (the four TiKV coprocessor.region-* items, tidb-facts.md §3.3:
// always set all four) and "pd-merge" (PD schedule.max-merge-region-size/keys,
// §3.2). Nil for an unknown family.
func Family(name string) []*Entry {
	var out []*Entry
	for _, e := range Entries() {
		if e.Family == name && name != "" {
			out = append(out, e)
		}
	}
	return out
}

// Lookup resolves a reference in Related / ReplacedBy syntax:
// "tikv:coprocessor.region-split-size", "pd:schedule.max-merge-region-size",
// "variable:tidb_session_plan_cache_size".
func Lookup(ref string) (*Entry, bool) {
	comp, key, ok := strings.Cut(ref, ":")
	if !ok {
		return nil, false
	}
	if comp == "variable" {
		return Variable(key)
	}
	return Config(comp, key)
}

// RelatedEntries resolves e.Related; references that do not resolve are
// skipped (a test asserts there are none).
func (e *Entry) RelatedEntries() []*Entry {
	var out []*Entry
	for _, r := range e.Related {
		if x, ok := Lookup(r); ok {
			out = append(out, x)
		}
	}
	return out
}

// Components lists the config components the catalog has entries for.
func Components() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range Entries() {
		if e.Target == TargetConfig && !seen[e.Component] {
			seen[e.Component] = true
			out = append(out, e.Component)
		}
	}
	return out
}

// SetConfigSupported reports whether SET CONFIG can change key of component
// at all, whatever the catalog knows about the key (tidb-facts.md §2.2): TiDB
// config is changed through system variables; TiFlash accepts only
// "raftstore-proxy." items; only tikv, pd and tiflash are valid types. The
// error explains what to do instead.
func SetConfigSupported(component, key string) error {
	switch strings.ToLower(component) {
	case "tikv", "pd":
		return nil
	case "tiflash":
		if strings.HasPrefix(strings.ToLower(key), "raftstore-proxy.") {
			return nil
		}
		return fmt.Errorf("catalog: tiflash %s: SET CONFIG only changes TiFlash items that begin with \"raftstore-proxy.\"; "+
			"edit the TiFlash config file instead (it takes effect without a restart) (tidb-facts.md §2.2)", key)
	case "tidb":
		return fmt.Errorf("catalog: tidb %s: TiDB does not change config online; use the matching system variable "+
			"(e.g. tidb_slow_log_threshold for instance.tidb_slow_log_threshold) or tidb.toml (tidb-facts.md §2.2)", key)
	}
	return fmt.Errorf("catalog: %s %s: SET CONFIG accepts only the types tikv, pd and tiflash (tidb-facts.md §2.2)", component, key)
}

// OnlineIn reports whether the setting can be changed online in version v:
// Online, and v is at or after OnlineSince. A zero v counts as the newest.
func (e *Entry) OnlineIn(v version.Version) bool {
	if !e.Online {
		return false
	}
	return e.OnlineSince.IsZero() || v.IsZero() || v.Compare(e.OnlineSince) >= 0
}

package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

// The catalog's public API. Every other package uses only these functions and
// the Entry type. The registry is built once, at package initialisation,
// from the generated upstream table (upstream.go), the overlay
// (overlay_*.go) and the hand-modelled TiFlash entries (entries_tiflash.go).

var (
	configEntries   = map[string]*Entry{} // "component\x00key"
	variableEntries = map[string]*Entry{} // lower-case name
)

// duplicates records keys registered twice; overlayMissing overlay entries
// whose key the generated table does not have; overlays what each overlay
// changed. Tests assert the first two stay empty and check the third.
var (
	duplicates     []string
	overlayMissing []string
	overlays       []overlayResult
)

// prefixRules are the config entries with Prefix set, for Config's fallback.
var prefixRules []*Entry

func init() {
	for _, s := range table.Settings {
		register(fromUpstream(s))
	}
	for _, p := range table.Prefixes {
		register(prefixFromUpstream(p))
	}
	for _, o := range append(append(tikvOverlays(), pdOverlays()...), variableOverlays()...) {
		e, ok := overlayTarget(o)
		if !ok {
			overlayMissing = append(overlayMissing, o.component+" "+o.key)
			continue
		}
		overlays = append(overlays, applyOverlay(e, o))
	}
	register(tiflashEntries()...)
}

func overlayTarget(o overlayEntry) (*Entry, bool) {
	if o.component == "tidb" {
		e, ok := variableEntries[strings.ToLower(o.key)]
		return e, ok
	}
	e, ok := configEntries[o.component+"\x00"+strings.ToLower(o.key)]
	return e, ok
}

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
// (TiDB lower-cases both: https://docs.pingcap.com/tidb/stable/sql-statement-set-config).
//
// When no entry has exactly that key, the longest prefix rule of the
// component that matches is used (TiFlash "raftstore-proxy.", TiKV
// "raft-engine."): Config
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
	if upstream.PathKey(key) {
		c.Class = ClassPath // raft-engine.dir, log.file.filename: the naming rule the table's keys follow
	}
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

// Family returns the entries of a family managed as a set, in Entries order:
// "region-size" (the four TiKV coprocessor.region-* items: always set all
// four, tikv/tikv#18503) and "pd-merge" (PD schedule.max-merge-region-size and
// -keys, https://docs.pingcap.com/tidb/stable/pd-configuration-file#max-merge-region-size).
// Nil for an unknown family.
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
// at all, whatever the catalog knows about the key
// (https://docs.pingcap.com/tidb/stable/dynamic-config): TiDB
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
			"edit the TiFlash config file instead (it takes effect without a restart) (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tiflash-configuration-dynamically)", key)
	case "tidb":
		return fmt.Errorf("catalog: tidb %s: TiDB does not change config online; use the matching system variable "+
			"(e.g. tidb_slow_log_threshold for instance.tidb_slow_log_threshold) or tidb.toml (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tidb-configuration-dynamically)", key)
	}
	return fmt.Errorf("catalog: %s %s: SET CONFIG accepts only the types tikv, pd and tiflash (https://docs.pingcap.com/tidb/stable/sql-statement-set-config)", component, key)
}

package planner

import (
	"sort"
	"strings"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// liveIndex is a live state's config rows indexed for one plan, built once
// and shared by the comparison and the fingerprint. It is the one place a
// plan turns a live config value into its canonical form (canonical): the
// comparison reads those values for the region-size ordering rule, the
// fingerprint lists them, and neither computes them again.
//
// A plan of 300 instances × the whole catalog reads over 160,000 rows, and
// the instances of a component mostly print a key's value in the same text:
// each distinct text of a key is canonicalised once.
//
// Not safe for concurrent use: every plan (and every Fingerprint call) builds
// its own; nothing is shared between plans.
type liveIndex struct {
	l     *state.Live
	rows  liveConfig
	comps map[state.Component]*componentRows
	canon map[configKey][]string
	memo  map[string]string // scratch of canonical: a key's text → canonical
}

// componentRows is one component's instances, sorted (duplicates kept, as
// l.Instances lists them), and the rows each printed: rows[i] maps the keys of
// instances[i] to their values, nil when it printed none. Read-only once built.
type componentRows struct {
	instances []string
	rows      []map[string]string
}

// liveConfig indexes live config rows: component → instance → key → value.
type liveConfig map[state.Component]map[string]map[string]string

func newLiveIndex(l *state.Live) *liveIndex {
	return &liveIndex{l: l, rows: indexLiveConfig(l), comps: map[state.Component]*componentRows{},
		canon: map[configKey][]string{}, memo: map[string]string{}}
}

func indexLiveConfig(l *state.Live) liveConfig {
	out := liveConfig{}
	// CLUSTER_CONFIG returns an instance's rows together: remember the last
	// instance's map rather than look it up for every row.
	var lastComp state.Component
	lastInst := "\x00"
	var keys map[string]string
	for _, r := range l.Config {
		if r.Component != lastComp || r.Instance != lastInst {
			byInst := out[r.Component]
			if byInst == nil {
				byInst = map[string]map[string]string{}
				out[r.Component] = byInst
			}
			keys = byInst[r.Instance]
			if keys == nil {
				keys = make(map[string]string, 64)
				byInst[r.Instance] = keys
			}
			lastComp, lastInst = r.Component, r.Instance
		}
		keys[strings.ToLower(r.Key)] = r.Value
	}
	return out
}

// get returns the value instance inst of component c printed for key.
func (x *liveIndex) get(c state.Component, inst, key string) (string, bool) {
	v, ok := x.rows[c][inst][key]
	return v, ok
}

// component returns c's instances and their rows.
func (x *liveIndex) component(c state.Component) *componentRows {
	if cr := x.comps[c]; cr != nil {
		return cr
	}
	cr := &componentRows{instances: x.l.InstancesOf(c)}
	sort.Strings(cr.instances)
	cr.rows = make([]map[string]string, len(cr.instances))
	for i, inst := range cr.instances {
		cr.rows[i] = x.rows[c][inst]
	}
	x.comps[c] = cr
	return cr
}

// canonical returns the live value of k on every instance of its component,
// in canonical form (catalog.Setting.Canonical), plans.Absent where the
// instance printed none; out[i] is the value of
// component(k.component).instances[i]. Read-only: it is shared.
func (x *liveIndex) canonical(k configKey) []string {
	if out, ok := x.canon[k]; ok {
		return out
	}
	cr := x.component(k.component)
	set := settingOf(state.KindConfig, k.component, k.key)
	clear(x.memo)
	out := make([]string, len(cr.rows))
	for i, r := range cr.rows {
		v, ok := r[k.key]
		if !ok {
			out[i] = plans.Absent
			continue
		}
		c, seen := x.memo[v]
		if !seen {
			c = set.Canonical(v)
			x.memo[v] = c
		}
		out[i] = c
	}
	x.canon[k] = out
	return out
}

// compared returns, for each of keys that the comparison canonicalised on
// TiKV, its canonical live value per instance (instances that printed none
// left out): the facts of the region-size ordering rule (orderFacts).
func (x *liveIndex) compared(c state.Component, keys ...string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, key := range keys {
		vals, ok := x.canon[configKey{c, key}]
		if !ok {
			continue
		}
		cr := x.component(c)
		m := make(map[string]string, len(vals))
		for i, inst := range cr.instances {
			if _, printed := cr.rows[i][key]; printed {
				m[inst] = vals[i]
			}
		}
		out[key] = m
	}
	return out
}

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
// rows are indexed by key (one slice of values across the instances rather
// than one map per instance), and each distinct text of a key is
// canonicalised once.
//
// Not safe for concurrent use: every plan (and every Fingerprint call) builds
// its own; nothing is shared between plans.
type liveIndex struct {
	comps map[state.Component]*componentRows
	canon map[configKey][]string
	memo  map[string]string // scratch of canonical: a key's text → canonical
}

// componentRows is one component's instances, sorted (duplicates kept, as
// l.Instances lists them), and the values they printed. Read-only once built.
type componentRows struct {
	instances []string
	at        map[string]int // instance → its first index in instances
	// values maps a lower-case key to the value each instance printed:
	// values[key][i] is instances[i]'s.
	values map[string][]liveValue
}

// liveValue is the text one instance printed for a key; printed is false
// when it printed none.
type liveValue struct {
	text    string
	printed bool
}

// newLiveIndex indexes the rows of l.Config of the keys declared (dc.Config)
// by component, key and instance: plans compare and fingerprint only those,
// and only on the instances l.Instances lists, so other rows are left out
// (a plan of resource groups alone skips every row). Where an instance
// printed a key twice, the last row counts.
func newLiveIndex(l *state.Live, declared []state.ConfigSetting) *liveIndex {
	x := &liveIndex{comps: map[state.Component]*componentRows{}, canon: map[configKey][]string{}, memo: map[string]string{}}
	for _, in := range l.Instances {
		cr := x.comps[in.Component]
		if cr == nil {
			cr = &componentRows{values: map[string][]liveValue{}}
			x.comps[in.Component] = cr
		}
		cr.instances = append(cr.instances, in.Address)
	}
	for _, cr := range x.comps {
		sort.Strings(cr.instances)
		cr.at = make(map[string]int, len(cr.instances))
		for i := len(cr.instances) - 1; i >= 0; i-- {
			cr.at[cr.instances[i]] = i
		}
	}
	for _, s := range declared {
		x.printed(configKey{s.Component, strings.ToLower(strings.TrimSpace(s.Key))})
	}
	// CLUSTER_CONFIG returns an instance's rows together: look the instance
	// up once per run of rows.
	var cr *componentRows
	i, lastComp, lastInst := -1, state.Component("\x00"), "\x00"
	for _, r := range l.Config {
		if r.Component != lastComp || r.Instance != lastInst {
			lastComp, lastInst, i = r.Component, r.Instance, -1
			if cr = x.comps[r.Component]; cr != nil && len(cr.values) > 0 {
				if at, ok := cr.at[r.Instance]; ok {
					i = at
				}
			}
		}
		if i < 0 {
			continue
		}
		// SHOW CONFIG prints keys in lower case: look the key up as printed
		// first (a key with an upper-case letter cannot match a declared,
		// lower-cased one), lower-casing only when that misses.
		vals := cr.values[r.Key]
		if vals == nil {
			vals = cr.values[strings.ToLower(r.Key)]
		}
		if vals != nil {
			vals[i] = liveValue{text: r.Value, printed: true}
		}
	}
	for _, cr := range x.comps {
		cr.copyDuplicates()
	}
	return x
}

// copyDuplicates gives an instance listed twice the values of its first
// listing (rows were indexed there).
func (cr *componentRows) copyDuplicates() {
	for i := 1; i < len(cr.instances); i++ {
		if cr.instances[i] != cr.instances[i-1] {
			continue
		}
		for _, vals := range cr.values {
			vals[i] = vals[i-1]
		}
	}
}

// component returns c's instances and their values (empty when l lists no
// instance of c).
func (x *liveIndex) component(c state.Component) *componentRows {
	if cr := x.comps[c]; cr != nil {
		return cr
	}
	cr := &componentRows{values: map[string][]liveValue{}}
	x.comps[c] = cr
	return cr
}

// printed returns what every instance of k's component printed for k,
// aligned with component(k.component).instances; nothing printed for a key
// that was not declared (newLiveIndex). Read-only: it is shared.
func (x *liveIndex) printed(k configKey) []liveValue {
	cr := x.component(k.component)
	vals := cr.values[k.key]
	if vals == nil {
		vals = make([]liveValue, len(cr.instances))
		cr.values[k.key] = vals
	}
	return vals
}

// get returns the value instance inst of component c printed for key.
func (x *liveIndex) get(c state.Component, inst, key string) (string, bool) {
	cr := x.component(c)
	i, ok := cr.at[inst]
	if !ok {
		return "", false
	}
	v := x.printed(configKey{c, key})[i]
	return v.text, v.printed
}

// canonical returns the live value of k on every instance of its component,
// in canonical form (catalog.Setting.Canonical), plans.Absent where the
// instance printed none; out[i] is the value of
// component(k.component).instances[i]. Read-only: it is shared.
func (x *liveIndex) canonical(k configKey) []string {
	if out, ok := x.canon[k]; ok {
		return out
	}
	set := settingOf(state.KindConfig, k.component, k.key)
	clear(x.memo)
	vals := x.printed(k)
	out := make([]string, len(vals))
	for i, v := range vals {
		if !v.printed {
			out[i] = plans.Absent
			continue
		}
		c, seen := x.memo[v.text]
		if !seen {
			c = set.Canonical(v.text)
			x.memo[v.text] = c
		}
		out[i] = c
	}
	x.canon[k] = out
	return out
}

// compared returns, for each of keys that the comparison canonicalised on
// component c, its canonical live value per instance (instances that printed
// none left out): the facts of the region-size ordering rule (orderFacts).
func (x *liveIndex) compared(c state.Component, keys ...string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, key := range keys {
		k := configKey{c, key}
		canon, ok := x.canon[k]
		if !ok {
			continue
		}
		vals := x.printed(k)
		m := make(map[string]string, len(vals))
		for i, inst := range x.component(c).instances {
			if vals[i].printed {
				m[inst] = canon[i]
			}
		}
		out[key] = m
	}
	return out
}

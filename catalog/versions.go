package catalog

import (
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// Version-aware facts. For an entry built from the generated table they
// read the span of the cluster's version (upstream.Table.In: the newest
// observed release of the version's line, or the nearest one); for a
// hand-modelled entry (TiFlash) they read Introduced/Removed and the Entry's
// fields. A zero version (unknown) gives the entry's base facts, those of the
// newest release (see baseSpan).

// span returns the generated span at v, nil when the setting does not exist
// there, and whether the entry is generated at all.
func (e *Entry) span(v version.Version) (*upstream.Span, bool) {
	if e.up == nil {
		return nil, false
	}
	if v.IsZero() {
		return baseSpan(e.up), true
	}
	return table.In(e.up, v), true
}

// ExistsIn reports whether the setting exists in version v. A zero v
// (unknown) counts as existing.
func (e *Entry) ExistsIn(v version.Version) bool {
	if v.IsZero() {
		return true
	}
	if e.Target == TargetVariable && probe.Variable(v, e.Key) != nil {
		return true // the probed server of v's release line has it (probe.go)
	}
	if sp, gen := e.span(v); gen {
		return sp != nil
	}
	if !e.Introduced.IsZero() && v.Compare(e.Introduced) < 0 {
		return false
	}
	if !e.Removed.IsZero() && v.Compare(e.Removed) >= 0 {
		return false
	}
	return true
}

// OnlineIn reports whether the setting can be changed online in version v:
// SET CONFIG changes a config item without a restart, SET GLOBAL reaches a
// variable (GLOBAL or INSTANCE scope there). False where it does not exist.
// A zero v gives Online.
func (e *Entry) OnlineIn(v version.Version) bool {
	if v.IsZero() {
		return e.Online
	}
	if pv := probe.Variable(v, e.Key); pv != nil && e.Target == TargetVariable {
		sc := probeScope(pv.Scope)
		return !pv.ReadOnly && (sc == ScopeGlobal || sc == ScopeInstance)
	}
	if sp, gen := e.span(v); gen {
		return sp != nil && sp.Online && !(e.Target == TargetVariable && sp.Scope == "NONE")
	}
	return e.Online && e.ExistsIn(v)
}

// ScopeIn is the variable's scope in version v (tidb_low_resolution_tso is
// SESSION-only before v8.3.0, GLOBAL from it), as the probed server says for
// its release line; Scope when v is zero or the variable does not exist
// there.
func (e *Entry) ScopeIn(v version.Version) Scope {
	if pv := probe.Variable(v, e.Key); pv != nil && e.Target == TargetVariable {
		return probeScope(pv.Scope) // the probed server of v's release line (probe.go)
	}
	if sp, gen := e.span(v); gen && sp != nil && e.Target == TargetVariable {
		return scopeOf(sp.Scope)
	}
	return e.Scope
}

// DefaultIn returns the default value in version v, as the component
// renders it. It reports false when the setting does not exist in v or no
// default is known for v (computed at start and not stated by the overlay).
// A zero v gives the newest default.
func (e *Entry) DefaultIn(v version.Version) (string, bool) {
	d, ok := e.DefaultRecordIn(v)
	return d.Value, ok
}

// DefaultRecordIn is DefaultIn with the whole record: its Since version and
// Note ("new clusters only…": an upgraded cluster may keep its previous
// value). In order: for a variable of the probed tidb-server's own build,
// the DEFAULT_VALUE that server reported (probedDefault); what SHOW CONFIG shows where the overlay says it differs
// from the stored default (PD max-merge-region-keys), the generated literal
// default, the overlay's default for a computed one.
func (e *Entry) DefaultRecordIn(v version.Version) (Default, bool) {
	if !e.ExistsIn(v) {
		return Default{}, false
	}
	if d, ok := probedDefault(e, v); ok {
		return d, true
	}
	if _, computed := e.ComputedIn(v); computed && len(e.handDefaults) == 0 {
		return Default{}, false // computed from the machine (ComputedDefault)
	}
	if d, ok := since(e.shown, v); ok {
		return d, true
	}
	if sp, gen := e.span(v); gen && sp != nil && sp.Default != nil {
		d := Default{Value: *sp.Default}
		if sp.From != table.First(e.up.Component) {
			d.Since = mustVersion(sp.From)
		}
		for _, n := range e.notes {
			if n.Value == d.Value && (n.Since.IsZero() || v.IsZero() || v.Compare(n.Since) >= 0) {
				d.Note = n.Note
			}
		}
		return d, true
	}
	return since(e.handDefaults, v)
}

// since picks the record of ds (oldest first) that applies at v.
func since(ds []Default, v version.Version) (Default, bool) {
	var out Default
	found := false
	for _, d := range ds {
		if d.Since.IsZero() || v.IsZero() || v.Compare(d.Since) >= 0 {
			out, found = d, true
		}
	}
	return out, found
}

// VersionsText says in which versions the setting exists, for `tiform
// catalog` and diagnostics: "v6.5.0+" (through the newest release and
// master), "v8.5.7+", "v6.5.0–v8.3.0", "v6.5.9–v6.5.12, v7.1.6, v7.5.5+",
// with " (deprecated since v8.4.0)" when deprecated. A hand-modelled entry
// says "all versions", "v8.4.0+", "< v8.4.0".
func (e *Entry) VersionsText() string {
	var s string
	if e.up != nil {
		s = table.Ranges(e.up)
		s = strings.Replace(s, "all observed versions ("+table.First(e.up.Component)+"+)", table.First(e.up.Component)+"+", 1)
	} else {
		s = e.handVersionsText()
	}
	if !e.Deprecated.IsZero() {
		s += " (deprecated since " + e.Deprecated.Short() + ")"
	}
	return s
}

// OnlineText says where the setting can be changed online when that differs
// by version ("online in v7.0.0–v7.2.0, v8.1.2, v8.5.2+; restart-only in the
// other versions"; for a variable, where SET GLOBAL reaches it), "" when it
// is the same in every version it exists in.
func (e *Entry) OnlineText() string {
	if e.up == nil {
		return ""
	}
	vs := table.Versions[e.up.Component]
	pos := map[string]int{}
	for i, v := range vs {
		pos[v] = i
	}
	var ranges [][2]int
	mixed := false
	for _, sp := range e.up.Spans {
		if sp.Online != e.up.Spans[0].Online {
			mixed = true
		}
		if !sp.Online {
			continue
		}
		a, b := pos[sp.From], pos[sp.To]
		if n := len(ranges); n > 0 && ranges[n-1][1]+1 == a {
			ranges[n-1][1] = b
			continue
		}
		ranges = append(ranges, [2]int{a, b})
	}
	if !mixed {
		return ""
	}
	parts := make([]string, 0, len(ranges))
	for _, r := range ranges {
		switch {
		case r[1] == len(vs)-1:
			parts = append(parts, vs[r[0]]+"+")
		case r[0] == r[1]:
			parts = append(parts, vs[r[0]])
		default:
			parts = append(parts, vs[r[0]]+"–"+vs[r[1]])
		}
	}
	if e.Target == TargetVariable {
		return "settable with SET GLOBAL in " + strings.Join(parts, ", ") + "; SESSION-only or read-only in the other versions"
	}
	return "online in " + strings.Join(parts, ", ") + "; restart-only in the other versions"
}

// handVersionsText is VersionsText for a hand-modelled entry.
func (e *Entry) handVersionsText() string {
	in, rm := e.Introduced, e.Removed
	switch {
	case in.IsZero() && rm.IsZero():
		return "all versions"
	case rm.IsZero():
		return in.Short() + "+"
	case in.IsZero():
		return "< " + rm.Short()
	}
	return in.Short() + "–" + lastBefore(rm)
}

// KindIn is the kind of the setting's values in version v: the overlay's
// refinement when it has one, else the kind upstream states there
// (security.redact-info-log is a bool before v8.3.0, text after). Kind
// when v is zero or the setting does not exist there.
func (e *Entry) KindIn(v version.Version) Kind {
	sp, gen := e.span(v)
	if !gen || sp == nil || v.IsZero() || e.Kind != kindOf(baseSpan(e.up).Kind) {
		return e.Kind
	}
	return kindOf(sp.Kind)
}

// EnumIn is the accepted values of an enum in version v (Enum when v is
// zero, the setting does not exist there, or the overlay states them).
func (e *Entry) EnumIn(v version.Version) []string {
	sp, gen := e.span(v)
	if !gen || sp == nil || v.IsZero() || e.KindIn(v) != KindEnum || len(sp.Values) == 0 {
		return e.Enum
	}
	return sp.Values
}

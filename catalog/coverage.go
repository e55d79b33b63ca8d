package catalog

import (
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// Coverage measures the catalog against the generated upstream table at
// the newest release the table has (the bar: ≥ 98% of TiKV online
// keys, of PD update-API keys and of GLOBAL/INSTANCE variables, each with a
// kind, an online flag, a scope and a version range; every restart-only
// TiKV key known as such). `tiform catalog --stats` prints it.
type Coverage struct {
	Release string // the newest release tag of the table, e.g. "v8.5.7"
	Groups  []CoverageGroup
}

// CoverageGroup is one measured set of settings.
type CoverageGroup struct {
	Name string // "TiKV online keys (OnlineConfig walk)"
	// Upstream counts the settings upstream has in the group at Release;
	// Catalogued those the catalog resolves with a kind, an online flag
	// (a scope for variables) and a version range; Typed those whose kind
	// upstream states (not compared as text for want of a type, not
	// inferred from a documented default).
	Upstream, Catalogued, Typed int
}

// Percent is Catalogued / Upstream in percent.
func (g CoverageGroup) Percent() float64 {
	if g.Upstream == 0 {
		return 100
	}
	return 100 * float64(g.Catalogued) / float64(g.Upstream)
}

// TypedPercent is Typed / Upstream in percent.
func (g CoverageGroup) TypedPercent() float64 {
	if g.Upstream == 0 {
		return 100
	}
	return 100 * float64(g.Typed) / float64(g.Upstream)
}

// Stats measures the coverage (see Coverage).
func Stats() Coverage {
	vs := table.Versions[upstream.TiKV]
	release := vs[len(vs)-2]
	c := Coverage{Release: release}
	groups := []struct {
		name, component string
		in              func(*upstream.Span) bool
	}{
		{"TiKV online keys (OnlineConfig walk)", upstream.TiKV, func(sp *upstream.Span) bool { return sp.Online }},
		{"TiKV restart-only keys (#[online_config(skip)] or hidden)", upstream.TiKV, func(sp *upstream.Span) bool { return !sp.Online }},
		{"PD keys the config update API accepts", upstream.PD, func(sp *upstream.Span) bool { return sp.Online }},
		{"GLOBAL/INSTANCE system variables", upstream.SysVar, func(sp *upstream.Span) bool { return sp.Scope == "GLOBAL" || sp.Scope == "INSTANCE" }},
	}
	for _, g := range groups {
		cg := CoverageGroup{Name: g.name}
		for _, s := range table.Component(g.component) {
			sp := table.At(s, release)
			if sp == nil || !g.in(sp) {
				continue
			}
			cg.Upstream++
			if e, ok := lookupUpstream(s); ok && catalogued(e, sp) {
				cg.Catalogued++
				if typed(sp) {
					cg.Typed++
				}
			}
		}
		c.Groups = append(c.Groups, cg)
	}
	return c
}

func lookupUpstream(s *upstream.Setting) (*Entry, bool) {
	if s.Component == upstream.SysVar {
		return Variable(s.Key)
	}
	return Config(s.Component, s.Key)
}

// catalogued: the entry has the facts the bar asks for, and they are the
// ones upstream states at the release.
func catalogued(e *Entry, sp *upstream.Span) bool {
	v := mustVersion(sp.To)
	if !e.ExistsIn(v) || e.VersionsText() == "" {
		return false
	}
	if e.OnlineIn(v) != (sp.Online && sp.Scope != "NONE") && !e.RestartIfEnabled {
		return false
	}
	if e.Target == TargetVariable && e.ScopeIn(v) != scopeOf(sp.Scope) {
		return false
	}
	return e.Kind == kindOf(sp.Kind) || refines(kindOf(sp.Kind), e.Kind, e.up)
}

// typed: upstream states the kind (a Rust or Go type, a documented 类型).
func typed(sp *upstream.Span) bool {
	for _, n := range sp.Notes {
		if strings.HasPrefix(n.Text, "compared as text") || strings.Contains(n.Text, "inferred") ||
			strings.Contains(n.Text, "state no type") || strings.Contains(n.Text, "neither type") {
			return false
		}
	}
	return true
}

// TableRange says which versions the generated table covers, for messages:
// "v6.5.0–v8.5.7 and master (9.0.0-beta.2)".
func TableRange() string {
	vs := table.Versions[upstream.TiKV]
	return vs[0] + "–" + vs[len(vs)-2] + " and master (" + table.Master[upstream.TiKV] + ")"
}

// Covers reports whether the generated table covers version v of a
// component ("tikv", "pd", "tidb" for variables): v's release line was
// observed (v8.5.8 is covered by v8.5.7's facts) or is master's. A key the
// table does not have is then not a setting of that version at all; for a
// version it does not cover (an older or newer line, TiFlash) nothing can
// be said.
func Covers(component string, v version.Version) bool {
	c := component
	switch component {
	case "tidb":
		c = upstream.SysVar
	case "tikv", "pd":
	default:
		return false
	}
	_, ok := table.Resolve(c, v)
	return ok
}

// Facts says whose facts the catalog uses for version v of a component
// ("tikv", "pd", "tidb" for variables): the observed release or master that
// v resolves to (the newest release of its line, master for master's line,
// else the nearest: upstream.Table.Nearest), as text ("v8.5.7", "master
// (9.0.0-beta.2)"), and whether v is that release itself. A build of an
// observed release (a hot-fix tag of v8.5.4) is; a master build counts as
// master when it carries master's pre-release ("9.0.0-beta.2.pre-…"). ok is
// false for a component the table does not have (TiFlash) or a zero v.
func Facts(component string, v version.Version) (facts string, exact, ok bool) {
	c := component
	switch component {
	case "tidb":
		c = upstream.SysVar
	case "tikv", "pd":
	default:
		return "", false, false
	}
	if v.IsZero() {
		return "", false, false
	}
	ov, _ := table.Nearest(c, v)
	if ov == "" {
		return "", false, false
	}
	if ov != "master" {
		return ov, v.Short() == ov, true
	}
	m := table.Master[c]
	mv, err := version.Parse(m)
	if err != nil {
		return "master", false, true
	}
	exact = v.Compare(mv) == 0 && mv.Pre != "" && strings.HasPrefix(v.Pre, mv.Pre)
	return "master (" + m + ")", exact, true
}

// UnknownSetting is the message for a key or variable the catalog does not
// know: "tikv coprocessor.region-split-sise is not a TiKV setting in any
// version tiform knows (v6.5.0–v8.5.7 and master (9.0.0-beta.2)); did you
// mean `coprocessor.region-split-size`?".
func UnknownSetting(target Target, component, key string) string {
	var s, sugg string
	switch {
	case target == TargetVariable:
		s = "variable " + key + " is not a TiDB system variable"
		sugg = SuggestVariable(key)
	case component == "pd":
		s = "pd " + key + " is not a PD setting"
		sugg = SuggestConfig(component, key)
	default:
		s = component + " " + key + " is not a " + componentName(component) + " setting"
		sugg = SuggestConfig(component, key)
	}
	s += " in any version tiform knows (" + TableRange() + ")"
	if sugg != "" {
		s += "; did you mean `" + sugg + "`?"
	}
	return s
}

func componentName(c string) string {
	switch c {
	case "tikv":
		return "TiKV"
	case "tiflash":
		return "TiFlash"
	}
	return strings.ToUpper(c)
}

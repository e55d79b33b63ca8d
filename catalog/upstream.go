package catalog

import (
	"math"
	"strconv"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// The catalog's base is the generated upstream table
// (internal/upstream/settings.json, tools/catalogen): one Entry per TiKV
// key, PD key and system variable, with the facts of its newest span in the
// Entry's fields and every span behind the version-aware methods (ExistsIn,
// OnlineIn, ScopeIn, DefaultRecordIn, VersionsText). The overlay
// (overlay_*.go) adds what upstream does not state: families, advice,
// documentation, defaults computed at start, refinements of a kind.

// table is the generated table the registry was built from.
var table = upstream.MustLoad()

// componentOf maps a table component to the catalog's.
func componentOf(c string) (Target, string) {
	if c == upstream.SysVar {
		return TargetVariable, "tidb"
	}
	return TargetConfig, c
}

// kindOf maps a table kind to a Kind; a map is compared as text.
func kindOf(k string) Kind {
	switch k {
	case upstream.KindSize:
		return KindSize
	case upstream.KindDuration:
		return KindDuration
	case upstream.KindBool:
		return KindBool
	case upstream.KindInt:
		return KindInt
	case upstream.KindFloat:
		return KindFloat
	case upstream.KindEnum:
		return KindEnum
	case upstream.KindList:
		return KindList
	}
	return KindString
}

func scopeOf(s string) Scope {
	switch s {
	case "GLOBAL":
		return ScopeGlobal
	case "INSTANCE":
		return ScopeInstance
	case "SESSION", "NONE":
		return ScopeSession
	}
	return ScopeNone
}

// baseSpan is the span whose facts an entry's fields hold: the one of the
// newest release (what most clusters run), else the newest span (a setting
// only master has, or one removed before the newest release).
func baseSpan(s *upstream.Setting) *upstream.Span {
	vs := table.Versions[s.Component]
	if len(vs) >= 2 {
		if sp := table.At(s, vs[len(vs)-2]); sp != nil {
			return sp
		}
	}
	return s.Newest()
}

// fromUpstream builds the entry of a generated setting from its base span.
func fromUpstream(s *upstream.Setting) *Entry {
	target, comp := componentOf(s.Component)
	sp := baseSpan(s)
	e := &Entry{Target: target, Component: comp, Key: s.Key, up: s,
		Kind: kindOf(sp.Kind), Enum: sp.Values, Codes: sp.Codes, Online: sp.Online, StringBool: sp.StringBool,
		Doc: generatedDoc(s, sp)}
	if target == TargetVariable {
		e.Scope = scopeOf(sp.Scope)
		e.ReadOnly = sp.Scope == "NONE"
		if e.ReadOnly {
			e.Online = false
		}
		if u := sp.Unit; u != "" && e.Kind != KindSize {
			e.Unit = englishUnit(u)
		}
		e.HasRange, e.Min, e.Max, e.MinExclusive, e.MaxExclusive = parseRange(sp.Range, e.Kind)
		if e.HasRange && sp.Default != nil && e.Check(*sp.Default) != nil {
			// the documented default lies outside the documented range
			// (tidb_hash_join_concurrency: default -1, range [1, 256]): the
			// range is incomplete, so it is not enforced
			e.HasRange = false
		}
	}
	if !e.Online && !e.ReadOnly {
		e.RestartNote = restartNote(comp, sp)
	}
	e.Class = classOf(sp.Class)
	if e.ReadOnly {
		e.Class = ClassReadOnly
	}
	e.Introduced, e.Removed = existenceBounds(s)
	for _, x := range s.Spans {
		if x.Deprecated {
			e.Deprecated = mustVersion(x.From)
			break
		}
	}
	e.Defaults = spanDefaults(s)
	e.Sources = []string{sp.Source.String()}
	return e
}

// generatedDoc is the one line an entry without an overlay shows.
func generatedDoc(s *upstream.Setting, sp *upstream.Span) string {
	var b strings.Builder
	switch s.Component {
	case upstream.TiKV:
		b.WriteString("TiKV config item")
	case upstream.PD:
		b.WriteString("PD config item")
	default:
		b.WriteString("TiDB system variable")
	}
	if sp.Hidden {
		b.WriteString(" marked #[online_config(hidden)] (internal)")
	}
	if sp.DefaultExpr != "" && sp.Default == nil {
		b.WriteString("; default computed at start: " + english(sp.DefaultExpr))
	}
	for _, n := range sp.Notes {
		b.WriteString("; " + english(n.Text))
	}
	b.WriteString(".")
	return b.String()
}

// restartNote says what to do instead of an online change.
func restartNote(comp string, sp *upstream.Span) string {
	switch comp {
	case "tikv":
		why := "#[online_config(skip)] in " + sp.Source.String()
		if sp.Hidden {
			why = "#[online_config(hidden)] in " + sp.Source.String()
		}
		return "restart-only (" + why + "): SET CONFIG answers the warning \"config <field> can not be changed\". " +
			"Change it in the deployment instead: TiUP `tiup cluster edit-config <cluster>` then " +
			"`tiup cluster reload <cluster> -R tikv`; TiDB Operator: edit spec.tikv.config of the TidbCluster (rolling restart)"
	case "pd":
		return "not accepted by PD's config update API (tikv/pd server/api/config.go updateConfig): change it in the " +
			"PD config file, TiUP `tiup cluster edit-config <cluster>` then `tiup cluster reload <cluster> -R pd`; " +
			"TiDB Operator: edit spec.pd.config of the TidbCluster"
	}
	return "SESSION-only or read-only: SET GLOBAL cannot manage it"
}

// existenceBounds gives Introduced (the first observed version, zero when
// it exists from the oldest one; a variable's documented mark when older)
// and Removed (the version after the last span, zero when it reaches master).
func existenceBounds(s *upstream.Setting) (introduced, removed version.Version) {
	first, last := s.Spans[0], s.Newest()
	if first.From != table.First(s.Component) {
		introduced = mustVersion(first.From)
	} else if s.Introduced != "" {
		introduced = mustVersion(s.Introduced)
	}
	if last.To != table.Last(s.Component) {
		vs := table.Versions[s.Component]
		for i, v := range vs {
			if v == last.To && i+1 < len(vs) {
				removed = mustVersion(vs[i+1])
			}
		}
	}
	return introduced, removed
}

// spanDefaults lists the literal defaults of the spans, oldest first, each
// from its span's first version; for display and Example. DefaultRecordIn
// reads the spans themselves.
func spanDefaults(s *upstream.Setting) []Default {
	var out []Default
	for _, sp := range s.Spans {
		if sp.Default == nil || table.MachineRuleFor(s.Component, s.Key, mustVersion(sp.From)) != nil {
			continue // no literal, or a placeholder for a value computed from the machine
		}
		if n := len(out); n > 0 && out[n-1].Value == *sp.Default {
			continue
		}
		d := Default{Value: *sp.Default}
		if sp.From != table.First(s.Component) {
			d.Since = mustVersion(sp.From)
		}
		out = append(out, d)
	}
	return out
}

func mustVersion(v string) version.Version {
	if v == "master" {
		if m, ok := table.Master[upstream.TiKV]; ok {
			v = m
		}
	}
	x, err := version.Parse(v)
	if err != nil {
		return version.Version{}
	}
	return x
}

// parseRange reads a documented range "[1, 100000]", "(0, 1]" or
// "[0, 9223372036854775807]" for a numeric kind; false for any other form.
func parseRange(text string, k Kind) (ok bool, lo, hi float64, openLow, openHigh bool) {
	if k != KindInt && k != KindFloat && k != KindSize {
		return false, 0, 0, false, false
	}
	t := strings.TrimSpace(text)
	if len(t) < 5 || (t[0] != '[' && t[0] != '(') || (t[len(t)-1] != ']' && t[len(t)-1] != ')') {
		return false, 0, 0, false, false
	}
	a, b, found := strings.Cut(t[1:len(t)-1], ",")
	if !found {
		return false, 0, 0, false, false
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return false, 0, 0, false, false
	}
	return true, lo, hi, t[0] == '(', t[len(t)-1] == ')'
}

// prefixFromUpstream makes a prefix rule of a section whose keys upstream
// defines outside the walked repository ("raft-engine." of TiKV): every key
// under it is known, compared as text, online as the section is.
func prefixFromUpstream(p *upstream.Setting) *Entry {
	_, comp := componentOf(p.Component)
	sp := baseSpan(p)
	e := &Entry{Target: TargetConfig, Component: comp, Key: p.Key, Kind: KindString, Online: sp.Online, Prefix: true, up: p,
		Sources: []string{sp.Source.String()}}
	e.Doc = "Section whose keys are not listed one by one"
	for _, n := range sp.Notes {
		e.Doc += ": " + english(n.Text)
	}
	e.Doc += "; values are compared as text."
	if !e.Online {
		e.RestartNote = restartNote(comp, sp)
	}
	e.Introduced, e.Removed = existenceBounds(p)
	return e
}

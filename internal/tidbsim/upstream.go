package tidbsim

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// The settable surface of the emulated version comes from the generated
// upstream table (internal/upstream: the OnlineConfig walk of tikv/tikv, the
// json tags and update API of tikv/pd, pingcap/docs-cn system-variables.md,
// per release tag). Every TiKV and PD config key and every system variable
// the table has for an instance's version exists on that instance, with the
// generated default, and is restart-only or online as upstream says. The
// hand-modelled tables (configitems.go, sysvar.go) keep what the table does
// not say: values derived from other items or from the modelled host,
// rendering and validation rules, each with its source. This file only reads
// the table; it does not use tiform's catalog.

var table = upstream.MustLoad()

// upItem is a config item of the table and whether its default is the
// table's literal one (not a stand-in for a value computed at start).
type upItem struct {
	it      configItem
	literal bool
}

// upstreamConfig returns the config items the table has for a component at
// v, keyed by name; nil for components the table does not cover.
func upstreamConfig(typ string, v version.Version) map[string]upItem {
	if typ != TypeTiKV && typ != TypePD {
		return nil
	}
	key := typ + "@" + v.Short()
	if m, ok := upstreamConfigCache.Load(key); ok {
		return m.(map[string]upItem)
	}
	out := map[string]upItem{}
	for _, s := range table.Component(typ) {
		sp := table.In(s, v)
		if sp == nil {
			continue
		}
		it := configItem{name: s.Key, kind: configKind(typ, sp), enum: sp.Values, static: !sp.Online,
			unstated: sp.Default == nil && !sp.Nullable, hidden: sp.Hidden}
		it.def = configDefault(&it, sp)
		out[s.Key] = upItem{it: it, literal: sp.Default != nil}
	}
	upstreamConfigCache.Store(key, out)
	return out
}

var upstreamConfigCache sync.Map

// configKind is how the emulator parses and renders a key of an upstream
// kind: TiKV's to_change_value types, PD's encoding/json field types.
func configKind(typ string, sp *upstream.Span) valueKind {
	if typ == TypePD {
		switch sp.Kind {
		case upstream.KindInt:
			return pInt
		case upstream.KindFloat:
			return pFloat
		case upstream.KindBool:
			if sp.StringBool {
				return pBoolString
			}
			return pBool
		case upstream.KindDuration:
			return pDuration
		}
		return pString
	}
	switch sp.Kind {
	case upstream.KindSize:
		return kSize
	case upstream.KindDuration:
		return kDuration
	case upstream.KindInt:
		if sp.Default != nil && strings.HasPrefix(*sp.Default, "-") {
			return kI64
		}
		return kU64
	case upstream.KindFloat:
		return kF64
	case upstream.KindBool:
		return kBool
	case upstream.KindEnum:
		return kEnum
	}
	return kString
}

// configDefault is the stored default of an upstream key: the generated
// default; an unset Option shows null; a default upstream computes at start
// (from the host, from other keys) is unstated (configItem.unstated).
func configDefault(it *configItem, sp *upstream.Span) string {
	switch {
	case sp.Default != nil:
		if v, err := canonicalValue(it, *sp.Default); err == nil {
			return v
		}
		return *sp.Default
	case sp.Nullable:
		return "null"
	}
	return "" // unstated: not shown until set
}

// configTable merges the hand-modelled items of a component with the
// table's for version v: a key the table has exists if and only if the
// table has it at v, restart-only as the table says, with the table's
// default unless the hand item derives it; a hand item keeps its kind (its
// rendering and parsing rules) and derivation. Components the table does not
// cover keep their hand tables with their own version bounds.
func configTable(typ string, v version.Version) []configItem {
	up := upstreamConfig(typ, v)
	var out []configItem
	seen := map[string]bool{}
	for _, it := range itemsFor(typ) {
		if up == nil {
			if inVersion(&it, v) {
				out = append(out, it)
			}
			continue
		}
		u, ok := up[it.name]
		if !ok {
			if underPrefix(typ, it.name, v) {
				out = append(out, it) // a key of a section the table lists as a prefix (raft-engine.*)
			}
			continue // not a key of this version
		}
		seen[it.name] = true
		it.static, it.since, it.before = u.it.static, "", ""
		if !it.derived && !it.shown && u.literal {
			if d, err := canonicalValue(&it, u.it.def); err == nil {
				it.def = d
			}
		}
		out = append(out, it)
	}
	var printed map[string]upstream.SurfaceRow
	var run version.Version
	if typ == TypePD {
		var extra []configItem
		extra, printed, run = pdSurfaceItems(v)
		out = append(out, extra...)
	}
	for name, u := range up {
		if seen[name] {
			continue
		}
		it := u.it
		if typ == TypePD {
			pdPrinted(&it, printed, run)
		}
		out = append(out, it)
	}
	return out
}

// pdPrinted makes a PD table key what PD's code prints at the run that
// stands for the version: the run's default (a placeholder: the member's
// own value); a key the run could have printed but did not (an empty map, an
// omitempty field) shows only once set. A key newer than the run keeps the
// table's default. max-merge-region-keys is stored as PD stores it (0 =
// unset) and printed as GetConfig fills it (render).
func pdPrinted(it *configItem, printed map[string]upstream.SurfaceRow, run version.Version) {
	if it.name == "schedule.max-merge-region-keys" {
		return
	}
	if row, ok := printed[it.name]; ok {
		it.def, it.unstated = pdStored(it, row), false
		it.member = strings.Contains(row.Value, "{{")
		return
	}
	if s, ok := table.Setting(upstream.PD, it.name); ok && table.In(s, run) != nil {
		it.unstated = true
	}
}

// pdStored is a printed PD value as the model stores it.
func pdStored(it *configItem, row upstream.SurfaceRow) string {
	if v, err := canonicalValue(it, row.Value); err == nil {
		return v
	}
	return row.Value
}

// underPrefix reports whether the table lists a section of typ containing
// name as a prefix at v.
func underPrefix(typ, name string, v version.Version) bool {
	for _, p := range table.Prefixes {
		if p.Component == typ && strings.HasPrefix(name, p.Key) && table.In(p, v) != nil {
			return true
		}
	}
	return false
}

// upstreamKey reports whether the table has a config key in any version.
func upstreamKey(typ, name string) bool {
	_, ok := table.Setting(typ, name)
	return ok
}

// upstreamVariables returns the variables the table has at TiDB version v
// that the hand-modelled sysVarDefs do not define, as definitions TiDB's
// generic type validation handles (SysVar.ValidateFromType).
func upstreamVariables(v version.Version) map[string]*SysVarDef {
	key := v.Short()
	if m, ok := upstreamVarCache.Load(key); ok {
		return m.(map[string]*SysVarDef)
	}
	hand := map[string]bool{}
	for _, d := range sysVarDefs {
		hand[d.Name] = true
	}
	out := map[string]*SysVarDef{}
	for _, s := range table.Component(upstream.SysVar) {
		sp := table.In(s, v)
		if sp == nil || hand[s.Key] {
			continue
		}
		out[s.Key] = withBehaviour(variableDef(s.Key, sp))
	}
	upstreamVarCache.Store(key, out)
	return out
}

var upstreamVarCache sync.Map

// variableDef is the definition of a variable the hand tables do not model.
func variableDef(name string, sp *upstream.Span) *SysVarDef {
	d := &SysVarDef{Name: name, Scope: variableScope(sp), ReadOnly: sp.Scope == "NONE", Possible: sp.Values,
		Source: sp.Source.String()}
	switch sp.Kind {
	case upstream.KindBool:
		d.Type = TypeBool
	case upstream.KindInt, upstream.KindSize:
		d.Type = TypeInt
	case upstream.KindFloat:
		d.Type = TypeFloat
	case upstream.KindEnum:
		d.Type = TypeEnum
	case upstream.KindDuration:
		d.Type = TypeDuration
	default:
		d.Type = TypeStr
	}
	d.Min, d.Max = typeRange(d.Type)
	if lo, hi, ok := documentedRange(sp.Range); ok && (d.Type == TypeInt || d.Type == TypeFloat) {
		d.Min, d.Max = lo, hi
	}
	if sp.Default != nil {
		d.Default = *sp.Default
		c := &varCtx{}
		if norm, err := d.validateType(c, d.Default); err == nil && len(c.warnings) == 0 {
			d.Default = norm // TiDB stores its own spelling ("168h" → "168h0m0s")
		} else {
			d.Min, d.Max = typeRange(d.Type) // a default outside the documented range: the range is incomplete
		}
	}
	return d
}

func variableScope(sp *upstream.Span) VarScope {
	switch sp.Scope {
	case "GLOBAL":
		if sp.Session {
			return ScopeGlobal | ScopeSession
		}
		return ScopeGlobal
	case "INSTANCE":
		return ScopeInstance
	case "SESSION":
		return ScopeSession
	}
	return ScopeNone
}

// documentedRange reads "[1, 256]" into integer bounds.
func documentedRange(r string) (int64, uint64, bool) {
	r = strings.TrimSpace(r)
	if len(r) < 5 || r[0] != '[' || r[len(r)-1] != ']' {
		return 0, 0, false
	}
	a, b, ok := strings.Cut(r[1:len(r)-1], ",")
	if !ok {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	hi, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
	if err1 != nil || err2 != nil || hi > math.MaxInt64 && lo < 0 {
		return 0, 0, false
	}
	return lo, hi, true
}

// upstreamDefault is the table's default for a hand-modelled variable at v,
// when it states one.
func upstreamDefault(name string, v version.Version) (string, bool) {
	s, ok := table.Setting(upstream.SysVar, name)
	if !ok {
		return "", false
	}
	sp := table.In(s, v)
	if sp == nil || sp.Default == nil {
		return "", false
	}
	return *sp.Default, true
}

// upstreamHas reports whether the table knows a variable, and whether it
// exists at v.
func upstreamHas(name string, v version.Version) (known, exists bool) {
	s, ok := table.Setting(upstream.SysVar, name)
	if !ok {
		return false, false
	}
	return true, table.In(s, v) != nil
}

package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// The overlay: what tiform knows about a generated setting that upstream's
// source and docs do not state, or state where the generator cannot read
// it — the family a key is managed with, documented advice, one line of
// documentation, a default computed at start (region-split-size follows the
// Region size), what SHOW CONFIG shows when it differs from the stored
// default, a kind the docs leave vague (a byte count that accepts units),
// "new clusters only" notes. Each overlay entry cites its public sources.
//
// An overlay never restates or changes what the generated table says:
// TestOverlayAgreesWithUpstream fails when it names a key the table does
// not have, or contradicts it (a kind that is not a refinement, other enum
// values or range, a default that differs where upstream states one).

// overlayEntry is the hand-written knowledge about one generated setting.
type overlayEntry struct {
	component string // "tikv", "pd", or "tidb" for a variable
	key       string
	sources   []string
	doc       string
	opts      []opt
}

// ov declares an overlay entry for component ("tikv", "pd", "tidb" for a
// variable) and key.
func ov(component, key string, sources []string, doc string, opts ...opt) overlayEntry {
	return overlayEntry{component: component, key: key, sources: sources, doc: doc, opts: opts}
}

// srcs lists public sources (documentation URLs, issues, source paths).
func srcs(s ...string) []string { return s }

// readOnly marks a SESSION-scoped variable the docs do not call read-only
// but TiDB never lets a SET change (see contradictions).
func readOnly() opt { return func(e *Entry) { e.ReadOnly, e.Class = true, ClassReadOnly } }

// refine sets a kind the generated one is too coarse for (see refines).
func refine(k Kind) opt { return func(e *Entry) { e.Kind = k } }

// fraction makes a text variable a fraction that TiDB also accepts as a
// percentage and stores as the fraction (parsePercentage in a Validation
// of pkg/sessionctx/variable/sysvar.go): "70%" and 0.7 are one value.
func fraction() opt { return func(e *Entry) { e.Kind, e.percent = KindFloat, true } }

// shown records what SHOW CONFIG shows at the default when it differs from
// the stored default upstream's source states (PD fills
// max-merge-region-keys from max-merge-region-size when it is 0).
func shown(since, value string) opt {
	return func(e *Entry) { e.shown = append(e.shown, Default{Since: ver(since), Value: value}) }
}

// overlayResult is what applying an overlay changed, for the agreement test.
type overlayResult struct {
	o      overlayEntry
	before Entry
	after  *Entry
}

// applyOverlay applies o to the generated entry e in place.
func applyOverlay(e *Entry, o overlayEntry) overlayResult {
	before := *e
	gen := e.Defaults
	e.Defaults = nil
	for _, f := range o.opts {
		f(e)
	}
	for _, d := range e.Defaults {
		if d.Note != "" && e.up != nil && literalDefaultAt(e.up, d) {
			e.notes = append(e.notes, d) // qualifies a generated default
			continue
		}
		e.handDefaults = append(e.handDefaults, d)
	}
	e.Defaults = displayDefaults(e, gen)
	if o.doc != "" {
		e.Doc = o.doc
	}
	e.Sources = append(e.Sources, o.sources...)
	return overlayResult{o: o, before: before, after: e}
}

// literalDefaultAt reports whether upstream states a literal default at
// the version a record applies from.
func literalDefaultAt(s *upstream.Setting, d Default) bool {
	sp := table.In(s, d.Since)
	if d.Since.IsZero() {
		sp = s.Spans[0]
	}
	return sp != nil && sp.Default != nil
}

// displayDefaults merges the generated defaults with the overlay's for
// display: the default DefaultRecordIn gives at the first version of each
// span and at each version an overlay record applies from, in version
// order, without repeats.
func displayDefaults(e *Entry, gen []Default) []Default {
	if e.up == nil {
		return gen
	}
	var points []version.Version
	for _, sp := range e.up.Spans {
		points = append(points, mustVersion(sp.From))
	}
	for _, d := range append(append([]Default{}, e.handDefaults...), e.shown...) {
		if !d.Since.IsZero() && e.ExistsIn(d.Since) {
			points = append(points, d.Since)
		}
	}
	sort.SliceStable(points, func(i, j int) bool { return points[i].Compare(points[j]) < 0 })
	first := mustVersion(table.First(e.up.Component))
	var out []Default
	for _, p := range points {
		d, ok := e.DefaultRecordIn(p)
		if !ok {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Value == d.Value {
			continue
		}
		d.Since = p
		if p.Compare(first) == 0 {
			d.Since = version.Version{}
		}
		out = append(out, d)
	}
	return out
}

// refines reports whether the overlay's kind k refines the generated kind
// of e: text says nothing (any kind refines it), an integer byte count may
// be a size that accepts units, an enum whose kind differs between
// versions (a boolean before, an enum after) is compared as text.
func refines(gen Kind, k Kind, up *upstream.Setting) bool {
	switch {
	case gen == k, gen == KindString:
		return true
	case gen == KindInt && k == KindSize:
		return true
	case k == KindString:
		return kindVaries(up)
	}
	return false
}

func kindVaries(up *upstream.Setting) bool {
	if up == nil {
		return false
	}
	for _, sp := range up.Spans {
		if sp.Kind != up.Spans[0].Kind {
			return true
		}
	}
	return false
}

// contradictions lists what r's overlay says against the generated table.
func (r overlayResult) contradictions() []string {
	var out []string
	b, a := r.before, r.after
	add := func(format string, args ...any) {
		out = append(out, a.Address()+": "+fmt.Sprintf(format, args...))
	}
	if b.Kind != a.Kind && !refines(b.Kind, a.Kind, a.up) {
		add("kind %s, upstream says %s", a.Kind, b.Kind)
	}
	if len(b.Enum) > 0 && !sameFold(b.Enum, a.Enum) {
		add("values %v, upstream says %v", a.Enum, b.Enum)
	}
	if b.HasRange && (a.Min != b.Min || a.Max != b.Max || a.MinExclusive != b.MinExclusive || a.MaxExclusive != b.MaxExclusive) {
		add("range %s, upstream says %s", a.rangeText(), b.rangeText())
	}
	readOnlyRefined := !b.ReadOnly && a.ReadOnly && b.Scope == ScopeSession // SESSION-only and read-only are both unsettable
	if b.Online != a.Online || b.Scope != a.Scope || b.ReadOnly != a.ReadOnly && !readOnlyRefined || b.StringBool != a.StringBool ||
		b.Introduced != a.Introduced || b.Removed != a.Removed || b.Deprecated != a.Deprecated {
		add("the overlay changes online, scope, read-only, string-bool or versions, which only upstream states")
	}
	out = append(out, r.defaultContradictions()...)
	return out
}

// defaultContradictions: each overlay default (and note) applies from its
// Since up to the next record's; where a span inside that window states a
// literal default, the two must mean the same value.
func (r overlayResult) defaultContradictions() []string {
	a := r.after
	records := append(append([]Default{}, a.handDefaults...), a.notes...)
	sort.SliceStable(records, func(i, j int) bool { return records[i].Since.Compare(records[j].Since) < 0 })
	var out []string
	for i, d := range records {
		for _, sp := range a.up.Spans {
			if sp.Default == nil {
				continue
			}
			for _, at := range []string{sp.From, sp.To} {
				v := mustVersion(at)
				if !d.Since.IsZero() && v.Compare(d.Since) < 0 || i+1 < len(records) && v.Compare(records[i+1].Since) >= 0 {
					continue
				}
				x, err1 := a.Canonical(d.Value)
				y, err2 := a.Canonical(*sp.Default)
				if err1 != nil || err2 != nil || x != y {
					out = append(out, fmt.Sprintf("%s: default %q from %s, upstream says %q at %s (%s)",
						a.Address(), d.Value, d.Since.Short(), *sp.Default, at, sp.Source))
				}
				break
			}
		}
	}
	return out
}

func sameFold(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// This file is the planner's one door to value semantics. It prefers the
// catalog's own methods (Canonical, SQLValue, Render) and falls back to the
// rules below, which follow tidb-facts.md §1.3 (how components render values)
// and §2.2 (what SET CONFIG accepts), when the catalog does not provide them.
// The methods are found through interfaces so the planner builds whether or not
// a given catalog method exists yet.

type canonicaler interface {
	Canonical(text string) (string, error)
}

type sqlValuer interface {
	SQLValue(text string) (string, error)
}

type checker interface {
	Check(text string) error
}

type renderer interface {
	Render(canonical string) string
}

type renderErr interface {
	Render(canonical string) (string, error)
}

// setting identifies what a value belongs to, for the value functions.
type setting struct {
	kind      Kind // KindConfig or KindVariable
	component state.Component
	key       string
	entry     *catalog.Entry // nil when the catalog does not know the key
}

func lookup(kind Kind, component state.Component, key string) setting {
	s := setting{kind: kind, component: component, key: key}
	var e *catalog.Entry
	var ok bool
	if kind == KindVariable {
		e, ok = catalog.Variable(key)
	} else {
		e, ok = catalog.Config(string(component), key)
	}
	if ok {
		s.entry = e
	}
	return s
}

// CanonicalValue returns the canonical form of text for a config item or a
// variable: the form two values are compared in ("256MB", "256MiB" and
// "268435456" are one size; "ON", "1" and "true" one boolean). Keys unknown to
// the catalog are compared by a conservative reading of the text (see
// canonicalUnknown). The applier uses it to compare read-back values with
// Check.Want. It never fails: text that does not parse is its own canonical form.
func CanonicalValue(kind Kind, component state.Component, key, text string) string {
	return lookup(kind, component, key).canonical(text)
}

func (s setting) canonical(text string) string {
	text = strings.TrimSpace(text)
	if s.entry == nil {
		return canonicalUnknown(text)
	}
	if c, ok := any(s.entry).(canonicaler); ok {
		if v, err := c.Canonical(text); err == nil {
			return v
		}
		return text
	}
	if v, err := canonicalKind(s.entry, text); err == nil {
		return v
	}
	return text
}

// validate reports whether text is a valid value for a known setting.
func (s setting) validate(text string) error {
	if s.entry == nil {
		return nil
	}
	if c, ok := any(s.entry).(checker); ok {
		return c.Check(strings.TrimSpace(text))
	}
	if c, ok := any(s.entry).(canonicaler); ok {
		_, err := c.Canonical(strings.TrimSpace(text))
		return err
	}
	_, err := canonicalKind(s.entry, strings.TrimSpace(text))
	return err
}

// display renders a value the way the component prints it (SHOW CONFIG /
// SHOW VARIABLES), so After reads like what the reviewer will see afterwards.
func (s setting) display(v state.Value) string {
	text := strings.TrimSpace(v.Text)
	if s.entry == nil {
		return text
	}
	c := s.canonical(text)
	if r, ok := any(s.entry).(renderer); ok {
		return r.Render(c)
	}
	if r, ok := any(s.entry).(renderErr); ok {
		if out, err := r.Render(c); err == nil {
			return out
		}
		return text
	}
	return renderKind(s.entry, s.kind, s.component, c, text)
}

// literal returns the SQL literal for SET CONFIG / SET GLOBAL. Text is a
// declared value (typ from HCL) or a live value (typ LiteralString).
func (s setting) literal(v state.Value) (string, error) {
	text := strings.TrimSpace(v.Text)
	if s.entry != nil {
		if q, ok := any(s.entry).(sqlValuer); ok {
			return q.SQLValue(text)
		}
		c, err := canonicalKind(s.entry, text)
		if err != nil {
			return "", err
		}
		return literalKind(s.entry, s.kind, s.component, c, text), nil
	}
	return literalUnknown(s.kind, s.component, v.Type, text), nil
}

// liveLiteral returns the SQL literal that restores a live value (rollback).
// Unlike literal it never fails: a live value outside the documented range is
// still sent back as it was read.
func (s setting) liveLiteral(text string) string {
	text = strings.TrimSpace(text)
	v := state.Value{Text: text, Type: inferType(text)}
	if lit, err := s.literal(v); err == nil {
		return lit
	}
	if s.entry != nil {
		c := s.canonical(text)
		return literalKind(s.entry, s.kind, s.component, c, text)
	}
	return literalUnknown(s.kind, s.component, v.Type, text)
}

// inferType guesses the literal type of a live value of an unknown key.
func inferType(text string) state.LiteralType {
	if quote.IsNumber(text) {
		return state.LiteralNumber
	}
	switch strings.ToLower(text) {
	case "true", "false":
		return state.LiteralBool
	}
	return state.LiteralString
}

// ---------------------------------------------------------------------------
// Fallback rules by value kind.

func canonicalKind(e *catalog.Entry, text string) (string, error) {
	switch e.Kind {
	case catalog.KindSize:
		n, err := parseSize(text)
		if err != nil {
			return "", err
		}
		return formatNumber(n), nil
	case catalog.KindDuration:
		d, err := parseDuration(text)
		if err != nil {
			return "", err
		}
		return d.String(), nil
	case catalog.KindBool:
		b, ok := parseBool(text)
		if !ok {
			return "", fmt.Errorf("%q is not a boolean (true/false, ON/OFF, 1/0)", text)
		}
		return strconv.FormatBool(b), nil
	case catalog.KindInt, catalog.KindFloat:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return "", fmt.Errorf("%q is not a number", text)
		}
		return formatNumber(f), nil
	case catalog.KindEnum:
		for _, want := range e.Enum {
			if strings.EqualFold(want, text) {
				return want, nil
			}
		}
		if len(e.Enum) > 0 {
			return "", fmt.Errorf("%q is not one of %s", text, strings.Join(e.Enum, ", "))
		}
		return text, nil
	case catalog.KindList:
		parts := strings.Split(text, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return strings.Join(parts, ","), nil
	}
	return text, nil
}

// canonicalUnknown reads text for a key the catalog does not know. Words that
// can only be booleans, sizes with a unit, durations with a unit and plain
// numbers are normalised; everything else compares as text. "1" stays a
// number (it is not read as a boolean without knowing the key's type).
func canonicalUnknown(text string) string {
	switch strings.ToLower(text) {
	case "true", "on":
		return "true"
	case "false", "off":
		return "false"
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return formatNumber(f)
	}
	if hasSizeUnit(text) {
		if n, err := parseSize(text); err == nil {
			return formatNumber(n)
		}
	}
	if d, err := parseDuration(text); err == nil {
		return d.String()
	}
	return text
}

func renderKind(e *catalog.Entry, kind Kind, comp state.Component, canonical, text string) string {
	switch e.Kind {
	case catalog.KindSize:
		n, err := strconv.ParseFloat(canonical, 64)
		if err != nil {
			return text
		}
		if kind == KindVariable {
			return formatNumber(n)
		}
		return formatReadableSize(n)
	case catalog.KindDuration:
		d, err := time.ParseDuration(canonical)
		if err != nil {
			return text
		}
		if comp == state.PD || kind == KindVariable {
			return d.String()
		}
		return formatReadableDuration(d)
	case catalog.KindBool:
		if kind == KindVariable {
			if canonical == "true" {
				return "ON"
			}
			return "OFF"
		}
		return canonical
	}
	return canonical
}

// literalKind: tidb-facts.md §2.2. TiKV parses every JSON scalar from its
// text, so sizes and durations go as strings and booleans as TRUE/FALSE; PD
// merges JSON into Go structs, so integers must be unquoted and booleans tagged
// `,string` must be quoted strings.
func literalKind(e *catalog.Entry, kind Kind, comp state.Component, canonical, text string) string {
	switch e.Kind {
	case catalog.KindInt, catalog.KindFloat:
		return canonical
	case catalog.KindBool:
		if kind == KindVariable {
			if canonical == "true" {
				return "ON"
			}
			return "OFF"
		}
		if comp == state.PD {
			return quote.String(canonical)
		}
		return strings.ToUpper(canonical)
	case catalog.KindSize:
		if kind == KindVariable {
			return canonical
		}
		return quote.String(renderKind(e, kind, comp, canonical, text))
	case catalog.KindDuration:
		return quote.String(renderKind(e, kind, comp, canonical, text))
	case catalog.KindEnum:
		return quote.String(canonical)
	}
	return quote.String(text)
}

// literalUnknown picks a literal for a key the catalog does not know, from
// the HCL literal type (tidb-facts.md §2.2): TiKV and TiFlash parse every JSON
// scalar from its text, so the HCL type decides; PD merges JSON into Go
// structs, where integers must be unquoted whatever the HCL type, and other
// values are sent as strings; variables take numbers unquoted, booleans as
// ON/OFF, everything else quoted.
func literalUnknown(kind Kind, comp state.Component, typ state.LiteralType, text string) string {
	if kind == KindConfig && comp == state.PD {
		if quote.IsNumber(text) {
			return text
		}
		return quote.String(text)
	}
	switch typ {
	case state.LiteralNumber:
		if quote.IsNumber(text) {
			return text
		}
	case state.LiteralBool:
		if b, ok := parseBool(text); ok {
			if kind == KindVariable {
				if b {
					return "ON"
				}
				return "OFF"
			}
			return strings.ToUpper(strconv.FormatBool(b))
		}
	}
	return quote.String(text)
}

// ---------------------------------------------------------------------------
// Parsers and formatters (tidb-facts.md §1.3).

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "on", "1", "yes":
		return true, true
	case "false", "off", "0", "no":
		return false, true
	}
	return false, false
}

// formatNumber prints a float64 the way two spellings of one number agree:
// integral values without exponent (up to 1e21), others in shortest form.
// Values pass through float64 on the live side (§1.3), so the declared side does
// too.
func formatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40}, {"pib", 1 << 50},
	{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"tb", 1 << 40}, {"pb", 1 << 50},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"p", 1 << 50},
	{"b", 1},
}

// hasSizeUnit reports whether s ends in an upper-case size unit (TiKV prints
// KiB/MiB/GiB…, and lower-case "m" would be a duration's minutes).
func hasSizeUnit(s string) bool {
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "KB", "MB", "GB", "TB", "PB", "B"} {
		if strings.HasSuffix(s, u) {
			return true
		}
	}
	return false
}

// parseSize reads a size as TiKV and PD accept it: a number (decimals allowed)
// and an optional binary unit; all units are 1024-based (§1.3).
func parseSize(s string) (float64, error) {
	t := strings.TrimSpace(s)
	low := strings.ToLower(t)
	mult := 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(low, u.suffix) {
			low = strings.TrimSpace(strings.TrimSuffix(low, u.suffix))
			mult = u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(low, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%q is not a size (a number with an optional unit such as MiB)", s)
	}
	return math.Round(f * mult), nil
}

// parseDuration reads TiKV durations ("1d", "1h30m", "500ms") and Go durations
// ("1h0m0s"). Bare numbers are not durations.
func parseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty duration")
	}
	var days float64
	if i := strings.IndexByte(t, 'd'); i > 0 {
		f, err := strconv.ParseFloat(t[:i], 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration", s)
		}
		days = f
		t = t[i+1:]
		if t == "" {
			return time.Duration(days * 24 * float64(time.Hour)), nil
		}
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return 0, fmt.Errorf("%q is not a duration (it has no unit)", s)
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	return d + time.Duration(days*24*float64(time.Hour)), nil
}

// formatReadableSize prints bytes as TiKV's ReadableSize does: the largest
// exact binary unit, else bytes with "B"; zero is "0KiB" (§1.3).
func formatReadableSize(n float64) string {
	if n == 0 {
		return "0KiB"
	}
	u := uint64(n)
	for _, x := range []struct {
		name string
		mult uint64
	}{{"PiB", 1 << 50}, {"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if u%x.mult == 0 {
			return strconv.FormatUint(u/x.mult, 10) + x.name
		}
	}
	return strconv.FormatUint(u, 10) + "B"
}

// formatReadableDuration prints as TiKV's ReadableDuration does: descending
// units d h m s ms us, zero parts omitted, "0s" for zero (§1.3).
func formatReadableDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	for _, x := range []struct {
		name string
		unit time.Duration
	}{{"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}, {"ms", time.Millisecond}, {"us", time.Microsecond}} {
		if n := d / x.unit; n > 0 {
			b.WriteString(strconv.FormatInt(int64(n), 10))
			b.WriteString(x.name)
			d -= n * x.unit
		}
	}
	return b.String()
}

// numeric returns the canonical value as a number, for ordering rules.
func numeric(canonical string) (float64, bool) {
	f, err := strconv.ParseFloat(canonical, 64)
	return f, err == nil
}

package catalog

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/quote"
)

// Setting is the one owner of value semantics for a setting, whether the
// catalog knows it or not: how two texts compare (Equal), the comparable form
// (Canonical), how the component shows a value (Render), the SQL literal that
// sets it (SQLValue) and the one that restores a value read from the cluster
// (RestoreSQL). The planner, the applier and the guards reach value meaning
// only through it (docs/decisions/0007-one-owner-of-value-comparison.md).
//
// For a setting the catalog knows, every method defers to its Entry. For one
// it does not know — a key of a newer TiDB, TiKV or PD than this catalog, or
// one nobody catalogued yet — the kind is read from how the component
// rendered the live value, using the rendering rules the catalog already
// holds for known settings (docs/catalog.md, "Keys the catalog does not
// know"):
//
//	SHOW VARIABLES / SELECT @@  ON, OFF → bool; 0, 1 → integer or bool (SELECT @@ prints
//	                           booleans as 1/0); other numbers → number or byte count;
//	                           Go durations ("10m0s") → duration; sizes ("1GiB") → size;
//	                           anything else → text, compared case-insensitively (TiDB
//	                           matches enum values with strings.EqualFold and stores its
//	                           own spelling: pkg/sessionctx/variable/variable.go checkEnumSystemVar)
//	SHOW CONFIG (TiKV, PD)     true, false → bool; JSON numbers → number or byte count;
//	                           ReadableSize / go-units sizes ("256MiB", "1.5GiB") → size;
//	                           ReadableDuration / Go durations ("10m", "1h0m0s") → duration;
//	                           JSON arrays → list; "null" (an unset Option) says nothing;
//	                           anything else → text, compared exactly
//
// A declared value is read in the first of those kinds it parses in, else as
// text: a variable that reads ON but is declared AUTO is an enum, not a bool.
type Setting struct {
	Target    Target
	Component string // "tikv", "pd", "tiflash"; "tidb" for variables
	Key       string // lower-case config key or variable name
	// Entry is the catalog's entry; nil when the catalog does not know the setting.
	Entry *Entry
}

// SettingFor returns the value semantics of a config item (TargetConfig,
// component and key) or a system variable (TargetVariable, key = name).
func SettingFor(t Target, component, key string) Setting {
	s := Setting{Target: t, Component: strings.ToLower(component), Key: strings.ToLower(strings.TrimSpace(key))}
	var e *Entry
	var ok bool
	if t == TargetVariable {
		s.Component = "tidb"
		e, ok = Variable(s.Key)
	} else {
		e, ok = Config(s.Component, s.Key)
	}
	if ok {
		s.Entry = e
	}
	return s
}

// Known reports whether the catalog knows the setting.
func (s Setting) Known() bool { return s.Entry != nil }

// Equal reports whether value and rendered mean the same value of the
// setting. rendered is a text the component printed (SHOW CONFIG, SHOW
// VARIABLES, SELECT @@); value is a declared text, a Canonical form, or
// another rendering of the same setting. Text that does not parse as the
// setting's kind compares as text.
//
// Equal is the only equality tiform has for config items and variables: the
// planner's diff, the stale-plan check and the read-back after apply all use
// it, so they cannot disagree.
func (s Setting) Equal(value, rendered string) bool {
	v, r := strings.TrimSpace(value), strings.TrimSpace(rendered)
	if v == r {
		return true
	}
	if s.Secret() != "" {
		return s.secretForm(v) == s.secretForm(r) // secret.go
	}
	e := s.entryFor(v, r, KindString)
	cv, errV := e.Canonical(v)
	cr, errR := e.Canonical(r)
	if errV != nil || errR != nil || e.Kind == KindString {
		return s.textEqual(e, v, r)
	}
	return cv == cr
}

// textEqual compares texts: case-insensitively for variables the catalog does
// not know (TiDB stores an enum value in its own spelling), exactly otherwise.
func (s Setting) textEqual(e *Entry, a, b string) bool {
	if s.Entry == nil && e.Target == TargetVariable {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// Canonical returns the comparable form of text: the Entry's Canonical for a
// known setting (text itself when it does not parse), the trimmed text for an
// unknown one, whose meaning Equal reads against a rendering.
func (s Setting) Canonical(text string) string {
	t := strings.TrimSpace(text)
	if s.Secret() != "" {
		return s.secretForm(t) // never the text of a credential
	}
	if s.Entry == nil {
		return t
	}
	if c, err := s.Entry.Canonical(t); err == nil {
		return c
	}
	return t
}

// Render returns text the way the component prints it (SHOW CONFIG, SHOW
// VARIABLES): "268435456" → "256MiB" on TiKV, "true" → "ON" for a variable.
// Text of an unknown setting, and text that does not parse, is returned
// trimmed.
func (s Setting) Render(text string) string {
	t := strings.TrimSpace(text)
	if t != "" && s.Secret() != "" {
		return Masked
	}
	if s.Entry == nil {
		return t
	}
	return s.Entry.Render(t)
}

// Check validates a declared value of a known setting (Entry.Check). The
// catalog cannot validate a value of an unknown setting; the component will.
func (s Setting) Check(text string) error {
	if s.Entry == nil {
		return nil
	}
	return s.Entry.Check(text)
}

// SQLValue returns the literal of `SET CONFIG … = <literal>` or `SET GLOBAL …
// = <literal>` for a declared value (Entry.SQLValue). For an unknown setting
// the literal follows the kind read from rendered (the live value, "" when
// there is none) or, without one, from hint (the kind of the HCL literal:
// KindBool, KindFloat or KindString).
func (s Setting) SQLValue(text, rendered string, hint Kind) (string, error) {
	t := strings.TrimSpace(text)
	if s.Entry != nil {
		return s.Entry.SQLValue(t)
	}
	return s.entryFor(t, strings.TrimSpace(rendered), hint).SQLValue(t)
}

// RestoreSQL returns the literal that sets the setting back to rendered, a
// value read from the cluster (rollback statements). Unlike SQLValue it does
// not check the documented range: a live value outside it is restored as it
// was read. ok is false for "null", the rendering of an unset TiKV Option,
// which SET CONFIG cannot send ("can't set config to null").
func (s Setting) RestoreSQL(rendered string) (lit string, ok bool) {
	t := strings.TrimSpace(rendered)
	if t == "null" || Concealed(t) || t != "" && s.Secret() != "" {
		return "", false // a credential read from the cluster is never written back
	}
	e := s.Entry
	if e == nil {
		e = s.entryFor(t, t, KindString)
	}
	c, err := e.canonical(t)
	if err != nil {
		return quote.String(t), true
	}
	lit, err = e.literal(c)
	if err != nil {
		return quote.String(t), true
	}
	return lit, true
}

// entryFor returns the Entry whose semantics apply: the catalog's, or for an
// unknown setting one of the kinds rendered can be a rendering of, the first
// that value parses in (else text).
func (s Setting) entryFor(value, rendered string, hint Kind) *Entry {
	if s.Entry != nil {
		return s.Entry
	}
	kinds, unit := renderedKinds(s.Target, rendered)
	if len(kinds) == 0 {
		kinds = []Kind{hint}
	}
	for _, k := range kinds {
		e := s.inferred(k, unit)
		if _, err := e.canonical(value); err == nil {
			return e
		}
	}
	return s.inferred(KindString, "")
}

// inferredKey identifies an inferred entry.
type inferredKey struct {
	target         Target
	component, key string
	kind           Kind
	unit           string
}

// inferredEntries caches inferred entries: a plan compares each unknown
// setting many times, and an entry is immutable once made. The cache is
// bounded by the settings a configuration declares, eight kinds each.
var inferredEntries sync.Map // inferredKey → *Entry

// inferred is the Entry of an unknown setting read as kind k. unit "B" marks
// a size the component renders as a plain number of bytes.
func (s Setting) inferred(k Kind, unit string) *Entry {
	id := inferredKey{s.Target, s.Component, s.Key, k, unit}
	if e, ok := inferredEntries.Load(id); ok {
		return e.(*Entry)
	}
	e := &Entry{Target: s.Target, Component: s.Component, Key: s.Key, Kind: k, Unit: unit, Online: true,
		Doc: "not in tiform's catalog; its kind is read from the cluster's rendering"}
	if s.Target == TargetVariable {
		e.Scope = ScopeGlobal
	}
	// PD booleans are merged from JSON into Go structs; PD's config bools are
	// mostly tagged json:",string" (tikv/pd@v8.5.1:pkg/schedule/config/config.go),
	// so a quoted 'true' is the form that works.
	e.StringBool = s.Component == "pd" && k == KindBool
	inferredEntries.Store(id, e)
	return e
}

// renderedKinds lists the kinds a component rendering can be of, most
// specific first (see Setting). unit is "B" when a size would be a plain
// number of bytes. No kinds for "" and "null": they say nothing.
func renderedKinds(t Target, r string) (kinds []Kind, unit string) {
	switch {
	case r == "" || r == "null":
		return nil, ""
	case t == TargetVariable && (strings.EqualFold(r, "ON") || strings.EqualFold(r, "OFF")):
		return []Kind{KindBool}, ""
	case t == TargetConfig && (r == "true" || r == "false"):
		return []Kind{KindBool}, ""
	}
	if number, integral := numberShape(r); number {
		if !integral {
			return []Kind{KindFloat}, ""
		}
		if t == TargetVariable && (r == "0" || r == "1") {
			// SELECT @@ prints a boolean variable as 1 or 0.
			return []Kind{KindInt, KindBool, KindFloat, KindSize}, "B"
		}
		// A plain integer may be a byte count (a TiKV usize field, a
		// variable in bytes): a declared size compares in bytes.
		return []Kind{KindInt, KindFloat, KindSize}, "B"
	}
	if sizeRendering(r) {
		return []Kind{KindSize}, ""
	}
	if _, err := parseDuration(r); err == nil {
		return []Kind{KindDuration}, ""
	}
	if strings.HasPrefix(r, "[") {
		var items []string
		if json.Unmarshal([]byte(r), &items) == nil {
			return []Kind{KindList}, ""
		}
	}
	return []Kind{KindString}, ""
}

// numberShape reports whether r is a decimal number (parseDecimal) and
// whether it is integral, without big.Rat for plain digits.
func numberShape(r string) (number, integral bool) {
	if _, ok := plainUint(r); ok {
		return true, true
	}
	n, ok := parseDecimal(r)
	if !ok {
		return false, false
	}
	return true, n.IsInt()
}

// sizeUnitsRendered are the units components print sizes with: TiKV
// ReadableSize (B, KiB … PiB), PD go-units (… EiB) and TiDB's byte-size
// variables (KB, MB, GB, TB as typed, KiB … TiB). Single letters (K, M, G) are
// accepted as input but never printed, and "m" would be a duration's minutes.
var sizeUnitsRendered = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "KB", "MB", "GB", "TB", "PB", "EB", "B"}

// sizeRendering reports whether r is a number followed by a rendered size unit.
func sizeRendering(r string) bool {
	for _, u := range sizeUnitsRendered {
		if num, ok := strings.CutSuffix(r, u); ok {
			n, ok := parseDecimal(num)
			return ok && n.Sign() >= 0
		}
	}
	return false
}

// ParseSize returns the number of bytes a size denotes ("256MiB", "1.5GiB",
// "268435456"; every unit is binary, as in TiKV's ReadableSize and PD's
// RAMInBytes).
func ParseSize(text string) (uint64, error) { return parseSize(text) }

// FormatSize renders bytes the way TiKV's ReadableSize prints them: "256MiB",
// "1000B", "0KiB" (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs).
func FormatSize(n uint64) string { return upstream.TiKVSize(n) }

// ParseBool reads a boolean as HCL, TiKV, PD and TiDB write it: true/false,
// ON/OFF, 1/0, case-insensitive.
func ParseBool(text string) (bool, error) { return parseBool(text) }

// ParseCount reads a non-negative integer count, including the float64
// renderings SHOW CONFIG prints for large numbers ("1.44e+06").
func ParseCount(text string) (uint64, error) {
	n, err := parseInt(text)
	if err != nil {
		return 0, err
	}
	if n.Sign() < 0 || !n.IsUint64() {
		return 0, errRange
	}
	return n.Uint64(), nil
}

// float64Int rounds n to the nearest float64, as every number SHOW CONFIG
// prints has passed through one: TiDB decodes the component's JSON config
// into map[string]any and re-encodes it
// (pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig).
// A number beyond float64's range (such as 1e700) has no such rendering: ok
// is false.
func float64Int(n *big.Int) (out *big.Int, ok bool) {
	f, _ := new(big.Float).SetInt(n).Float64()
	if math.IsInf(f, 0) {
		return nil, false
	}
	out, _ = big.NewFloat(f).Int(nil)
	return out, true
}

// pdSizePrecision rounds bytes to what PD can show: PD prints a ByteSize
// through go-units BytesSize, "%.4g" of the value in the largest binary unit
// (tikv/pd@v8.5.1:pkg/utils/typeutil/size.go, docker/go-units size.go), so
// 1025MiB reads back as "1.001GiB". Two sizes PD shows alike are one value
// to tiform: otherwise a declared 1025MiB would differ from PD's rendering of
// it forever. The result is the nearest byte count of that rendering, so
// rounding it again changes nothing.
func pdSizePrecision(n uint64) uint64 {
	f := float64(n)
	unit := 1.0
	for f >= 1024 && unit < eib {
		f /= 1024
		unit *= 1024
	}
	g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 4, 64), 64)
	if err != nil {
		return n
	}
	r := math.Round(g * unit)
	if r >= math.MaxUint64 {
		return n
	}
	return uint64(r)
}

// ParseDuration reads a duration as TiKV's ReadableDuration ("10m", "1d",
// "1h30m") or Go ("1h0m0s") writes it; negative durations are an error.
func ParseDuration(text string) (time.Duration, error) { return parseDuration(text) }

package catalog

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/version"
)

// Value semantics of an entry: how a value is normalised for comparison
// (Canonical), validated (Check), sent (SQLValue) and shown (Render).
//
// Contract: Canonical(a) == Canonical(b) exactly when a and b mean the same
// value for this setting, whichever side wrote them (HCL author or component
// rendering). Render(Canonical(x)) is what SHOW CONFIG / SHOW VARIABLES would
// print for x. SQLValue never echoes user text into SQL outside a
// quote.String literal.

// ValueError is returned by Canonical, Check and SQLValue for a value that
// does not fit the setting. Its fields let callers build their own
// diagnostics; Error() is a complete sentence on its own.
type ValueError struct {
	Address  string // "tikv.coprocessor.region-split-size"
	Value    string // the text that was rejected
	Expected string // `a size such as "256MiB"`
	Problem  string // what is wrong when the form is right (range, read-only); empty otherwise
}

func (e *ValueError) Error() string {
	if e.Problem != "" {
		return fmt.Sprintf("%s: %s; expected %s", e.Address, e.Problem, e.Expected)
	}
	return fmt.Sprintf("%s: expected %s, got %q", e.Address, e.Expected, e.Value)
}

// Address is how tiform names the setting in plans and diagnostics:
// "tikv.coprocessor.region-split-size", "variable.tidb_enable_instance_plan_cache",
// and "tiflash.raftstore-proxy.*" for a prefix rule.
func (e *Entry) Address() string {
	if e.Target == TargetVariable {
		return "variable." + e.Key
	}
	if e.Prefix {
		return e.Component + "." + e.Key + "*"
	}
	return e.Component + "." + e.Key
}

// String returns Address (for %v in messages).
func (e *Entry) String() string { return e.Address() }

// String is the kind as users read it ("size", "duration", …).
func (k Kind) String() string {
	switch k {
	case KindSize:
		return "size"
	case KindDuration:
		return "duration"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindEnum:
		return "enum"
	case KindList:
		return "list"
	}
	return "string"
}

// String renders a scope as SHOW VARIABLES docs do.
func (s Scope) String() string {
	switch s {
	case ScopeGlobal:
		return "GLOBAL"
	case ScopeInstance:
		return "INSTANCE"
	case ScopeSession:
		return "SESSION"
	}
	return ""
}

// plainBytes reports a size the component stores as a plain integer number
// of bytes (sysvars, TiKV usize fields such as split.byte-threshold): it is
// rendered and sent as a number, not as "256MiB".
func (e *Entry) plainBytes() bool {
	return e.Kind == KindSize && (e.Target == TargetVariable || e.Unit == "B")
}

// expected describes the accepted form with an example, and the documented
// range when there is one, for error messages.
func (e *Entry) expected() string {
	s := e.expectedForm()
	if e.HasRange {
		s += ", " + e.rangeText()
	}
	return s
}

// expectedForm is expected without the range.
func (e *Entry) expectedForm() string {
	ex := strconv.Quote(e.Example())
	var s string
	switch e.Kind {
	case KindSize:
		s = "a size such as " + ex + " (a number of bytes, or a number with unit B, KiB, MiB, GiB, TiB or PiB; K, KB and KiB all mean 1024)"
	case KindDuration:
		s = "a duration such as " + ex + " (units d, h, m, s, ms, us; Go form \"1h0m0s\" also accepted)"
	case KindBool:
		s = "a boolean such as " + ex + " (true/false, ON/OFF or 1/0)"
	case KindInt:
		s = "an integer such as " + ex
		if e.Unit != "" {
			s += " (unit: " + e.Unit + ")"
		}
	case KindFloat:
		s = "a number such as " + ex
	case KindEnum:
		s = "one of " + quotedList(e.Enum)
	case KindList:
		s = "a comma-separated list such as " + ex
	default:
		s = "a string such as " + ex
	}
	return s
}

func quotedList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// rangeText renders the documented range in the kind's terms.
func (e *Entry) rangeText() string {
	lo, hi := e.boundText(e.Min), e.boundText(e.Max)
	if math.IsInf(e.Max, 1) {
		if e.MinExclusive {
			return "greater than " + lo
		}
		return "at least " + lo
	}
	open, close := "[", "]"
	if e.MinExclusive {
		open = "("
	}
	if e.MaxExclusive {
		close = ")"
	}
	return fmt.Sprintf("in %s%s, %s%s", open, lo, hi, close)
}

func (e *Entry) boundText(f float64) string {
	if e.Kind == KindInt || e.Kind == KindSize {
		// The documented maxima of 64-bit integers, which float64 rounds up.
		switch f {
		case 1 << 63:
			return strconv.FormatInt(math.MaxInt64, 10)
		case 1 << 64:
			return strconv.FormatUint(math.MaxUint64, 10)
		}
	}
	switch e.Kind {
	case KindSize:
		if f > 0 && f < 1<<63 && !e.plainBytes() {
			return upstream.TiKVSize(uint64(f))
		}
	case KindDuration:
		return upstream.TiKVDuration(time.Duration(f * float64(time.Second)))
	}
	return formatFloat(f)
}

// Example is a value for this setting written the way an HCL author would
// write it: the newest documented default when there is one, otherwise a
// typical value of the kind.
func (e *Entry) Example() string {
	if n := len(e.Defaults); n > 0 {
		d := e.Defaults[n-1].Value
		if c, err := e.canonical(d); err == nil && d != "" {
			switch e.Kind {
			case KindSize:
				if n, err := strconv.ParseUint(c, 10, 64); err == nil {
					return upstream.TiKVSize(n)
				}
			case KindDuration:
				if dd, err := time.ParseDuration(c); err == nil {
					return upstream.TiKVDuration(dd)
				}
			case KindBool:
				return c
			}
			return d
		}
	}
	switch e.Kind {
	case KindSize:
		return "256MiB"
	case KindDuration:
		return "10m"
	case KindBool:
		return "true"
	case KindInt:
		return "100"
	case KindFloat:
		return "0.5"
	case KindEnum:
		if len(e.Enum) > 0 {
			return e.Enum[0]
		}
	case KindList:
		return "a,b"
	}
	return "text"
}

// Canonical normalises either spelling of a value (HCL-written or
// component-rendered) to one comparable text:
//
//	size      integer bytes            "256MiB", "256MB", "268435456", "0.25GiB" → "268435456"
//	duration  Go duration              "10m", "10m0s", "600s" → "10m0s"; "1d" → "24h0m0s"
//	bool      "true" / "false"         true, ON, on, 1 / false, OFF, 0
//	int       integer text             "1.44e+06" → "1440000" (float64 rendering)
//	float     shortest JSON form       "0.50" → "0.5"
//	enum      spelling from Enum       case-insensitive
//	string    unchanged
//	list      comma list, items trimmed, order kept
//
// It returns a *ValueError saying what is expected, with an example, when the
// text cannot be parsed. Ranges are not checked here (see Check): a live value
// outside the documented range must still be comparable.
//
// "null" is how SHOW CONFIG prints a TiKV Option left unset; it is its
// own canonical form for every kind, so a live "null" compares without error
// (Check still rejects it as a declared value).
func (e *Entry) Canonical(text string) (string, error) {
	if e.Kind != KindString && strings.TrimSpace(text) == "null" {
		return "null", nil
	}
	c, err := e.canonical(text)
	if err != nil {
		return "", &ValueError{Address: e.Address(), Value: text, Expected: e.expected()}
	}
	return c, nil
}

func (e *Entry) canonical(text string) (string, error) {
	switch e.Kind {
	case KindSize:
		n, err := parseSize(text)
		if err != nil {
			return "", err
		}
		if e.Target == TargetConfig && e.Component == "pd" && !e.plainBytes() {
			n = pdSizePrecision(n)
		}
		return strconv.FormatUint(n, 10), nil
	case KindDuration:
		d, err := parseDuration(text)
		if err != nil {
			return "", err
		}
		if e.Component == "tikv" || e.Component == "tiflash" {
			// TiKV's ReadableDuration has microsecond resolution (tikv_util/src/config.rs).
			d = d.Truncate(time.Microsecond)
		}
		return d.String(), nil
	case KindBool:
		b, err := parseBool(text)
		if err != nil {
			return "", err
		}
		return strconv.FormatBool(b), nil
	case KindInt:
		n, err := parseInt(text)
		if err != nil {
			return "", err
		}
		if e.Target == TargetConfig {
			// SHOW CONFIG prints every number through a float64.
			var ok bool
			if n, ok = float64Int(n); !ok {
				return "", errRange
			}
		}
		return n.String(), nil
	case KindFloat:
		if pct, ok := strings.CutSuffix(strings.TrimSpace(text), "%"); ok && e.percent {
			f, err := parseFloat(pct)
			if err != nil {
				return "", err
			}
			return formatFloat(f / 100), nil
		}
		f, err := parseFloat(text)
		if err != nil {
			return "", err
		}
		return formatFloat(f), nil
	case KindEnum:
		return e.canonicalEnum(text)
	case KindList:
		items, err := parseList(text)
		if err != nil {
			return "", err
		}
		return joinList(items), nil
	}
	return text, nil
}

// canonicalEnum matches case-insensitively. For ON/OFF enums (sysvars that
// were booleans, e.g. tidb_enable_table_partition) 1/0/true/false map to
// ON/OFF as TiDB does.
func (e *Entry) canonicalEnum(text string) (string, error) {
	t := strings.TrimSpace(text)
	for _, v := range e.Enum {
		if strings.EqualFold(v, t) {
			return v, nil
		}
	}
	for i, c := range e.Codes {
		if c == t && i < len(e.Enum) {
			return e.Enum[i], nil // printed as its number
		}
	}
	if b, err := parseBool(t); err == nil {
		want := "OFF"
		if b {
			want = "ON"
		}
		for _, v := range e.Enum {
			if strings.EqualFold(v, want) {
				return v, nil
			}
		}
	}
	return "", errSyntax
}

// Check validates a declared value: its kind, enum membership and the
// documented range (values outside it are errors), and that the setting can
// be set at all. The error is a *ValueError saying what is expected with an
// example.
func (e *Entry) Check(text string) error {
	if e.ReadOnly {
		return &ValueError{Address: e.Address(), Value: text, Expected: "no value: remove it from the configuration", Problem: "read-only, it cannot be set"}
	}
	if e.Kind != KindString && strings.TrimSpace(text) == "null" {
		return &ValueError{Address: e.Address(), Value: text, Expected: e.expected(),
			Problem: "null is how SHOW CONFIG shows an unset value; it cannot be declared"}
	}
	c, err := e.Canonical(text)
	if err != nil {
		return err
	}
	if err := e.checkWidth(c, text); err != nil {
		return err
	}
	if !e.HasRange {
		return nil
	}
	v, ok := e.magnitude(c)
	if !ok {
		return nil
	}
	lo, hi := new(big.Float).SetFloat64(e.Min), new(big.Float).SetFloat64(e.Max)
	below := v.Cmp(lo) < 0 || e.MinExclusive && v.Cmp(lo) == 0
	above := v.Cmp(hi) > 0 || e.MaxExclusive && v.Cmp(hi) == 0
	if below || above {
		return &ValueError{Address: e.Address(), Value: text, Expected: e.expectedForm() + ", " + e.rangeText(),
			Problem: fmt.Sprintf("%s is outside the documented range", strconv.Quote(strings.TrimSpace(text)))}
	}
	return nil
}

// Integer component config lives in fields of at most 64 bits: Rust usize,
// u64, i64, u32… in TiKV and TiFlash (for example `pool_size: usize` behind
// raftstore.store-pool-size, tikv/tikv@v8.5.1:components/batch-system/src/config.rs),
// Go int, int64, uint64 in PD (tikv/pd@v8.5.1:pkg/schedule/config/config.go).
var (
	minConfigInt = new(big.Int).SetInt64(math.MinInt64)
	maxConfigInt = new(big.Int).SetUint64(math.MaxUint64)
)

// checkWidth refuses an integer component setting (canonical c) that no
// 64-bit field can hold, even where no range is documented: TiKV would reject
// the SET CONFIG in the middle of an apply, after the changes before it.
func (e *Entry) checkWidth(c, text string) error {
	if e.Kind != KindInt || e.Target != TargetConfig {
		return nil
	}
	n, ok := new(big.Int).SetString(c, 10)
	if !ok || n.Cmp(minConfigInt) >= 0 && n.Cmp(maxConfigInt) <= 0 {
		return nil
	}
	shown := strings.TrimSpace(text)
	if len(shown) > 24 { // HCL spells 1e300 out in 301 digits
		shown = new(big.Float).SetInt(n).Text('g', 6)
	}
	return &ValueError{Address: e.Address(), Value: text,
		Expected: fmt.Sprintf("%s, in [%s, %s] (the widest integer field a component keeps a setting in)", e.expectedForm(), minConfigInt, maxConfigInt),
		Problem:  fmt.Sprintf("%s does not fit in 64 bits", strconv.Quote(shown))}
}

// Advise returns a warning when a valid value lies outside the documented
// recommendation (Advice), "" otherwise or when text does not parse. It is
// meant for warnings: Check already rejects values outside documented limits.
func (e *Entry) Advise(text string) string {
	if !e.HasAdvice {
		return ""
	}
	c, err := e.canonical(text)
	if err != nil {
		return ""
	}
	v, ok := e.magnitude(c)
	if !ok {
		return ""
	}
	if v.Cmp(new(big.Float).SetFloat64(e.AdviceMin)) >= 0 && v.Cmp(new(big.Float).SetFloat64(e.AdviceMax)) <= 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s (%s) is outside the recommended range [%s, %s]: %s", e.Address(),
		strings.TrimSpace(text), e.Render(c), e.boundText(e.AdviceMin), e.boundText(e.AdviceMax), e.Advice)
}

// magnitude is the canonical value as a number in the kind's base unit.
func (e *Entry) magnitude(c string) (*big.Float, bool) {
	switch e.Kind {
	case KindFloat:
		// A float64, as the bounds and as TiDB parses it (strconv.ParseFloat):
		// 0.51 is then exactly the bound 0.51, not a hair below it.
		f, err := strconv.ParseFloat(c, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return new(big.Float).SetFloat64(f), true
	case KindSize, KindInt:
		f, _, err := big.ParseFloat(c, 10, 256, big.ToNearestEven)
		return f, err == nil
	case KindDuration:
		d, err := time.ParseDuration(c)
		if err != nil {
			return nil, false
		}
		return new(big.Float).SetFloat64(d.Seconds()), true
	}
	return nil, false
}

// Render returns the value as the component prints it in SHOW CONFIG or SHOW
// VARIABLES (tikv/tikv components/tikv_util/src/config.rs, tikv/pd pkg/utils/typeutil; TiDB prints every non-string config value through a float64): TiKV/TiFlash sizes "256MiB" and durations
// "10m"/"1d", PD sizes via go-units and durations "1h0m0s", sysvar booleans
// ON/OFF and sizes in bytes. It accepts either spelling; text it cannot parse
// is returned unchanged.
func (e *Entry) Render(canonical string) string {
	c, err := e.canonical(canonical)
	if err != nil {
		return canonical
	}
	switch e.Kind {
	case KindSize:
		n, err := strconv.ParseUint(c, 10, 64)
		if err != nil || e.plainBytes() {
			return c
		}
		if e.Component == "pd" {
			return upstream.PDByteSize(n)
		}
		return upstream.TiKVSize(n)
	case KindDuration:
		d, err := time.ParseDuration(c)
		if err != nil {
			return c
		}
		if e.Component == "tikv" || e.Component == "tiflash" {
			return upstream.TiKVDuration(d)
		}
		return d.String()
	case KindBool:
		if e.Target == TargetVariable {
			if c == "true" {
				return "ON"
			}
			return "OFF"
		}
	case KindEnum:
		for i, v := range e.Enum {
			if v == c && i < len(e.Codes) {
				return e.Codes[i]
			}
		}
	}
	return c
}

// SQLValue returns the SQL literal to send for text: the value of
// `SET CONFIG <component> `key` = <literal>` for config items
// (https://docs.pingcap.com/tidb/stable/sql-statement-set-config) or of `SET GLOBAL name = <literal>` for variables. It validates text
// with Check first. The literal is built from the canonical value, never from
// user text, except strings, which go through quote.String:
//
//	TiKV/TiFlash  sizes '256MiB', durations '10m', bools TRUE/FALSE, numbers unquoted, others quoted
//	PD            integers and floats unquoted ('54' would fail), ",string" bools 'true'/'false',
//	              other bools TRUE/FALSE, durations '1h0m0s', sizes quoted, others quoted
//	variables     bools ON/OFF, numbers and byte sizes unquoted, others quoted
func (e *Entry) SQLValue(text string) (string, error) {
	if err := e.Check(text); err != nil {
		return "", err
	}
	if e.Target == TargetConfig && e.Component == "tidb" {
		return "", &ValueError{Address: e.Address(), Value: text, Expected: "a TiDB system variable instead",
			Problem: "TiDB does not support SET CONFIG (https://docs.pingcap.com/tidb/stable/dynamic-config)"}
	}
	return e.literal(text)
}

// literal is SQLValue without the checks: the literal for text, which must
// parse as the entry's kind. RestoreSQL uses it for values read from the
// cluster, which may lie outside the documented range.
func (e *Entry) literal(text string) (string, error) {
	c, err := e.canonical(text)
	if err != nil {
		return "", err
	}
	number := func(s string) (string, error) {
		if !quote.IsNumber(s) { // canonical ints/floats always are; defence in depth
			return "", &ValueError{Address: e.Address(), Value: text, Expected: e.expected()}
		}
		return s, nil
	}
	if e.Kind == KindSize {
		// The exact bytes: the canonical form of a PD size is rounded to
		// what PD can show.
		n, err := parseSize(text)
		if err != nil {
			return "", err
		}
		if e.plainBytes() {
			return number(strconv.FormatUint(n, 10))
		}
		// Exact rendering for every component: PD's RAMInBytes parses
		// "256MiB" too (tikv/pd@v8.5.1:pkg/utils/typeutil/size.go), and
		// go-units' own rendering would be lossy.
		return quote.String(upstream.TiKVSize(n)), nil
	}
	if e.Target == TargetVariable {
		switch e.Kind {
		case KindBool:
			if c == "true" {
				return "ON", nil
			}
			return "OFF", nil
		case KindInt, KindFloat:
			return number(c)
		}
		return quote.String(c), nil
	}
	switch e.Kind {
	case KindInt, KindFloat:
		return number(c)
	case KindBool:
		if e.StringBool {
			return quote.String(c), nil
		}
		return strings.ToUpper(c), nil
	case KindDuration:
		return quote.String(e.Render(c)), nil
	}
	return quote.String(c), nil
}

// lastBefore names the last release line before v: v7.1.0 → "v7.0.x",
// v8.5.3 → "v8.5.2", v9.0.0 → "before v9.0.0".
func lastBefore(v version.Version) string {
	switch {
	case v.Patch > 0:
		return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch-1)
	case v.Minor > 0:
		return fmt.Sprintf("v%d.%d.x", v.Major, v.Minor-1)
	}
	return "before " + v.Short()
}

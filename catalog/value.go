package catalog

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// Value parsers shared by Canonical, Check, SQLValue and Render. Each parser
// is lenient about spelling (it accepts what the HCL author writes and what
// the component renders) and strict about meaning (a value that means nothing
// is an error). None of them panics on any input (fuzz targets in
// value_fuzz_test.go).

// Binary size units. TiKV ReadableSize treats K/KB/KiB … P/PB/PiB all as
// powers of 1024 (tikv/tikv components/tikv_util/src/config.rs), and so does
// PD's units.RAMInBytes (tikv/pd pkg/utils/typeutil/size.go).
const (
	kib = 1 << 10
	mib = 1 << 20
	gib = 1 << 30
	tib = 1 << 40
	pib = 1 << 50
	eib = 1 << 60
)

var sizeUnits = map[string]uint64{
	"":  1,
	"b": 1,
	"k": kib, "kb": kib, "kib": kib,
	"m": mib, "mb": mib, "mib": mib,
	"g": gib, "gb": gib, "gib": gib,
	"t": tib, "tb": tib, "tib": tib,
	"p": pib, "pb": pib, "pib": pib,
	"e": eib, "eb": eib, "eib": eib, // PD go-units renders EiB
}

// errSyntax marks a value whose form is wrong; errRange one whose form is
// right but whose magnitude cannot be represented.
var (
	errSyntax = errors.New("syntax")
	errRange  = errors.New("out of range")
)

// parseSize returns the number of bytes text denotes: a decimal number
// (fraction allowed, or a float64 rendering such as "2.68435456e+08")
// followed by an optional binary unit, case-insensitive, with optional spaces
// between (TiKV "1.5GiB", PD RAMInBytes). A fractional
// byte count is truncated, as TiKV does ((num * unit) as u64).
func parseSize(text string) (uint64, error) {
	s := strings.TrimSpace(text)
	if s == "" || !isASCII(s) {
		return 0, errSyntax
	}
	i := len(s)
	for i > 0 && isLetter(s[i-1]) {
		i--
	}
	num := strings.TrimSpace(s[:i])
	unit, ok := sizeUnits[strings.ToLower(s[i:])]
	if !ok || num == "" {
		return 0, errSyntax
	}
	if n, ok := plainUint(num); ok { // the common case, without big.Rat
		hi, lo := bits.Mul64(n, unit)
		if hi != 0 {
			return 0, errRange
		}
		return lo, nil
	}
	r, ok := parseDecimal(num)
	if !ok {
		return 0, errSyntax
	}
	if r.Sign() < 0 {
		return 0, errRange
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).SetUint64(unit)))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if !q.IsUint64() {
		return 0, errRange
	}
	return q.Uint64(), nil
}

// plainUint parses s when it is only ASCII digits that fit a uint64.
func plainUint(s string) (uint64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// parseDecimal parses a plain decimal or exponent number ("54", "0.25",
// "1.44e+06", "+3"). It rejects hex, "Inf", "NaN", "_" separators and huge
// exponents that big.Rat would expand into enormous numbers.
func parseDecimal(s string) (*big.Rat, bool) {
	if !decimalSyntax(s) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// decimalSyntax reports whether s has parseDecimal's syntax.
func decimalSyntax(s string) bool {
	if s == "" {
		return false
	}
	seenExp := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == '.':
		case c == '+' || c == '-':
			if i != 0 && s[i-1] != 'e' && s[i-1] != 'E' {
				return false
			}
		case c == 'e' || c == 'E':
			if seenExp {
				return false
			}
			seenExp = true
			exp := strings.TrimLeft(s[i+1:], "+-")
			if len(exp) > 3 { // |exponent| < 1000 keeps big.Rat cheap
				return false
			}
		default:
			return false
		}
	}
	return strings.ContainsAny(s, "0123456789")
}

// parseInt returns the integer text denotes: a plain integer of any size, or
// an integral number written with a fraction or exponent, which is how values
// that passed through a float64 are rendered ("1.44e+06": TiDB's SHOW CONFIG).
func parseInt(text string) (*big.Int, error) {
	s := strings.TrimSpace(text)
	if n, ok := plainUint(s); ok {
		return new(big.Int).SetUint64(n), nil
	}
	r, ok := parseDecimal(s)
	if !ok {
		return nil, errSyntax
	}
	if !r.IsInt() {
		return nil, errRange
	}
	return new(big.Int).Set(r.Num()), nil
}

// parseFloat returns the float64 text denotes (decimal or exponent form).
func parseFloat(text string) (float64, error) {
	s := strings.TrimSpace(text)
	if !decimalSyntax(s) {
		return 0, errSyntax
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, errRange
	}
	return f, nil
}

// formatFloat renders f the way Go's encoding/json does, which is how TiDB
// prints every non-string config value (TiDB's SHOW CONFIG): shortest
// representation, plain notation between 1e-6 and 1e21, exponent outside.
// encoding/json shortens the exponent ("1e-7"); "1e-07" parses to the same
// value. It is also the canonical text of
// a float.
func formatFloat(f float64) string {
	if f == 0 {
		return "0" // also for -0
	}
	b, err := json.Marshal(f)
	if err != nil { // NaN/Inf: never produced by parseFloat
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return string(b)
}

// parseBool accepts true/false, on/off and 1/0, case-insensitively (HCL
// writes true, TiKV/PD render true, SHOW VARIABLES renders ON or 1).
func parseBool(text string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "true", "on", "1":
		return true, nil
	case "false", "off", "0":
		return false, nil
	}
	return false, errSyntax
}

// durationUnits lists the units a duration may use, longest first so that
// "ms" is matched before "m". "d" is TiKV's day (ReadableDuration), the
// others are Go's.
var durationUnits = []struct {
	name string
	d    time.Duration
}{
	{"ms", time.Millisecond},
	{"us", time.Microsecond},
	{"µs", time.Microsecond},
	{"μs", time.Microsecond},
	{"ns", time.Nanosecond},
	{"d", 24 * time.Hour},
	{"h", time.Hour},
	{"m", time.Minute},
	{"s", time.Second},
}

// parseDuration accepts TiKV ReadableDuration ("10m", "1d", "1h30m", "500ms",
// "1.5h") and Go time.Duration text ("10m0s", "1h0m0s", "1m30s"), in any
// unit order. A bare "0" is zero. Negative durations are rejected: no
// setting tiform knows takes one.
func parseDuration(text string) (time.Duration, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, errSyntax
	}
	if s == "0" {
		return 0, nil
	}
	if s[0] == '-' {
		return 0, errRange
	}
	s = strings.TrimPrefix(s, "+")
	// whole sums integral parts exactly while they are small; exact takes
	// over (with big.Rat) at the first fraction or large number.
	var whole int64
	var exact *big.Rat
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		num := s[:i]
		if num == "" || strings.Count(num, ".") > 1 || num == "." {
			return 0, errSyntax
		}
		s = s[i:]
		var unit time.Duration
		for _, u := range durationUnits {
			if strings.HasPrefix(s, u.name) {
				unit = u.d
				s = s[len(u.name):]
				break
			}
		}
		if unit == 0 {
			return 0, errSyntax
		}
		if n, ok := plainUint(num); ok && n < 1<<31 && exact == nil { // the common case, without big.Rat
			// The limit of the exact path below, checked before multiplying
			// (107000d overflows int64).
			if int64(n) > (math.MaxInt64-whole)/int64(unit) {
				return 0, errRange
			}
			whole += int64(n) * int64(unit)
			continue
		}
		r, ok := new(big.Rat).SetString(num)
		if !ok {
			return 0, errSyntax
		}
		if exact == nil {
			exact = big.NewRat(whole, 1)
		}
		exact.Add(exact, r.Mul(r, big.NewRat(int64(unit), 1)))
		if exact.Cmp(big.NewRat(math.MaxInt64, 1)) > 0 {
			return 0, errRange
		}
	}
	if exact == nil {
		return time.Duration(whole), nil
	}
	q := new(big.Int).Quo(exact.Num(), exact.Denom())
	return time.Duration(q.Int64()), nil
}

// parseList splits a list value into its items: a comma-separated text
// ("tikv, tiflash,tidb") or a JSON array of strings, which is how SHOW CONFIG
// renders arrays (a JSON array). Items are trimmed, empty items dropped;
// order is kept (it matters for PD location-labels). Text that is not a valid
// JSON array of strings is read as a comma list, so every text is a list.
func parseList(text string) ([]string, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		var items []string
		if err := json.Unmarshal([]byte(s), &items); err == nil {
			return cleanList(items), nil
		}
	}
	return cleanList(strings.Split(s, ",")), nil
}

// joinList is the canonical text of a list: its items joined by commas, or
// the JSON array when the joined text would not read back as the same items:
// an item holding a comma (`["a,b"]` is one item), or a text that parseList
// would take for a JSON array ("[]," is the one item "[]"). So Canonical is
// idempotent: `[",0",""]` is `[",0"]`, not ",0", which would read back as "0".
func joinList(items []string) string {
	joined := strings.Join(items, ",")
	ambiguous := strings.HasPrefix(joined, "[") && strings.HasSuffix(joined, "]")
	for _, it := range items {
		ambiguous = ambiguous || strings.Contains(it, ",")
	}
	if ambiguous {
		if b, err := json.Marshal(items); err == nil {
			return string(b)
		}
	}
	return joined
}

func cleanList(items []string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		// Invalid UTF-8 reads as U+FFFD, as encoding/json reads it, so that
		// a list reads alike in both forms.
		if it = strings.TrimSpace(strings.ToValidUTF8(it, "\uFFFD")); it != "" {
			out = append(out, it)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

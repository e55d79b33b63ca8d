package guard

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const (
	kib = 1 << 10
	mib = 1 << 20
	gib = 1 << 30
)

// parseBytes reads a size the way TiKV's ReadableSize does (tidb-facts.md
// §1.3): a decimal number, optionally with a binary unit (K/KB/KiB … P/PB/PiB,
// all powers of 1024, case-insensitive); a bare number is bytes, including a
// float64 rendering such as "2.68435456e+08". ok is false for anything else.
func parseBytes(text string) (uint64, bool) {
	s := strings.TrimSpace(text)
	i := len(s)
	for i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= 'A' && s[i-1] <= 'Z') {
		i--
	}
	num, unit := strings.TrimSpace(s[:i]), strings.ToLower(s[i:])
	if strings.ContainsAny(num, "eE") && unit != "" {
		return 0, false
	}
	if num == "" && strings.HasSuffix(unit, "e") {
		return 0, false
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": kib, "kb": kib, "kib": kib,
		"m": mib, "mb": mib, "mib": mib,
		"g": gib, "gb": gib, "gib": gib,
		"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
		"p": 1 << 50, "pb": 1 << 50, "pib": 1 << 50,
	}[unit]
	if mult == 0 || num == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || f*mult >= 1<<63 {
		return 0, false
	}
	return uint64(f * mult), true
}

// formatBytes renders b with the largest exact binary unit, as TiKV prints
// sizes (tidb-facts.md §1.3): 268435456 → "256MiB", 1000 → "1000B".
func formatBytes(b uint64) string {
	units := []struct {
		n    uint64
		name string
	}{{1 << 50, "PiB"}, {1 << 40, "TiB"}, {gib, "GiB"}, {mib, "MiB"}, {kib, "KiB"}}
	if b == 0 {
		return "0KiB"
	}
	for _, u := range units {
		if b%u.n == 0 {
			return fmt.Sprintf("%d%s", b/u.n, u.name)
		}
	}
	return fmt.Sprintf("%dB", b)
}

// parseCount reads a plain count ("2560000", "1.44e+06" after a float64
// round-trip, tidb-facts.md §1.3).
func parseCount(text string) (uint64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || f >= 1<<63 || f != math.Trunc(f) {
		return 0, false
	}
	return uint64(f), true
}

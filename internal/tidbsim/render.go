package tidbsim

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rendering and parsing of config values exactly as each component does:
// TiKV in tikv/tikv@v8.5.1:components/tikv_util/src/config.rs, PD in
// tikv/pd@v8.5.1:pkg/utils/typeutil (duration.go, size.go), and TiDB's
// re-encoding in pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go
// fetchClusterConfig.

const (
	kib = uint64(1) << 10
	mib = kib << 10
	gib = mib << 10
	tib = gib << 10
	pib = tib << 10
)

// formatReadableSize is TiKV's `impl fmt::Display for ReadableSize`: the
// largest binary unit that divides the size exactly, "0KiB" for zero, else
// bytes with suffix "B" (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs).
func formatReadableSize(b uint64) string {
	if b == 0 {
		return "0KiB"
	}
	units := []struct {
		n   uint64
		suf string
	}{{pib, "PiB"}, {tib, "TiB"}, {gib, "GiB"}, {mib, "MiB"}, {kib, "KiB"}}
	for _, u := range units {
		if b%u.n == 0 {
			return strconv.FormatUint(b/u.n, 10) + u.suf
		}
	}
	return strconv.FormatUint(b, 10) + "B"
}

// parseReadableSize is TiKV's `impl FromStr for ReadableSize`: a decimal
// number then an optional unit K|KB|KiB, M|MB|MiB, G|GB|GiB, T|TB|TiB,
// P|PB|PiB or B; all binary; decimals allowed; ASCII only (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs).
func parseReadableSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("%q is not a valid size", s)
	}
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			return 0, fmt.Errorf("ASCII string is expected, but got %q", s)
		}
	}
	n := 0
	for n < len(t) && (t[n] >= '0' && t[n] <= '9' || t[n] == '.') {
		n++
	}
	num, unit := t[:n], strings.TrimSpace(t[n:])
	var mult uint64
	switch unit {
	case "K", "KB", "KiB":
		mult = kib
	case "M", "MB", "MiB":
		mult = mib
	case "G", "GB", "GiB":
		mult = gib
	case "T", "TB", "TiB":
		mult = tib
	case "P", "PB", "PiB":
		mult = pib
	case "B", "":
		mult = 1
	default:
		return 0, fmt.Errorf("only B, KB, KiB, MB, MiB, GB, GiB, TB, TiB, PB, and PiB are supported: %q", s)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("invalid size string: %q", s)
	}
	return uint64(f * float64(mult)), nil
}

// formatReadableDuration is TiKV's `impl fmt::Display for ReadableDuration`:
// descending units d h m s ms us, zero parts omitted, "0s" for zero
// (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs).
func formatReadableDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	us := uint64(d / time.Microsecond)
	var b strings.Builder
	parts := []struct {
		n   uint64
		suf string
	}{{86400e6, "d"}, {3600e6, "h"}, {60e6, "m"}, {1e6, "s"}, {1e3, "ms"}, {1, "us"}}
	for _, p := range parts {
		if us >= p.n {
			fmt.Fprintf(&b, "%d%s", us/p.n, p.suf)
			us %= p.n
		}
	}
	return b.String()
}

// parseReadableDuration is TiKV's `impl FromStr for ReadableDuration`: numbers
// with units d, h, m, s, ms, us that must occur in that order (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs:
// "d, h, m, s, ms, us should occur in given order").
func parseReadableDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("%q is not a valid duration", s)
	}
	order := map[string]int{"d": 0, "h": 1, "m": 2, "s": 3, "ms": 4, "us": 5}
	mult := map[string]float64{"d": 86400e9, "h": 3600e9, "m": 60e9, "s": 1e9, "ms": 1e6, "us": 1e3}
	last := -1
	var total float64
	for t != "" {
		n := 0
		for n < len(t) && (t[n] >= '0' && t[n] <= '9' || t[n] == '.') {
			n++
		}
		if n == 0 {
			return 0, fmt.Errorf("invalid duration string: %q", s)
		}
		f, err := strconv.ParseFloat(t[:n], 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration string: %q", s)
		}
		t = t[n:]
		u := 0
		for u < len(t) && t[u] >= 'a' && t[u] <= 'z' {
			u++
		}
		unit := t[:u]
		t = t[u:]
		idx, ok := order[unit]
		if !ok {
			return 0, fmt.Errorf("only d, h, m, s, ms, us are supported: %q", s)
		}
		if idx <= last {
			return 0, fmt.Errorf("d, h, m, s, ms, us should occur in given order: %q", s)
		}
		last = idx
		total += f * mult[unit]
	}
	return time.Duration(total), nil
}

// formatPDDuration is PD's typeutil.Duration marshalling: Go's
// time.Duration.String(), e.g. "1h0m0s", "30m0s", "10ms"
// (tikv/pd@v8.5.1:pkg/utils/typeutil/duration.go).
func formatPDDuration(d time.Duration) string { return d.String() }

// formatPDByteSize is PD's typeutil.ByteSize marshalling through
// go-units.BytesSize: "%.4g" of the value in the largest binary unit below it
// (tikv/pd@v8.5.1:pkg/utils/typeutil/size.go; docker/go-units@v0.4.0:size.go
// BytesSize), e.g. "256MiB", "1.5GiB".
func formatPDByteSize(b uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	size := float64(b)
	i := 0
	for size >= 1024 && i < len(units)-1 {
		size /= 1024
		i++
	}
	return strconv.FormatFloat(size, 'g', 4, 64) + units[i]
}

// renderJSONNumber renders a config number as TiDB does: the component's JSON
// is decoded into map[string]any (numbers become float64) and re-encoded with
// json.Marshal (derived from fetchClusterConfig and
// golang/go@go1.26.0:src/encoding/json/encode.go floatEncoder): integers above
// 2^53 lose precision, tiny floats use exponent form; encoding/json trims the
// exponent's leading zero, so 1e-7 prints "1e-7" (TestRenderJSONNumber).
func renderJSONNumber(text string) string {
	renderedNumbers.RLock()
	out, ok := renderedNumbers.m[text]
	renderedNumbers.RUnlock()
	if ok {
		return out
	}
	out = renderJSONNumberOnce(text)
	renderedNumbers.Lock()
	defer renderedNumbers.Unlock()
	if len(renderedNumbers.m) < maxRenderedNumbers {
		renderedNumbers.m[text] = out
	}
	return out
}

// renderedNumbers memoizes renderJSONNumber, a function of its text alone:
// every read of a number item renders it again. At most maxRenderedNumbers
// texts are kept (values set by clients must not grow it without bound);
// later ones are rendered each time.
var renderedNumbers = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

const maxRenderedNumbers = 4096

// renderJSONNumberOnce is renderJSONNumber's rendering.
func renderJSONNumberOnce(text string) string {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return text
	}
	out, err := json.Marshal(f)
	if err != nil {
		return text
	}
	return string(out)
}

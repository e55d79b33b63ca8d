package upstream

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// How the components write the values of settings.json's defaults, so that
// the generator writes them and the catalog reads them the same way.

// TiKVSize is tikv_util::config::ReadableSize's Serialize
// (tikv/tikv components/tikv_util/src/config.rs): the largest binary unit
// that divides the size exactly, "0KiB" for zero, else bytes with "B".
func TiKVSize(b uint64) string {
	if b == 0 {
		return "0KiB"
	}
	for _, u := range []struct {
		n   uint64
		suf string
	}{{1 << 50, "PiB"}, {1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if b%u.n == 0 {
			return strconv.FormatUint(b/u.n, 10) + u.suf
		}
	}
	return strconv.FormatUint(b, 10) + "B"
}

// TiKVDuration is ReadableDuration's Display (same file): descending d h m
// s ms us parts, zero parts left out, "0s" for zero and for anything below
// a microsecond.
func TiKVDuration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	var b strings.Builder
	for _, u := range []struct {
		n   time.Duration
		suf string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}} {
		if q := d / u.n; q > 0 {
			fmt.Fprintf(&b, "%d%s", q, u.suf)
			d -= q * u.n
		}
	}
	if b.Len() == 0 {
		return "0s"
	}
	return b.String()
}

// PDByteSize is PD's typeutil.ByteSize MarshalJSON (tikv/pd
// pkg/utils/typeutil/size.go): go-units BytesSize, "%.4g" of the value in
// the largest binary unit not above it. Lossy for odd values.
func PDByteSize(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f := float64(n)
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.4g%s", f, units[i])
}

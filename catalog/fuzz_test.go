package catalog

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/quote"
)

// Fuzz targets for every value parser: they must never panic, and whatever
// Canonical accepts must be stable (canonicalising the canonical text, or its
// rendering, gives the same text) and produce a safe SQL literal.
// Interesting inputs live in testdata/fuzz/<FuzzName>/.

func fuzzEntry(f *testing.F, e *Entry, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := e.Canonical(in)
		if err != nil {
			if _, err2 := e.SQLValue(in); err2 == nil {
				t.Fatalf("SQLValue accepted %q that Canonical rejects", in)
			}
			return
		}
		c2, err := e.Canonical(c)
		if err != nil || c2 != c {
			t.Fatalf("Canonical not idempotent: %q → %q → %q (%v)", in, c, c2, err)
		}
		r := e.Render(c)
		if c3, err := e.Canonical(r); err != nil || c3 != c && e.Component != "pd" {
			// PD sizes render lossily (go-units BytesSize); everything else round-trips.
			t.Fatalf("Render not parseable back: %q → %q → %q → %q (%v)", in, c, r, c3, err)
		}
		lit, err := e.SQLValue(in)
		if err != nil {
			return // range or read-only
		}
		if !safeLiteral(lit) {
			t.Fatalf("SQLValue(%q) = %s: not a single safe literal", in, lit)
		}
	})
}

// safeLiteral: a number, a keyword TiDB parses as a value, or exactly one
// quote.String literal.
func safeLiteral(lit string) bool {
	switch lit {
	case "TRUE", "FALSE", "ON", "OFF":
		return true
	}
	if quote.IsNumber(lit) {
		return true
	}
	if !strings.HasPrefix(lit, "'") {
		return false
	}
	_, ok := unquoteSQL(lit)
	return ok
}

func FuzzCanonicalSize(f *testing.F) {
	e, _ := Config("tikv", "coprocessor.region-split-size")
	fuzzEntry(f, e, "256MiB", "256MB", "268435456", "0.25GiB", "1.5GiB", "0KiB", "1000B", "2.68435456e+08", "1e999MiB", "-1", " 96 mib ", "99999999PiB")
}

func FuzzCanonicalPDSize(f *testing.F) {
	e := &Entry{Target: TargetConfig, Component: "pd", Key: "x.size", Kind: KindSize, Doc: "fuzz"}
	fuzzEntry(f, e, "256MiB", "1.5GiB", "1000", "0")
}

func FuzzCanonicalDuration(f *testing.F) {
	e, _ := Config("tikv", "raftstore.snap-gc-timeout")
	fuzzEntry(f, e, "10m", "10m0s", "600s", "1d", "1h30m", "30m1h", "500ms", "1.5h", "0", "-1s", "1µs", "999999999999d", "1..5s", ".s")
}

func FuzzCanonicalPDDuration(f *testing.F) {
	e, _ := Config("pd", "schedule.max-store-down-time")
	fuzzEntry(f, e, "30m0s", "1h0m0s", "10ms", "48h", "1d")
}

func FuzzCanonicalBool(f *testing.F) {
	e, _ := Config("pd", "schedule.enable-cross-table-merge")
	fuzzEntry(f, e, "true", "ON", "0", "yes", "")
}

func FuzzCanonicalInt(f *testing.F) {
	e, _ := Config("tikv", "coprocessor.region-max-keys")
	fuzzEntry(f, e, "1440000", "1.44e+06", "18446744073709551615", "1e308", "1e-5", "0x10", "+1", "-0", "1_000")
}

func FuzzCanonicalFloat(f *testing.F) {
	e, _ := Variable("tidb_instance_plan_cache_reserved_percentage")
	fuzzEntry(f, e, "0.1", "1e-07", "NaN", "Inf", "1e400", ".5", "5.")
}

func FuzzCanonicalEnum(f *testing.F) {
	e, _ := Variable("tidb_enable_table_partition")
	fuzzEntry(f, e, "ON", "auto", "1", "maybe")
}

func FuzzCanonicalList(f *testing.F) {
	e, _ := Config("pd", "replication.location-labels")
	fuzzEntry(f, e, "zone,host", `["zone","host"]`, `["zone"`, ",,", `[1,2]`, `[",0",""]`, `[",a", "b"]`, `["a,b"]`)
}

func FuzzCanonicalString(f *testing.F) {
	e, _ := Config("tikv", "log.level")
	fuzzEntry(f, e, "info", "it's", `\`, "a\x00b")
}

func FuzzVariableSQL(f *testing.F) {
	e, _ := Variable("tidb_plan_cache_max_plan_size")
	fuzzEntry(f, e, "2MiB", "0", "9223372036854775807", "9223372036854775808", "8EiB")
}

// TestParsersAgreeWithGo: for plain Go durations our parser agrees with
// time.ParseDuration, and sizes agree with plain integer parsing.
func TestParsersAgreeWithGo(t *testing.T) {
	for _, s := range []string{"1h0m0s", "30m0s", "10ms", "1m30s", "1.5h", "500us", "2h45m30.5s"} {
		want, _ := time.ParseDuration(s)
		got, err := parseDuration(s)
		if err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, n := range []uint64{0, 1, 1023, 1 << 40, 18446744073709551615} {
		got, err := parseSize(strconv.FormatUint(n, 10))
		if err != nil || got != n {
			t.Errorf("parseSize(%d) = %d, %v", n, got, err)
		}
	}
}

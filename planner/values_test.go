package planner

import (
	"testing"
	"time"

	"github.com/tiform/tiform/state"
)

func TestFallbackParsers(t *testing.T) {
	sizes := map[string]float64{"256MiB": 256 << 20, "256MB": 256 << 20, "256m": 256 << 20, "1.5GiB": 1.5 * (1 << 30), "1000B": 1000, "42": 42, " 8 GiB ": 8 << 30}
	for in, want := range sizes {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "MiB", "-1MiB", "abc", "1XB"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
	durs := map[string]time.Duration{"10m": 10 * time.Minute, "1h0m0s": time.Hour, "1d": 24 * time.Hour, "1d2h": 26 * time.Hour, "500ms": 500 * time.Millisecond, "0s": 0}
	for in, want := range durs {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "10", "d", "1x"} {
		if _, err := parseDuration(bad); err == nil {
			t.Errorf("parseDuration(%q) accepted", bad)
		}
	}
	renders := map[float64]string{0: "0KiB", 256 << 20: "256MiB", 1 << 30: "1GiB", 4920 << 20: "4920MiB", 1000: "1000B"}
	for in, want := range renders {
		if got := formatReadableSize(in); got != want {
			t.Errorf("formatReadableSize(%v) = %q, want %q", in, got, want)
		}
	}
	rd := map[time.Duration]string{0: "0s", 24 * time.Hour: "1d", 90 * time.Second: "1m30s", 500 * time.Millisecond: "500ms"}
	for in, want := range rd {
		if got := formatReadableDuration(in); got != want {
			t.Errorf("formatReadableDuration(%v) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCanonicalUnknown: never panics, and canonical forms are fixed points,
// so comparing canonical values is stable.
func FuzzCanonicalUnknown(f *testing.F) {
	for _, s := range []string{"256MiB", "1.44e+06", "10m", "1d", "ON", "off", "abc", "1e300PiB", "NaN", "-0", " 1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := canonicalUnknown(s)
		if again := canonicalUnknown(c); again != c {
			t.Fatalf("canonicalUnknown(%q) = %q, but canonicalUnknown(%q) = %q", s, c, c, again)
		}
	})
}

func TestLiteralUnknown(t *testing.T) {
	tests := []struct {
		kind Kind
		comp state.Component
		typ  state.LiteralType
		text string
		want string
	}{
		{KindConfig, "tikv", state.LiteralString, "256MiB", "'256MiB'"},
		{KindConfig, "tikv", state.LiteralNumber, "42", "42"},
		{KindConfig, "tikv", state.LiteralBool, "true", "TRUE"},
		{KindConfig, "tikv", state.LiteralString, "it's", `'it''s'`},
		{KindConfig, "pd", state.LiteralString, "54", "54"},
		{KindConfig, "pd", state.LiteralBool, "true", "'true'"},
		{KindVariable, "tidb", state.LiteralBool, "true", "ON"},
		{KindVariable, "tidb", state.LiteralNumber, "1; DROP", "'1; DROP'"},
	}
	for _, tt := range tests {
		if got := literalUnknown(tt.kind, tt.comp, tt.typ, tt.text); got != tt.want {
			t.Errorf("literalUnknown(%s %s %v %q) = %s, want %s", tt.kind, tt.comp, tt.typ, tt.text, got, tt.want)
		}
	}
}

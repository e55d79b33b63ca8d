package tidbsim

import (
	"testing"
	"time"
)

// TiKV's ReadableSize Display (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs).
func TestFormatReadableSize(t *testing.T) {
	tests := []struct {
		in   uint64
		want string
	}{
		{0, "0KiB"}, {256 * mib, "256MiB"}, {384 * mib, "384MiB"}, {1024 * mib, "1GiB"}, {4920 * mib, "4920MiB"},
		{5 * gib, "5GiB"}, {512 * kib, "512KiB"}, {1000, "1000B"}, {pib, "1PiB"}, {30923764531, "30923764531B"},
	}
	for _, tc := range tests {
		if got := formatReadableSize(tc.in); got != tc.want {
			t.Errorf("formatReadableSize(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseReadableSize(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		err  bool
	}{
		{"256MiB", 256 * mib, false}, {"256MB", 256 * mib, false}, {"256M", 256 * mib, false}, {"1.5GiB", gib + gib/2, false},
		{"268435456", 256 * mib, false}, {"100B", 100, false}, {"1KB", 1024, false}, {"", 0, true}, {"12XB", 0, true},
		{"abc", 0, true}, {"１MiB", 0, true},
	}
	for _, tc := range tests {
		got, err := parseReadableSize(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseReadableSize(%q) = %d, %v; want %d, err=%v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestReadableDuration(t *testing.T) {
	fmtTests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"}, {10 * time.Minute, "10m"}, {24 * time.Hour, "1d"}, {90 * time.Second, "1m30s"}, {500 * time.Millisecond, "500ms"},
		{3 * time.Minute, "3m"}, {time.Hour, "1h"}, {1500 * time.Microsecond, "1ms500us"},
	}
	for _, tc := range fmtTests {
		if got := formatReadableDuration(tc.in); got != tc.want {
			t.Errorf("formatReadableDuration(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	parseTests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"1h30m", 90 * time.Minute, false}, {"10m", 10 * time.Minute, false}, {"1d", 24 * time.Hour, false}, {"1.5h", 90 * time.Minute, false},
		{"30m1h", 0, true}, {"10", 0, true}, {"10x", 0, true}, {"", 0, true}, {"1s1s", 0, true},
	}
	for _, tc := range parseTests {
		got, err := parseReadableDuration(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseReadableDuration(%q) = %v, %v; want %v, err=%v", tc.in, got, err, tc.want, tc.err)
		}
	}
	if _, err := parseReadableDuration("30m1h"); err == nil || err.Error() != `d, h, m, s, ms, us should occur in given order: "30m1h"` {
		t.Errorf("order error: %v", err)
	}
}

func TestPDRendering(t *testing.T) {
	if got := formatPDDuration(time.Hour); got != "1h0m0s" {
		t.Errorf("PD 1h = %q", got)
	}
	if got := formatPDDuration(10 * time.Millisecond); got != "10ms" {
		t.Errorf("PD 10ms = %q", got)
	}
	for in, want := range map[uint64]string{256 * mib: "256MiB", gib + gib/2: "1.5GiB", 0: "0B", 1000: "1000B"} {
		if got := formatPDByteSize(in); got != want {
			t.Errorf("formatPDByteSize(%d) = %q, want %q", in, got, want)
		}
	}
}

// Numbers pass through float64 and json.Marshal (see renderJSONNumber).
func TestRenderJSONNumber(t *testing.T) {
	tests := map[string]string{
		"2560000": "2560000", "18446744073709551615": "18446744073709552000", "0.25": "0.25", "0.0000001": "1e-7",
		"1e21": "1e+21", "9007199254740993": "9007199254740992", "10": "10",
	}
	for in, want := range tests {
		if got := renderJSONNumber(in); got != want {
			t.Errorf("renderJSONNumber(%s) = %q, want %q", in, got, want)
		}
	}
}

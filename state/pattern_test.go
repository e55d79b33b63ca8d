package state

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAddressPattern(t *testing.T) {
	tests := []struct {
		in, err string
	}{
		{"tikv.gc.*", ""},
		{`tikv["10.0.1.17:20160"].*`, ""},
		{"variable.tidb_*", ""},
		{"resource_group.*", ""},
		{`user."app"@"%".resource_group`, ""},
		{"pd.schedule.max-merge-region-size", ""},
		{"", "empty"},
		{"  ", "empty"},
		{" tikv.x", "space"},
		{"*", "does not start with a kind"},
		{"*.gc.ratio-threshold", "does not start with a kind"},
		{"tik*.gc", "does not start with a kind"},
		{"tikv", "names a kind only"},
		{"tidb.x", "does not start with a kind"},
		{"variables.x", "does not start with a kind"},
	}
	for _, tt := range tests {
		_, err := ParseAddressPattern(tt.in)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%q: %v", tt.in, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
		}
	}
}

func TestAddressPatternMatch(t *testing.T) {
	tests := []struct {
		pattern, address string
		want             bool
	}{
		{"tikv.gc.*", "tikv.gc.ratio-threshold", true},
		{"tikv.gc.*", `tikv["10.0.1.17:20160"].gc.ratio-threshold`, false},
		{"tikv*gc.*", `tikv["10.0.1.17:20160"].gc.ratio-threshold`, true},
		{"tikv.gc.ratio-threshold", "tikv.gc.ratio-threshold", true},
		{"tikv.gc.ratio-threshold", "tikv.gc.ratio-threshold2", false},
		{"variable.tidb_*_cache", "variable.tidb_enable_non_prepared_plan_cache", true},
		{"variable.tidb_*_cache", "variable.tidb_enable_non_prepared_plan_cache_size", false},
		{"resource_group.*", "resource_group.oltp", true},
		{"resource_group.*", "resource_groups.oltp", false},
		{"pd.**", "pd.a", true},
	}
	for _, tt := range tests {
		if got := AddressPattern(tt.pattern).Match(tt.address); got != tt.want {
			t.Errorf("%q matches %q: %v, want %v", tt.pattern, tt.address, got, tt.want)
		}
	}
}

// FuzzAddressPatternMatch compares the matcher with a regular expression
// built from the same pattern.
func FuzzAddressPatternMatch(f *testing.F) {
	f.Add("tikv.gc.*", "tikv.gc.ratio-threshold")
	f.Add("a*b*c", "aXbYbZc")
	f.Add("**x", "xx")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		// regexp works on UTF-8: compare on valid strings only.
		if len(pattern) > 64 || len(s) > 256 || !utf8.ValidString(pattern) || !utf8.ValidString(s) {
			return
		}
		parts := strings.Split(pattern, "*")
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		re := regexp.MustCompile("(?s)^" + strings.Join(parts, ".*") + "$")
		if got, want := AddressPattern(pattern).Match(s), re.MatchString(s); got != want {
			t.Errorf("%q matches %q: %v, regexp says %v", pattern, s, got, want)
		}
	})
}

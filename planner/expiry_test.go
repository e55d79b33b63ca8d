package planner

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCheckAge(t *testing.T) {
	made := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		created time.Time
		now     time.Time
		maxAge  time.Duration
		want    string // "" = may be applied
	}{
		{"fresh", made, made.Add(time.Hour), 0, ""},
		{"at the default limit", made, made.Add(DefaultMaxAge), 0, ""},
		{"over the default", made, made.Add(DefaultMaxAge + time.Minute), 0, "12h1m0s ago, and a saved plan may be applied for 12h0m0s (--plan-max-age)"},
		{"a week old with a longer limit", made, made.Add(7 * 24 * time.Hour), 8 * 24 * time.Hour, ""},
		{"never expires", made, made.Add(1000 * time.Hour), -1, ""},
		{"no creation time", time.Time{}, made, 0, "does not say when it was made"},
		{"no creation time, never expires", time.Time{}, made, -1, "does not say when it was made"},
		{"a little in the future", made, made.Add(-time.Minute), 0, ""},
		{"far in the future", made, made.Add(-time.Hour), 0, "1h0m0s in the future of this machine's clock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckAge(&Plan{CreatedAt: tc.created}, tc.now, tc.maxAge)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ee *ExpiredError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

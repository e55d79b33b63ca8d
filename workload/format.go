package workload

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Pct renders a share as a whole percentage: "3%", "<1%" for a share above
// zero that rounds to 0, ">99%" for one below 1 that rounds to 100.
func Pct(f float64) string {
	p := math.Round(f * 100)
	switch {
	case f > 0 && p == 0:
		return "<1%"
	case f < 1 && p == 100:
		return ">99%"
	}
	return strconv.FormatFloat(p, 'f', 0, 64) + "%"
}

// Span renders a window length the way people say it: "24h", "30m",
// "1h30m", "7d" (days from 48h).
func Span(d time.Duration) string {
	switch {
	case d <= 0:
		return "0m"
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d >= time.Hour:
		return fmt.Sprintf("%dh%dm", d/time.Hour, (d%time.Hour)/time.Minute)
	}
	return fmt.Sprintf("%dm", d/time.Minute)
}

// count renders a count with thousands separators: 1234567 → "1,234,567".
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// Count is count for the views.
func Count(n int64) string { return count(n) }

// Ms renders a duration in milliseconds with up to one decimal ("1.5 ms",
// "1,200 ms"), the unit statement latencies are read in.
func Ms(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	if ms >= 100 {
		return count(int64(math.Round(ms))) + " ms"
	}
	return strconv.FormatFloat(math.Round(ms*10)/10, 'f', -1, 64) + " ms"
}

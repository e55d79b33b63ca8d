package state

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
)

// Window is a change window or a blackout (window "NAME" { … }): the times,
// in one time zone, when apply may change the clusters whose labels include
// Labels (a blackout: may not).
//
// A window opens at From on each of Days (local time) and closes at To; a To
// at or before From closes on the next day (22:00–06:00 runs across
// midnight, and belongs to the day it opens). Times are wall-clock times in
// Location, so a window keeps its local hours across daylight-saving changes
// (time.Date normalises a time a change skips).
type Window struct {
	Name string
	// Labels selects the clusters the window covers (empty: every cluster).
	Labels map[string]string
	// Days are the days the window opens (empty: every day).
	Days []time.Weekday
	// From and To are minutes after local midnight.
	From, To int
	// TimeZone is the IANA name as declared; Location is it loaded.
	TimeZone string
	Location *time.Location
	// Blackout: apply is refused while the window is open.
	Blackout bool
	Range    diag.SourceRange
}

// crossesMidnight reports whether the window closes on the day after it
// opens.
func (w *Window) crossesMidnight() bool { return w.To <= w.From }

// opensOn reports whether the window opens on day d.
func (w *Window) opensOn(d time.Weekday) bool {
	return len(w.Days) == 0 || slices.Contains(w.Days, d)
}

// loc is the window's location (UTC when none was loaded).
func (w *Window) loc() *time.Location {
	if w.Location != nil {
		return w.Location
	}
	return time.UTC
}

// span is the window's opening that starts on the local day of day.
func (w *Window) span(day time.Time) (start, end time.Time) {
	y, m, d := day.Date()
	start = time.Date(y, m, d, w.From/60, w.From%60, 0, 0, w.loc())
	end = time.Date(y, m, d, w.To/60, w.To%60, 0, 0, w.loc())
	if w.crossesMidnight() {
		end = time.Date(y, m, d+1, w.To/60, w.To%60, 0, 0, w.loc())
	}
	return start, end
}

// OpenAt reports whether the window is open at t, and until when.
func (w *Window) OpenAt(t time.Time) (bool, time.Time) {
	lt := t.In(w.loc())
	for _, back := range []int{0, -1} {
		day := lt.AddDate(0, 0, back)
		if !w.opensOn(day.Weekday()) {
			continue
		}
		start, end := w.span(day)
		if !t.Before(start) && t.Before(end) {
			return true, end
		}
	}
	return false, time.Time{}
}

// NextOpening is the first time after t the window opens (within the next
// eight days: every window opens at least once a week).
func (w *Window) NextOpening(t time.Time) (time.Time, bool) {
	lt := t.In(w.loc())
	for i := 0; i <= 8; i++ {
		day := lt.AddDate(0, 0, i)
		if !w.opensOn(day.Weekday()) {
			continue
		}
		if start, _ := w.span(day); start.After(t) {
			return start, true
		}
	}
	return time.Time{}, false
}

// Describe is the window as people read it: "Mon–Fri 22:00–06:00 Asia/Tokyo".
func (w *Window) Describe() string {
	days := "every day"
	if len(w.Days) > 0 && len(w.Days) < 7 {
		days = DaysText(w.Days)
	}
	return fmt.Sprintf("%s %s–%s %s", days, ClockText(w.From), ClockText(w.To), w.TimeZone)
}

// ClockText renders minutes after midnight as "HH:MM".
func ClockText(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

// DaysText renders days as "Mon–Fri" when they run in a row (Monday
// first), else "Mon, Wed, Fri".
func DaysText(ds []time.Weekday) string {
	idx := make([]int, 0, len(ds))
	for _, d := range ds {
		idx = append(idx, (int(d)+6)%7) // Monday 0 … Sunday 6
	}
	sort.Ints(idx)
	idx = slices.Compact(idx)
	name := func(i int) string { return time.Weekday((i + 1) % 7).String()[:3] }
	if len(idx) > 2 && idx[len(idx)-1]-idx[0] == len(idx)-1 {
		return name(idx[0]) + "–" + name(idx[len(idx)-1])
	}
	parts := make([]string, len(idx))
	for i, x := range idx {
		parts[i] = name(x)
	}
	return strings.Join(parts, ", ")
}

// WindowVerdict is whether apply may change one cluster at a time.
type WindowVerdict struct {
	Allowed bool
	// Closed lists the change windows covering the cluster, none of them
	// open (empty when allowed or in a blackout only); Blackout is the open
	// blackout that forbids it (nil when none).
	Closed   []*Window
	Blackout *Window
	// Next is the first time after t at which apply may change the cluster
	// (zero when allowed, or when no time in the next eight days is), and
	// NextWindow the window that opens then (nil when Next is the end of a
	// blackout in a cluster with no change window).
	Next       time.Time
	NextWindow *Window
}

// WindowsFor returns the windows covering a cluster with these labels.
func WindowsFor(ws []Window, labels map[string]string) []*Window {
	var out []*Window
	for i := range ws {
		if HasLabels(labels, ws[i].Labels) {
			out = append(out, &ws[i])
		}
	}
	return out
}

// AllowedAt decides whether apply may change a cluster with these labels at
// t: when change windows cover it, one of them must be open; no blackout
// covering it may be open. It is the one rule of windows: apply and its
// refusals use it.
func AllowedAt(ws []Window, labels map[string]string, t time.Time) WindowVerdict {
	cover := WindowsFor(ws, labels)
	v := allowedAt(cover, t)
	if v.Allowed {
		return v
	}
	// The next allowed time is a change window's opening or a blackout's
	// end: try each, earliest first.
	type cand struct {
		at time.Time
		w  *Window
	}
	var cands []cand
	for _, w := range cover {
		if w.Blackout {
			if open, end := w.OpenAt(t); open {
				cands = append(cands, cand{at: end})
			}
			continue
		}
		if at, ok := w.NextOpening(t); ok {
			cands = append(cands, cand{at: at, w: w})
		}
	}
	// A window that opens while a blackout still holds opens again the
	// next day: look a week ahead, step by step.
	for i := 0; i < 16 && len(cands) > 0; i++ {
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].at.Before(cands[b].at) })
		c := cands[0]
		if allowedAt(cover, c.at).Allowed {
			v.Next, v.NextWindow = c.at, c.w
			if c.w == nil {
				// A blackout ends: name the change window open then, if any.
				for _, w := range cover {
					if open, _ := w.OpenAt(c.at); open && !w.Blackout {
						v.NextWindow = w
					}
				}
			}
			return v
		}
		cands = cands[1:]
		if c.w != nil {
			if at, ok := c.w.NextOpening(c.at); ok {
				cands = append(cands, cand{at: at, w: c.w})
			}
		}
		for _, w := range cover {
			if open, end := w.OpenAt(c.at); open && w.Blackout {
				cands = append(cands, cand{at: end})
			}
		}
	}
	return v
}

// allowedAt is AllowedAt without the next time.
func allowedAt(cover []*Window, t time.Time) WindowVerdict {
	v := WindowVerdict{Allowed: true}
	var closed []*Window
	changeWindows := 0
	open := false
	for _, w := range cover {
		isOpen, _ := w.OpenAt(t)
		switch {
		case w.Blackout && isOpen:
			v.Allowed, v.Blackout = false, w
		case w.Blackout:
		case isOpen:
			changeWindows++
			open = true
		default:
			changeWindows++
			closed = append(closed, w)
		}
	}
	if changeWindows > 0 && !open {
		v.Allowed = false
		v.Closed = closed
	}
	return v
}

package state

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func fleetOf(specs ...string) []*DesiredCluster {
	// "name:env" pairs
	var out []*DesiredCluster
	for _, s := range specs {
		name, env := s, ""
		for i := range s {
			if s[i] == ':' {
				name, env = s[:i], s[i+1:]
			}
		}
		dc := &DesiredCluster{Name: name}
		if env != "" {
			dc.Labels = map[string]string{"env": env}
		}
		out = append(out, dc)
	}
	return out
}

func TestRolloutAssign(t *testing.T) {
	five := fleetOf("alpha:prod", "beta:prod", "gamma:prod", "delta:prod", "epsilon:prod")
	prod := map[string]string{"env": "prod"}
	for _, tc := range []struct {
		name     string
		clusters []*DesiredCluster
		stages   []Stage
		want     [][]string
		rest     []string
	}{
		{
			name:     "canary then two waves, the issue's form",
			clusters: five,
			stages: []Stage{{Name: "canary", Clusters: []string{"alpha"}}, {Name: "wave-1", Labels: prod, MaxClusters: 2},
				{Name: "rest", Labels: prod}},
			want: [][]string{{"alpha"}, {"beta", "gamma"}, {"delta", "epsilon"}},
		},
		{
			name:     "a stage takes only what no earlier stage took, named clusters in their order",
			clusters: five,
			stages:   []Stage{{Name: "a", Clusters: []string{"gamma", "alpha"}}, {Name: "b", Clusters: []string{"alpha", "beta"}}, {Name: "c"}},
			want:     [][]string{{"gamma", "alpha"}, {"beta"}, {"delta", "epsilon"}},
		},
		{
			name:     "percent of the rollout's clusters, rounded up; the smaller cap holds",
			clusters: five,
			stages:   []Stage{{Name: "p", Percent: 30}, {Name: "q", Percent: 50, MaxClusters: 1}, {Name: "r"}},
			want:     [][]string{{"alpha", "beta"}, {"gamma"}, {"delta", "epsilon"}},
		},
		{
			name:     "a small percent takes at least one",
			clusters: five,
			stages:   []Stage{{Name: "p", Percent: 1}},
			want:     [][]string{{"alpha"}},
			rest:     []string{"beta", "gamma", "delta", "epsilon"},
		},
		{
			name:     "labels and names together: named and matching",
			clusters: fleetOf("alpha:prod", "beta:staging", "gamma:prod"),
			stages:   []Stage{{Name: "s", Clusters: []string{"alpha", "beta"}, Labels: prod}, {Name: "t", Labels: map[string]string{"env": "staging"}}},
			want:     [][]string{{"alpha"}, {"beta"}},
			rest:     []string{"gamma"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Rollout{Stages: tc.stages}
			got, rest := r.Assign(tc.clusters)
			var names [][]string
			for _, s := range got {
				names = append(names, s.Clusters)
			}
			if d := cmp.Diff(tc.want, names); d != "" {
				t.Errorf("stages (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.rest, rest); d != "" {
				t.Errorf("rest (-want +got):\n%s", d)
			}
		})
	}
}

func TestRolloutStops(t *testing.T) {
	var none *Rollout
	for _, c := range StopConditions {
		if !none.Stops(c) || !(&Rollout{}).Stops(c) {
			t.Errorf("%s does not stop a rollout by default", c)
		}
	}
	r := &Rollout{StopOn: []StopCondition{StopFailedChange}}
	if !r.Stops(StopFailedChange) || r.Stops(StopUnreachable) || r.Stops(StopErrorFinding) {
		t.Errorf("stop_on = [failed_change]: %v", r)
	}
	if (&Rollout{StopOn: []StopCondition{}}).Stops(StopFailedChange) {
		t.Error("stop_on = [] stops on a failed change")
	}
}

func tokyo(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// prodNights is the window: Mon–Fri 22:00–06:00 Asia/Tokyo.
func prodNights(t *testing.T) Window {
	return Window{Name: "prod-nights", Labels: map[string]string{"env": "prod"},
		Days: []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday},
		From: 22 * 60, To: 6 * 60, TimeZone: "Asia/Tokyo", Location: tokyo(t)}
}

func TestWindowOpenAcrossMidnight(t *testing.T) {
	w := prodNights(t)
	jst := tokyo(t)
	for _, tc := range []struct {
		at   time.Time
		open bool
		next string // RFC 3339 in Tokyo, for a closed window
	}{
		{at: time.Date(2026, 11, 30, 23, 0, 0, 0, jst), open: true},                                   // Monday night
		{at: time.Date(2026, 12, 1, 5, 59, 0, 0, jst), open: true},                                    // Tuesday 05:59: Monday's window
		{at: time.Date(2026, 12, 1, 6, 0, 0, 0, jst), open: false, next: "2026-12-01T22:00:00+09:00"}, // closes at 06:00
		{at: time.Date(2026, 11, 30, 21, 59, 0, 0, jst), open: false, next: "2026-11-30T22:00:00+09:00"},
		{at: time.Date(2026, 12, 5, 23, 0, 0, 0, jst), open: false, next: "2026-12-07T22:00:00+09:00"}, // Saturday: next Monday
		{at: time.Date(2026, 12, 5, 3, 0, 0, 0, jst), open: true},                                      // Saturday 03:00: Friday's window
		{at: time.Date(2026, 12, 6, 3, 0, 0, 0, jst), open: false, next: "2026-12-07T22:00:00+09:00"},  // Sunday 03:00
		// The same instant in UTC (14:00 UTC is 23:00 in Tokyo).
		{at: time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC), open: true},
	} {
		open, _ := w.OpenAt(tc.at)
		if open != tc.open {
			t.Errorf("%s: open = %v, want %v", tc.at, open, tc.open)
		}
		v := AllowedAt([]Window{w}, map[string]string{"env": "prod"}, tc.at)
		if v.Allowed != tc.open {
			t.Errorf("%s: allowed = %v, want %v", tc.at, v.Allowed, tc.open)
		}
		if !tc.open {
			if got := v.Next.In(jst).Format(time.RFC3339); got != tc.next || v.NextWindow == nil || v.NextWindow.Name != "prod-nights" {
				t.Errorf("%s: next = %s (%v), want %s", tc.at, got, v.NextWindow, tc.next)
			}
		}
	}
	// A cluster the window does not cover may always be changed.
	if v := AllowedAt([]Window{w}, map[string]string{"env": "staging"}, time.Date(2026, 12, 6, 3, 0, 0, 0, jst)); !v.Allowed {
		t.Errorf("staging is refused by a prod window: %+v", v)
	}
}

// A window keeps its local hours across a daylight-saving change.
func TestWindowDaylightSaving(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	w := Window{Name: "w", From: 1*60 + 30, To: 3 * 60, TimeZone: "America/New_York", Location: ny}
	// 2026-11-01: clocks go back at 02:00 EDT; the window opens at 01:30 local.
	next, ok := w.NextOpening(time.Date(2026, 10, 31, 12, 0, 0, 0, ny))
	if !ok || next.In(ny).Hour() != 1 || next.In(ny).Minute() != 30 || next.In(ny).Day() != 1 {
		t.Errorf("next opening %s", next.In(ny))
	}
}

func TestBlackoutAndNext(t *testing.T) {
	jst := tokyo(t)
	w := prodNights(t)
	freeze := Window{Name: "year-end", Blackout: true, From: 0, To: 0, TimeZone: "Asia/Tokyo", Location: jst,
		Days: []time.Weekday{time.Monday}}
	// Monday 23:00 in the window, but Monday is frozen (00:00 to 00:00 next day).
	at := time.Date(2026, 11, 30, 23, 0, 0, 0, jst)
	v := AllowedAt([]Window{w, freeze}, map[string]string{"env": "prod"}, at)
	if v.Allowed || v.Blackout == nil || v.Blackout.Name != "year-end" {
		t.Fatalf("verdict %+v", v)
	}
	// The blackout ends at Tuesday 00:00, inside Monday's window.
	if got := v.Next.In(jst).Format(time.RFC3339); got != "2026-12-01T00:00:00+09:00" || v.NextWindow == nil || v.NextWindow.Name != "prod-nights" {
		t.Errorf("next %s %v", got, v.NextWindow)
	}
	if got := w.Describe(); got != "Mon–Fri 22:00–06:00 Asia/Tokyo" {
		t.Errorf("Describe = %q", got)
	}
	if got := DaysText([]time.Weekday{time.Sunday, time.Wednesday, time.Monday}); got != "Mon, Wed, Sun" {
		t.Errorf("DaysText = %q", got)
	}
}

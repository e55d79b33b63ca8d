package rollout

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/state"
)

// Change windows (window blocks): apply changes a cluster only while one of
// the change windows covering it is open and no blackout covering it is
// (state.AllowedAt decides). Outside, apply is refused before anything is
// read, naming the next window; a rollout whose later stage meets a closed
// window pauses there (the state file says so, apply --resume continues).
// --ignore-windows REASON overrides, and the override is recorded.

// outside is one cluster apply may not change now.
type outside struct {
	cluster string
	v       state.WindowVerdict
}

// closed returns the clusters of cs that are outside their windows at now.
func (op *Operation) closed(cs []*state.DesiredCluster, now time.Time) []outside {
	var out []outside
	for _, dc := range cs {
		if v := state.AllowedAt(op.Desired.Windows, dc.Labels, now); !v.Allowed {
			out = append(out, outside{cluster: dc.Name, v: v})
		}
	}
	return out
}

// windowsBeforeStart refuses the apply of clusters, before anything is read,
// when one of them is outside its windows; with --ignore-windows it records
// the override and goes on (stage names the rollout's first stage, "" at
// once).
func (op *Operation) windowsBeforeStart(clusters []*state.DesiredCluster, stage string) (Result, bool) {
	now := op.now()
	out := op.closed(clusters, now)
	if len(out) == 0 {
		return Result{}, false
	}
	if op.IgnoreWindows != "" {
		if err := op.recordOverride(out, stage, now); err != nil {
			return Result{Outcome: Refused, Err: err}, true
		}
		return Result{}, false
	}
	return Result{Outcome: Refused, Err: fmt.Errorf("apply refused: %s Nothing was read or changed. Apply then, or pass --ignore-windows \"REASON\" to apply now (the reason is recorded in the audit log)",
		windowsText(out, now))}, true
}

// windowsAtStage pauses the rollout before stage i when a cluster of todo is
// outside its windows (or records the override with --ignore-windows).
func (r *run) windowsAtStage(i int, todo []*state.DesiredCluster) (Result, bool) {
	now := r.op.now()
	out := r.op.closed(todo, now)
	if len(out) == 0 {
		return Result{}, false
	}
	name := r.runs[i].stage.Name
	if r.op.IgnoreWindows != "" {
		if err := r.op.recordOverride(out, name, now); err != nil {
			return r.end(Stopped, name, err), true
		}
		return Result{}, false
	}
	r.st.PausedFor = "window"
	return r.end(Paused, name, fmt.Errorf("paused before stage %q: %s Resume then: tiform apply --resume %s",
		name, windowsText(out, now), r.op.StatePath)), true
}

// recordOverride records that --ignore-windows let apply change clusters
// outside their windows, with its reason, in the audit log and the event
// stream.
func (op *Operation) recordOverride(out []outside, stage string, now time.Time) error {
	var cs, why []string
	for _, o := range out {
		cs = append(cs, o.cluster)
		why = append(why, fmt.Sprintf("%s: %s", o.cluster, verdictText(o.v)))
	}
	return op.record(Event{Kind: EventWindowOverride, Stage: stage, Clusters: cs, Reason: op.IgnoreWindows,
		Detail: strings.Join(why, "; ") + " at " + utcText(now)})
}

// windowsText says which clusters are outside which windows at now, and when
// the next window opens: "cluster "beta" is outside its change window
// prod-nights (Mon–Fri 22:00–06:00 Asia/Tokyo) at Sat 2026-12-05 10:00 JST;
// the next window, prod-nights, opens Mon 2026-12-07 22:00 JST (13:00 UTC)."
func windowsText(out []outside, now time.Time) string {
	var parts []string
	var next time.Time
	var nextW *state.Window
	for _, o := range out {
		loc := time.UTC
		if w := firstWindow(o.v); w != nil {
			loc = w.Location
		}
		parts = append(parts, fmt.Sprintf("cluster %q %s at %s", o.cluster, verdictText(o.v), localText(now, loc)))
		if !o.v.Next.IsZero() && (next.IsZero() || o.v.Next.After(next)) {
			// Every cluster must be allowed: the latest of their next times.
			next, nextW = o.v.Next, o.v.NextWindow
		}
	}
	s := strings.Join(parts, "; ")
	switch {
	case next.IsZero():
		s += "; no window opens in the next week."
	case nextW != nil:
		s += fmt.Sprintf("; the next window, %s, opens %s.", nextW.Name, whenText(next, nextW.Location))
	default:
		s += fmt.Sprintf("; the blackout ends %s.", whenText(next, time.UTC))
	}
	return s
}

// firstWindow is the window a verdict is about (the blackout, or the first
// closed window).
func firstWindow(v state.WindowVerdict) *state.Window {
	if v.Blackout != nil {
		return v.Blackout
	}
	if len(v.Closed) > 0 {
		return v.Closed[0]
	}
	return nil
}

// verdictText says why a cluster may not be changed: "is outside its change
// window prod-nights (Mon–Fri 22:00–06:00 Asia/Tokyo)", "is in the blackout
// year-end (…)".
func verdictText(v state.WindowVerdict) string {
	if v.Blackout != nil {
		return fmt.Sprintf("is in the blackout %s (%s)", v.Blackout.Name, v.Blackout.Describe())
	}
	ws := make([]string, len(v.Closed))
	for i, w := range v.Closed {
		ws[i] = fmt.Sprintf("%s (%s)", w.Name, w.Describe())
	}
	sort.Strings(ws)
	if len(ws) == 1 {
		return "is outside its change window " + ws[0]
	}
	return "is outside all of its change windows " + strings.Join(ws, ", ")
}

// whenText is a time in a window's zone, with UTC: "Mon 2026-12-07 22:00
// JST (13:00 UTC)".
func whenText(t time.Time, loc *time.Location) string {
	if loc == nil || loc == time.UTC {
		return utcText(t)
	}
	u := utcText(t)
	if t.In(loc).Format("2006-01-02") == t.UTC().Format("2006-01-02") {
		u = t.UTC().Format("15:04 UTC")
	}
	return localText(t, loc) + " (" + u + ")"
}

func localText(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("Mon 2006-01-02 15:04 MST")
}

func utcText(t time.Time) string { return t.UTC().Format("Mon 2006-01-02 15:04 UTC") }

// CheckWindows decides, before anything is read, whether apply may change
// the clusters of d named names at now (a saved plan's, applied without
// the operation): an error naming the next window when one is outside its
// windows; with ignoreReason, nil once the override is recorded in the
// audit log audit names.
func CheckWindows(d *state.Desired, names []string, now time.Time, ignoreReason string, audit applier.Options) error {
	op := &Operation{Desired: d, IgnoreWindows: ignoreReason, Audit: audit, Hooks: Hooks{Now: func() time.Time { return now }}}
	var cs []*state.DesiredCluster
	for _, dc := range d.Clusters {
		for _, n := range names {
			if dc.Name == n {
				cs = append(cs, dc)
			}
		}
	}
	if res, stop := op.windowsBeforeStart(cs, ""); stop {
		return res.Err
	}
	return nil
}

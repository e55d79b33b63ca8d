package workload

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tiform/tiform/version"
)

// Verdict is the plan-cache recommendation in one word (stable: JSON views).
type Verdict string

const (
	// VerdictNoData: too few executions in the window to judge.
	VerdictNoData Verdict = "no-data"
	// VerdictNotWorth: more plan caching would not pay: most executions
	// cannot use the cache, or compiling is too small a part of the time.
	VerdictNotWorth Verdict = "not-worth-enabling"
	// VerdictRaiseSessionSize: cacheable statements repeat but miss, and
	// there are more of them than a session cache holds.
	VerdictRaiseSessionSize Verdict = "raise-session-cache-size"
	// VerdictRaiseInstanceSize: the instance cache is on and cacheable
	// statements still miss.
	VerdictRaiseInstanceSize Verdict = "raise-instance-cache-size"
	// VerdictInstanceCache: cacheable statements miss although a session
	// cache could hold them all: plans are compiled per session.
	VerdictInstanceCache Verdict = "consider-instance-cache"
	// VerdictWorking: the cache serves the executions it can serve.
	VerdictWorking Verdict = "working"
	// VerdictIdle: no plan cache is on for the statements the cluster runs.
	VerdictIdle Verdict = "cache-idle"
	// VerdictUndetermined: the figures do not decide (the reduced report).
	VerdictUndetermined Verdict = "undetermined"
)

// Thresholds of the recommendation (docs/checks.md explains each).
const (
	// MinExecutions: below this many executions of cacheable statements in
	// the window, nothing is judged.
	MinExecutions = 1000
	// NotWorthUnqualified: from this share of executions that cannot use
	// the cache, more caching is not worth it until the reasons are fixed.
	NotWorthUnqualified = 0.5
	// NotWorthSaving: below this share of statement time spent compiling the
	// misses, even a perfect cache saves too little.
	NotWorthSaving = 0.05
	// WorkingHitRatio: from this hit ratio among cacheable executions, the
	// cache works.
	WorkingHitRatio = 0.8
	// LowHitRatio: below this hit ratio among cacheable executions, misses
	// are a problem worth a setting change.
	LowHitRatio = 0.5
	// MinRepeats: executions per statement shape above which misses are not
	// just first executions.
	MinRepeats = 20
	// sessionSizeDefault is tidb_session_plan_cache_size's default.
	sessionSizeDefault = 100
	// maxCacheSize is the variables' upper bound.
	maxCacheSize = 100000
)

// Suggestion is one variable the advice would change.
type Suggestion struct {
	Variable, Current, Suggested, Why string
}

// Advice is the plan-cache recommendation with the figures behind it.
type Advice struct {
	Verdict Verdict
	// Summary is one sentence a reviewer can act on.
	Summary string
	Changes []Suggestion
	// Evidence are the figures the verdict rests on.
	Evidence []string
	// Caveats say what the verdict does not cover.
	Caveats []string
}

func boolVar(settings map[string]string, name string, def bool) bool {
	v, ok := settings[name]
	if !ok {
		return def
	}
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "ON", "1", "TRUE":
		return true
	case "OFF", "0", "FALSE":
		return false
	}
	return def
}

func intVar(settings map[string]string, name string, def int64) int64 {
	if n, err := strconv.ParseInt(strings.TrimSpace(settings[name]), 10, 64); err == nil && n > 0 {
		return n
	}
	return def
}

// sessionSizeVariable is the variable sizing the session cache on ver:
// tidb_session_plan_cache_size from v7.1.0, tidb_prepared_plan_cache_size
// before.
func sessionSizeVariable(ver string) string {
	if v, err := version.Parse(ver); err == nil && v.Before(7, 1, 0) {
		return VarPreparedCacheSize
	}
	return VarSessionCacheSize
}

// active is the figures of the statements whose cache switch is on.
func (r PlanCacheReport) active() Ratio {
	var a Ratio
	if boolVar(r.Settings, VarPreparedCache, true) {
		a = sum(a, r.Prepared)
	}
	if boolVar(r.Settings, VarNonPreparedCache, false) {
		a = sum(a, r.NonPrepared)
	}
	return a
}

func sum(a, b Ratio) Ratio {
	return Ratio{Digests: a.Digests + b.Digests, Executions: a.Executions + b.Executions, Hits: a.Hits + b.Hits,
		Unqualified: a.Unqualified + b.Unqualified, Bypassed: a.Bypassed + b.Bypassed, NotRecorded: a.NotRecorded + b.NotRecorded,
		Latency: a.Latency + b.Latency, HitLatency: a.HitLatency + b.HitLatency,
		CompileTime: a.CompileTime + b.CompileTime, MissCompileTime: a.MissCompileTime + b.MissCompileTime}
}

// advise decides the recommendation; each branch says which figures decided.
func advise(r PlanCacheReport) Advice {
	all, act := r.All, r.active()
	ev := []string{fmt.Sprintf("hit ratio %s of executions, %s of latency (%s executions of %d statement shape%s over %s)",
		Pct(all.ByExecutions()), Pct(all.ByLatency()), count(all.Executions), all.Digests, plural(all.Digests), Span(r.Since))}
	if nc := notCountedEvidence(r.NotCounted); nc != "" {
		ev = append(ev, nc)
	}
	if all.Judged() < MinExecutions {
		ev = append([]string{fmt.Sprintf("%s executions of %d cacheable statement shape%s over %s", count(all.Executions), all.Digests, plural(all.Digests), Span(r.Since))}, ev[1:]...)
		left := ""
		if all.Judged() != all.Executions {
			left = fmt.Sprintf(" (%s more that no plan cache serves or that TiDB did not record are left out)", count(all.Executions-all.Judged()))
		}
		return Advice{Verdict: VerdictNoData, Evidence: ev,
			Summary: fmt.Sprintf("too little traffic to judge: %s executions of cacheable statements in the window%s (at least %d needed); widen --since or check again under load",
				count(all.Judged()), left, MinExecutions)}
	}
	ev = append(ev, fmt.Sprintf("compiling the misses takes %s of statement time: the most any plan cache could save", Pct(all.SavingBound())))
	if act.Executions == 0 {
		return idleAdvice(r, ev)
	}
	if !r.Reduced {
		ev = append(ev, fmt.Sprintf("%s of executions cannot use the cache%s", Pct(act.UnqualifiedShare()), topReasonText(r.Reasons)))
	}
	switch {
	case !r.Reduced && act.UnqualifiedShare() >= NotWorthUnqualified:
		return Advice{Verdict: VerdictNotWorth, Evidence: ev,
			Summary: fmt.Sprintf("not worth enabling more plan caching: %s of executions cannot use the cache%s; fix those statements first",
				Pct(act.UnqualifiedShare()), topReasonText(r.Reasons)),
			Changes: keepOff(r)}
	case act.QualifiedHitRatio() >= WorkingHitRatio && (!r.Reduced || act.ByExecutions() >= WorkingHitRatio):
		return Advice{Verdict: VerdictWorking, Evidence: ev,
			Summary: fmt.Sprintf("the plan cache works: %s of the executions that can use it hit; no change indicated", Pct(act.QualifiedHitRatio()))}
	case all.SavingBound() < NotWorthSaving:
		return Advice{Verdict: VerdictNotWorth, Evidence: ev,
			Summary: fmt.Sprintf("not worth enabling more plan caching: compiling the misses takes only %s of statement time", Pct(all.SavingBound())),
			Changes: keepOff(r)}
	case r.Reduced:
		return Advice{Verdict: VerdictUndetermined, Evidence: ev,
			Summary: fmt.Sprintf("cannot tell: the hit ratio is %s, but TiDB %s does not record why statements miss (PLAN_CACHE_UNQUALIFIED, v8.2.0+); "+
				"check the statements that would gain most one by one", Pct(act.ByExecutions()), orThis(r.Version))}
	}
	return missAdvice(r, act, ev)
}

// idleAdvice: no cache is on for the statements the cluster runs.
func idleAdvice(r PlanCacheReport, ev []string) Advice {
	a := Advice{Verdict: VerdictIdle, Evidence: ev}
	np := r.NonPrepared
	if np.Executions > 0 && !boolVar(r.Settings, VarNonPreparedCache, false) {
		a.Summary = fmt.Sprintf("no plan cache serves this workload: %s of its executions are not prepared and the non-prepared cache is OFF",
			Pct(frac(float64(np.Executions), float64(r.All.Executions))))
		a.Caveats = []string{"with the non-prepared cache OFF TiDB does not check which statements it could cache: enabling it for one " +
			"session (SET SESSION tidb_enable_non_prepared_plan_cache = ON) or one TiDB instance and checking again shows the reasons"}
		if r.NonPrepared.SavingBound() >= NotWorthSaving {
			a.Changes = []Suggestion{{Variable: VarNonPreparedCache, Current: "OFF", Suggested: "ON (measure first)",
				Why: fmt.Sprintf("compiling these statements takes %s of their time", Pct(r.NonPrepared.SavingBound()))}}
		}
		return a
	}
	a.Summary = "no plan cache serves this workload: the switches for its statements are OFF"
	return a
}

// missAdvice: cacheable statements miss; say which setting explains it.
func missAdvice(r PlanCacheReport, act Ratio, ev []string) Advice {
	qh := act.QualifiedHitRatio()
	repeats := act.Judged() / int64(max(act.Digests, 1))
	cacheable := r.CacheableShapes
	sizeVar := sessionSizeVariable(r.Version)
	size := intVar(r.Settings, sizeVar, sessionSizeDefault)
	ev = append(ev, fmt.Sprintf("%s of the executions that can use the cache hit; %d cacheable statement shapes, %s executions each on average; %s = %d",
		Pct(qh), cacheable, count(repeats), sizeVar, size))
	if qh >= LowHitRatio || repeats < MinRepeats {
		return Advice{Verdict: VerdictWorking, Evidence: ev,
			Summary: fmt.Sprintf("no setting change indicated: %s of the executions that can use the cache hit", Pct(qh))}
	}
	if boolVar(r.Settings, VarInstanceCache, false) {
		cur := r.Settings[VarInstanceCacheMax]
		return Advice{Verdict: VerdictRaiseInstanceSize, Evidence: ev,
			Summary: fmt.Sprintf("raise %s: the instance plan cache is on and only %s of cacheable executions hit", VarInstanceCacheMax, Pct(qh)),
			Changes: []Suggestion{{Variable: VarInstanceCacheMax, Current: cur, Suggested: "about twice the current size",
				Why: "repeated cacheable statements miss; watch the \"Plan Cache Memory Usage\" panel after raising it"}},
		}
	}
	if int64(cacheable) > size {
		want := roundUp(int64(float64(cacheable)*1.25), 50)
		if want > maxCacheSize {
			want = maxCacheSize
		}
		return Advice{Verdict: VerdictRaiseSessionSize, Evidence: ev,
			Summary: fmt.Sprintf("raise %s from %d to %d: %d cacheable statement shapes repeat but only %s of their executions hit",
				sizeVar, size, want, cacheable, Pct(qh)),
			Changes: []Suggestion{{Variable: sizeVar, Current: strconv.FormatInt(size, 10), Suggested: strconv.FormatInt(want, 10),
				Why: fmt.Sprintf("a session cache holds %d plans and the workload repeats %d cacheable statement shapes: plans are evicted before they are reused", size, cacheable)}},
			Caveats: []string{"each cached plan costs TiDB memory in every session: watch \"Plan Cache Memory Usage\"; the docs suggest 50 for TiDB hosts with 64 GiB or less, 100 above"},
		}
	}
	return sharedCacheAdvice(r, qh, ev)
}

// sharedCacheAdvice: cacheable statements fit a session cache and still
// miss: plans are compiled per session (short connections, many sessions) or
// invalidated.
func sharedCacheAdvice(r PlanCacheReport, qh float64, ev []string) Advice {
	caveat := "misses also come from invalidation: DDL, statistics updates (tidb_plan_cache_invalidation_on_fresh_stats) and " +
		"parameters of different types"
	if v, err := version.Parse(r.Version); err == nil && v.InstancePlanCache() {
		return Advice{Verdict: VerdictInstanceCache, Evidence: ev, Caveats: []string{caveat},
			Summary: fmt.Sprintf("cacheable statements fit a session cache but only %s hit: plans are compiled per session; "+
				"the instance plan cache shares them (experimental, v8.4.0+): measure before and after", Pct(qh)),
			Changes: []Suggestion{{Variable: VarInstanceCache, Current: "OFF", Suggested: "ON (measure)",
				Why: "short-lived or many sessions each compile their own plans"}},
		}
	}
	return Advice{Verdict: VerdictUndetermined, Evidence: ev, Caveats: []string{caveat},
		Summary: fmt.Sprintf("cacheable statements fit a session cache but only %s hit: plans are compiled per session "+
			"(short-lived connections) or invalidated; TiDB %s has no instance plan cache (v8.4.0+)", Pct(qh), orThis(r.Version))}
}

// keepOff suggests keeping off the caches that are off.
func keepOff(r PlanCacheReport) []Suggestion {
	var out []Suggestion
	for _, name := range []string{VarInstanceCache, VarNonPreparedCache} {
		if name == VarInstanceCache {
			if v, err := version.Parse(r.Version); err != nil || !v.InstancePlanCache() {
				continue
			}
		}
		on := boolVar(r.Settings, name, false)
		s := Suggestion{Variable: name, Current: onOff(on), Suggested: "keep OFF", Why: "keep it off until the figures change"}
		if on {
			s.Suggested, s.Why = "OFF", "it costs memory and checks for little gain: consider turning it off"
		}
		out = append(out, s)
	}
	return out
}

// notCountedEvidence is the evidence line of the executions left out of the
// misses ("" when none).
func notCountedEvidence(ncs []NotCounted) string {
	if len(ncs) == 0 {
		return ""
	}
	var parts []string
	for _, nc := range ncs {
		parts = append(parts, fmt.Sprintf("%s %s", count(nc.Executions), nc.Title))
	}
	return "not counted as misses: " + strings.Join(parts, "; ")
}

func topReasonText(rs []ReasonCount) string {
	if len(rs) == 0 {
		return ""
	}
	return "; top reason: " + rs[0].Title
}

func onOff(b bool) string {
	if b {
		return "ON"
	}
	return "OFF"
}

func orThis(ver string) string {
	if ver == "" {
		return "(unknown version)"
	}
	return ver
}

func roundUp(n, step int64) int64 {
	if n%step == 0 {
		return n
	}
	return (n/step + 1) * step
}

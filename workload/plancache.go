package workload

import (
	"slices"
	"sort"
	"strings"
	"time"
)

// Plan-cache variables (https://docs.pingcap.com/tidb/stable/system-variables).
const (
	VarPreparedCache     = "tidb_enable_prepared_plan_cache"
	VarNonPreparedCache  = "tidb_enable_non_prepared_plan_cache"
	VarNonPreparedDML    = "tidb_enable_non_prepared_plan_cache_for_dml"
	VarInstanceCache     = "tidb_enable_instance_plan_cache"
	VarSessionCacheSize  = "tidb_session_plan_cache_size"
	VarPreparedCacheSize = "tidb_prepared_plan_cache_size"
	VarNonPreparedSize   = "tidb_non_prepared_plan_cache_size"
	VarInstanceCacheMax  = "tidb_instance_plan_cache_max_size"
	VarStmtSummary       = "tidb_enable_stmt_summary"
	VarRefreshInterval   = "tidb_stmt_summary_refresh_interval"
	VarHistorySize       = "tidb_stmt_summary_history_size"
	VarGCLifeTime        = "tidb_gc_life_time"
)

// PlanCacheVariables are the variables whose planned change makes a plan
// carry plan-cache evidence (switches and sizes of the caches).
var PlanCacheVariables = []string{
	VarPreparedCache, VarNonPreparedCache, VarNonPreparedDML, VarInstanceCache,
	VarSessionCacheSize, VarPreparedCacheSize, VarNonPreparedSize, VarInstanceCacheMax,
}

// ReportedVariables are the variables a plan-cache report shows as read.
var ReportedVariables = append(append([]string(nil), PlanCacheVariables...), VarStmtSummary, VarRefreshInterval, VarHistorySize)

// cacheableTypes are the STMT_TYPE values of statements a plan cache can
// serve (IsASTCacheable: SELECT, UPDATE, INSERT, DELETE, set operations;
// REPLACE is an INSERT). Other statements (Commit, Begin, Set, Show, DDL)
// are left out of the ratios.
var cacheableTypes = map[string]bool{"select": true, "insert": true, "replace": true, "update": true, "delete": true}

// Ratio is the plan-cache figures of one set of statements.
type Ratio struct {
	// Digests is the number of statement shapes.
	Digests    int
	Executions int64
	Hits       int64
	// Unqualified is the executions that could not use the cache (0 before
	// TiDB v8.2.0).
	Unqualified int64
	// Bypassed is the executions that never use a plan cache by design
	// (NotCountedPointGet, NotCountedNonPreparedDML) and NotRecorded the
	// non-prepared ones whose use TiDB did not record (NotCountedNotRecorded):
	// neither counts as a miss.
	Bypassed, NotRecorded int64
	Latency               time.Duration
	// HitLatency is the latency of the executions that hit (per digest:
	// latency × hits / executions).
	HitLatency  time.Duration
	CompileTime time.Duration
	// MissCompileTime is the compile time of the executions that missed (per
	// digest: compile time × misses / executions), what a cache could save at
	// most.
	MissCompileTime time.Duration
}

// ByExecutions is the share of executions whose plan came from the cache.
func (r Ratio) ByExecutions() float64 { return frac(float64(r.Hits), float64(r.Executions)) }

// ByLatency is the share of statement time spent in executions that hit.
func (r Ratio) ByLatency() float64 { return frac(float64(r.HitLatency), float64(r.Latency)) }

// Judged is the executions the cache's figures speak for: every one but
// those that never use a cache by design and those TiDB did not record.
func (r Ratio) Judged() int64 { return r.Executions - r.Bypassed - r.NotRecorded }

// UnqualifiedShare is the share of the judged executions that could not use
// the cache.
func (r Ratio) UnqualifiedShare() float64 {
	return frac(float64(r.Unqualified), float64(r.Judged()))
}

// QualifiedHitRatio is the hit ratio among the executions that could use
// the cache.
func (r Ratio) QualifiedHitRatio() float64 {
	return frac(float64(r.Hits), float64(r.Judged()-r.Unqualified))
}

// SavingBound is the share of statement time a perfect cache could save:
// the compile time of the misses over the total latency.
func (r Ratio) SavingBound() float64 { return frac(float64(r.MissCompileTime), float64(r.Latency)) }

func frac(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	f := a / b
	if f > 1 {
		return 1
	}
	return f
}

func (r *Ratio) add(s Statement, u usage) {
	r.Digests++
	r.Executions += s.Executions
	r.Hits += s.CacheHits
	r.Unqualified += s.Unqualified
	r.Bypassed += u.bypassed
	r.NotRecorded += u.notRecorded
	r.Latency += s.Latency
	r.CompileTime += s.CompileTime
	if s.Executions > 0 {
		hits := min(s.CacheHits, s.Executions)
		missed := max(s.Executions-hits-u.bypassed, 0)
		r.HitLatency += time.Duration(float64(s.Latency) * float64(hits) / float64(s.Executions))
		r.MissCompileTime += time.Duration(float64(s.CompileTime) * float64(missed) / float64(s.Executions))
	}
}

// NotCountedKind says why executions are left out of the misses.
type NotCountedKind string

const (
	// NotCountedPointGet: point gets sent as SQL text. TiDB plans a point
	// get on a primary or unique key without the optimizer and returns it
	// before any plan cache is consulted
	// (pingcap/tidb@e4e814fdc0af:pkg/planner/optimize.go, Optimize:
	// TryFastPlan comes first), so a non-prepared point get never comes from
	// a cache and records no reason.
	NotCountedPointGet NotCountedKind = "point-get"
	// NotCountedNonPreparedDML: non-prepared INSERT, UPDATE, DELETE and
	// locking reads while tidb_enable_non_prepared_plan_cache_for_dml is
	// OFF: the non-prepared cache serves only plain SELECT then
	// (pkg/planner/core/plan_cacheable_checker.go,
	// NonPreparedPlanCacheableWithCtx), without recording a reason.
	NotCountedNonPreparedDML NotCountedKind = "non-prepared-dml"
	// NotCountedNotRecorded: non-prepared statements that never hit while
	// the non-prepared cache is on, with no reason recorded. The cache
	// refuses some statements before planning (more than 2 tables, hints,
	// subqueries, …) and says why only as an EXPLAIN FORMAT='plan_cache'
	// warning (pkg/planner/optimize.go, getPlanFromNonPreparedPlanCache), so
	// such a statement looks like one that missed every time: it is not
	// counted as either.
	NotCountedNotRecorded NotCountedKind = "not-recorded"
)

// NotCounted is executions left out of the misses, of one kind.
type NotCounted struct {
	Kind                  NotCountedKind
	Title, Meaning, Check string
	Executions            int64
	Digests               int
	// Example is the DIGEST_TEXT of the statement with most such executions.
	Example string
}

// notCountedText explains each kind (Title, Meaning, what to check).
var notCountedText = map[NotCountedKind][3]string{
	NotCountedPointGet: {"point gets sent as SQL text",
		"TiDB plans a primary- or unique-key point get (Point_Get, Batch_Point_Get) without the optimizer, before it looks in a plan cache: " +
			"a non-prepared point get never comes from a cache and no cache setting changes that. A prepared point get does use the prepared " +
			"cache (TiDB records it with PREPARED = 0; its hits are counted).",
		"nothing to fix: the plan costs next to nothing to build"},
	NotCountedNonPreparedDML: {"non-prepared DML and locking reads",
		"While tidb_enable_non_prepared_plan_cache_for_dml is OFF the non-prepared cache serves only SELECT without FOR UPDATE; TiDB " +
			"records no reason for the others.",
		"send them as prepared statements to cache their plans"},
	NotCountedNotRecorded: {"non-prepared statements that never hit, no reason recorded",
		"The non-prepared cache refuses some statements before planning (more than 2 tables, hints, subqueries, window functions, …) " +
			"and records why only as an EXPLAIN FORMAT='plan_cache' warning, so TiDB's statistics cannot tell them from statements that " +
			"missed every time.",
		"run EXPLAIN FORMAT='plan_cache' <statement> and read SHOW WARNINGS (\"skip non-prepared plan-cache: …\")"},
}

// usage is how one statement's executions stand towards the plan cache.
type usage struct {
	// prepared: the executions were prepared statements' (Statement.Prepared,
	// or a point get every execution of which came by the binary protocol).
	prepared bool
	// bypassed executions never use a cache by design, of kind kind;
	// notRecorded ones are non-prepared executions TiDB did not record.
	bypassed, notRecorded int64
	kind                  NotCountedKind
}

// usageOf classifies st's executions, under the cache settings read.
func usageOf(st Statement, settings map[string]string) usage {
	u := usage{prepared: st.Prepared || st.PointPlan && !st.TextProtocol}
	rest := max(st.Executions-st.CacheHits-st.Unqualified, 0)
	switch {
	case st.PointPlan && st.TextProtocol:
		// Some executions were text: they bypass the cache. Those of a
		// prepared point get that missed cannot be told apart; they would
		// save only the point plan's build.
		u.bypassed, u.kind = rest, NotCountedPointGet
	case st.PointPlan || u.prepared:
	case lockingOrDML(st) && !boolVar(settings, VarNonPreparedDML, false):
		u.bypassed, u.kind = rest, NotCountedNonPreparedDML
	case boolVar(settings, VarNonPreparedCache, false) && st.CacheHits == 0 && st.Unqualified == 0:
		u.notRecorded, u.kind = st.Executions, NotCountedNotRecorded
	}
	return u
}

// lockingOrDML: a statement the non-prepared cache serves only with
// tidb_enable_non_prepared_plan_cache_for_dml ON: not a SELECT, or a
// locking read (DIGEST_TEXT is lower-case).
func lockingOrDML(st Statement) bool {
	if !strings.EqualFold(st.Type, "select") {
		return true
	}
	t := st.Text
	return strings.Contains(t, " for update") || strings.Contains(t, " for share") || strings.Contains(t, " lock in share mode")
}

// ReasonCount is one reason statements could not use the cache, with how
// often.
type ReasonCount struct {
	Reason
	// Texts are TiDB's reason texts of this kind, as written, sorted.
	Texts []string
	// Unqualified is the executions that could not use the cache for it;
	// Share is their part of all cacheable-kind executions.
	Unqualified int64
	Share       float64
	Digests     int
	// Example is the DIGEST_TEXT of the statement with most such executions.
	Example string
}

// Gain is a statement that would gain from the cache: the compile time its
// misses cost.
type Gain struct {
	Digest, Text string
	Prepared     bool
	Executions   int64
	Hits         int64
	Unqualified  int64
	// MissCompileTime is the compile time of its misses.
	MissCompileTime time.Duration
	AvgLatency      time.Duration
	// Blocker is the main reason it cannot use the cache (zero Key when it
	// can, or when the version does not say).
	Blocker Reason
}

// PlanCacheReport is the result of the plan-cache analysis.
type PlanCacheReport struct {
	Read
	// Reduced is set before TiDB v8.2.0: PLAN_CACHE_UNQUALIFIED is not
	// recorded, so the report cannot say which misses the cache could not
	// have served, nor why. CannotSee lists what is missing.
	Reduced   bool
	CannotSee []string
	// Settings are the plan-cache variables as read (name → value).
	Settings map[string]string
	// All covers the cacheable kinds of statements; Prepared and
	// NonPrepared split them. OtherExecutions counts the executions of other
	// kinds (Commit, Begin, Set, …), of statements on system schemas only
	// and of statements that read no table, left out of the ratios.
	All, Prepared, NonPrepared Ratio
	OtherExecutions            int64
	// CacheableShapes counts the statement shapes under a cache that is on
	// with executions that could use it (all of them before v8.2.0).
	CacheableShapes int
	// NotCounted are the executions left out of the misses, by kind
	// (point-get, non-prepared-dml, not-recorded, in that order; only kinds
	// that occur).
	NotCounted []NotCounted
	// Reasons are the top reasons, most unqualified executions first.
	Reasons []ReasonCount
	// Gains are the statements that would gain most, most compile time first.
	Gains  []Gain
	Advice Advice
}

// Report sizes.
const (
	topReasons = 5
	topGains   = 10
)

// PlanCache analyses a sample. It never fails: an empty sample gives a
// report whose advice says there is nothing to judge.
func PlanCache(s Sample) PlanCacheReport {
	stmts := Merge(s.Statements)
	rep := PlanCacheReport{Read: s.read(len(stmts)), Reduced: !s.Unqualified, Settings: map[string]string{}}
	for _, name := range ReportedVariables {
		if v, ok := s.Variables[name]; ok {
			rep.Settings[name] = v
		}
	}
	var cacheable []Statement
	var uses []usage
	for _, st := range stmts {
		if !cacheableTypes[strings.ToLower(st.Type)] || (len(st.Tables) == 0 && !st.PointPlan) || (len(st.Tables) > 0 && systemOnly(st.Tables)) {
			rep.OtherExecutions += st.Executions
			continue
		}
		u := usageOf(st, rep.Settings)
		cacheable, uses = append(cacheable, st), append(uses, u)
		rep.All.add(st, u)
		if u.prepared {
			rep.Prepared.add(st, u)
		} else {
			rep.NonPrepared.add(st, u)
		}
	}
	rep.CacheableShapes = cacheableShapes(cacheable, uses, rep.Settings)
	rep.NotCounted = notCountedList(cacheable, uses)
	if rep.Reduced {
		rep.CannotSee = reducedGaps(s.Version)
	} else {
		rep.Reasons = topReasonCounts(cacheable, rep.All.Judged())
	}
	rep.Gains = topGainList(cacheable, uses, !rep.Reduced)
	rep.Advice = advise(rep)
	return rep
}

// systemOnly reports whether every table is in a system schema, which no
// plan cache serves ("access tables in system schema"): tiform's own reads,
// monitoring queries. A statement that names no table (SELECT @@var,
// SELECT VERSION()) is left out as well: its plan is a TableDual, which the
// caches do not keep ("get a TableDual plan"), and the non-prepared cache
// refuses it without recording why. (A batch point get also shows no
// TABLE_NAMES, pingcap/tidb@e4e814fdc0af; its plan says what it is: PlanCache
// keeps it.)
func systemOnly(tables []string) bool {
	for _, t := range tables {
		db, _, _ := strings.Cut(strings.ToLower(t), ".")
		switch db {
		case "information_schema", "mysql", "performance_schema", "metrics_schema":
		default:
			return false
		}
	}
	return true
}

// cacheableShapes counts the statements whose cache switch is on and that
// had executions able to use the cache.
func cacheableShapes(stmts []Statement, uses []usage, settings map[string]string) int {
	prep, nonPrep := boolVar(settings, VarPreparedCache, true), boolVar(settings, VarNonPreparedCache, false)
	n := 0
	for i, st := range stmts {
		u := uses[i]
		if (u.prepared && prep || !u.prepared && nonPrep) && st.Executions-st.Unqualified-u.bypassed-u.notRecorded > 0 {
			n++
		}
	}
	return n
}

// notCountedList sums the executions left out of the misses, by kind.
func notCountedList(stmts []Statement, uses []usage) []NotCounted {
	var out []NotCounted
	for _, kind := range []NotCountedKind{NotCountedPointGet, NotCountedNonPreparedDML, NotCountedNotRecorded} {
		txt := notCountedText[kind]
		nc := NotCounted{Kind: kind, Title: txt[0], Meaning: txt[1], Check: txt[2]}
		var best int64
		for i, st := range stmts {
			n := uses[i].bypassed + uses[i].notRecorded
			if uses[i].kind != kind || n == 0 {
				continue
			}
			nc.Executions += n
			nc.Digests++
			if n > best || (n == best && st.Text < nc.Example) {
				best, nc.Example = n, st.Text
			}
		}
		if nc.Executions > 0 {
			out = append(out, nc)
		}
	}
	return out
}

// reducedGaps says what a report without PLAN_CACHE_UNQUALIFIED cannot see.
func reducedGaps(ver string) []string {
	on := "this TiDB"
	if ver != "" {
		on = "TiDB " + ver
	}
	return []string{
		on + " does not record PLAN_CACHE_UNQUALIFIED / PLAN_CACHE_UNQUALIFIED_LAST_REASON (added in v8.2.0, pingcap/tidb#50618): " +
			"the report cannot tell a miss the cache could have served from a statement the cache refuses, nor why it refuses it.",
		"so no top reasons, and no cache-size advice: a low hit ratio may mean a cache too small or statements that are never cacheable.",
		"per statement, `EXPLAIN FORMAT='plan_cache' <query>` (non-prepared) or PREPARE/EXECUTE then SHOW WARNINGS gives the reason (\"skip plan-cache: …\").",
	}
}

// topReasonCounts groups the unqualified executions by reason kind.
func topReasonCounts(stmts []Statement, total int64) []ReasonCount {
	byKey := map[string]*ReasonCount{}
	best := map[string]int64{}
	for _, st := range stmts {
		seen := map[string]bool{}
		for text, n := range st.Reasons {
			if strings.TrimSpace(text) == "" || n <= 0 {
				continue
			}
			r := Explain(text)
			rc, ok := byKey[r.Key]
			if !ok {
				rc = &ReasonCount{Reason: r}
				byKey[r.Key] = rc
			}
			rc.Unqualified += n
			if !slices.Contains(rc.Texts, text) {
				rc.Texts = append(rc.Texts, text)
			}
			if !seen[r.Key] {
				seen[r.Key] = true
				rc.Digests++
			}
			if n > best[r.Key] || (n == best[r.Key] && st.Text < rc.Example) {
				best[r.Key], rc.Example = n, st.Text
			}
		}
	}
	out := make([]ReasonCount, 0, len(byKey))
	for _, rc := range byKey {
		sort.Strings(rc.Texts)
		rc.Share = frac(float64(rc.Unqualified), float64(total))
		out = append(out, *rc)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Unqualified != out[j].Unqualified {
			return out[i].Unqualified > out[j].Unqualified
		}
		return out[i].Key < out[j].Key
	})
	if len(out) > topReasons {
		out = out[:topReasons]
	}
	return out
}

// topGainList ranks statements by the compile time of their misses.
func topGainList(stmts []Statement, uses []usage, reasons bool) []Gain {
	var out []Gain
	for i, st := range stmts {
		var r Ratio
		r.add(st, uses[i])
		if r.MissCompileTime <= 0 {
			continue
		}
		g := Gain{Digest: st.Digest, Text: st.Text, Prepared: uses[i].prepared, Executions: st.Executions,
			Hits: st.CacheHits, Unqualified: st.Unqualified, MissCompileTime: r.MissCompileTime, AvgLatency: st.AvgLatency()}
		if reasons {
			g.Blocker = mainReason(st)
		}
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].MissCompileTime != out[j].MissCompileTime {
			return out[i].MissCompileTime > out[j].MissCompileTime
		}
		if out[i].Digest != out[j].Digest {
			return out[i].Digest < out[j].Digest
		}
		return !out[i].Prepared && out[j].Prepared
	})
	if len(out) > topGains {
		out = out[:topGains]
	}
	return out
}

// mainReason is the reason with most unqualified executions of a statement.
func mainReason(st Statement) Reason {
	var bestText string
	var bestN int64
	for text, n := range st.Reasons {
		if strings.TrimSpace(text) == "" {
			continue
		}
		if n > bestN || (n == bestN && text < bestText) {
			bestText, bestN = text, n
		}
	}
	if bestN == 0 {
		return Reason{}
	}
	return Explain(bestText)
}

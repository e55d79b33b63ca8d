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
	Latency     time.Duration
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

// UnqualifiedShare is the share of executions that could not use the cache.
func (r Ratio) UnqualifiedShare() float64 {
	return frac(float64(r.Unqualified), float64(r.Executions))
}

// QualifiedHitRatio is the hit ratio among the executions that could use
// the cache.
func (r Ratio) QualifiedHitRatio() float64 {
	return frac(float64(r.Hits), float64(r.Executions-r.Unqualified))
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

func (r *Ratio) add(s Statement) {
	r.Digests++
	r.Executions += s.Executions
	r.Hits += s.CacheHits
	r.Unqualified += s.Unqualified
	r.Latency += s.Latency
	r.CompileTime += s.CompileTime
	if s.Executions > 0 {
		hits := min(s.CacheHits, s.Executions)
		r.HitLatency += time.Duration(float64(s.Latency) * float64(hits) / float64(s.Executions))
		r.MissCompileTime += time.Duration(float64(s.CompileTime) * float64(s.Executions-hits) / float64(s.Executions))
	}
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
	// kinds (Commit, Begin, Set, …) and of statements on system schemas only,
	// left out of the ratios.
	All, Prepared, NonPrepared Ratio
	OtherExecutions            int64
	// CacheableShapes counts the statement shapes under a cache that is on
	// with executions that could use it (all of them before v8.2.0).
	CacheableShapes int
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
	for _, st := range stmts {
		if !cacheableTypes[strings.ToLower(st.Type)] || systemOnly(st.Tables) {
			rep.OtherExecutions += st.Executions
			continue
		}
		cacheable = append(cacheable, st)
		rep.All.add(st)
		if st.Prepared {
			rep.Prepared.add(st)
		} else {
			rep.NonPrepared.add(st)
		}
	}
	rep.CacheableShapes = cacheableShapes(cacheable, rep.Settings)
	if rep.Reduced {
		rep.CannotSee = reducedGaps(s.Version)
	} else {
		rep.Reasons = topReasonCounts(cacheable, rep.All.Executions)
	}
	rep.Gains = topGainList(cacheable, !rep.Reduced)
	rep.Advice = advise(rep)
	return rep
}

// systemOnly reports whether every table is in a system schema, which no
// plan cache serves ("access tables in system schema"): tiform's own reads,
// monitoring queries.
func systemOnly(tables []string) bool {
	if len(tables) == 0 {
		return false
	}
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
func cacheableShapes(stmts []Statement, settings map[string]string) int {
	prep, nonPrep := boolVar(settings, VarPreparedCache, true), boolVar(settings, VarNonPreparedCache, false)
	n := 0
	for _, st := range stmts {
		if (st.Prepared && prep || !st.Prepared && nonPrep) && st.Executions > st.Unqualified {
			n++
		}
	}
	return n
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
func topGainList(stmts []Statement, reasons bool) []Gain {
	var out []Gain
	for _, st := range stmts {
		var r Ratio
		r.add(st)
		if r.MissCompileTime <= 0 {
			continue
		}
		g := Gain{Digest: st.Digest, Text: st.Text, Prepared: st.Prepared, Executions: st.Executions,
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

package guard

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Plan-cache rules: TF120–TF124 (https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache,
// https://docs.pingcap.com/tidb/stable/sql-non-prepared-plan-cache).

const (
	varInstancePlanCache    = "tidb_enable_instance_plan_cache"
	varPreparedPlanCache    = "tidb_enable_prepared_plan_cache"
	varNonPreparedPlanCache = "tidb_enable_non_prepared_plan_cache"

	linkNonPrepared   = "https://docs.pingcap.com/tidb/stable/sql-non-prepared-plan-cache"
	linkStmtSummary   = "https://docs.pingcap.com/tidb/stable/statement-summary-tables"
	linkTidb56136     = "https://github.com/pingcap/tidb/pull/56136"
	linkPerfTuning    = "https://docs.pingcap.com/tidb/stable/tidb-performance-tuning-config"
	linkInstanceCache = "https://docs.pingcap.com/tidb/stable/system-variables#tidb_enable_instance_plan_cache-new-in-v840"
)

// instancePlanCacheVars exist from TiDB v8.4.0
// (https://docs.pingcap.com/tidb/stable/release-8.4.0).
var instancePlanCacheVars = map[string]bool{
	varInstancePlanCache:                           true,
	"tidb_instance_plan_cache_max_size":            true,
	"tidb_instance_plan_cache_reserved_percentage": true,
}

func init() {
	register(
		&Rule{
			Code: "TF120", Severity: diag.Error,
			Title:    "Instance plan cache before TiDB v8.4.0",
			Link:     linkSysvars,
			Versions: "TiDB < v8.4.0",
			Reasoning: "tidb_enable_instance_plan_cache, tidb_instance_plan_cache_max_size and " +
				"tidb_instance_plan_cache_reserved_percentage were introduced in v8.4.0; SET GLOBAL fails on older " +
				"versions.",
			Sources: []string{linkInstanceCache, linkRelease840},
			check:   checkInstancePlanCacheVersion,
		},
		&Rule{
			Code: "TF121", Severity: diag.Error, Live: true,
			Title:    "Instance plan cache with nothing to cache",
			Link:     linkSysvars,
			Versions: "TiDB v8.4.0+",
			Reasoning: "The instance plan cache only replaces the cache's storage: a plan is cached only when " +
				"tidb_enable_prepared_plan_cache (prepared statements) or tidb_enable_non_prepared_plan_cache (other " +
				"statements) is ON. With both OFF the instance cache receives nothing. The docs' advice to turn off " +
				"the \"session-level\" caches refers to the session cache storage, not to these switches.",
			Sources: []string{linkInstanceCache, linkPerfTuning,
				"pingcap/tidb@v8.5.1:pkg/planner/core/plan_cache.go (GetPlanFromPlanCache, instancePlanCacheEnabled)"},
			check: checkInstancePlanCacheEmpty,
		},
		&Rule{
			Code: "TF122", Severity: diag.Warning, Live: true,
			Title:    "Instance plan cache is experimental",
			Link:     linkSysvars,
			Versions: "TiDB v8.4.0+",
			Reasoning: "The instance plan cache is experimental (v8.4.0 caches query plans only). Whether a plan " +
				"cache pays off depends on the workload (its memory and lookup cost against the plans it saves); " +
				"measure before and after.",
			Sources: []string{linkInstanceCache, linkRelease840},
			check:   checkInstancePlanCacheExperimental,
		},
		&Rule{
			Code: "TF123", Severity: diag.Info,
			Title:    "Measure the non-prepared plan cache",
			Link:     linkNonPrepared,
			Versions: "all versions with the variable (v7.0.0+); PLAN_CACHE_UNQUALIFIED columns from v8.2.0",
			Reasoning: "Plan cache results depend on the workload: many query shapes are not cached (numeric columns " +
				"compared with string literals, OR predicates since v8.4.0, TF124), so the hit rate can drop after an " +
				"upgrade. Enabling it should come with a way to see whether it helps.",
			Sources: []string{linkNonPrepared, "https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache", linkStmtSummary,
				"https://github.com/pingcap/tidb/issues/50618"},
			check: checkNonPreparedMeasure,
		},
		&Rule{
			Code: "TF124", Severity: diag.Info, Live: true,
			Title:    "OR-predicate simplification lowers plan cache hits (tidb#56136)",
			Link:     linkTidb56136,
			Versions: "TiDB v8.4.0+ (tidb#56136; later refinements #61515, #64265 in unconfirmed 8.5.x patches)",
			Reasoning: "tidb PR #56136 (v8.4.0) added OR-branch pruning to predicate simplification and marked every " +
				"query with a scalar predicate and an OR predicate on the same table as uncacheable (\"OR predicate " +
				"simplification is triggered\"), whether or not anything was simplified. Queries shaped like " +
				"`WHERE a = ? AND (b = ? OR c = ?)` stop hitting the cache.",
			Sources: []string{linkTidb56136, "https://github.com/pingcap/tidb/pull/64265",
				"https://github.com/pingcap/tidb/pull/61515"},
			check: checkORSimplification,
		},
	)
}

// effectiveBool is the declared value of a variable, else the live one, else
// def. declared reports whether the configuration sets it.
func (c *context) effectiveBool(name string, def bool) (value, declared bool) {
	if v := c.variable(name); v != nil {
		if b, ok := truth(v.Value.Text); ok {
			return b, true
		}
	}
	if lv, ok := c.liveVariable(name); ok {
		if b, ok := truth(lv); ok {
			return b, false
		}
	}
	return def, false
}

func checkInstancePlanCacheVersion(c *context) []Finding {
	tidb, ok := c.version(state.TiDB)
	if !ok || tidb.InstancePlanCache() {
		return nil
	}
	var out []Finding
	for _, v := range c.d.Variables {
		name := strings.ToLower(v.Name)
		if !instancePlanCacheVars[name] {
			continue
		}
		out = append(out, Finding{
			Address: state.VariableAddress(strings.ToLower(name)).String(), Range: v.Range,
			Summary: fmt.Sprintf("%s does not exist in TiDB %s: the instance plan cache exists from v8.4.0 on", name, tidb.Short()),
			Detail: fmt.Sprintf("The lowest TiDB version in the cluster is %s; the instance plan cache and its variables "+
				"arrived in v8.4.0 (experimental), so SET GLOBAL %s fails with \"Unknown system variable\". Remove it for "+
				"this cluster, or upgrade TiDB to v8.4.0 or later first (v8.5 LTS recommended).", tidb.Short(), name),
		})
	}
	return out
}

// instancePlanCacheOn reports whether the instance plan cache is turned on,
// on a version that has it: declared ON (with a configuration; r is the
// declaration), or ON on the cluster (CheckCluster; r is zero).
func (c *context) instancePlanCacheOn() (r diag.SourceRange, on bool) {
	tidb, ok := c.version(state.TiDB)
	if !ok || !tidb.InstancePlanCache() {
		return r, false
	}
	if !c.hcl {
		lv, ok := c.liveVariable(varInstancePlanCache)
		return r, ok && isOn(lv)
	}
	v := c.variable(varInstancePlanCache)
	if v == nil || !isOn(v.Value.Text) {
		return r, false
	}
	return v.Range, true
}

func checkInstancePlanCacheEmpty(c *context) []Finding {
	r, on := c.instancePlanCacheOn()
	if !on {
		return nil
	}
	prep, prepDeclared := c.effectiveBool(varPreparedPlanCache, true)
	nonPrep, nonDeclared := c.effectiveBool(varNonPreparedPlanCache, false)
	if prep || nonPrep {
		return nil
	}
	src := func(declared bool) string {
		if declared {
			return "declared OFF"
		}
		return "OFF on the cluster"
	}
	return []Finding{{
		Address: state.VariableAddress(strings.ToLower(varInstancePlanCache)).String(), Range: r,
		Summary: "instance plan cache enabled while both plan cache switches are OFF: nothing would be cached",
		Detail: fmt.Sprintf("%s is %s and %s is %s. The instance plan cache only replaces where plans are stored; "+
			"whether a statement is cached is still decided by those two switches, so with both OFF it stays empty and "+
			"only costs memory. Turn on %s (prepared statements) and/or %s (other statements) in the same "+
			"configuration; the TiDB performance-tuning guide enables the instance cache together with the "+
			"non-prepared cache.", varPreparedPlanCache, src(prepDeclared), varNonPreparedPlanCache, src(nonDeclared),
			varPreparedPlanCache, varNonPreparedPlanCache),
	}}
}

func checkInstancePlanCacheExperimental(c *context) []Finding {
	r, on := c.instancePlanCacheOn()
	if !on {
		return nil
	}
	summary := "the instance plan cache is experimental: measure before and after enabling it"
	if !c.hcl {
		summary = "the instance plan cache is on and experimental: keep measuring whether it pays off"
	}
	return []Finding{{
		Address: state.VariableAddress(strings.ToLower(varInstancePlanCache)).String(), Range: r,
		Summary: summary,
		Detail: "The instance plan cache (v8.4.0+) is experimental and in v8.4.0 caches query plans only. Results depend " +
			"on the workload: it can cost more (memory, lookups) than it saves, so measure before and after. Size it with tidb_instance_plan_cache_max_size (default 120MiB), watch \"Plan Cache Memory Usage\" " +
			"and the hit rate in INFORMATION_SCHEMA.STATEMENTS_SUMMARY (`tiform check plan-cache` reads it), and turn it off when the " +
			"overhead exceeds the benefit.",
	}}
}

// enablesNonPrepared returns the declaration that turns the non-prepared
// plan cache on while the cluster has it off (or its value is unknown).
func (c *context) enablesNonPrepared() *state.VariableSetting {
	v := c.variable(varNonPreparedPlanCache)
	if v == nil || !isOn(v.Value.Text) {
		return nil
	}
	if lv, ok := c.liveVariable(varNonPreparedPlanCache); ok && isOn(lv) {
		return nil
	}
	return v
}

func checkNonPreparedMeasure(c *context) []Finding {
	v := c.enablesNonPrepared()
	if v == nil {
		return nil
	}
	tidb, known := c.version(state.TiDB)
	var how string
	if !known || tidb.AtLeast(8, 2, 0) {
		how = "Measure per statement in INFORMATION_SCHEMA.STATEMENTS_SUMMARY: PLAN_CACHE_HITS and PLAN_IN_CACHE show " +
			"hits; PLAN_CACHE_UNQUALIFIED and PLAN_CACHE_UNQUALIFIED_LAST_REASON (v8.2.0+) show how often and why a " +
			"statement could not use the cache:\n\n" +
			"  SELECT DIGEST_TEXT, EXEC_COUNT, PLAN_CACHE_HITS, PLAN_CACHE_UNQUALIFIED, PLAN_CACHE_UNQUALIFIED_LAST_REASON\n" +
			"  FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY ORDER BY PLAN_CACHE_UNQUALIFIED DESC LIMIT 20;"
	} else {
		how = fmt.Sprintf("Measure per statement in INFORMATION_SCHEMA.STATEMENTS_SUMMARY with PLAN_CACHE_HITS and "+
			"PLAN_IN_CACHE (TiDB %s has no PLAN_CACHE_UNQUALIFIED columns; they arrive in v8.2.0):\n\n"+
			"  SELECT DIGEST_TEXT, EXEC_COUNT, PLAN_CACHE_HITS, PLAN_IN_CACHE\n"+
			"  FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY ORDER BY EXEC_COUNT DESC LIMIT 20;", tidb.Short())
	}
	return []Finding{{
		Address: state.VariableAddress(strings.ToLower(varNonPreparedPlanCache)).String(), Range: v.Range,
		Summary: "enabling the non-prepared plan cache: measure whether it helps",
		Detail: how + "\n\n`tiform check plan-cache` runs this read and explains each reason with its fix." +
			"\n\nFor a single query, `EXPLAIN FORMAT='plan_cache' <query>` followed by SHOW WARNINGS gives the " +
			"reason it is not cacheable, and `SELECT @@last_plan_from_cache` says whether the last statement hit. Common " +
			"misses: numeric columns compared with string literals (`int_col = '123'`), 3+ table joins, subqueries, " +
			"filters on JSON/ENUM/SET/BIT columns. Keep observing after enabling, and turn it off when the overhead " +
			"exceeds the benefit (hit rates can drop after an upgrade, for example with OR predicates since v8.4.0: TF124).",
	}}
}

func checkORSimplification(c *context) []Finding {
	tidb, ok := c.version(state.TiDB)
	if !ok || tidb.Before(8, 4, 0) {
		return nil
	}
	var r diag.SourceRange
	addr := varNonPreparedPlanCache
	if !c.hcl {
		// tiform check: the non-prepared cache is on.
		if lv, ok := c.liveVariable(varNonPreparedPlanCache); !ok || !isOn(lv) {
			return nil
		}
	} else if v := c.enablesNonPrepared(); v != nil {
		r = v.Range
	} else if ir, on := c.instancePlanCacheOn(); on {
		r, addr = ir, varInstancePlanCache
	} else {
		return nil
	}
	return []Finding{{
		Address: state.VariableAddress(strings.ToLower(addr)).String(), Range: r,
		Summary: fmt.Sprintf("TiDB %s skips the plan cache for many OR predicates (tidb#56136): expect lower hit rates", tidb.Short()),
		Detail: "Since v8.4.0, predicate simplification (tidb PR #56136) marks a query as uncacheable whenever a table has " +
			"a scalar predicate and an OR predicate, e.g. `WHERE a = ? AND (b = ? OR c = ?)`, whether or not anything " +
			"was simplified. SHOW WARNINGS and PLAN_CACHE_UNQUALIFIED_LAST_REASON show \"OR predicate simplification is " +
			"triggered\". tidb PRs #61515 and #64265 narrowed it later; which 8.5.x patch carries them is not confirmed, " +
			"so measure on your version before counting on the cache for such queries.",
	}}
}

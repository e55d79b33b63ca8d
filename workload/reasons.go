package workload

import "strings"

// Reason explains one kind of PLAN_CACHE_UNQUALIFIED_LAST_REASON: what TiDB
// means by it and what would let the statement use the plan cache.
//
// The texts TiDB writes come from pingcap/tidb
// pkg/planner/core/plan_cacheable_checker.go (IsASTCacheable,
// NonPreparedPlanCacheableWithCtx, isPlanCacheable, checkTableCacheable), the
// expression rewriter ("'%v' may be converted to INT") and the predicate
// simplification rule (pingcap/tidb#56136); the limitations are documented in
// https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache and
// https://docs.pingcap.com/tidb/stable/sql-non-prepared-plan-cache.
type Reason struct {
	// Key is stable (JSON views, tests): "int-conversion", "or-simplification", …
	Key string
	// Title is a short label for tables and guard summaries.
	Title   string
	Meaning string
	Fix     string
	Link    string
	// match reports whether TiDB's reason text is of this kind.
	match func(lower string) bool
}

const (
	linkPreparedCache    = "https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache"
	linkNonPreparedCache = "https://docs.pingcap.com/tidb/stable/sql-non-prepared-plan-cache"
	linkTiDB56136        = "https://github.com/pingcap/tidb/pull/56136"
	linkTiDB63754        = "https://github.com/pingcap/tidb/issues/63754"
	linkCacheableChecker = "https://github.com/pingcap/tidb/blob/master/pkg/planner/core/plan_cacheable_checker.go"
)

func has(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, x := range subs {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
}

// reasons is the catalogue, most specific first: Explain returns the first
// match.
var reasons = []Reason{
	{
		Key: "int-conversion", Title: "string value compared with an integer column",
		Meaning: "A string parameter or literal is compared with an integer column (`int_col = '123'`, `int_col IN ('1', '2')`): " +
			"for MySQL compatibility TiDB converts it on every execution, so the plan cannot be reused.",
		Fix: "Send numbers as numbers: bind integer parameters with an integer type in the driver, and write " +
			"`id = 123`, not `id = '123'`. ORMs that send every parameter as a string need their type mapping fixed.",
		Link: linkPreparedCache, match: has("may be converted to int"),
	},
	{
		Key: "or-simplification", Title: "OR predicate simplification (tidb#56136)",
		Meaning: "Since v8.4.0 predicate simplification (pingcap/tidb#56136) marks a query as uncacheable when a table " +
			"has a scalar predicate and an OR predicate (`a = ? AND (b = ? OR c = ?)`), whether or not anything was " +
			"simplified. pingcap/tidb#61515 and #64265 narrowed it later.",
		Fix: "Upgrade to a TiDB patch whose release notes carry pingcap/tidb#64265, or rewrite the OR as `IN (…)` on one " +
			"column or as UNION ALL of cacheable queries; re-check after the change with `tiform check plan-cache`.",
		Link: linkTiDB56136, match: has("or predicate simplification"),
	},
	{
		Key: "true-false-simplification", Title: "TRUE/FALSE predicate simplification (tidb#63754)",
		Meaning: "Predicate simplification folded a condition built from parameters (`c = ? OR ISNULL(?)`) to TRUE or " +
			"FALSE, which would be wrong for other parameter values, so the plan is not cached (pingcap/tidb#63754, open).",
		Fix: "Build the condition in the application (leave out the branch whose parameter is NULL) instead of " +
			"`… OR ? IS NULL` patterns.",
		Link: linkTiDB63754, match: has("true/false predicate simplification"),
	},
	{
		Key: "subquery", Title: "subquery",
		Meaning: "The statement has a subquery. The prepared cache skips it while tidb_enable_plan_cache_for_subquery " +
			"is OFF and for correlated subqueries planned as Apply; the non-prepared cache never caches subqueries.",
		Fix: "Turn tidb_enable_plan_cache_for_subquery ON (default ON since v7.0.0), send the statement as a prepared " +
			"statement, or rewrite the subquery as a join.",
		Link: linkPreparedCache, match: has("sub-queries", "tidb_enable_plan_cache_for_subquery", "physicalapply"),
	},
	{
		Key: "join-too-wide", Title: "more than 2 tables (non-prepared cache)",
		Meaning: "The non-prepared plan cache only caches queries on at most two tables.",
		Fix:     "Send the statement as a prepared statement (the prepared cache has no such limit).",
		Link:    linkNonPreparedCache, match: has("more than 2 tables"),
	},
	{
		Key: "non-prepared-shape", Title: "hint, HAVING, window function or SELECT INTO (non-prepared cache)",
		Meaning: "The non-prepared plan cache does not cache queries with hints, HAVING, window functions or " +
			"SELECT … INTO, nor queries that access views, memory tables or the system schemas.",
		Fix:  "Send the statement as a prepared statement, or drop the hint (a SQL binding is not cached either).",
		Link: linkNonPreparedCache, match: has("hints, having-clause", "access views", "in-memory tables", "system schema", "some unsupported node"),
	},
	{
		Key: "limit", Title: "LIMIT ? (parameterized limit)",
		Meaning: "A LIMIT with a parameter is cached only while tidb_enable_plan_cache_for_param_limit is ON, and never " +
			"when its value exceeds 10000.",
		Fix:  "Turn tidb_enable_plan_cache_for_param_limit ON (default ON since v6.6.0); keep LIMIT values at 10000 or below.",
		Link: linkPreparedCache, match: has("'limit ?", "tidb_enable_plan_cache_for_param_limit"),
	},
	{
		Key: "order-group-by-param", Title: "ORDER BY / GROUP BY a parameter or expression",
		Meaning: "`ORDER BY ?` / `GROUP BY ?` pick a column by position, which could change with the parameter, so " +
			"TiDB does not cache them; the non-prepared cache also skips ORDER BY / GROUP BY on anything but columns.",
		Fix:  "Order and group by column names, not by a parameter or an expression.",
		Link: linkPreparedCache, match: has("order by ?", "group by ?", "order by {columns}", "group by {columns}", "window function frames"),
	},
	{
		Key: "uncacheable-function", Title: "function that is never cached",
		Meaning: "The statement calls a function whose result depends on the session or the moment: database(), " +
			"current_user, current_role, user, connection_id, last_insert_id, row_count, version, like, and others.",
		Fix:  "Compute the value in the application and pass it as a parameter.",
		Link: linkPreparedCache, match: has("is un-cacheable functions", "un-cacheable functions", "query has '"),
	},
	{
		Key: "user-variable", Title: "user variable in the statement",
		Meaning: "The statement reads a user variable (`@x`) directly; only `?` parameters are cached.",
		Fix:     "Pass the value as a `?` parameter instead of a user variable.",
		Link:    linkPreparedCache, match: has("user-defined variables"),
	},
	{
		Key: "null-constant", Title: "NULL constant in a filter (non-prepared cache)",
		Meaning: "The non-prepared cache skips queries with a NULL literal (`a = NULL`), which the optimizer may fold " +
			"into an empty plan.",
		Fix:  "Use `IS NULL` written by the application only when needed, or prepared statements.",
		Link: linkNonPreparedCache, match: has("null constants"),
	},
	{
		Key: "json-enum-set-bit", Title: "filter on a JSON, ENUM, SET or BIT column (non-prepared cache)",
		Meaning: "The non-prepared cache does not cache queries filtering on JSON, ENUM, SET or BIT columns.",
		Fix:     "Send the statement as a prepared statement.",
		Link:    linkNonPreparedCache, match: has("json, enum, set or bit"),
	},
	{
		Key: "table-kind", Title: "partitioned (static pruning), generated-column or temporary table",
		Meaning: "The statement reads a partitioned table while tidb_partition_pruning_mode is 'static', a table with " +
			"generated columns (multi-valued index), or a temporary table.",
		Fix:  "Use tidb_partition_pruning_mode = 'dynamic' for partitioned tables; the other table kinds cannot be cached.",
		Link: linkPreparedCache, match: has("partitioned tables", "generated columns", "temporary tables", "multi-valued index", "fix33031"),
	},
	{
		Key: "not-cacheable-statement", Title: "statement kind the cache does not serve",
		Meaning: "Only SELECT, INSERT, UPDATE, DELETE and set operations are cached; the non-prepared cache serves " +
			"only SELECT unless tidb_enable_non_prepared_plan_cache_for_dml is ON (experimental).",
		Fix:  "Nothing to fix for other statement kinds; for DML send prepared statements.",
		Link: linkNonPreparedCache, match: has("not a select", "not support", "select/update/insert/delete"),
	},
	{
		Key: "too-many-parameters", Title: "too many parameters or IN-list values",
		Meaning: "Statements with more than 200 parameters (constants, IN-list values, INSERT values) are not cached, " +
			"to bound the cache's memory (optimizer fix control 44823 changes the limit, v7.3.0+).",
		Fix:  "Batch smaller IN lists and multi-row INSERTs, or raise the limit with fix control 44823.",
		Link: linkNonPreparedCache, match: has("too many values", "too many constants"),
	},
	{
		Key: "plan-too-large", Title: "plan larger than tidb_plan_cache_max_plan_size",
		Meaning: "The plan's memory exceeds tidb_plan_cache_max_plan_size (default 2 MiB).",
		Fix:     "Raise tidb_plan_cache_max_plan_size if the memory is acceptable.",
		Link:    linkPreparedCache, match: has("plan is too large"),
	},
	{
		Key: "plan-shape", Title: "plan shape the cache refuses (TableDual, TiFlash, IndexMerge full scan, …)",
		Meaning: "The chosen plan is one the cache never reuses: a TableDual for given parameters, a TiFlash or " +
			"Shuffle plan, an IndexMerge with a full scan, a memory table.",
		Fix:  "Usually none: these plans depend on the parameter values. Check the statement with EXPLAIN FORMAT='plan_cache'.",
		Link: linkCacheableChecker, match: has("tabledual", "tiflash", "shuffle", "indexmerge", "memtable", "partial index", "unexpected un-cacheable plan"),
	},
	{
		Key: "hint", Title: "ignore_plan_cache() hint",
		Meaning: "The statement carries the ignore_plan_cache() hint.",
		Fix:     "Remove the hint if the statement should be cached.",
		Link:    linkPreparedCache, match: has("ignore plan cache by hint"),
	},
}

// otherReason is the explanation of a reason the catalogue does not know.
var otherReason = Reason{
	Key: "other", Title: "other reason",
	Meaning: "TiDB gave a reason this version of tiform does not know; its text is shown as TiDB wrote it.",
	Fix: "Run the statement with EXPLAIN FORMAT='plan_cache' (non-prepared) or PREPARE/EXECUTE and read SHOW WARNINGS " +
		"(\"skip plan-cache: …\").",
	Link: linkPreparedCache,
}

// Explain returns the catalogue entry for a PLAN_CACHE_UNQUALIFIED_LAST_REASON
// text (otherReason's for an unknown one).
func Explain(text string) Reason {
	lower := strings.ToLower(strings.TrimSpace(text))
	for _, r := range reasons {
		if r.match(lower) {
			return r
		}
	}
	return otherReason
}

package catalog

// The system-variable overlay. Scope, persistence, kind, values, range,
// literal defaults and versions come from the generated table
// (pingcap/docs-cn system-variables.md per release branch and the release
// notes); the overlay adds documentation, related settings, replacements,
// "new clusters only" notes, and kinds the docs state too coarsely (a byte
// count TiDB parses with units: pkg/sessionctx/variable/sysvar.go
// parseByteSize).

func variableOverlays() []overlayEntry {
	return append(append(resourceControlVariables(), planCacheVariables()...), changedVariables()...)
}

// newClusters qualifies a default changed in a release note that says
// upgraded clusters keep their value.
const newClusters = "new clusters only; upgraded clusters keep their previous value"

func v(name string, sources []string, doc string, opts ...opt) overlayEntry {
	return ov("tidb", name, sources, doc, opts...)
}

func resourceControlVariables() []overlayEntry {
	src := srcs(docResourceCtl)
	return []overlayEntry{
		v("tidb_enable_resource_control", src, "Resource control switch. When OFF, CREATE/ALTER/DROP RESOURCE GROUP fail with error 8250.",
			related("tikv:resource-control.enabled")),
		v("tidb_resource_control_strict_mode", append(src, "https://docs.pingcap.com/tidb/stable/release-8.2.0"),
			"When ON, SET RESOURCE GROUP and the RESOURCE_GROUP() hint need SUPER, RESOURCE_GROUP_ADMIN or RESOURCE_GROUP_USER.",
			defNote("", "ON", "new clusters; OFF after upgrading from a version before v8.2.0")),
		v("tidb_gc_life_time", srcs(docSysVars+"#tidb_gc_life_time-new-in-v50", docIME),
			"How long old MVCC versions are kept before GC; with a long value (e.g. 24h) scans read many stale versions, the case the TiKV in-memory engine helps.",
			related("tikv:in-memory-engine.enable")),
		v("tidb_request_source_type", src, "Marks the session's tasks as background tasks ('background'); a session setting, not managed with SET GLOBAL."),
	}
}

func planCacheVariables() []overlayEntry {
	src := srcs(docPlanCache, docNonPrepCache)
	return []overlayEntry{
		v("tidb_enable_prepared_plan_cache", src, "Prepared plan cache. Must stay ON for the instance plan cache to receive prepared plans."),
		v("tidb_prepared_plan_cache_size", src, "Plans per session in the prepared plan cache.",
			replacedBy("variable:tidb_session_plan_cache_size")),
		v("tidb_session_plan_cache_size", src, "Plans per session, shared by the prepared and non-prepared caches; on upgrade it takes the value of tidb_prepared_plan_cache_size. Docs suggest 50 with TiDB memory <= 64 GiB, 100 above."),
		v("tidb_enable_non_prepared_plan_cache", src, "Non-prepared (general) plan cache.",
			related("variable:tidb_enable_instance_plan_cache", "variable:tidb_session_plan_cache_size")),
		v("tidb_non_prepared_plan_cache_size", src, "Plans per session in the non-prepared plan cache.",
			replacedBy("variable:tidb_session_plan_cache_size")),
		v("tidb_enable_non_prepared_plan_cache_for_dml", src, "Non-prepared plan cache for DML statements (experimental).", experimental()),
		v("tidb_enable_instance_plan_cache", srcs(docInstanceCache),
			"Instance-level plan cache shared by all sessions of a TiDB (experimental). It only replaces the cache storage: tidb_enable_prepared_plan_cache / tidb_enable_non_prepared_plan_cache must be ON for plans to be cached. Results depend on the workload; keep observing after enabling.",
			experimental(), related("variable:tidb_enable_prepared_plan_cache", "variable:tidb_enable_non_prepared_plan_cache", "variable:tidb_instance_plan_cache_max_size")),
		v("tidb_instance_plan_cache_max_size", srcs(docInstanceCache, "https://github.com/pingcap/tidb/blob/master/pkg/sessionctx/variable/sysvar.go"),
			"Memory of the instance plan cache in bytes; TiDB also accepts sizes such as \"2GiB\" (sysvar.go parseByteSize).",
			refine(KindSize), related("variable:tidb_enable_instance_plan_cache")),
		v("tidb_instance_plan_cache_reserved_percentage", srcs(docInstanceCache), "Fraction of the instance plan cache freed by LRU eviction."),
		v("tidb_plan_cache_max_plan_size", src, "Largest plan cached, in bytes (0 = no limit); accepts KiB/MiB/GiB/TiB."),
		v("tidb_enable_plan_cache_for_param_limit", src, "Cache plans with LIMIT ? (unless the value > 10000)."),
		v("tidb_enable_plan_cache_for_subquery", src, "Cache queries with subqueries."),
		v("tidb_plan_cache_invalidation_on_fresh_stats", src, "Invalidate cached plans after a table's statistics are updated.",
			defNote("", "ON", "new clusters; OFF for clusters upgraded from a version before v7.1.0")),
		v("tidb_prepared_plan_cache_memory_guard_ratio", src, "Evict when free memory falls below this ratio."),
		v("tidb_enable_prepared_plan_cache_memory_monitor", src, "Count plan cache memory."),
		v("tidb_ignore_prepared_cache_close_stmt", src, "Ignore COM_STMT_CLOSE / DEALLOCATE PREPARE for the plan cache."),
		v("tidb_enable_cache_prepare_stmt", src, "Cache repeated PREPARE results (experimental).", experimental()),
		v("last_plan_from_cache", srcs(docPlanCache+"#diagnostics"), "Read-only: whether the last statement's plan came from the plan cache (diagnostics).",
			readOnly()),
	}
}

// changedVariables: removals, deprecations and default changes worth a
// line of their own (release notes of v7.5 → v8.5 and master).
func changedVariables() []overlayEntry {
	src := srcs(docSysVars)
	return []overlayEntry{
		v("log_bin", srcs("https://docs.pingcap.com/tidb/stable/release-8.4.0"), "TiDB Binlog switch (read-only); removed with TiDB Binlog in v8.4.0."),
		v("sql_log_bin", srcs("https://docs.pingcap.com/tidb/stable/release-8.4.0"), "TiDB Binlog per-session switch; removed in v8.4.0."),
		v("tidb_disable_txn_auto_retry", src, "Optimistic auto-retry switch; deprecated in v8.0.0 (auto-retry removed)."),
		v("tidb_enable_telemetry", src, "Telemetry; no effect."),
		v("tidb_enable_global_index", src, "Global indexes; deprecated in v8.4.0, fixed to ON."),
		v("tidb_enable_list_partition", src, "LIST partitioning; deprecated in v8.4.0, fixed to ON."),
		v("tidb_enable_table_partition", src, "Table partitioning; deprecated in v8.4.0, fixed to ON."),
		v("tidb_analyze_version", src, "Statistics version (version 1 is deprecated)."),
		v("tidb_enable_collect_execution_info", src, "Collect execution information in the slow query log and keep index usage statistics; INSTANCE scope: it reaches only the connected TiDB."),
		v("tidb_auto_analyze_ratio", src, "Modified-row ratio that triggers auto analyze."),
		v("tidb_analyze_skip_column_types", src, "Column types ANALYZE skips, comma-separated.", refine(KindList)),
		v("tidb_opt_projection_push_down", src, "Projection push-down (SESSION-only before v8.3.0)."),
		v("tidb_low_resolution_tso", src, "Low-resolution TSO reads (SESSION-only before v8.3.0)."),
		v("tidb_schema_cache_size", srcs(docSysVars, "https://github.com/pingcap/tidb/blob/master/pkg/sessionctx/variable/sysvar_test.go"),
			"Memory of the schema cache in bytes; TiDB also accepts sizes such as \"512MiB\". Upgraded clusters keep their previous value.",
			refine(KindSize), defNote("v8.4.0", "536870912", newClusters)),
		v("tidb_scatter_region", src, "Scatter Regions after split: a boolean before v8.4.0, an enum from v8.4.0; compared as text because the kind differs by version.",
			refine(KindString)),
		v("tidb_auto_analyze_concurrency", srcs("https://docs.pingcap.com/tidb/stable/release-8.5.7"), "Concurrency of auto analyze.",
			defNote("v8.5.7", "3", newClusters)),
		v("tidb_auto_build_stats_concurrency", srcs("https://docs.pingcap.com/tidb/stable/release-8.5.7"), "Concurrency of automatic statistics building.",
			defNote("v8.5.7", "2", newClusters)),
		v("tidb_sysproc_scan_concurrency", srcs("https://docs.pingcap.com/tidb/stable/release-8.5.7"), "Scan concurrency of system processes.",
			defNote("v8.5.7", "4", newClusters)),
		v("tidb_server_memory_limit_gc_trigger", srcs(docSysVars+"#tidb_server_memory_limit_gc_trigger-new-in-v640", "https://github.com/pingcap/tidb/blob/master/pkg/sessionctx/variable/sysvar.go"),
			"Fraction of tidb_server_memory_limit at which TiDB triggers a GC. The docs write the default as 70% and the range as [50%, 99%]; TiDB accepts a percentage, stores and shows the fraction (0.7), and refuses a value outside [0.51, 1] (sysvar.go TiDBServerMemoryLimitGCTrigger, Validation).",
			fraction(), rng(0.51, 1), related("variable:tidb_server_memory_limit")),
		v("max_connections", src, "Maximum connections of the connected TiDB instance; INSTANCE scope: set on each TiDB or in tidb.toml (instance.max_connections)."),
		v("tidb_slow_log_threshold", src, "Slow log threshold of the connected TiDB instance; INSTANCE scope: set on each TiDB or in tidb.toml (instance.tidb_slow_log_threshold)."),
	}
}

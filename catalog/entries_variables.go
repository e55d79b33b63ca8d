package catalog

// TiDB system variables (SET GLOBAL). Scope GLOBAL covers GLOBAL and
// SESSION|GLOBAL variables persisted cluster-wide; INSTANCE variables affect
// only the connected TiDB (§2.5). Defaults are as SHOW VARIABLES prints them.
// Sources: tidb-facts.md §4.1, §4.7 (resource control), §5.1, §5.2 (plan
// cache), §8.1 (removals, deprecations, default changes), §2.5 (instance scope).
//
// Where tidb-facts.md does not state a variable's kind, the kind is taken from
// its name (…_enable_… is a boolean, …_concurrency/_size/_cnt an integer) and
// the Doc says so; when the name does not tell, the kind is KindString
// (compared as text).

func init() {
	register(resourceControlVariables()...)
	register(planCacheVariables()...)
	register(changedVariables()...)
	register(patchReleaseVariables()...)
}

const kindFromName = " (Kind inferred from the name; not stated in tidb-facts.md.)"
const textKind = " (Kind not stated in tidb-facts.md: compared as text.)"
const newClusters = "new clusters only; upgraded clusters keep their previous value"

func resourceControlVariables() []*Entry {
	return []*Entry{
		sysvar("tidb_enable_resource_control", KindBool, ScopeGlobal, "§4.1",
			"Resource control switch. When OFF, CREATE/ALTER/DROP RESOURCE GROUP fail with error 8250.",
			introduced("v6.6.0"), def("", "OFF"), def("v7.0.0", "ON"), related("tikv:resource-control.enabled")),
		sysvar("tidb_resource_control_strict_mode", KindBool, ScopeGlobal, "§4.1",
			"When ON, SET RESOURCE GROUP and the RESOURCE_GROUP() hint need SUPER, RESOURCE_GROUP_ADMIN or RESOURCE_GROUP_USER.",
			introduced("v8.2.0"), defNote("v8.2.0", "ON", "new clusters; OFF after upgrading from < v8.2.0")),
		sysvar("tidb_gc_life_time", KindDuration, ScopeGlobal, "§6",
			"How long old MVCC versions are kept before GC; with a long value (e.g. 24h) scans read many stale versions, the case the TiKV in-memory engine helps (§6)."+kindFromName,
			related("tikv:in-memory-engine.enable")),
		sysvar("tidb_request_source_type", KindString, ScopeSession, "§4.7",
			"Marks the session's tasks as background tasks ('background'); a session setting, not managed with SET GLOBAL.",
			introduced("v7.4.0")),
	}
}

func planCacheVariables() []*Entry {
	const src = "§5.1"
	g := func(name string, kind Kind, doc string, opts ...opt) *Entry {
		return sysvar(name, kind, ScopeGlobal, src, doc, opts...)
	}
	return []*Entry{
		g("tidb_enable_prepared_plan_cache", KindBool, "Prepared plan cache (before v6.1.0: config prepared-plan-cache.enabled). Must stay ON for the instance plan cache to receive prepared plans (§5.2).",
			introduced("v6.1.0"), def("", "ON")),
		g("tidb_prepared_plan_cache_size", KindInt, "Plans per session in the prepared plan cache.",
			introduced("v6.1.0"), deprecated("v7.1.0"), def("", "100"), rng(1, 100000), replacedBy("variable:tidb_session_plan_cache_size")),
		g("tidb_session_plan_cache_size", KindInt, "Plans per session, shared by the prepared and non-prepared caches; on upgrade it takes the value of tidb_prepared_plan_cache_size. Docs suggest 50 with TiDB memory <= 64 GiB, 100 above.",
			introduced("v7.1.0"), def("", "100"), rng(1, 100000)),
		g("tidb_enable_non_prepared_plan_cache", KindBool, "Non-prepared (general) plan cache. Renamed from tidb_enable_general_plan_cache in v6.6.0, effective from v7.0.0.",
			introduced("v6.6.0"), def("", "OFF"), def("v7.2.0", "ON"), def("v7.4.0", "OFF"),
			related("variable:tidb_enable_instance_plan_cache", "variable:tidb_session_plan_cache_size")),
		g("tidb_non_prepared_plan_cache_size", KindInt, "Plans per session in the non-prepared plan cache.",
			introduced("v6.6.0"), deprecated("v7.1.0"), def("", "100"), rng(1, 100000), replacedBy("variable:tidb_session_plan_cache_size")),
		g("tidb_enable_non_prepared_plan_cache_for_dml", KindBool, "Non-prepared plan cache for DML statements (experimental).",
			introduced("v7.1.0"), def("", "OFF"), experimental()),
		sysvar("tidb_enable_instance_plan_cache", KindBool, ScopeGlobal, "§5.1, §5.2",
			"Instance-level plan cache shared by all sessions of a TiDB (experimental; query plans only in v8.4.0). It only replaces the cache storage: tidb_enable_prepared_plan_cache / tidb_enable_non_prepared_plan_cache must be ON for plans to be cached (§5.2). Results depend on the workload; keep observing after enabling (§10).",
			introduced("v8.4.0"), def("", "OFF"), experimental(),
			related("variable:tidb_enable_prepared_plan_cache", "variable:tidb_enable_non_prepared_plan_cache", "variable:tidb_instance_plan_cache_max_size")),
		sysvar("tidb_instance_plan_cache_max_size", KindSize, ScopeGlobal, "§5.1, §5.2",
			"Memory of the instance plan cache in bytes; unit strings such as \"2GiB\" are accepted.",
			introduced("v8.4.0"), def("", "125829120"), related("variable:tidb_enable_instance_plan_cache")),
		g("tidb_instance_plan_cache_reserved_percentage", KindFloat, "Fraction of the instance plan cache freed by LRU eviction.",
			introduced("v8.4.0"), def("", "0.1"), rng(0, 1)),
		g("tidb_plan_cache_max_plan_size", KindSize, "Largest plan cached, in bytes (0 = no limit); accepts KiB/MiB/GiB/TiB.",
			introduced("v7.1.0"), def("", "2097152"), atLeast(0)), // documented [0, 9223372036854775807]; sizes are unsigned here
		g("tidb_enable_plan_cache_for_param_limit", KindBool, "Cache plans with LIMIT ? (unless the value > 10000).",
			introduced("v6.6.0"), def("", "ON")),
		g("tidb_enable_plan_cache_for_subquery", KindBool, "Cache queries with subqueries.",
			introduced("v7.0.0"), def("", "ON")),
		g("tidb_plan_cache_invalidation_on_fresh_stats", KindBool, "Invalidate cached plans after a table's statistics are updated.",
			introduced("v7.1.0"), defNote("", "ON", "new clusters; OFF for clusters upgraded from < v7.1.0")),
		g("tidb_prepared_plan_cache_memory_guard_ratio", KindFloat, "Evict when free memory falls below this ratio (config before v6.1.0).",
			introduced("v6.1.0"), def("", "0.1"), rng(0, 1)),
		g("tidb_enable_prepared_plan_cache_memory_monitor", KindBool, "Count plan cache memory.",
			introduced("v6.4.0"), def("", "ON")),
		g("tidb_ignore_prepared_cache_close_stmt", KindBool, "Ignore COM_STMT_CLOSE / DEALLOCATE PREPARE for the plan cache.",
			introduced("v6.0.0"), def("", "OFF")),
		sysvar("tidb_enable_cache_prepare_stmt", KindBool, ScopeGlobal, "§5.1, §8.1",
			"Cache repeated PREPARE results (experimental; new in v8.5.7 and v9.0.0).",
			introduced("v8.5.7"), def("", "OFF"), experimental()),
		sysvar("last_plan_from_cache", KindBool, ScopeSession, src,
			"Read-only: whether the last statement's plan came from the plan cache (diagnostics).",
			introduced("v4.0.0"), readOnly()),
		sysvar("tidb_enable_general_plan_cache", KindBool, ScopeGlobal, "§5.1, §8.1",
			"Old name of tidb_enable_non_prepared_plan_cache (not functional before the rename).",
			introduced("v6.3.0"), removed("v6.6.0"), replacedBy("variable:tidb_enable_non_prepared_plan_cache")),
		sysvar("tidb_general_plan_cache_size", KindInt, ScopeGlobal, "§5.1, §8.1",
			"Old name of tidb_non_prepared_plan_cache_size.",
			introduced("v6.3.0"), removed("v6.6.0"), replacedBy("variable:tidb_non_prepared_plan_cache_size")),
	}
}

// changedVariables: removals, deprecations and default changes of §8.1.
func changedVariables() []*Entry {
	const src = "§8.1"
	g := func(name string, kind Kind, doc string, opts ...opt) *Entry {
		return sysvar(name, kind, ScopeGlobal, src, doc, opts...)
	}
	return []*Entry{
		g("log_bin", KindBool, "TiDB Binlog switch; removed with TiDB Binlog in v8.4.0 (setting it then fails with Unknown system variable).", removed("v8.4.0")),
		g("sql_log_bin", KindBool, "TiDB Binlog per-session switch; removed in v8.4.0.", removed("v8.4.0")),
		g("tidb_disable_txn_auto_retry", KindBool, "Optimistic auto-retry switch; deprecated in v8.0.0 (auto-retry removed).", deprecated("v8.0.0")),
		g("tidb_enable_telemetry", KindBool, "Telemetry; deprecated in v8.1.0, no effect.", deprecated("v8.1.0")),
		g("tidb_enable_global_index", KindBool, "Global indexes; deprecated in v8.4.0, fixed to ON.", deprecated("v8.4.0")),
		g("tidb_enable_list_partition", KindBool, "LIST partitioning; deprecated in v8.4.0, fixed to ON.", deprecated("v8.4.0")),
		g("tidb_enable_table_partition", KindEnum, "Table partitioning; deprecated in v8.4.0, fixed to ON. Older versions also accept AUTO.",
			deprecated("v8.4.0"), enum("ON", "OFF", "AUTO")),
		g("tidb_mpp_store_fail_ttl", KindDuration, "Deprecated in v9.0.0, value fixed to 0s.", deprecated("v9.0.0")),
		g("tidb_analyze_version", KindInt, "Statistics version. From v9.0.0 the value 1 can no longer be set (existing v1 statistics stay readable)."),
		g("tidb_auto_analyze_partition_batch_size", KindInt, "Partitions analyzed per batch by auto analyze.",
			def("", "1"), def("v7.6.0", "128"), def("v8.2.0", "8192")),
		g("tidb_enable_collect_execution_info", KindBool, "Collect execution information (semantics changed in v8.0)."),
		g("tidb_enable_dist_task", KindBool, "Distributed execution framework.", def("", "OFF"), def("v8.1.0", "ON")),
		g("tidb_auto_analyze_ratio", KindFloat, "Modified-row ratio that triggers auto analyze; range (0, 1] since v8.1.", rngOpenLow(0, 1)),
		g("tidb_enable_historical_stats", KindBool, "Historical statistics.", def("", "ON"), def("v8.2.0", "OFF")),
		g("tidb_analyze_skip_column_types", KindList, "Column types ANALYZE skips (since v8.2 MEDIUMTEXT and LONGTEXT are skipped)."),
		g("tidb_enable_column_tracking", KindBool, "Column usage tracking.", def("", "OFF"), def("v8.3.0", "ON")),
		g("tidb_opt_projection_push_down", KindBool, "Projection push-down (GLOBAL scope since v8.3).", def("", "OFF"), def("v8.3.0", "ON")),
		g("tidb_ddl_reorg_batch_size", KindInt, "Batch size of DDL re-organisation (gains SESSION scope in v8.3)."),
		g("tidb_ddl_reorg_worker_cnt", KindInt, "Concurrency of DDL re-organisation (gains SESSION scope in v8.3)."),
		g("tidb_low_resolution_tso", KindBool, "Low-resolution TSO reads (GLOBAL scope since v8.3; SESSION only before)."),
		g("tidb_enable_inl_join_inner_multi_pattern", KindBool, "Index join with multiple inner patterns.", def("", "OFF"), def("v8.4.0", "ON")),
		g("tidb_opt_prefer_range_scan", KindBool, "Prefer range scans over full scans.", def("", "OFF"), def("v8.4.0", "ON")),
		g("tidb_schema_cache_size", KindSize, "Memory of the schema cache in bytes.", def("", "0"), def("v8.4.0", "536870912")),
		g("tidb_scatter_region", KindString, "Scatter Regions after split: a boolean before v8.4.0, an enum (with SESSION scope) from v8.4.0; compared as text because the kind differs by version."),
		g("tidb_analyze_partition_concurrency", KindInt, "Concurrency of analyzing partitions; range [1, 128] since v8.4.", rng(1, 128)),
		g("tidb_enable_fast_create_table", KindBool, "Fast CREATE TABLE.", def("", "OFF"), def("v8.5.0", "ON")),
		g("pd_enable_follower_handle_region", KindBool, "Let PD followers serve Region requests.", def("", "OFF"), def("v9.0.0", "ON")),
		g("tidb_hash_join_version", KindEnum, "Hash join implementation.", enum("legacy", "optimized"), def("", "legacy"), def("v9.0.0", "optimized")),
		g("tidb_analyze_column_options", KindString, "Columns ANALYZE collects."+textKind, defNote("v8.5.5", "ALL", newClusters)),
		g("tidb_auto_analyze_concurrency", KindInt, "Concurrency of auto analyze.", def("", "1"), defNote("v8.5.7", "3", newClusters)),
		g("tidb_auto_build_stats_concurrency", KindInt, "Concurrency of automatic statistics building.", def("", "1"), defNote("v8.5.7", "2", newClusters)),
		g("tidb_sysproc_scan_concurrency", KindInt, "Scan concurrency of system processes.", def("", "1"), defNote("v8.5.7", "4", newClusters)),
		sysvar("max_connections", KindInt, ScopeInstance, "§2.5, §2.2",
			"Maximum connections of the connected TiDB instance; INSTANCE scope: set on each TiDB or in tidb.toml (instance.max_connections)."),
		sysvar("tidb_slow_log_threshold", KindInt, ScopeInstance, "§2.5, §2.2",
			"Slow log threshold of the connected TiDB instance; INSTANCE scope: set on each TiDB or in tidb.toml (instance.tidb_slow_log_threshold)."),
	}
}

// patchReleaseVariables: variables added in v8.5 patch releases (absent in
// v8.5.0: guard on the patch version) and v9.0-only ones (§8.1).
func patchReleaseVariables() []*Entry {
	const src = "§8.1"
	n := func(name string, kind Kind, since, doc string) *Entry {
		return sysvar(name, kind, ScopeGlobal, src, doc, introduced(since))
	}
	return []*Entry{
		n("tidb_stats_update_during_ddl", KindString, "v8.5.4", "Update statistics during DDL."+textKind),
		n("tidb_opt_enable_no_decorrelate_in_select", KindBool, "v8.5.4", "Optimizer: NO_DECORRELATE in SELECT."+kindFromName),
		n("tidb_opt_enable_semi_join_rewrite", KindBool, "v8.5.4", "Optimizer: semi join rewrite."+kindFromName),
		n("tidb_advancer_check_point_lag_limit", KindString, "v8.5.5", "Log backup advancer checkpoint lag limit."+textKind),
		n("tidb_cb_pd_metadata_error_rate_threshold_ratio", KindFloat, "v8.5.5", "Circuit breaker error-rate threshold for PD metadata requests."+kindFromName),
		n("tidb_index_lookup_pushdown_policy", KindString, "v8.5.5", "Index lookup push-down policy."+textKind),
		n("tidb_foreign_key_check_in_shared_lock", KindString, "v8.5.6", "Foreign key checks with shared locks."+textKind),
		n("tidb_max_dist_task_nodes", KindInt, "v8.5.6", "Maximum nodes of a distributed task."+kindFromName),
		n("tidb_opt_join_reorder_through_sel", KindString, "v8.5.6", "Join reorder through selections."+textKind),
		n("tidb_slow_log_max_per_sec", KindInt, "v8.5.6", "Maximum slow log entries per second."+kindFromName),
		n("tidb_slow_log_rules", KindString, "v8.5.6", "Slow log rules."),
		n("max_user_connections", KindInt, "v8.5.7", "Maximum connections per user."+kindFromName),
		n("tidb_enable_batch_query_region", KindBool, "v8.5.7", "Batch Region queries."+kindFromName),
		n("tidb_enable_strict_not_null_check", KindBool, "v8.5.7", "Strict NOT NULL checks."+kindFromName),
		n("tidb_opt_enable_alternative_logical_plans", KindBool, "v8.5.7", "Optimizer: alternative logical plans."+kindFromName),
		n("tidb_opt_partial_ordered_index_for_topn", KindString, "v8.5.7", "Optimizer: partially ordered index for TopN."+textKind),
		n("tidb_accelerate_user_creation_update", KindString, "v9.0.0", "Faster user creation and update."+textKind),
		n("tidb_enable_binding_usage", KindBool, "v9.0.0", "Track binding usage."+kindFromName),
		n("tidb_enable_ts_validation", KindBool, "v9.0.0", "Timestamp validation."+kindFromName),
		n("tidb_pipelined_dml_resource_policy", KindString, "v9.0.0", "Resource policy of pipelined DML."+textKind),
		n("tiflash_hash_join_version", KindString, "v9.0.0", "TiFlash hash join implementation."+textKind),
	}
}

variables {
  tidb_enable_prepared_plan_cache     = true
  tidb_enable_non_prepared_plan_cache = true
  tidb_session_plan_cache_size        = 200
  tidb_plan_cache_max_plan_size       = "4MiB"
}

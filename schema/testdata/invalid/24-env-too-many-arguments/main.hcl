variables {
  tidb_session_plan_cache_size = env("PLAN_CACHE_SIZE", "100", "200")
}

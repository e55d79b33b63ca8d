variables {
  tidb_prepared_plan_cache_size = 0
}

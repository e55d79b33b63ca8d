variables {
  tidb_enable_prepared_plan_cache = true
  tidb_enable_prepared_plan_cache = false
}

variables = {
  tidb_enable_non_prepared_plan_cache = true
}

variables {
  tidb_enable_prepared_plan_cache = "maybe"
}

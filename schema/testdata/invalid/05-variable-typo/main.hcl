variables {
  tidb_enable_prepared_plan_cach = true
}

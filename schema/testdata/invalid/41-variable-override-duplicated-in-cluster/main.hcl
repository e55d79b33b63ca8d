cluster "prod" {
  variables {
    tidb_enable_non_prepared_plan_cache = true
  }

  variables {
    tidb_enable_non_prepared_plan_cache = false
  }
}

locals {
  plan_cache = true
}

variables {
  tidb_enable_prepared_plan_cache = local.plan_cach
}

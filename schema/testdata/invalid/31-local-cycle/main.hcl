locals {
  a = local.b
  b = local.a
}

variables {
  tidb_session_plan_cache_size = local.a
}

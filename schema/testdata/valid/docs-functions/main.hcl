locals {
  base   = { tidb_enable_prepared_plan_cache = true }
  extras = { tidb_session_plan_cache_size = 100 }
  all    = merge(local.base, local.extras)
  labels = split(",", "zone,host")
}

pd {
  replication {
    location-labels = concat(local.labels, ["rack"])
  }
}

variables {
  tidb_enable_prepared_plan_cache = local.all["tidb_enable_prepared_plan_cache"]
  tidb_session_plan_cache_size    = min(local.all["tidb_session_plan_cache_size"], 500)
  tidb_slow_log_rules             = trimspace(file("slow-log-rules.txt"))
  tidb_enable_resource_control    = contains(keys(local.all), "tidb_session_plan_cache_size")
}

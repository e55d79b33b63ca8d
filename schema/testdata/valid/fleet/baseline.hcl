# Baseline: every cluster of the fleet gets these settings.

tikv {
  coprocessor {
    # tidb-facts.md §3.3: manage the region-size family as a set.
    region-split-size = "96MiB"
    region-max-size   = "144MiB"
    region-split-keys = 960000
    region-max-keys   = 1440000
  }
}

pd {
  schedule {
    max-merge-region-size = 54
    max-merge-region-keys = 540000
  }
}

variables {
  tidb_enable_prepared_plan_cache     = true
  tidb_enable_non_prepared_plan_cache = false
}

resource_group "oltp" {
  ru_per_sec = 2000
  priority   = "high"
  burstable  = true
  users      = ["app@%"]
}

resource_group "batch" {
  ru_per_sec = 500
  priority   = "LOW"

  query_limit {
    exec_elapsed = "60s"
    action       = "COOLDOWN"
  }
}

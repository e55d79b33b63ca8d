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
    # tidb-facts.md §3.2: merge thresholds scaled with the split size
    # (20MiB for 96MiB Regions, keys = MiB × 10000).
    max-merge-region-size = 20
    max-merge-region-keys = 200000
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

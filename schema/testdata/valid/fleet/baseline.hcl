# Baseline: every cluster of the fleet gets these settings.

tikv {
  coprocessor {
    # Manage the region-size family as a set (tikv/tikv#18503, tikv/tikv#18567).
    region-split-size = "96MiB"
    region-max-size   = "144MiB"
    region-split-keys = 960000
    region-max-keys   = 1440000
  }
}

pd {
  schedule {
    # Merge thresholds scaled with the split size (PD's default 20 went with
    # 96MiB Regions: https://docs.pingcap.com/tidb/stable/pd-configuration-file#max-merge-region-size).
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

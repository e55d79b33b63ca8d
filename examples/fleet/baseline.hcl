# Baseline: every cluster of the fleet gets these settings unless its cluster
# block overrides them (clusters.hcl).

variable "split_size_mib" {
  type        = number
  default     = 256
  description = "Region split size in MiB for the whole fleet (https://docs.pingcap.com/tidb/stable/tikv-configuration-file#region-split-size)."
}

locals {
  # Keep the region-size family consistent: max = split / 2 × 3, keys = MiB × 10000.
  split_mib = var.split_size_mib
  max_mib   = var.split_size_mib / 2 * 3
}

tikv {
  coprocessor {
    region-split-size = format("%dMiB", local.split_mib)
    region-max-size   = format("%dMiB", local.max_mib)
    region-split-keys = local.split_mib * 10000
    region-max-keys   = local.max_mib * 10000
  }
}

pd {
  schedule {
    # Scaled with the split size like PD's defaults (20 for 96MiB before v8.4.0, 54 for
    # 256MiB from v8.4.0: https://docs.pingcap.com/tidb/stable/pd-configuration-file#max-merge-region-size).
    max-merge-region-size = floor(local.split_mib * 54 / 256)
    max-merge-region-keys = floor(local.split_mib * 54 / 256) * 10000
  }
}

variables {
  tidb_enable_prepared_plan_cache     = true
  tidb_enable_non_prepared_plan_cache = false
}

resource_group "oltp" {
  ru_per_sec = 20000
  priority   = "HIGH"
  burstable  = "UNLIMITED"
}

resource_group "batch" {
  ru_per_sec = 2000
  priority   = "LOW"

  query_limit {
    exec_elapsed = "10m"
    action       = "COOLDOWN"
  }
}

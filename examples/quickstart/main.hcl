# tiform quickstart: one cluster, reached through TIFORM_DSN (or --dsn).
#
# The story: a cluster upgraded from v8.1 still runs the old 96 MiB Regions and
# PD's old merge thresholds. We pin the whole region-size family at the v8.4+
# default (managing it as a set avoids tikv#18503's silent switch on upgrade),
# scale PD's merge thresholds with it, turn on the non-prepared plan cache, and
# give OLTP traffic its own HIGH-priority resource group.

tikv {
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
    region-split-keys = 2560000
    region-max-keys   = 3840000
  }
}

pd {
  schedule {
    max-merge-region-size = 54
    max-merge-region-keys = 540000
  }
}

variables {
  tidb_enable_non_prepared_plan_cache = true
}

resource_group "oltp" {
  ru_per_sec = 20000
  priority   = "HIGH"
  burstable  = "UNLIMITED"
}

# The persisted layer (docs/persisted.md): the cluster's TiUP topology is
# named, so plan and plan --drift say, per setting, whether the next
# `tiup cluster reload` keeps what runs.
#
#   tiform apply --auto-approve          # gc.ratio-threshold goes online
#   tiform plan                          # ... and is flagged: the topology lacks it
#   tiform export tiup                   # exactly what to merge, and the reload
#   tiup cluster edit-config tidb-demo   # merge it (here: edit meta.yaml)
#   tiform plan --drift --detailed-exitcode   # 0: the layers are in step
cluster "demo" {
  dsn           = env("TIFORM_DSN")
  tiup_cluster  = "tidb-demo"
  tiup_topology = "meta.yaml"

  tikv {
    gc {
      ratio-threshold = 1.5
    }
    split {
      qps-threshold = 3000
    }
  }

  pd {
    schedule {
      max-merge-region-size = 54
    }
  }

  # INSTANCE scope: lives only in one TiDB process, never persisted.
  instance_variables = "allow"
  variables {
    tidb_slow_log_threshold = 1000
  }
}

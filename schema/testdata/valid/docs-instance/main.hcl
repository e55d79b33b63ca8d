tikv {
  coprocessor {
    region-split-size = "96MiB"
  }
}

# This node keeps bigger regions while it is being migrated.
tikv "10.0.1.17:20160" {
  coprocessor {
    region-split-size = "256MiB"
  }
}

pd "10.0.1.2:2379" {
  schedule {
    leader-schedule-limit = 8
  }
}

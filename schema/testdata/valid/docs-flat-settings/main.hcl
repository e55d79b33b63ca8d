tikv {
  settings = {
    "storage.block-cache.capacity"     = "24GiB"
    "raftstore.raft-log-gc-size-limit" = "288MiB"
  }

  coprocessor {
    region-split-size = "256MiB"
  }
}

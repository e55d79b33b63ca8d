tikv {
  coprocessor {
    # Manage the region-size family as a set (tikv/tikv#18503, tikv/tikv#18567).
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
    region-split-keys = 2560000
    region-max-keys   = 3840000
  }

  # Any depth of nesting: storage.block-cache.capacity.
  storage {
    block-cache {
      capacity = "24GiB"
    }
  }
}

pd {
  schedule {
    max-merge-region-size = 54
    max-merge-region-keys = 540000
    max-store-down-time   = "30m"
  }
}

tiflash {
  raftstore-proxy {
    server {
      snap-io-max-bytes-per-sec = "300MiB"
    }
  }
}

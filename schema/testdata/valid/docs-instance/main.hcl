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

# TiFlash instances are named by their service address (port 3930 by default).
tiflash "10.0.1.30:3930" {
  raftstore-proxy {
    server {
      snap-io-max-bytes-per-sec = "100MiB"
    }
  }
}

tikv {
  coprocessor {
    region-split-size = "512MiB"
    region-max-size   = "384MiB"
    region-split-keys = 5120000
    region-max-keys   = 7680000
  }
}

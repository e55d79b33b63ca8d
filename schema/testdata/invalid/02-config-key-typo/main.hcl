tikv {
  coprocessor {
    region-split-sise = "256MiB"
  }
}

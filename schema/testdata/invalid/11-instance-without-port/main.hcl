tikv "10.0.1.17" {
  coprocessor {
    region-split-size = "256MiB"
  }
}

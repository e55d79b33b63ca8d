tikv {
  coprocessor {
    region-split-size = "big"
  }
}

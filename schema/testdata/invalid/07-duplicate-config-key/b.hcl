tikv {
  settings = {
    "coprocessor.region-split-size" = "96MiB"
  }
}

pd {
  schedule {
    max-merge-region-size = 1e100000000
  }
}

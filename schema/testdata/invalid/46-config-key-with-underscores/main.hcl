pd {
  schedule {
    max_merge_region_keys = 540000
  }
}

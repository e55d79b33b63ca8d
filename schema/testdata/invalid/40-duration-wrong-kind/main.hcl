pd {
  schedule {
    max-store-down-time = 30
  }
}

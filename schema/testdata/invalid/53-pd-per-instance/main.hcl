pd "10.0.1.2:2379" {
  schedule {
    leader-schedule-limit = 8
  }
}

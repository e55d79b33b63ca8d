variables {
  tidb-enable-non-prepared-plan-cache = true
}

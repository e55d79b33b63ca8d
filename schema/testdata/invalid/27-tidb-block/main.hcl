tidb {
  performance {
    max-procs = 8
  }
}

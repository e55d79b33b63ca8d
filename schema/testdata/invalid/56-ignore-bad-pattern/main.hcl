ignore "tidb.performance.max-procs" {
  reason = "TiDB config is managed by TiUP"
}

# tiform calls this cluster tokyo; TiUP knows it as tidb-prod-01.
cluster "tokyo" {
  dsn          = env("TOKYO_DSN")
  tiup_cluster = "tidb-prod-01"
}

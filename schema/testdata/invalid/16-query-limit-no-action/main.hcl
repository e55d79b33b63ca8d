resource_group "batch" {
  ru_per_sec = 500

  query_limit {
    exec_elapsed = "60s"
  }
}

resource_group "oltp" {
  ru_per_sec = 1000

  query_limit {
    exec_elapsed = "30s"
    action       = "SWITCH_GROUP"
  }
}

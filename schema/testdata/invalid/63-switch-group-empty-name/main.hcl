resource_group "oltp" {
  ru_per_sec = 100
  query_limit {
    exec_elapsed = "1s"
    action       = "SWITCH_GROUP(``)"
  }
}

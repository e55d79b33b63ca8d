resource_group "oltp" {
  ru_per_sec = 100
  query_limit {
    exec_elapsed   = "1500us"
    action         = "KILL"
    watch          = "EXACT"
    watch_duration = "500us"
  }
}

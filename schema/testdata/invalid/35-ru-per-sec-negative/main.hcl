resource_group "oltp" {
  ru_per_sec = -5
}

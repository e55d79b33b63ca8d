resource_group "oltp" {
  ru_per_second = 1000
}

resource_group "oltp" {
  ru_per_sec = 1000
  users      = ["app@%", "report"]
}

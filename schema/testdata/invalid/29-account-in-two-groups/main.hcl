resource_group "oltp" {
  ru_per_sec = 1000
  users      = ["app@%"]
}

resource_group "batch" {
  ru_per_sec = 500
  users      = ["report@%", "app@%"]
}

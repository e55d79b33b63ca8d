resource_group "oltp" {
  ru_per_sec = 1000
}

resource_group "OLTP" {
  ru_per_sec = 2000
}

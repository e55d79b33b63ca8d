unmanaged_resource_groups = "drop"
instance_variables        = "allow"
unmanaged_settings        = "report"

variables {
  max_connections = 2000
}

resource_group "oltp" {
  ru_per_sec = 20000
}

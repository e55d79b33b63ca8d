unmanaged_resource_groups = "drop"
instance_variables        = "allow"

variables {
  max_connections = 2000
}

resource_group "oltp" {
  ru_per_sec = 20000
}

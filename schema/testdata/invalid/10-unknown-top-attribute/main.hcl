unmanaged_resource_group = "drop"

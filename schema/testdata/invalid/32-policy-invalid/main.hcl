unmanaged_resource_groups = "delete"

resource_group "oltp" {
  ru_per_sec = 20000  # or "UNLIMITED"
  priority   = "HIGH" # LOW, MEDIUM, HIGH (any case)
  burstable  = true   # or, where TiDB has burst modes, "OFF", "MODERATED", "UNLIMITED"

  # Accounts bound to the group (ALTER USER … RESOURCE GROUP). users = [] means
  # no account may be bound; leaving users out leaves bindings alone.
  users = ["app@%", "api@10.0.%"]

  # Runaway-query rule: at least one condition and an action.
  query_limit {
    exec_elapsed   = "60s"
    processed_keys = 1000000
    ru             = 5000
    action         = "SWITCH_GROUP"
    switch_group   = "batch"
    watch          = "SIMILAR"
    watch_duration = "10m"
  }

  # apply never drops this group, whatever the configuration says later.
  lifecycle {
    prevent_destroy = true
  }
}

resource_group "batch" {
  ru_per_sec = 2000
  priority   = "low"

  # An empty block removes any runaway rule (QUERY_LIMIT=NULL).
  query_limit {}
}

# Only the default group can set BACKGROUND (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).
resource_group "default" {
  background {
    task_types        = ["br", "ddl", "stats"]
    utilization_limit = 30
  }
}

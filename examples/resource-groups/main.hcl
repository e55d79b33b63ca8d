# Resource groups, runaway-query limits, background tasks and user bindings.
# The cluster comes from TIFORM_DSN (or --dsn).

variables {
  tidb_enable_resource_control = true
}

# The default group exists on every cluster; only it can limit background tasks.
resource_group "default" {
  background {
    task_types = ["br", "ddl", "stats"]
  }
}

resource_group "oltp" {
  ru_per_sec = 30000
  priority   = "HIGH" # HIGH is never throttled by the v7.5–v8.5.3 priority limiter (TF110)
  burstable  = "UNLIMITED"
  users      = ["app@%"]
}

resource_group "reporting" {
  ru_per_sec = 3000
  priority   = "MEDIUM"

  query_limit {
    exec_elapsed   = "60s"
    action         = "KILL"
    watch          = "SIMILAR"
    watch_duration = "10m"
  }

  users = ["report@%"]

  lifecycle {
    prevent_destroy = true
  }
}

# The priority-limiter finding is known and accepted for this cluster until
# the TiKV upgrade is done.
acknowledge "TF110" {
  reason = "reporting runs at MEDIUM on purpose; TiKV upgrade to v8.5.4 planned (OPS-1234)"
  until  = "2027-03-31"
}

# Three clusters. Each reads its DSN from the environment: never write a
# password in a file.

cluster "tokyo" {
  dsn    = env("TOKYO_DSN")
  labels = { env = "prod", region = "tokyo" }

  # The one cluster where the plan cache pays off (measured, see TF123).
  variables {
    tidb_enable_non_prepared_plan_cache = true
    tidb_session_plan_cache_size        = 200
  }
}

cluster "osaka" {
  dsn    = env("OSAKA_DSN")
  labels = { env = "prod", region = "osaka" }

  # One TiKV node keeps a bigger block cache (it has more memory).
  tikv "127.0.0.1:20161" {
    storage {
      block-cache {
        capacity = "16GiB"
      }
    }
  }

  resource_group "batch" {
    ru_per_sec = 4000
  }
}

cluster "staging" {
  dsn    = env("STAGING_DSN")
  labels = { env = "staging" }
}

# Three clusters: one overrides the plan-cache variables, one has a
# per-instance TiKV exception, one takes the baseline unchanged.

cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod", region = "tokyo" }

  variables {
    tidb_enable_non_prepared_plan_cache = true
    tidb_session_plan_cache_size        = 200
  }
}

cluster "beta" {
  dsn    = env("BETA_DSN")
  labels = { env = "prod", region = "osaka" }

  # One TiKV node holds bigger regions while it is being migrated.
  tikv "10.0.1.17:20160" {
    coprocessor {
      region-split-size = "256MiB"
      region-max-size   = "384MiB"
      region-split-keys = 2560000
      region-max-keys   = 3840000
    }
  }

  resource_group "batch" {
    ru_per_sec = 800
  }
}

cluster "gamma" {
  dsn    = env("GAMMA_DSN", "")
  labels = { env = "staging" }
}

cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod", region = "tokyo" }
}

cluster "beta" {
  dsn    = env("BETA_DSN")
  labels = { env = "prod", region = "osaka" }
}

cluster "gamma" {
  dsn    = env("GAMMA_DSN")
  labels = { env = "prod", region = "tokyo" }
}

cluster "delta" {
  dsn    = env("DELTA_DSN")
  labels = { env = "prod", region = "osaka" }
}

cluster "epsilon" {
  dsn    = env("EPSILON_DSN")
  labels = { env = "prod", region = "sapporo" }
}

rollout {
  # What stops the whole rollout (the default: all three).
  stop_on = ["failed_change", "error_finding", "unreachable"]

  stage "canary" {
    clusters = ["alpha"]

    # The gate after the stage: wait, check, ask.
    pause = "15m"
    check "no_drift" {}
    check "plan_cache_hit_ratio" {
      max_drop = 0.02
    }
    approval = true
  }

  stage "wave-1" {
    labels       = { env = "prod" }
    max_clusters = 2
    check "no_drift" {}
  }

  stage "rest" {
    labels = { env = "prod" }
  }
}

# Production changes on weeknights, Tokyo time (22:00 to 06:00 the next day).
window "prod-nights" {
  labels    = { env = "prod" }
  days      = ["Mon", "Tue", "Wed", "Thu", "Fri"]
  from      = "22:00"
  to        = "06:00"
  time_zone = "Asia/Tokyo"
}

# Never at the weekend, whatever else is open (Friday night's window ends
# at Saturday 00:00 here).
window "weekends" {
  labels    = { env = "prod" }
  blackout  = true
  days      = ["Sat", "Sun"]
  time_zone = "Asia/Tokyo"
}

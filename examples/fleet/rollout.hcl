# How apply reaches the fleet: staging first, then one production cluster,
# then the rest, stopping at the first failure (docs/apply.md, section 9).

rollout {
  stage "staging" {
    labels = { env = "staging" }
    check "no_drift" {}
  }

  stage "canary" {
    labels       = { env = "prod" }
    max_clusters = 1

    # Wait half an hour, check the plan cache still hits, ask a person.
    pause = "30m"
    check "no_drift" {}
    check "plan_cache_hit_ratio" {
      max_drop = 0.02
    }
    approval = true
  }

  stage "prod" {
    labels = { env = "prod" }
  }
}

# Production changes on weeknights, Tokyo time; staging any time.
window "prod-nights" {
  labels    = { env = "prod" }
  days      = ["Mon", "Tue", "Wed", "Thu", "Fri"]
  from      = "22:00"
  to        = "06:00"
  time_zone = "Asia/Tokyo"
}

# Never on a weekend, whatever else is open.
window "prod-weekends" {
  labels    = { env = "prod" }
  blackout  = true
  days      = ["Sat", "Sun"]
  time_zone = "Asia/Tokyo"
}

cluster "alpha" {
  dsn = env("ALPHA_DSN")
}

cluster "beta" {
  dsn = env("BETA_DSN")
}

rollout {
  stop_on = ["failed_changes"]

  stage "canary" {
    clusters     = ["alpha"]
    max_clusters = 0
    percent      = 150
    pause        = "ten minutes"
    approval     = "yes"

    check "no_drfit" {}
    check "plan_cache_hit_ratio" {
      max_drop = 5
    }
  }

  stage "rest" {}
  stage "rest" {}
}

cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod" }
}

cluster "beta" {
  dsn    = env("BETA_DSN")
  labels = { env = "staging" }
}

rollout {
  stop_on = ["failed_change", "unreachable"]
  stage "prod" { labels = { env = "prod" } }
}

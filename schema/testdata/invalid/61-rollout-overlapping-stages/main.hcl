cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod" }
}

cluster "beta" {
  dsn    = env("BETA_DSN")
  labels = { env = "prod" }
}

rollout {
  stage "wave-1" { labels = { env = "prod" } }
  stage "wave-2" { clusters = ["beta"] }
}

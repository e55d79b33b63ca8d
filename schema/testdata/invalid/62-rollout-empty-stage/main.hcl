cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod" }
}

cluster "beta" {
  dsn    = env("BETA_DSN")
  labels = { env = "prod" }
}

rollout {
  stage "staging" { labels = { env = "staging" } }
  stage "prod" { labels = { env = "prod" } }
  stage "late" {}
}

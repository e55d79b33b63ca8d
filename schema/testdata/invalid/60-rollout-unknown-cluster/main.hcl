cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod" }
}

cluster "beta" {
  dsn    = env("BETA_DSN")
  labels = { env = "prod" }
}

rollout {
  stage "canary" { clusters = ["alpah"] }
  stage "rest" {}
}

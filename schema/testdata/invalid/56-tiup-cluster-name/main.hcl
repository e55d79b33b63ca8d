cluster "prod" {
  dsn          = env("PROD_DSN")
  tiup_cluster = "prod tokyo"
}

tiup_cluster = "prod"

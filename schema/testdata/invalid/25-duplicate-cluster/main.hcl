cluster "prod" {
  dsn = env("PROD_DSN", "")
}

cluster "prod" {
  dsn = env("PROD2_DSN", "")
}

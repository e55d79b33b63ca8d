cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod" }
}

window "prod-nights" {
  labels    = { env = "prod" }
  days      = ["Mon", "Tue", "Wed", "Thu", "Fri"]
  from      = "22:00"
  to        = "06:00"
  time_zone = "Asia/Tokio"
}

window "no-zone" {
  labels = { env = "prod" }
}

cluster "alpha" {
  dsn    = env("ALPHA_DSN")
  labels = { env = "prod" }
}

window "late" {
  labels    = { env = "prod" }
  days      = ["Mon", "Tues", "Frii"]
  from      = "22:60"
  to        = "6:00"
  time_zone = "UTC"
}

window "same" {
  from      = "03:00"
  to        = "03:00"
  time_zone = "UTC"
}

window "half" {
  from      = "03:00"
  time_zone = "UTC"
}

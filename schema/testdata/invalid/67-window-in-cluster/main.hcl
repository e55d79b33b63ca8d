cluster "alpha" {
  dsn = env("ALPHA_DSN")

  window "nights" {
    time_zone = "UTC"
  }
}

cluster "prod" {
  dsn = "root:s3cret@tcp(10.0.1.5:4000)/"
}

locals {
  db_user = "app"
  db_pass = "hunter2"
}

cluster "prod" {
  dsn = "${local.db_user}:${local.db_pass}@tcp(10.0.1.5:4000)/"
}

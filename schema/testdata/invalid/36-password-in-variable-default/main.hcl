variable "prod_dsn" {
  type    = string
  default = "app:hunter2@tcp(10.0.1.5:4000)/"
}

cluster "prod" {
  dsn = var.prod_dsn
}

variable "local_dev" {
  type    = bool
  default = false
}

cluster "dev" {
  dsn = var.local_dev ? "root:hunter2@tcp(127.0.0.1:4000)/" : env("DEV_DSN", "")
}

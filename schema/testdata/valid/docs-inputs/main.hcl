variable "env" {
  type        = string
  default     = "staging"
  description = "prod or staging"
}

variable "app_password" {
  type      = string
  default   = ""
  sensitive = true
}

locals {
  is_prod    = var.env == "prod"
  cache_size = lookup({ prod = 200, staging = 50 }, var.env, 100)
  accounts   = [for u in ["app", "api"] : "${u}@%"]
  split_size = format("%dMiB", max(96, 128))
}

tikv {
  coprocessor {
    region-split-size = local.split_size
  }
}

variables {
  tidb_enable_non_prepared_plan_cache = local.is_prod ? true : false
  tidb_session_plan_cache_size        = local.cache_size
}

resource_group "oltp" {
  ru_per_sec = local.is_prod ? 20000 : 2000
  priority   = upper("high")
  users      = local.accounts
}

cluster "main" {
  dsn = var.app_password == "" ? env("MAIN_DSN", "") : "app:${var.app_password}@tcp(10.0.1.5:4000)/"
}

variable "ru" {
  type        = number
  description = "RU budget of the oltp group"
}

resource_group "oltp" {
  ru_per_sec = var.ru
}

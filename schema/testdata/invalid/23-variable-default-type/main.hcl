variable "ru" {
  type    = number
  default = "lots"
}

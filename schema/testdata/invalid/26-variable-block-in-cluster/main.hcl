cluster "prod" {
  variable "x" {
    default = 1
  }
}

variable "split_size" {
  type    = string
  default = "256MiB"
}

tikv {
  coprocessor {
    region-split-size = var.split_sise
  }
}

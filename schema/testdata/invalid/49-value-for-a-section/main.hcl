tikv {
  storage {
    block-cache = "24GiB"
  }
}

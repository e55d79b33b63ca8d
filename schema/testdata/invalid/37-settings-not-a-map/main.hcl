tikv {
  settings = "storage.block-cache.capacity=24GiB"
}

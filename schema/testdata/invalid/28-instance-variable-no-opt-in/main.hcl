variables {
  max_connections = 2000
}

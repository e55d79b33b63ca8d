resource_group "" {
  ru_per_sec = 100
}

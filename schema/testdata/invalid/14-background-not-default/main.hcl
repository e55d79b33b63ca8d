resource_group "oltp" {
  ru_per_sec = 1000

  background {
    task_types = ["br", "ddl"]
  }
}

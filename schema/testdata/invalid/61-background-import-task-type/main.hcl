resource_group "default" {
  background {
    task_types        = ["br", "import"]
    utilization_limit = 0
  }
}

variables {
  tidb_enable_instance_plan_cache = ["ON"]
}

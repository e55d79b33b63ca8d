cluster "tokyo" {
  dsn           = env("TOKYO_DSN")
  tiup_cluster  = "tidb-prod-01"
  tiup_topology = "meta.yaml"
}

cluster "k8s" {
  dsn                = env("K8S_DSN")
  operator_manifests = ["tikv-group.yaml"]
}

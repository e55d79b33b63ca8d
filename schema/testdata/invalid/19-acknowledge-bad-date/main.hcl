acknowledge "TF101" {
  reason = "region size reviewed with the TiKV team"
  until  = "31/03/2027"
}

acknowledge "TF101" {
  reason = "region size reviewed with the TiKV team, see INC-2231"
  until  = "2027-03-31"
}

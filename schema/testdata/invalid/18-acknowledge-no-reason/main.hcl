acknowledge "TF101" {
  until = "2027-03-31"
}

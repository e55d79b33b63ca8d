variables {
  validate_password {
    enable = true
    length = 12
  }
}

variable "ldap_bind_pw" {
  sensitive = true
}

variables {
  authentication_ldap_simple_bind_root_pwd = var.ldap_bind_pw # TIFORM_VAR_ldap_bind_pw where tiform runs
}

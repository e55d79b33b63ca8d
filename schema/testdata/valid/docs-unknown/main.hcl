tikv {
  # Not in the catalog: managed, compared in the kind the cluster shows, with a warning.
  backup {
    enable-auto-tune = true
  }
}

variables {
  tidb_opt_some_new_switch = "ON"
}

tikv {
  # Not in the catalog: managed, compared as text, with a warning.
  backup {
    enable-auto-tune = true
  }
}

variables {
  tidb_opt_some_new_switch = "ON"
}

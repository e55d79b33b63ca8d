ignore "tikv.raftstore.*" {
  reason = "INC-123: raised during the incident, revert after the postmortem"
  until  = "2027-13-01"
}

ignore "variable.tidb_mem_quota_query" {
  until = "2027-03-31"
}

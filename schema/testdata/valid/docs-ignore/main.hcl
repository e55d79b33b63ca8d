tikv {
  raftstore {
    store-pool-size = 2
  }
}

ignore "tikv.raftstore.*" {
  reason = "INC-2240: raised to 4 during the incident, back to 2 after the postmortem"
  until  = "2027-03-31"
}

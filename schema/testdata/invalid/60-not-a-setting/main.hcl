# SHOW CONFIG prints an instance's addresses and paths, but they are the
# deployment's, not settings (docs/catalog.md "What is not a setting").
tikv {
  server {
    advertise-addr = "10.0.1.17:20160"
  }
  raft-engine {
    dir = "/tidb-data/tikv-20160/raft-engine"
  }
}

pd {
  name     = "pd-10.0.1.1-2379"
  data-dir = "/tidb-data/pd-2379"
}

variables {
  version = "8.0.11"
}

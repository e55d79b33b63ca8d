resource_group "rg-with-dash" {
  ru_per_sec = 1000
}

# The group `batch jobs`: names are compared lower-cased.
resource_group "Batch Jobs" {
  ru_per_sec = 500
}

resource_group "été" {
  ru_per_sec = 100
}

resource_group "select" {
  ru_per_sec = 100
}

resource_group "analytics_reporting_batch_nightly_jobs" {
  ru_per_sec = 500
}

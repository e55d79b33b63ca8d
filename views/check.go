package views

// Check is the output of `tiform check --format json`
// (schema/check.schema.json): one entry per cluster checked (a single
// cluster read from --dsn or a snapshot is named "default", or the
// snapshot's cluster).
type Check struct {
	Header
	Summary  CheckSummary   `json:"summary"`
	Clusters []CheckCluster `json:"clusters"`
}

// CheckSummary totals a check.
type CheckSummary struct {
	FleetSummary
	HighestSeverity *string `json:"highest_severity"`
}

// FleetSummary counts the clusters of a fleet report and how many have each
// status (plan, check).
type FleetSummary struct {
	Clusters int `json:"clusters"`
	// Statuses counts the clusters of each status.
	Statuses map[string]int `json:"statuses"`
}

// CheckCluster is one cluster of a check.
type CheckCluster struct {
	Name string `json:"name"`
	ClusterStatus
	Labels map[string]string `json:"labels"`
	// Versions is the lowest version per component; Mixed the components
	// whose instances differ.
	Versions map[string]string `json:"versions"`
	Mixed    []string          `json:"mixed_versions"`
	// Incomplete says what could not be read (the advice may be partial).
	Incomplete []string `json:"incomplete"`
	// Notes are what the read says besides (an instance without a status
	// address whose configuration no one can read, a version approximated).
	Notes    []string  `json:"notes"`
	Summary  string    `json:"summary"`
	Findings []Finding `json:"findings"`
}

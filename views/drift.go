package views

// Difference is one difference between a live cluster and its
// configuration: an entry of a drift report, and a plan's ignored
// differences. It says what differs and where it is declared, never how
// tiform would change it (that is the plan's Change).
type Difference struct {
	Address   string `json:"address"`
	Kind      string `json:"kind"`
	Action    string `json:"action"`
	Component string `json:"component"`
	Key       string `json:"key"`
	Instance  string `json:"instance"`
	// Live holds the cluster's value per instance where it differs (empty
	// when the item does not exist on the cluster).
	Live []Value `json:"live"`
	// Declared is the configuration's value ("" when the configuration
	// drops the item).
	Declared string `json:"declared"`
	// Range is the declaration; null when none (an unmanaged group dropped).
	Range *Range `json:"range"`
}

// IgnoredDifference is a difference an ignore block accepted: not planned,
// not applied, shown.
type IgnoredDifference struct {
	Difference
	Ignore IgnoreBlock `json:"ignore"`
}

// IgnoreBlock is the ignore block that accepted a difference.
type IgnoreBlock struct {
	Pattern string `json:"pattern"`
	Reason  string `json:"reason"`
	// Until is the last day it holds (YYYY-MM-DD); null: no expiry.
	Until *string `json:"until"`
	Range *Range  `json:"range"`
}

// Drift is the output of `tiform plan --drift --format json`
// (schema/drift.schema.json, docs/workflows.md): per cluster, only the
// differences between the live cluster and the configuration, which of them
// are new since a previous report, and the accepted ones.
type Drift struct {
	Header
	ConfigHash string  `json:"config_hash"`
	CreatedAt  *string `json:"created_at"`
	// Previous is the report --previous named; null without one.
	Previous *DriftPrevious `json:"previous"`
	HasDrift bool           `json:"has_drift"`
	// HasUnmanagedDrift: a cluster has an unmanaged setting no ignore
	// block accepts (UnmanagedDrift); kept apart from HasDrift.
	HasUnmanagedDrift bool           `json:"has_unmanaged_drift"`
	Summary           DriftSummary   `json:"summary"`
	Clusters          []DriftCluster `json:"clusters"`
}

// DriftPrevious names the report a drift report was compared with.
type DriftPrevious struct {
	Path      string  `json:"path"`
	CreatedAt *string `json:"created_at"`
}

// DriftSummary totals a drift report.
type DriftSummary struct {
	FleetSummary
	// Drifted counts the clusters with at least one difference.
	Drifted     int `json:"drifted"`
	Differences int `json:"differences"`
	// New counts the differences not in the previous report (0 without one).
	New      int `json:"new"`
	Resolved int `json:"resolved"`
	Ignored  int `json:"ignored"`
	// Unmanaged totals the clusters' unmanaged drift; null when no
	// cluster's was read (no --unmanaged, no unmanaged_settings).
	Unmanaged *UnmanagedSummary `json:"unmanaged"`
}

// DriftCluster is one cluster of a drift report.
type DriftCluster struct {
	Name string `json:"name"`
	ClusterStatus
	Labels      map[string]string `json:"labels"`
	Differences []DriftDifference `json:"differences"`
	// Resolved are the differences of the previous report that are gone.
	Resolved []Difference        `json:"resolved"`
	Ignored  []IgnoredDifference `json:"ignored"`
	// Incomplete says what could not be read (the report may be partial).
	Incomplete []string `json:"incomplete"`
	// Findings are the cluster's unacknowledged warning and error findings
	// (the reasons a drift check fails besides drift).
	Findings []Finding `json:"findings"`
	// Persisted is the persisted-layer report, as in a plan.
	Persisted *Persisted `json:"persisted,omitempty"`
	// Unmanaged is the cluster's unmanaged drift; null when it was not
	// read (no --unmanaged, no unmanaged_settings) or the cluster failed.
	Unmanaged *UnmanagedDrift `json:"unmanaged"`
}

// DriftDifference is a difference of a drift report.
type DriftDifference struct {
	Difference
	// New says whether the previous report lacked this difference (or had
	// other values); null without a previous report, or when it has no
	// result for this cluster.
	New *bool `json:"new"`
}

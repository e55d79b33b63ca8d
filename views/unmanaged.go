package views

// UnmanagedDrift is one cluster's unmanaged drift in a drift report
// (DriftCluster.Unmanaged; docs/decisions/0022-unmanaged-drift.md): the
// settings the configuration does not declare whose live value is not the
// default of the cluster's version. Kept apart from the differences: nothing
// declares these values, so nothing would change them back.
type UnmanagedDrift struct {
	Settings []UnmanagedSetting `json:"settings"`
	// Resolved are the previous report's unmanaged settings no longer
	// reported (back at the default, or declared since).
	Resolved []UnmanagedSetting `json:"resolved"`
	// Ignored are those an ignore block accepted.
	Ignored []IgnoredUnmanaged `json:"ignored"`
	// Undecided counts the undeclared settings whose default is not known
	// for the version: they cannot be told from tuned ones.
	Undecided int `json:"undecided"`
}

// UnmanagedSetting is one undeclared setting whose live value is not the
// default.
type UnmanagedSetting struct {
	Address   string `json:"address"`
	Kind      string `json:"kind"`
	Component string `json:"component"`
	Key       string `json:"key"`
	// Live holds the value of each instance where it is not the default
	// (one value without an instance for a variable).
	Live []Value `json:"live"`
	// Default is the version's default as the component shows it; null
	// when the component computes it from each instance's host.
	Default *string `json:"default"`
	// New says whether the previous report lacked this setting or had
	// other values; null without a previous result for the cluster.
	New *bool `json:"new"`
}

// IgnoredUnmanaged is an unmanaged setting an ignore block accepted.
type IgnoredUnmanaged struct {
	UnmanagedSetting
	Ignore IgnoreBlock `json:"ignore"`
}

// UnmanagedSummary totals the unmanaged drift of a report.
type UnmanagedSummary struct {
	// Clusters counts the clusters whose unmanaged drift was read.
	Clusters int `json:"clusters"`
	// Drifted counts those with at least one unmanaged setting.
	Drifted  int `json:"drifted"`
	Settings int `json:"settings"`
	New      int `json:"new"`
	Resolved int `json:"resolved"`
	Ignored  int `json:"ignored"`
}

package views

// Plan is the output of `tiform plan --format json` and `tiform show
// --format json` (schema/plan.schema.json, docs/json-plan.md).
type Plan struct {
	Header
	ConfigHash string        `json:"config_hash"`
	CreatedAt  *string       `json:"created_at"`
	HasChanges bool          `json:"has_changes"`
	Incomplete bool          `json:"incomplete"`
	Summary    PlanSummary   `json:"summary"`
	Clusters   []PlanCluster `json:"clusters"`
}

// PlanSummary totals a plan.
type PlanSummary struct {
	FleetSummary
	Create          int     `json:"create"`
	Update          int     `json:"update"`
	Delete          int     `json:"delete"`
	HighestSeverity *string `json:"highest_severity"`
}

// PlanCluster is one cluster of a plan.
type PlanCluster struct {
	Name string `json:"name"`
	ClusterStatus
	Labels            map[string]string `json:"labels"`
	Versions          map[string]string `json:"versions"`
	Mixed             []string          `json:"mixed_versions"`
	Topology          map[string]int    `json:"topology"`
	ServerVersion     string            `json:"server_version"`
	ConnectedInstance string            `json:"connected_instance"`
	Offline           *Offline          `json:"offline"`
	Incomplete        []string          `json:"incomplete"`
	Summary           Counts            `json:"summary"`
	Changes           []Change          `json:"changes"`
	// Ignored are the differences ignore blocks accepted: not in changes.
	Ignored     []IgnoredDifference `json:"ignored"`
	Unmanaged   []string            `json:"unmanaged_resource_groups"`
	Notes       []string            `json:"notes"`
	Findings    []Finding           `json:"findings"`
	Fingerprint []Dependency        `json:"fingerprint"`
	// Diagnostics say where the configuration caused the cluster's failure
	// (status error), with the fix; empty otherwise.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Evidence is the cluster's statement statistics when the plan changes a
	// plan-cache variable or in-memory-engine.enable; null otherwise.
	Evidence *Evidence `json:"evidence"`
	// Persisted is the persisted-layer report (persisted.go); absent when
	// the configuration names no persisted layer and declares no
	// INSTANCE-scope variable.
	Persisted *Persisted `json:"persisted,omitempty"`
}

// Counts are a cluster's changes by action.
type Counts struct {
	Create int `json:"create"`
	Update int `json:"update"`
	Delete int `json:"delete"`
}

// Offline says the plan was made against a snapshot.
type Offline struct {
	Path    string  `json:"path"`
	TakenAt *string `json:"taken_at"`
	Age     string  `json:"age"`
	Hash    string  `json:"hash"`
}

// Change is one planned change.
type Change struct {
	Order           int         `json:"order"`
	Address         string      `json:"address"`
	Kind            string      `json:"kind"`
	Action          string      `json:"action"`
	Symbol          string      `json:"symbol"`
	Component       string      `json:"component"`
	Key             string      `json:"key"`
	Instance        string      `json:"instance"`
	Before          []Value     `json:"before"`
	After           string      `json:"after"`
	Statements      []Statement `json:"statements"`
	Verify          []Verify    `json:"verify"`
	Rollback        []Statement `json:"rollback"`
	Persistence     string      `json:"persistence"`
	RestartRequired bool        `json:"restart_required"`
	Range           *Range      `json:"range"`
	Reason          string      `json:"reason"`
	Findings        []string    `json:"findings"`
	DependsOn       []string    `json:"depends_on"`
	// Sensitive: values and statement values read "(sensitive)".
	Sensitive bool `json:"sensitive,omitempty"`
}

// Value is a value on one instance ("" = cluster-wide).
type Value struct {
	Instance string `json:"instance"`
	Value    string `json:"value"`
}

// Statement is one SQL statement and where it runs.
type Statement struct {
	SQL    string `json:"sql"`
	Target string `json:"target"`
}

// Verify is one read-back check of a change.
type Verify struct {
	Kind      string `json:"kind"`
	Component string `json:"component"`
	Instance  string `json:"instance"`
	Key       string `json:"key"`
	Want      string `json:"want"`
}

// Dependency is one live value the plan depends on (its stale check).
type Dependency struct {
	Kind      string `json:"kind"`
	Component string `json:"component"`
	Instance  string `json:"instance"`
	Key       string `json:"key"`
	Value     string `json:"value"`
}

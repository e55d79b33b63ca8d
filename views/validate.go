package views

// Validate is the output of `tiform validate --format json`
// (schema/validate.schema.json).
type Validate struct {
	Header
	Valid        bool         `json:"valid"`
	ErrorCount   int          `json:"error_count"`
	WarningCount int          `json:"warning_count"`
	Diagnostics  []Diagnostic `json:"diagnostics"`
	// Clusters names the declared clusters (empty when the configuration
	// could not be loaded).
	Clusters []string `json:"clusters"`
	// Cluster is the resolved desired state of `--show NAME`, else null.
	Cluster *DesiredCluster `json:"cluster"`
}

// DesiredCluster is one cluster's resolved desired state: every setting with
// its value and where it is declared. It never holds the DSN.
type DesiredCluster struct {
	Name   string            `json:"name"`
	DSNSet bool              `json:"dsn_set"`
	Labels map[string]string `json:"labels"`
	// TiUPCluster is the cluster block's tiup_cluster ("" when not declared).
	TiUPCluster            string    `json:"tiup_cluster"`
	DropUnmanagedGroups    bool      `json:"drop_unmanaged_groups"`
	AllowInstanceVariables bool      `json:"allow_instance_variables"`
	Settings               []Setting `json:"settings"`
}

// Setting is one declared value.
type Setting struct {
	Address string `json:"address"`
	Value   string `json:"value"`
	Range   *Range `json:"range"`
}

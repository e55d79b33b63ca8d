package views

// Check is the output of `tiform check --format json`
// (schema/check.schema.json).
type Check struct {
	Header
	// Versions is the lowest version per component; Mixed the components
	// whose instances differ.
	Versions map[string]string `json:"versions"`
	Mixed    []string          `json:"mixed_versions"`
	// Incomplete says what could not be read (the advice may be partial).
	Incomplete []string  `json:"incomplete"`
	Summary    string    `json:"summary"`
	Findings   []Finding `json:"findings"`
}

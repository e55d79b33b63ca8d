package views

// Persisted is a cluster's persisted-layer report in `plan` and `plan
// --drift` JSON (common.schema.json#/$defs/persisted, docs/persisted.md):
// per declared setting, desired / running / persisted and what the next
// reload, restart or rolling update does to it. Absent when the
// configuration names no persisted layer and declares no INSTANCE-scope
// variable.
type Persisted struct {
	// Tool is "tiup", "operator", or "" when the configuration names no
	// persisted layer (only INSTANCE-scope variables are then reported).
	Tool  string   `json:"tool"`
	Files []string `json:"files"`
	// Flagged counts the settings reverted or not persisted; Reverted says
	// whether any running value will be reverted (--detailed-exitcode 2).
	Flagged  int                `json:"flagged"`
	Reverted bool               `json:"reverted"`
	Settings []PersistedSetting `json:"settings"`
}

// PersistedSetting is one declared setting's three layers.
type PersistedSetting struct {
	Address string `json:"address"`
	// Status: in_step, reverted, not_persisted, pd_etcd.
	Status    string           `json:"status"`
	Desired   string           `json:"desired"`
	Running   []Value          `json:"running"`
	Persisted []PersistedValue `json:"persisted"`
	// Planned: the plan changes the setting online.
	Planned bool   `json:"planned"`
	Reason  string `json:"reason"`
	Fix     string `json:"fix"`
	Range   *Range `json:"range"`
}

// PersistedValue is what one place of the persisted layer holds; present
// false: it lacks the key (the built-in default applies at the next start).
type PersistedValue struct {
	Where   string `json:"where"`
	Value   string `json:"value"`
	Present bool   `json:"present"`
}

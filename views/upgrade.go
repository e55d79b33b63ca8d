package views

// Upgrade is the upgrade-impact report (`tiform plan --target-version V`,
// schema/upgrade.schema.json): per cluster, every setting whose default
// differs between the version it runs and the target, whether the
// configuration pins it, what the cluster will run after the upgrade, and
// the guards' findings that only the target version raises; then the HCL
// that keeps today's values of the settings not pinned.
type Upgrade struct {
	Header
	TargetVersion string           `json:"target_version"`
	Clusters      []UpgradeCluster `json:"clusters"`
	// Unpinned counts the settings listed in every cluster that the
	// configuration does not pin.
	Unpinned int `json:"unpinned"`
	// Pins is the HCL that declares today's value of every unpinned setting
	// that can keep it (the same value on every cluster reported); Skipped
	// lists the ones it leaves out, with the reason.
	Pins    string   `json:"pins_hcl"`
	Skipped []string `json:"pins_skipped"`
}

// UpgradeCluster is one cluster's upgrade impact. Status is ok, or the
// cluster status (unreachable, incomplete, error) with Error saying why.
type UpgradeCluster struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Versions are the lowest version of each component read.
	Versions map[string]string `json:"versions"`
	Settings []UpgradeSetting  `json:"settings"`
	Findings []Finding         `json:"findings"`
	Notes    []string          `json:"notes"`
}

// UpgradeSetting is one setting whose default the upgrade changes.
type UpgradeSetting struct {
	Address       string `json:"address"`
	DefaultBefore string `json:"default_before"`
	DefaultAfter  string `json:"default_after"`
	// DefaultSince is the version the target's default applies from.
	DefaultSince string `json:"default_since,omitempty"`
	DefaultNote  string `json:"default_note,omitempty"`
	// Live is today's value (null: not read); LiveMixed: instances disagree.
	Live      *string `json:"live"`
	LiveMixed bool    `json:"live_mixed,omitempty"`
	Pinned    bool    `json:"pinned"`
	Declared  string  `json:"declared,omitempty"`
	// AfterUpgrade is what the cluster runs after the upgrade; Certain is
	// false when it depends on what tiform cannot see; Why says how.
	AfterUpgrade string `json:"after_upgrade"`
	Certain      bool   `json:"certain"`
	Why          string `json:"why"`
	// Pin is the value that keeps today's (null when it cannot: PinNote).
	Pin     *string `json:"pin"`
	PinNote string  `json:"pin_note,omitempty"`
}

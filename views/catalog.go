package views

// Catalog is the output of `tiform catalog --format json`
// (schema/catalog.schema.json): what tiform knows about every setting.
type Catalog struct {
	Header
	// Version is the --version the defaults are given for ("" for none).
	Version string         `json:"version"`
	Entries []CatalogEntry `json:"entries"`
}

// CatalogEntry is one known setting.
type CatalogEntry struct {
	Address   string   `json:"address"`
	Target    string   `json:"target"` // config or variable
	Component string   `json:"component"`
	Key       string   `json:"key"`
	Kind      string   `json:"kind"`
	Unit      string   `json:"unit"`
	Enum      []string `json:"enum"`
	// Bounds are the documented valid values of a number (null: none).
	Bounds *Bounds `json:"bounds"`
	// Advice is a documented recommendation: valid values outside it get a
	// warning, not an error (null: none).
	Advice *Advice `json:"advice"`
	Online bool    `json:"online"`
	// OnlineVersions says where the setting is online when that differs by
	// version ("online in v7.0.0–v7.2.0, v8.5.2+; restart-only in the other
	// versions"); empty when it does not.
	OnlineVersions   string `json:"online_versions"`
	RestartNote      string `json:"restart_note"`
	RestartIfEnabled bool   `json:"restart_if_enabled"`
	ReadOnly         bool   `json:"read_only"`
	// Secret says why the setting holds a credential ("" when it does
	// not): tiform never imports, shows or keeps its value
	// (docs/catalog.md, "Settings that hold credentials").
	Secret string `json:"secret"`
	// Class is "setting", or what else the key is: "identity", "path",
	// "computed", "read-only" (catalog.Class).
	Class string `json:"class"`
	// DefaultComputed says how the component computes the default from its
	// machine ("" when it does not).
	DefaultComputed string    `json:"default_computed"`
	Experimental    bool      `json:"experimental"`
	Prefix          bool      `json:"prefix"`
	Scope           string    `json:"scope"`
	Introduced      string    `json:"introduced"`
	Deprecated      string    `json:"deprecated"`
	Removed         string    `json:"removed"`
	Versions        string    `json:"versions"`
	Defaults        []Default `json:"defaults"`
	// DefaultInVersion is the default in Catalog.Version (null without one,
	// or when the setting does not exist there).
	DefaultInVersion *string  `json:"default_in_version"`
	Family           string   `json:"family"`
	Related          []string `json:"related"`
	ReplacedBy       string   `json:"replaced_by"`
	// Sources are the public sources of the entry's facts: the upstream
	// file at a release tag, documentation URLs.
	Sources []string `json:"sources"`
	Doc     string   `json:"doc"`
}

// Bounds are a number's documented valid values.
type Bounds struct {
	Min          float64  `json:"min"`
	Max          *float64 `json:"max"` // null: no upper bound
	MinExclusive bool     `json:"min_exclusive"`
	MaxExclusive bool     `json:"max_exclusive"`
}

// Advice is a documented recommendation.
type Advice struct {
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Text string  `json:"text"`
}

// Default is the default value from a version on ("" since: always).
type Default struct {
	Since string `json:"since"`
	Value string `json:"value"`
	Note  string `json:"note"`
}

// CatalogStats is the output of `tiform catalog --stats --format json`
// (schema/catalog-stats.schema.json): how much of the generated upstream
// table the catalog covers at the table's newest release.
type CatalogStats struct {
	Header
	Release string              `json:"release"`
	Groups  []CatalogStatsGroup `json:"groups"`
}

// CatalogStatsGroup is one measured set of settings.
type CatalogStatsGroup struct {
	Name string `json:"name"`
	// Upstream counts the group's settings upstream has at the release;
	// Catalogued those the catalog knows with the facts upstream states;
	// KindStated those whose kind upstream states (a type, a documented 类型).
	Upstream          int     `json:"upstream"`
	Catalogued        int     `json:"catalogued"`
	Percent           float64 `json:"percent"`
	KindStated        int     `json:"kind_stated"`
	KindStatedPercent float64 `json:"kind_stated_percent"`
}

package catalog

import "github.com/tiform/tiform/version"

// Kind is a setting's value kind.
type Kind int

const (
	KindString   Kind = iota
	KindSize          // bytes; TiKV ReadableSize / PD ByteSize / sysvar bytes (tidb-facts.md §1.3)
	KindDuration      // TiKV ReadableDuration / PD Go duration (§1.3)
	KindBool
	KindInt
	KindFloat
	KindEnum
	KindList
)

// Scope of a TiDB system variable (tidb-facts.md §2.5, §5.1).
type Scope int

const (
	ScopeNone     Scope = iota // config items
	ScopeGlobal                // GLOBAL or SESSION|GLOBAL, persisted cluster-wide
	ScopeInstance              // INSTANCE: only the connected TiDB instance
)

// Target says what a catalog entry describes.
type Target int

const (
	TargetConfig   Target = iota // a component config item (SET CONFIG)
	TargetVariable               // a TiDB system variable (SET GLOBAL)
)

// Default is a default value that applies from a version on.
type Default struct {
	Since version.Version // zero = from the beginning
	Value string          // as the component renders it (SHOW CONFIG / SHOW VARIABLES)
}

// Entry is one known setting.
type Entry struct {
	Target    Target
	Component string // "tikv", "pd", "tiflash", "tidb"; "tidb" for variables
	Key       string // flattened config key or variable name
	Kind      Kind
	// Unit documents a plain-number unit ("MiB" for PD max-merge-region-size).
	Unit string
	// Enum lists accepted values for KindEnum (canonical spelling).
	Enum []string
	// Min and Max bound numeric kinds (inclusive) when HasRange.
	HasRange bool
	Min, Max float64
	// Online is true when SET CONFIG / SET GLOBAL changes it without restart.
	Online bool
	// RestartNote says what to do instead when Online is false.
	RestartNote string
	Scope       Scope
	// Introduced / Deprecated / Removed versions; zero = unknown/never.
	Introduced, Deprecated, Removed version.Version
	// Defaults, oldest first.
	Defaults []Default
	// Family names a set managed together ("region-size").
	Family string
	// Related lists keys of other entries ("pd:schedule.max-merge-region-size").
	Related []string
	// Source is the tidb-facts.md section(s) this entry comes from, e.g. "§3.1".
	Source string
	// Doc is one line for `tiform catalog` and diagnostics.
	Doc string
}

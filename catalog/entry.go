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
	// ScopeSession: SESSION only (or read-only); SET GLOBAL cannot manage it.
	ScopeSession
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
	// Note qualifies the default, e.g. "new clusters only; upgraded clusters
	// keep their previous value" (tidb-facts.md §8.1). UI only.
	Note string
}

// Entry is one known setting.
type Entry struct {
	Target    Target
	Component string // "tikv", "pd", "tiflash", "tidb"; "tidb" for variables
	Key       string // flattened config key or variable name
	Kind      Kind
	// Unit documents a plain-number unit ("MiB" for PD max-merge-region-size).
	// On a KindSize config item, "B" means the component stores a plain
	// integer number of bytes: it is rendered and sent as a number, not as
	// "256MiB" (system-variable sizes always are).
	Unit string
	// Enum lists accepted values for KindEnum (canonical spelling).
	Enum []string
	// Min and Max bound numeric kinds (inclusive) when HasRange, in the kind's
	// base unit: bytes for KindSize, seconds for KindDuration, the number
	// itself for KindInt and KindFloat. MinExclusive makes Min exclusive
	// (tidb_auto_analyze_ratio is (0, 1]).
	HasRange     bool
	Min, Max     float64
	MinExclusive bool
	// Online is true when SET CONFIG / SET GLOBAL changes it without restart.
	Online bool
	// OnlineSince, when set, is the first version where an Online item can be
	// changed online; before it the item is restart-only (OnlineIn).
	OnlineSince version.Version
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

	// Prefix marks a prefix rule: Key ends with "." and the entry stands for
	// every key under it (TiFlash "raftstore-proxy.", tidb-facts.md §2.2).
	// Config returns a copy with Key set to the full key and Pattern set.
	Prefix bool
	// Pattern is set on entries Config derived from a prefix rule: the rule's
	// key followed by "*" ("raftstore-proxy.*"). Empty otherwise.
	Pattern string
	// StringBool marks a PD boolean tagged json:",string": SET CONFIG must
	// send a quoted 'true'/'false' (tidb-facts.md §1.3, §2.2).
	StringBool bool
	// RestartIfEnabled: a false→true change is accepted online but only takes
	// effect after a restart (in-memory-engine.enable, tidb-facts.md §6, §8.2).
	RestartIfEnabled bool
	// ReadOnly: the setting can be read but never set (last_plan_from_cache).
	ReadOnly bool
	// Experimental: the docs mark the feature experimental.
	Experimental bool
	// ReplacedBy names the setting to use instead once this one is deprecated
	// or removed (same Related syntax: "variable:tidb_session_plan_cache_size").
	ReplacedBy string
	// Advice is a documented recommendation, not a limit: values outside
	// [AdviceMin, AdviceMax] (kind base unit, as Min/Max) are valid but
	// Advise returns a warning citing it. HasAdvice enables it.
	HasAdvice            bool
	AdviceMin, AdviceMax float64
	Advice               string
}

package catalog

import (
	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// Kind is a setting's value kind.
type Kind int

const (
	KindString   Kind = iota
	KindSize          // bytes: TiKV ReadableSize, PD typeutil.ByteSize, byte-count variables
	KindDuration      // TiKV ReadableDuration, PD typeutil.Duration, Go-duration variables
	KindBool
	KindInt
	KindFloat
	KindEnum
	KindList
)

// Scope of a TiDB system variable
// (https://docs.pingcap.com/tidb/stable/system-variables).
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
	Since version.Version // zero = from the oldest version the catalog knows
	Value string          // as the component renders it (SHOW CONFIG / SHOW VARIABLES)
	// Note qualifies the default, e.g. "new clusters only; upgraded clusters
	// keep their previous value". UI only.
	Note string
}

// Entry is one known setting. Most entries are built from the generated
// upstream table (internal/upstream) with the hand-written overlay
// (overlay_*.go) applied; their fields hold the facts of the newest release
// and the *In(v) methods answer for any version. TiFlash entries are
// hand-modelled.
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
	// Codes are, for an enum the component prints as a number, the number
	// of each Enum value (TiKV compaction-pri: 3 is min-overlapping-ratio);
	// either spelling is accepted, the number is what it shows.
	Codes []string
	// Min and Max bound numeric kinds (inclusive) when HasRange, in the kind's
	// base unit: bytes for KindSize, seconds for KindDuration, the number
	// itself for KindInt and KindFloat. MinExclusive makes Min exclusive
	// (tidb_auto_analyze_ratio is (0, 1]).
	HasRange     bool
	Min, Max     float64
	MinExclusive bool
	// MaxExclusive makes Max exclusive (tidb_gogc_tuner_threshold is [0, 0.9)).
	MaxExclusive bool
	// Online is true when SET CONFIG / SET GLOBAL changes it without restart
	// in the newest release; OnlineIn answers for a version.
	Online bool
	// RestartNote says what to do instead when it is not online.
	RestartNote string
	Scope       Scope
	// Introduced / Deprecated / Removed versions; zero = unknown/never.
	// For a generated entry Introduced is the first version it exists in
	// (zero when it exists in the oldest one the table has, unless the docs
	// name an older one) and Removed the first version after it last exists;
	// VersionsText and ExistsIn also see gaps between.
	Introduced, Deprecated, Removed version.Version
	// Defaults, oldest first, for display and Example; DefaultRecordIn
	// answers for a version.
	Defaults []Default
	// Family names a set managed together ("region-size").
	Family string
	// Related lists keys of other entries ("pd:schedule.max-merge-region-size").
	Related []string
	// Sources are the public sources of the entry's facts: the upstream
	// file at the tag its facts were read at
	// ("tikv/tikv@v8.5.7:components/raftstore/src/store/config.rs#L120") and
	// the documentation the overlay's knowledge comes from.
	Sources []string
	// Doc is one line for `tiform catalog` and diagnostics.
	Doc string

	// Prefix marks a prefix rule: Key ends with "." and the entry stands for
	// every key under it (TiFlash "raftstore-proxy."; TiKV "raft-engine.",
	// whose keys the tikv/raft-engine crate defines). Config returns a copy
	// with Key set to the full key and Pattern set.
	Prefix bool
	// Pattern is set on entries Config derived from a prefix rule: the rule's
	// key followed by "*" ("raftstore-proxy.*"). Empty otherwise.
	Pattern string
	// StringBool marks a PD boolean tagged json:",string": SET CONFIG must
	// send a quoted 'true'/'false'.
	StringBool bool
	// RestartIfEnabled: a false→true change is accepted online but only takes
	// effect after a restart (in-memory-engine.enable).
	RestartIfEnabled bool
	// ReadOnly: the setting can be read but never set (scope NONE).
	ReadOnly bool
	// Class says whether the key is a setting, or what else it is (an
	// instance's identity, a path, computed at start, read-only); ClassIn
	// answers for a version.
	Class Class
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

	// up is the generated setting behind the entry; nil for hand-modelled
	// entries.
	up *upstream.Setting
	// handDefaults are the overlay's defaults for versions where upstream
	// states no literal one (computed at start); shown, what SHOW CONFIG shows
	// where it differs from the stored default; notes qualify generated
	// defaults ("new clusters only").
	handDefaults, shown, notes []Default
	// percent: a fraction TiDB also accepts as a percentage ("70%" is 0.7),
	// and stores as the fraction (overlay fraction).
	percent bool
}

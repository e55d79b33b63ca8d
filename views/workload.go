package views

// The workload reports (docs/checks.md): `tiform check plan-cache --format
// json` (PlanCacheCheck, schema/check-plan-cache.schema.json), `tiform check
// mvcc --format json` (MVCCCheck, schema/check-mvcc.schema.json), and a plan
// cluster's "evidence" object (Evidence), which holds the same report
// objects (schema/workload.schema.json). render builds them from package
// workload's reports. Shares are fractions rounded to 4 decimals; times are
// nanoseconds.

// WorkloadRead describes the read behind a report: the table, the window
// asked (since_seconds) and covered (from, to), the row cap.
type WorkloadRead struct {
	Source       string  `json:"source"`
	ClusterWide  bool    `json:"cluster_wide"`
	SinceSeconds int64   `json:"since_seconds"`
	From         *string `json:"from"`
	To           *string `json:"to"`
	Limit        int     `json:"limit"`
	Truncated    bool    `json:"truncated"`
	Statements   int     `json:"statements"`
	TiDBVersion  string  `json:"tidb_version"`
}

// PlanCacheRatio is the plan-cache figures of one set of statements
// (unqualified and its share are null before TiDB v8.2.0).
type PlanCacheRatio struct {
	Digests           int      `json:"statement_shapes"`
	Executions        int64    `json:"executions"`
	Hits              int64    `json:"hits"`
	Unqualified       *int64   `json:"unqualified"`
	Bypassed          int64    `json:"bypassed"`
	NotRecorded       int64    `json:"not_recorded"`
	LatencyNS         int64    `json:"latency_ns"`
	HitLatencyNS      int64    `json:"hit_latency_ns"`
	CompileNS         int64    `json:"compile_ns"`
	MissCompileNS     int64    `json:"miss_compile_ns"`
	HitRatioByExec    float64  `json:"hit_ratio_by_executions"`
	HitRatioByLatency float64  `json:"hit_ratio_by_latency"`
	UnqualifiedShare  *float64 `json:"unqualified_share"`
	SavingBound       float64  `json:"saving_bound"`
}

// PlanCacheReason is one reason statements cannot use the cache.
type PlanCacheReason struct {
	Key         string   `json:"key"`
	Title       string   `json:"title"`
	Meaning     string   `json:"meaning"`
	Fix         string   `json:"fix"`
	Link        string   `json:"link"`
	Texts       []string `json:"tidb_reasons"`
	Unqualified int64    `json:"unqualified"`
	Share       float64  `json:"share"`
	Statements  int      `json:"statements"`
	Example     string   `json:"example"`
}

// PlanCacheNotCounted is executions left out of the misses, of one kind.
type PlanCacheNotCounted struct {
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	Meaning    string `json:"meaning"`
	Check      string `json:"check"`
	Executions int64  `json:"executions"`
	Statements int    `json:"statements"`
	Example    string `json:"example"`
}

// PlanCacheGain is a statement that would gain from the cache.
type PlanCacheGain struct {
	Digest        string  `json:"digest"`
	Text          string  `json:"digest_text"`
	Prepared      bool    `json:"prepared"`
	Executions    int64   `json:"executions"`
	Hits          int64   `json:"hits"`
	Unqualified   int64   `json:"unqualified"`
	MissCompileNS int64   `json:"miss_compile_ns"`
	AvgLatencyNS  int64   `json:"avg_latency_ns"`
	Blocker       *string `json:"blocked_by"`
}

// Suggestion is one variable the advice would change.
type Suggestion struct {
	Variable  string `json:"variable"`
	Current   string `json:"current"`
	Suggested string `json:"suggested"`
	Why       string `json:"why"`
}

// PlanCacheAdvice is the recommendation and the figures behind it.
type PlanCacheAdvice struct {
	Verdict  string       `json:"verdict"`
	Summary  string       `json:"summary"`
	Changes  []Suggestion `json:"changes"`
	Evidence []string     `json:"evidence"`
	Caveats  []string     `json:"caveats"`
}

// PlanCacheReport is the plan-cache analysis.
type PlanCacheReport struct {
	Read            WorkloadRead          `json:"read"`
	Reduced         bool                  `json:"reduced"`
	CannotSee       []string              `json:"cannot_see"`
	Headline        string                `json:"headline"`
	Settings        map[string]string     `json:"settings"`
	All             PlanCacheRatio        `json:"all"`
	Prepared        PlanCacheRatio        `json:"prepared"`
	NonPrepared     PlanCacheRatio        `json:"non_prepared"`
	OtherExecutions int64                 `json:"other_executions"`
	CacheableShapes int                   `json:"cacheable_statement_shapes"`
	NotCounted      []PlanCacheNotCounted `json:"not_counted"`
	Reasons         []PlanCacheReason     `json:"reasons"`
	Gains           []PlanCacheGain       `json:"gains"`
	Advice          PlanCacheAdvice       `json:"advice"`
	Notes           []string              `json:"notes"`
}

// MVCCStatement is a statement with heavy MVCC read amplification.
type MVCCStatement struct {
	Digest           string  `json:"digest"`
	Text             string  `json:"digest_text"`
	Type             string  `json:"stmt_type"`
	Prepared         bool    `json:"prepared"`
	Executions       int64   `json:"executions"`
	AvgTotalKeys     float64 `json:"avg_total_keys"`
	AvgProcessedKeys float64 `json:"avg_processed_keys"`
	AvgDeleteSkipped float64 `json:"avg_rocksdb_delete_skipped"`
	Amplification    float64 `json:"amplification"`
	AvgLatencyNS     int64   `json:"avg_latency_ns"`
}

// MVCCTable is a table whose reads step over many stale versions.
type MVCCTable struct {
	Table         string          `json:"table"`
	Verdict       string          `json:"verdict"`
	Why           string          `json:"why"`
	Executions    int64           `json:"executions"`
	Amplification float64         `json:"amplification"`
	StaleVersions float64         `json:"stale_versions"`
	LatencyNS     int64           `json:"latency_ns"`
	Statements    []MVCCStatement `json:"statements"`
}

// MVCCReport is the MVCC analysis.
type MVCCReport struct {
	Read            WorkloadRead `json:"read"`
	Headline        string       `json:"headline"`
	Threshold       float64      `json:"threshold"`
	ThresholdSource string       `json:"threshold_source"`
	RocksDB         bool         `json:"rocksdb_counts"`
	GCLifeTime      string       `json:"tidb_gc_life_time"`
	Verdict         string       `json:"verdict"`
	Summary         string       `json:"summary"`
	Tables          []MVCCTable  `json:"tables"`
	Watch           []string     `json:"watch_after_enabling"`
	Notes           []string     `json:"notes"`
}

// WorkloadCheckHeader starts both check documents.
type WorkloadCheckHeader struct {
	Header
	Check      string            `json:"check"`
	Versions   map[string]string `json:"versions"`
	Incomplete []string          `json:"incomplete"`
}

// PlanCacheCheck is `tiform check plan-cache --format json`.
type PlanCacheCheck struct {
	WorkloadCheckHeader
	PlanCache PlanCacheReport `json:"plan_cache"`
}

// InMemoryEngine is the engine's live state and what the guards say about
// enabling it.
type InMemoryEngine struct {
	Enabled  string    `json:"enabled"`
	Findings []Finding `json:"findings"`
}

// MVCCCheck is `tiform check mvcc --format json`.
type MVCCCheck struct {
	WorkloadCheckHeader
	MVCC           MVCCReport     `json:"mvcc"`
	InMemoryEngine InMemoryEngine `json:"in_memory_engine"`
}

// Evidence is a plan cluster's "evidence" object.
type Evidence struct {
	Unavailable string           `json:"unavailable"`
	PlanCache   *PlanCacheReport `json:"plan_cache"`
	MVCC        *MVCCReport      `json:"mvcc"`
}

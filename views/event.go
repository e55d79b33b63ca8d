package views

import "time"

// ApplyEvent is one event of an apply: one line of the audit log and of the
// stream `tiform apply --format json` prints (JSON lines, docs/apply.md;
// schema/apply-event.schema.json). Every event has format_version, time,
// event, operator, cluster and plan_hash; the other fields are present only
// on the events they describe:
//
//   - apply_start: changes; reapply (the reason given to apply a saved plan
//     the audit log records as applied before);
//   - statement: address, statement, target, attempts, before, warnings,
//     result (ok, warning, error), error, duration_ms;
//   - warning: one SHOW WARNINGS row after a statement: address, statement,
//     target, warnings (that one row);
//   - verify: one read-back of a change: address, target (the instance, ""
//     for a cluster-wide value), after (the value read), want, result (ok,
//     failed), error;
//   - change: address, before, after, result (applied, failed), error,
//     duration_ms;
//   - apply_end: result (complete, failed, interrupted, refused, locked),
//     error, changes, summary, rollback;
//   - summary: the last line of `apply --format json` (cluster and plan_hash
//     empty): result (complete, nothing, refused, failed, interrupted,
//     paused), error, changes (applied across clusters), summary, exit_code.
//
// An apply that follows a rollout (docs/apply.md, "Rollouts") adds events
// with an empty cluster (but rollout_cluster) and plan_hash (but
// rollout_cluster's, the plan the rollout reviewed):
//
//   - rollout_start: stage (the first stage this run starts with), clusters
//     (every cluster this run may apply), state (the state file), summary
//     (the stages);
//   - window_override: --ignore-windows applied: clusters (those outside
//     their windows), reason (the flag's reason), summary (the windows);
//   - stage_start: stage, clusters;
//   - rollout_cluster: one cluster's outcome in its stage: cluster,
//     plan_hash, stage, result (applied, nothing, failed, refused,
//     unreachable, skipped, interrupted), error;
//   - stage_end: stage, result (complete, stopped, interrupted), summary;
//   - gate: one step of the gate after a stage: stage, check (pause,
//     no_drift, plan_cache_hit_ratio, approval), result (ok, failed,
//     paused), clusters, error, summary;
//   - rollout_end: result (complete, stopped, paused, refused, interrupted),
//     stage (where it stopped or paused), error, state, summary.
//
// Every event of the apply of a saved plan also has plan_created_at, the
// plan's creation time: with cluster and plan_hash it names the plan file, so
// that a second apply of the same file finds the first (docs/apply.md,
// "A saved plan is applied once").
//
// It never contains a password: the operator is names only and the applier
// scrubs every text of the DSN's password before building it.
type ApplyEvent struct {
	FormatVersion FormatVersion `json:"format_version"`
	Time          time.Time     `json:"time"`
	Event         string        `json:"event"`
	Operator      Operator      `json:"operator"`
	Cluster       string        `json:"cluster"`
	PlanHash      string        `json:"plan_hash"`
	// PlanCreatedAt is set on every event of the apply of a saved plan.
	PlanCreatedAt *time.Time `json:"plan_created_at,omitempty"`
	// Reapply is apply_start's reason to apply a saved plan again.
	Reapply string `json:"reapply,omitempty"`

	Address   string     `json:"address,omitempty"`
	Statement string     `json:"statement,omitempty"`
	Target    string     `json:"target,omitempty"`
	Attempts  int        `json:"attempts,omitempty"`
	Before    []KeyValue `json:"before,omitempty"`
	After     []KeyValue `json:"after,omitempty"`
	// Want is what a verify event's read-back had to read.
	Want       string       `json:"want,omitempty"`
	Warnings   []SQLWarning `json:"warnings,omitempty"`
	Result     string       `json:"result,omitempty"`
	Error      string       `json:"error,omitempty"`
	DurationMS int64        `json:"duration_ms,omitempty"`
	Changes    int          `json:"changes,omitempty"`
	Summary    string       `json:"summary,omitempty"`
	Rollback   string       `json:"rollback,omitempty"`
	// ExitCode is the summary event's process exit status (docs/workflows.md).
	ExitCode *int `json:"exit_code,omitempty"`

	// Rollout events.
	Stage    string   `json:"stage,omitempty"`
	Clusters []string `json:"clusters,omitempty"`
	Check    string   `json:"check,omitempty"`
	// Reason is the reason given with --ignore-windows.
	Reason string `json:"reason,omitempty"`
	// State is the rollout's state file.
	State string `json:"state,omitempty"`
}

// Operator is who applied: OS user, database user, host. Never a password.
type Operator struct {
	OSUser string `json:"os_user,omitempty"`
	DBUser string `json:"db_user,omitempty"`
	Host   string `json:"host,omitempty"`
}

// KeyValue is a value of key on one instance ("" = cluster-wide).
type KeyValue struct {
	Key      string `json:"key,omitempty"`
	Instance string `json:"instance,omitempty"`
	Value    string `json:"value"`
}

// SQLWarning is one SHOW WARNINGS row, with the instance it names, if any.
type SQLWarning struct {
	Level    string `json:"level"`
	Code     int    `json:"code"`
	Message  string `json:"message"`
	Instance string `json:"instance,omitempty"`
}

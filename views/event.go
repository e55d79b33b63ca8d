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
//     empty): result (complete, nothing, refused, failed, interrupted),
//     error, changes (applied across clusters), summary, exit_code.
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

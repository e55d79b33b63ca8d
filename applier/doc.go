// Package applier executes a reviewed cluster plan against a live cluster:
// it refuses error-level guard findings, takes the cluster-wide GET_LOCK
// ('tiform.apply'), inspects the cluster once (facts.go: the stale-plan check
// and every change's "before" values come from that one read), runs the
// plan's statements in plan order — config changes the plan does not order
// several at once, each on its own connection (Options.Concurrency,
// wave.go) — reads SHOW WARNINGS after each statement on its connection and
// every affected instance back in batches (batch.go), writes an
// append-only JSON-lines audit log, and writes a rollback plan when an apply
// does not complete. docs/apply.md is the user-facing description.
//
// Hold (held.go) is the same apply split where the plan comes from: it takes
// the lock and makes the one read under it, the caller plans from Held.Live,
// and Held.Apply sends that plan without reading the cluster again
// (docs/decisions/0016-apply-reads-once.md). Record writes the events that
// belong to no cluster's apply (a rollout's) to the same audit log.
//
// It must not:
//   - send any statement that is not in the plan (reads aside), nor change
//     the plan's order: only config changes with no ordering edge between
//     them (one batch) are in flight together, and they start in plan
//     order; the only statements it composes are the per-instance
//     narrowing of rollback statements, which go into a new plan to review;
//   - send a statement on the lock's connection, or start one after a
//     failure it has seen (unless ContinueOnError);
//   - cut a statement off half-way: cancellation stops between statements;
//   - retry anything but connection errors, nor re-send a non-idempotent
//     statement that a re-read shows already took effect;
//   - write a password anywhere (report, audit log, progress, rollback plan).
//
// Every read goes through live (InspectConn, ReadValues), so values are read
// and parsed exactly as a plan's. Whether a plan is stale, whether a
// read-back satisfies a check and whether two values are one are the
// planner's decisions (planner.Stale, planner.Satisfied, planner.SameValue):
// the applier reads and reports, it never compares values itself, so apply
// and plan agree on what "equal" means.
package applier

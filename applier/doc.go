// Package applier executes a plan against a cluster: lock, stale-plan check,
// statements in order, SHOW WARNINGS after each, read-back verification,
// audit log, and a rollback plan when anything fails.
package applier

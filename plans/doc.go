// Package plans holds the model of one planned change, shared by the planner
// that builds it, the guards that judge it and the applier that executes it
// (in the spirit of Terraform's internal/plans): the change with its address,
// action, values, statements, read-back checks, rollback and persistence;
// the live values a plan depends on; resource-group options in canonical
// form.
//
// It holds data only: no I/O, no comparison and no decision. Whether two
// values are one, whether a plan is stale and whether a read-back satisfies
// a check are the planner's (planner.SameValue, Stale, Satisfied); see
// ARCHITECTURE.md, "Rule → owner". It imports only state and diag, so that
// guard can read changes without importing the planner.
//
// Plan and ClusterPlan stay in planner: they carry guard findings.
package plans

// Package render turns a plan into views: text (Terraform-style, optional
// colour, folded per-instance details unless verbose), JSON (views.Plan, the
// shared JSON view types, validated against views/schema/plan.schema.json;
// docs/json-plan.md)
// and Markdown (a pull-request comment). All three are rendered from the same
// planner.Plan, so they cannot disagree, and all are deterministic: the same
// plan gives the same bytes.
//
// The workload reports (`tiform check plan-cache`, `tiform check mvcc`, and a
// plan's evidence section) follow the same rule: workload.go draws text and
// Markdown, workload_json.go the JSON (versioned DTOs, workload.schema.json),
// from the same workload report.
//
// Render never decides policy (colour, exit codes): the CLI passes
// TextOptions; never reads the environment; never writes ANSI escapes unless
// TextOptions.Color is set, and never in Markdown or JSON.
package render

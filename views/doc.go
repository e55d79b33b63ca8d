// Package views owns tiform's JSON views (in the spirit of Terraform's
// command/views/json): the DTO types every JSON document tiform prints is
// made of, and the JSON Schema of each document.
//
// Shared element types, one shape each wherever they appear:
//   - FormatVersion: one type and one value for every JSON output;
//   - Range (and Pos): a source location, always under the key "range";
//   - Diagnostic: severity, summary, detail, hint, range, snippet, related;
//   - Finding: a guard finding (guard.Finding.View builds it);
//   - ClusterStatus: where one cluster stands (in_sync, changes,
//     unreachable, incomplete, error) and why.
//
// Documents: Plan (tiform plan/show --format json, built by render),
// Drift (tiform plan --drift, built by render), Validate, Check and Catalog
// (built by cmd), ApplyEvent (one line of the audit log and of apply
// --format json, built by applier; the summary line by cmd), PlanCacheCheck and MVCCCheck (tiform check
// plan-cache / mvcc, built by render from package workload's reports, whose
// objects also form a plan cluster's Evidence). Each has a schema under schema/ (Schemas),
// checked in tests against real command output (views/viewstest).
//
// Contracts: it imports no tiform package but diag, so that every layer may
// use it; it decides nothing (builders live next to the data they read);
// every array is present (empty, never null) and optional objects are null,
// so that the output is byte-stable and jq-friendly; Write is the one JSON
// encoder of every output. File formats (plan files, snapshots) keep their
// own format_version but use Range for source locations.
package views

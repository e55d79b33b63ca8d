// Package planner computes a Plan: desired × live × version → ordered changes,
// each with its exact statements, the HCL source that caused it, how it is
// applied and persisted, and the guards' findings. It also computes the
// fingerprint of every live value a plan depends on, so apply can refuse a
// stale plan, and reads and writes saved plan files.
//
// It is pure: no I/O, no SQL connections, no clock (callers pass times in
// Options.Now). Output is a function of the inputs only: slices are sorted and
// maps are never iterated into results unsorted, so two builds of the same
// inputs render byte-identically.
//
// Where to start reading:
//
//   - build.go: Build / BuildCluster (= DiffCluster, then Conclude), Options,
//     IncompleteError.
//   - config.go: component config (type-wide, per-instance, drift; PD shared).
//   - variables.go, groups.go: SET GLOBAL; resource groups and user bindings.
//   - order.go: the dependency graph and its rules (each rule cites its
//     public source where it is defined).
//   - values.go: the one door to value meaning, catalog.Setting (SameValue,
//     DisplayValue; docs/decisions/0007-one-owner-of-value-comparison.md).
//   - fingerprint.go, stale.go: what a plan depends on, and Stale, the one
//     decision of whether it moved since.
//   - liveindex.go: the live config rows indexed once per plan, and the one
//     place a live value is canonicalised (the comparison and the fingerprint
//     share it).
//   - verify.go: Check.Satisfied and GroupSatisfied, the one decision of
//     whether apply's read-back shows the change took effect.
//   - evidence.go: EvidenceNeeds (which plans call for statement statistics);
//     the caller reads them between DiffCluster and Conclude.
//   - planfile.go: saved plans (versioned DTOs).
//
// It must not import render, applier or live, and never holds a DSN.
package planner

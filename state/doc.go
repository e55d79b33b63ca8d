// Package state is the one model both sides of a diff are expressed in.
//
// schema turns HCL into a Desired value; live turns a cluster (or a snapshot) into
// a Live value. Both use the same value, resource-group and user types, so the
// planner always compares like with like (the Atlas schema.Realm / Skeema
// tengo.Schema idea).
//
// This package holds data only: no I/O, no HCL, no SQL. It must not import any
// other tiform package except version and diag (for SourceRange).
//
// Deviation from STYLE.md: the style table puts the model inside schema/ and has
// live/ import only catalog. A separate package lets live/ and planner/ share the
// model without importing the HCL language, which is simpler.
package state

// Package state is the one model both sides of a diff are expressed in.
//
// schema turns HCL into a Desired value; live turns a cluster (or a snapshot) into
// a Live value. Both use the same value, resource-group and user types, so the
// planner always compares like with like (the Atlas schema.Realm / Skeema
// tengo.Schema idea).
//
// It also owns the Address (address.go): the one typed name of a config item,
// variable, resource group, user binding, instance or version, with String
// and ParseAddress, in the spirit of Terraform's addrs. Every package builds
// addresses with it and prints them with String; only files and views carry
// them as text.
//
// It owns the syntax and matching of address patterns too (pattern.go, ignore
// blocks): schema checks them, planner matches them against Address.String.
//
// It owns the two rules of changing a fleet over time too: which clusters
// each stage of a rollout takes (rollout.go, Rollout.Assign) and whether a
// time is inside a change window or a blackout (window.go, AllowedAt). schema
// checks the configuration with them; apply follows them.
//
// This package holds data only: no I/O, no HCL, no SQL. It must not import any
// other tiform package except version and diag (for SourceRange).
//
// Deviation from STYLE.md: the style table puts the model inside schema/ and has
// live/ import only catalog. A separate package lets live/ and planner/ share the
// model without importing the HCL language, which is simpler.
package state

// Package schema owns the tiform language: HCL spec structs, loading a
// directory of *.hcl files, input variables, locals and functions, fleet
// resolution (baseline + cluster overrides), diagnostics with source ranges,
// formatting, and turning specs into the desired-state model (state.Desired).
//
// It validates against the catalog but never touches a cluster.
package schema

// Package schema owns the tiform language: loading a directory of *.hcl
// files, input variables, locals and functions, fleet resolution (baseline +
// cluster overrides), diagnostics with source ranges, formatting, and turning
// it all into the desired-state model (state.Desired). docs/language.md is
// the user's reference; every example there is a fixture under
// testdata/valid that the tests load.
//
// Entry points: Load (directory → *state.Desired + diag.Diagnostics; the
// Desired keeps the masked sources for later diagnostics' snippets), Format
// (canonical layout) and SyntaxDiagnostics (why a file cannot be formatted),
// WriteCluster (the resolved view of `tiform validate --show`). Diagnostics
// are diag's: this package only turns HCL's into them and adds hints.
//
// Contracts:
//   - It validates against the catalog but never touches a cluster: no SQL,
//     no network.
//   - It never panics on any input (FuzzLoad); every problem is a Diagnostic,
//     our own type, so that planner and render never import hcl.
//   - A DSN is secret: a password the files hold (written literally, or
//     assembled from locals, variable defaults and literals) is an error,
//     and no diagnostic text or snippet ever contains a DSN or the value of a
//     sensitive variable.
//   - Every error diagnostic carries a Hint, HCL's own syntax
//     errors included (TestInvalid checks the broken inputs).
package schema

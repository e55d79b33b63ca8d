// Package live reads a cluster over the MySQL protocol into the same state
// model the HCL produces (state.Live): versions and topology, component config,
// global variables, resource groups and user bindings, with completeness
// checks. It also writes and reads snapshots (a versioned JSON format).
//
// It never changes a cluster.
package live

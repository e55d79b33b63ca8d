// Package live reads a cluster over the MySQL protocol into the same state
// model the HCL produces (state.Live): versions and topology, component config,
// global variables, resource groups and user bindings, with completeness
// checks. It also writes and reads snapshots (a versioned JSON format).
//
// It never changes a cluster: every statement it sends is a read
// (docs/inspection.md lists them).
//
// Files:
//   - conn.go: Open (DSN, TLS, timeouts), Redact, Explain (one-paragraph
//     errors naming the missing privilege; never the password).
//   - inspect.go: Request, RequestFor, Everything, Statements, Inspect, Check.
//     The number of statements is constant whatever the configuration size;
//     what could not be read becomes a gap (Live.Incomplete / Live.Gaps),
//     never an absent value.
//   - resgroup.go: INFORMATION_SCHEMA.RESOURCE_GROUPS rows back into
//     state.ResourceGroup, for every version's rendering.
//   - snapshot.go: WriteSnapshot, ReadSnapshot, FromSnapshot (docs/snapshot.md).
//   - statements.go: ReadStatements, StatementReader: the bounded read of the
//     statement summary behind `tiform check plan-cache`, `check mvcc` and a
//     plan's evidence, into a workload.Sample (docs/inspection.md, "Statement
//     statistics").
//
// Values are kept exactly as each component renders them; comparing them by
// meaning is the planner's job, through the catalog.
package live

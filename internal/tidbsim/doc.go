// Package tidbsim is an in-process emulator of a TiDB cluster that speaks the
// MySQL wire protocol. It exists so that tiform can be tested against a cluster
// whose every modelled behaviour matches real TiDB. Each behaviour cites, next
// to its code, the public source it follows: a documentation page
// (https://docs.pingcap.com/tidb/stable/...), a GitHub issue or PR
// (tikv/tikv#18503), or a source file at a release tag
// (pingcap/tidb@v8.5.1:pkg/executor/set_config.go); what is only derived from
// code says "derived", what no source settles says "unconfirmed".
//
// Layout:
//   - engine: server.go (wire protocol, auth, one listener per TiDB
//     instance), lexer.go, parser.go, expr.go, select.go, registry.go
//     (extension points, see EXTENDING.md), errors.go, value.go, session.go
//     (statement pipeline, diagnostics, query log), builtins.go (SHOW
//     WARNINGS/ERRORS, USE), functions.go (common scalar functions),
//     faults.go, seed.go;
//   - cluster model: cluster.go (topology, versions), configitems.go (the
//     data-driven item table per component), configmodel.go (defaults by
//     version, derived values, validation), configsurface.go (the whole
//     surface each PD member and TiKV instance prints: PD's as its own code
//     printed it, each instance's name, URLs, addresses and paths as TiUP
//     deploys them, defaults computed from the instance's machine),
//     setconfig.go (SET CONFIG), hardware.go (CLUSTER_HARDWARE,
//     CLUSTER_SYSTEMINFO from each instance's machine), versioninfo.go
//     (VERSION(), TIDB_VERSION());
//   - rendering: render.go (TiKV ReadableSize/ReadableDuration, PD durations
//     and sizes, float64 round trip), showconfig.go (SHOW CONFIG,
//     CLUSTER_CONFIG, CLUSTER_INFO).
//
// The SQL-state domains (system variables, resource groups, users and
// privileges, GET_LOCK) live in sysvar*.go, resgroup*.go, user*.go and lock*.go
// and plug into the engine through registry.go; so do the statement summary
// tables (stmtsummary*.go: seeded statistics, columns by version) and the
// date functions on the cluster's clock (timefuncs.go).
//
// tidbsim must never be bent to make tiform pass: where it disagrees with
// the source it cites, tidbsim is wrong. Statements outside the modelled set return
// TiDB's syntax error 1064 so that tiform cannot come to rely on them.
package tidbsim

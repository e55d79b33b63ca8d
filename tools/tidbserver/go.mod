// The tidb-server builder of the real-TiDB test tier (docs/testing.md). A
// module of its own, so that tiform's module does not depend on TiDB: it pins
// the upstream tidb-server the tier runs, and its go.sum pins their content.
module github.com/tiform/tiform/tools/tidbserver

go 1.26

require (
	github.com/pingcap/tidb v1.1.0-beta.0.20251126154744-e4e814fdc0af
	github.com/pingcap/tidb/pkg/parser v0.0.0-20251126154744-e4e814fdc0af
)

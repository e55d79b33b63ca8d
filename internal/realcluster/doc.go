// Package realcluster holds the end-to-end scenarios that run against the TiDB
// emulator by default and against a real TiDB cluster when TIFORM_TEST_DSN is
// set (the opt-in tier, docs/testing.md). It contains tests only.
package realcluster

// Package version parses TiDB, TiKV, PD and TiFlash version strings into a
// comparable Version with capability methods (tidb-facts.md §7).
//
// It owns nothing else and imports nothing of tiform's.
package version

// Package version parses TiDB, TiKV, PD and TiFlash version strings into a
// comparable Version with capability methods. The forms are documented in
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-info and
// https://docs.pingcap.com/tidb/stable/system-variables#version.
//
// It owns nothing else and imports nothing of tiform's.
package version

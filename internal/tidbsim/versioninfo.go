package tidbsim

import (
	"fmt"
	"regexp"
	"strings"
)

// Version strings: VERSION() (https://docs.pingcap.com/tidb/stable/system-variables#version,
// https://docs.pingcap.com/tidb/stable/release-7.4.0), TIDB_VERSION() (https://docs.pingcap.com/tidb/stable/tidb-functions) and
// CLUSTER_INFO.VERSION (pingcap/tidb@v8.5.1:pkg/infoschema/tables.go).

func init() {
	RegisterFunction("VERSION", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("version")
		}
		return Str(tidbVersionString(s.Instance)), nil
	})
	RegisterFunction("TIDB_VERSION", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("tidb_version")
		}
		return Str(tidbVersionInfo(s.Instance)), nil
	})
}

// tidbVersionString is VERSION() / the handshake version:
// "<mysql-version>-TiDB-<release-version>", MySQL part 8.0.11 since v7.4.0,
// 5.7.25 before; a configured `server-version` is returned verbatim
// (https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version).
func tidbVersionString(in *Instance) string {
	if in.tidbVersion != "" {
		return in.tidbVersion
	}
	if in.serverVersion != "" {
		return in.serverVersion
	}
	return in.Version.MySQLPrefix() + "-TiDB-" + in.ReleaseVersion()
}

// tidbVersionInfo is TIDB_VERSION(): the multi-line build info (https://docs.pingcap.com/tidb/stable/tidb-functions, shape of
// the docs example and of the v8.1.0/v8.5.2 outputs in corpus/versions.tsv;
// the lines of pingcap/tidb@e4e814fdc0af:pkg/util/printer/printer.go
// GetTiDBInfo, which a v9.0 master build prints too: no "Kernel Type").
func tidbVersionInfo(in *Instance) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Release Version: %s\n", in.ReleaseVersion())
	b.WriteString("Edition: Community\n")
	fmt.Fprintf(&b, "Git Commit Hash: %s\n", in.GitHash)
	b.WriteString("Git Branch: HEAD\n")
	fmt.Fprintf(&b, "UTC Build Time: %s\n", "2025-01-17 07:19:21")
	fmt.Fprintf(&b, "GoVersion: %s\n", goVersionFor(in))
	b.WriteString("Race Enabled: false\n")
	b.WriteString("Check Table Before Drop: false\n")
	b.WriteString("Store: tikv")
	return b.String()
}

// goVersionFor approximates the Go toolchain of a release (corpus: v7.5.1
// go1.21.6, v8.1.0 go1.21.10, v8.5.2/v8.5.3 go1.23.8).
func goVersionFor(in *Instance) string {
	v := in.Version
	switch {
	case v.AtLeast(9, 0, 0):
		return "go1.25.1"
	case v.AtLeast(8, 5, 0):
		return "go1.23.8"
	case v.AtLeast(8, 0, 0):
		return "go1.21.10"
	default:
		return "go1.21.6"
	}
}

// clusterInfoVersion renders CLUSTER_INFO.VERSION
// (pingcap/tidb@v8.5.1:pkg/infoschema/tables.go FormatTiDBVersion,
// FormatStoreServerVersion; the docs' example rows differ for TiDB): for TiDB the part
// after the first "TiDB-" of VERSION() with the leading "v" removed, or the
// configured `server-version` verbatim; for PD, TiKV and TiFlash the version
// with the leading "v" stripped.
func clusterInfoVersion(in *Instance) string {
	if in.Type == TypeTiDB && in.serverVersion != "" {
		return in.serverVersion
	}
	if in.Type == TypeTiDB {
		s := tidbVersionString(in)
		if i := strings.Index(s, "TiDB-"); i >= 0 {
			s = s[i+len("TiDB-"):]
		}
		return strings.TrimPrefix(s, "v")
	}
	if in.Type == TypeTiKV {
		return tikvCargoVersion(in.ReleaseVersion())
	}
	return strings.TrimPrefix(in.ReleaseVersion(), "v")
}

// describeTail is what `git describe` appends after a tag: commits since the
// tag and the abbreviated hash, and "-dirty".
var describeTail = regexp.MustCompile(`(-\d+-g[0-9a-f]+)?(-dirty)?$`)

// tikvCargoVersion approximates the version a TiKV built from tag reports:
// its Cargo package version (tikv/tikv@v8.5.1:src/server/raft_server.rs,
// CARGO_PKG_VERSION), which carries no git
// describe tail — `tikv-server -V` of a v7.6.0-alpha build prints
// "7.6.0-alpha" (corpus versions.tsv gh-tikv-15978), while PD and TiDB report
// e.g. "8.0.0-alpha-62-gbb65fb4ff" (gh-tidb-51410). Derived: the tag's
// pre-release part is kept; hot-fix builds whose Cargo version differs from
// their tag (tikv/tikv@v8.5.0-20250124-69738fc:Cargo.toml says 8.5.1) are
// not modelled.
func tikvCargoVersion(tag string) string {
	return describeTail.ReplaceAllString(strings.TrimPrefix(tag, "v"), "")
}

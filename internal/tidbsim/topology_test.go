package tidbsim

import (
	"database/sql"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// VERSION() and TIDB_VERSION() per version (https://docs.pingcap.com/tidb/stable/system-variables#version,
// https://docs.pingcap.com/tidb/stable/tidb-functions; a v9.0 master build
// prints the same lines, pingcap/tidb@e4e814fdc0af:pkg/util/printer/printer.go).
func TestVersionFunctions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version, want, release string
	}{
		{"v7.3.0", "5.7.25-TiDB-v7.3.0", "v7.3.0"},
		{"v7.5.1", "8.0.11-TiDB-v7.5.1", "v7.5.1"}, // corpus docs-cn-information-functions-v7.5.1
		{"v8.1.2", "8.0.11-TiDB-v8.1.2", "v8.1.2"},
		{"v8.5.1", "8.0.11-TiDB-v8.5.1", "v8.5.1"},
		{"v8.5.3", "8.0.11-TiDB-v8.5.3", "v8.5.3"},
		{"v9.0.0-beta.2.pre-784-gcf74287377", "8.0.11-TiDB-v9.0.0-beta.2.pre-784-gcf74287377", "v9.0.0-beta.2.pre-784-gcf74287377"},
	}
	for _, tc := range tests {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, Options{Version: tc.version, TiKV: 1})
			db := openDB(t, srv)
			got := queryRows(t, db, "SELECT VERSION(), tidb_version()")
			if got[0][0] != tc.want {
				t.Errorf("VERSION() = %q, want %q", got[0][0], tc.want)
			}
			lines := strings.Split(got[0][1], "\n")
			wantKeys := []string{"Release Version", "Edition", "Git Commit Hash", "Git Branch", "UTC Build Time", "GoVersion", "Race Enabled", "Check Table Before Drop", "Store"}
			var keys []string
			for _, l := range lines {
				k, _, _ := strings.Cut(l, ": ")
				keys = append(keys, k)
			}
			if d := cmp.Diff(wantKeys, keys); d != "" {
				t.Errorf("tidb_version() lines (-want +got):\n%s\n%s", d, got[0][1])
			}
			if lines[0] != "Release Version: "+tc.release {
				t.Errorf("first line %q", lines[0])
			}
			// the handshake advertises the same version string
			var v string
			if err := db.QueryRow("SELECT VERSION()").Scan(&v); err != nil || v != tc.want {
				t.Errorf("scan: %v %q", err, v)
			}
		})
	}
}

// INFORMATION_SCHEMA.CLUSTER_INFO (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info).
func TestClusterInfo(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: "v8.5.1", TiFlash: 1, InstanceVersions: map[string]string{"tikv-2": "v8.5.3"}})
	db := openDB(t, srv)
	got := queryRows(t, db, "SELECT type, instance, status_address, version, server_id FROM information_schema.cluster_info")
	want := [][]string{
		{"tidb", srv.Addr(), "127.0.0.1:10080", "8.5.1", "1"},
		{"pd", "127.0.0.1:2379", "127.0.0.1:2379", "8.5.1", "0"},
		{"tikv", "127.0.0.1:20160", "127.0.0.1:20180", "8.5.1", "0"},
		{"tikv", "127.0.0.1:20161", "127.0.0.1:20181", "8.5.1", "0"},
		{"tikv", "127.0.0.1:20162", "127.0.0.1:20182", "8.5.3", "0"},
		{"tiflash", "127.0.0.1:3930", "127.0.0.1:20292", "8.5.1", "0"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	cols, _ := columnsOf(db, "SELECT * FROM information_schema.cluster_info")
	if d := cmp.Diff([]string{"TYPE", "INSTANCE", "STATUS_ADDRESS", "VERSION", "GIT_HASH", "START_TIME", "UPTIME", "SERVER_ID"}, cols); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
	// a development build: TiDB keeps the tail after the first '-', PD its
	// describe, TiKV reports its Cargo version without the git tail (see
	// tikvCargoVersion)
	srv2 := startServer(t, Options{Version: "v8.4.0-alpha-44-gdd2d54ad4", TiKV: 1})
	got = queryRows(t, openDB(t, srv2), "SELECT type, version FROM information_schema.cluster_info")
	if d := cmp.Diff([][]string{{"tidb", "8.4.0-alpha-44-gdd2d54ad4"}, {"pd", "8.4.0-alpha-44-gdd2d54ad4"}, {"tikv", "8.4.0-alpha"}}, got); d != "" {
		t.Errorf("dev build (-want +got):\n%s", d)
	}
	for tag, want := range map[string]string{
		"v8.5.1": "8.5.1", "v9.0.0-beta.2.pre-784-gcf74287377": "9.0.0-beta.2.pre", "v7.6.0-alpha-6-g55c83585d-dirty": "7.6.0-alpha",
		"v8.5.0-20250124-69738fc": "8.5.0-20250124-69738fc", "v8.5.0-dirty": "8.5.0",
	} {
		if got := tikvCargoVersion(tag); got != want {
			t.Errorf("tikvCargoVersion(%q) = %q, want %q", tag, got, want)
		}
	}
}

// Each TiDB instance has its own listener; a connection is on that instance.
func TestMultipleTiDBInstances(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiDB: 2, InstanceVersions: map[string]string{"tidb-1": "v8.5.3"}})
	if len(srv.Addrs()) != 2 || srv.Addrs()[0] == srv.Addrs()[1] {
		t.Fatalf("addrs %v", srv.Addrs())
	}
	for i, want := range []string{"8.0.11-TiDB-v8.5.1", "8.0.11-TiDB-v8.5.3"} {
		db, err := sql.Open("mysql", srv.DSNFor(i, "root", ""))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		got := queryRows(t, db, "SELECT VERSION()")
		if got[0][0] != want {
			t.Errorf("tidb-%d VERSION() = %s, want %s", i, got[0][0], want)
		}
	}
	log := srv.QueryLog()
	if len(log) != 2 || log[0].Instance != srv.Addrs()[0] || log[1].Instance != srv.Addrs()[1] || log[0].ConnID == log[1].ConnID {
		t.Errorf("query log %+v", log)
	}
}

func TestStartOptionErrors(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{
		{Version: "banana"},
		{InstanceVersions: map[string]string{"tikv-9": "v8.5.1"}},
		{Config: []ConfigOverride{{Type: "tikv", Instance: "127.0.0.1:1", Name: "log.level", Value: "info"}}},
		{Config: []ConfigOverride{{Type: "tikv", Name: "coprocessor.region-split-size", Value: "lots"}}},
		{Addr: "nonsense"},
		{SQL: []string{"BOGUS STATEMENT"}},
	} {
		if srv, err := Start(o); err == nil {
			srv.Close()
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
}

// CLUSTER_INFO.START_TIME: a DATETIME ("2024-02-29 11:59:21", corpus
// versions.tsv gh-tidb-51410) from v7.6.0, RFC3339 before (corpus v5.0.1 row
// "2021-05-31T17:44:13+08:00"); UPTIME is a Go duration ("26.651760364s").
func TestClusterInfoStartTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version, layout string
		pattern         string
	}{
		{"v8.5.1", "2006-01-02 15:04:05", `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`},
		{"v7.6.0", "2006-01-02 15:04:05", `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`},
		{"v7.5.4", time.RFC3339, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$`},
	}
	for _, tc := range tests {
		srv := startServer(t, Options{Version: tc.version, TiKV: 1})
		got := queryRows(t, openDB(t, srv), "SELECT start_time, uptime FROM information_schema.cluster_info WHERE type = 'tikv'")
		if len(got) != 1 {
			t.Fatalf("%s: rows %v", tc.version, got)
		}
		in, _ := srv.Cluster.Instance("127.0.0.1:20160")
		if want := in.StartTime.Format(tc.layout); got[0][0] != want || !regexp.MustCompile(tc.pattern).MatchString(got[0][0]) {
			t.Errorf("%s: START_TIME %q, want %q", tc.version, got[0][0], want)
		}
		if _, err := time.ParseDuration(got[0][1]); err != nil {
			t.Errorf("%s: UPTIME %q is not a Go duration: %v", tc.version, got[0][1], err)
		}
	}
}

// TiDB's server-version config (Options.ServerVersion): VERSION(), @@version
// and CLUSTER_INFO.VERSION return it verbatim, TIDB_VERSION() keeps the
// release version (https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version); SHOW
// CONFIG shows the item.
func TestServerVersionOverride(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, serverVersion string
		want                [][]string
	}{
		{"unset", "", [][]string{{"8.0.11-TiDB-v8.5.1", "8.0.11-TiDB-v8.5.1", "Release Version: v8.5.1", "8.5.1", ""}}},
		{"configured", "5.7.25-TiDB-v4.0.0-custom", [][]string{{"5.7.25-TiDB-v4.0.0-custom", "5.7.25-TiDB-v4.0.0-custom", "Release Version: v8.5.1", "5.7.25-TiDB-v4.0.0-custom", "5.7.25-TiDB-v4.0.0-custom"}}},
		{"no TiDB- part", "8.0.11", [][]string{{"8.0.11", "8.0.11", "Release Version: v8.5.1", "8.0.11", "8.0.11"}}},
	}
	for _, tc := range tests {
		srv := startServer(t, Options{Version: "v8.5.1", TiKV: 1, ServerVersion: tc.serverVersion})
		db := openDB(t, srv)
		got := queryRows(t, db, "SELECT VERSION(), @@version, SUBSTRING_INDEX(TIDB_VERSION(), '\\n', 1)")
		info := queryRows(t, db, "SELECT version FROM information_schema.cluster_info WHERE type = 'tidb'")
		cfg := queryRows(t, db, "SHOW CONFIG WHERE type = 'tidb' AND name = 'server-version'")
		if len(got) == 1 && len(info) == 1 && len(cfg) == 1 {
			got[0] = append(got[0], info[0][0], cfg[0][3])
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

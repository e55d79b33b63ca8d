package tidbsim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// SET CONFIG statement errors (pingcap/tidb@v8.5.1:pkg/executor/set_config.go
// SetConfigExec.Open, ConvertConfigItem2JSON): nothing applied.
func TestSetConfigErrors(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiFlash: 1})
	db := openDB(t, srv)
	tests := []struct {
		q    string
		code uint16
		msg  string
	}{
		{"SET CONFIG tidb `log.level` = 'warn'", 1105, "TiDB doesn't support to change configs online, please use SQL variables"},
		{"SET CONFIG TiDB log.level = 'warn'", 1105, "TiDB doesn't support to change configs online, please use SQL variables"},
		{"SET CONFIG tso `x` = 1", 1105, "tso doesn't support to change configs online"},
		{"SET CONFIG scheduling `x` = 1", 1105, "scheduling doesn't support to change configs online"},
		{"SET CONFIG foo `x` = 1", 1105, "unknown type foo"},
		{"SET CONFIG tiflash `logger.level` = 'debug'", 1105, "This command can only change config items begin with 'raftstore-proxy'. For other TiFlash config items, please update the config file directly. Your change to the config file will take effect immediately without a restart."},
		{"SET CONFIG 'nohost' `log.level` = 'warn'", 1105, "invalid instance nohost"},
		{"SET CONFIG '127.0.0.1:29999' `log.level` = 'warn'", 1105, "instance 127.0.0.1:29999 is not found in this cluster"},
		{"SET CONFIG tikv `log.level` = NULL", 1105, "can't set config to null"},
		{"SET CONFIG tikv `log.level` = DEFAULT", 1105, "Unknown DEFAULT for SET CONFIG"},
		{"SET CONFIG '" + srv.Addr() + "' `log.level` = 'warn'", 1105, "TiDB doesn't support to change configs online, please use SQL variables"},
	}
	for _, tc := range tests {
		_, err := db.Exec(tc.q)
		me := mysqlErr(t, err)
		if me.Number != tc.code || me.Message != tc.msg {
			t.Errorf("%s:\n got %d %q\nwant %d %q", tc.q, me.Number, me.Message, tc.code, tc.msg)
		}
	}
	if got, _ := srv.Cluster.ConfigValue("127.0.0.1:20160", "log.level"); got != "info" {
		t.Errorf("a failed statement changed log.level to %q", got)
	}
}

// Per-instance failures are warnings 1105; the statement succeeds
// (set_config.go SetConfigExec.Next).
func TestSetConfigWarnings(t *testing.T) {
	t.Parallel()
	type check struct{ addr, name, want string }
	tests := []struct {
		name     string
		opts     Options
		q        string
		warnings [][]string
		checks   []check
	}{
		{
			name: "tikv size as string", q: "SET CONFIG tikv `coprocessor.region-split-size` = '128MiB'",
			checks: []check{{"127.0.0.1:20160", "coprocessor.region-split-size", "128MiB"}, {"127.0.0.1:20162", "coprocessor.region-split-size", "128MiB"},
				// online change does not re-derive max size (tikv/tikv#18567)
				{"127.0.0.1:20160", "coprocessor.region-max-size", "384MiB"}},
		},
		{
			name: "tikv size as number", q: "SET CONFIG tikv `coprocessor.region-split-size` = 134217728",
			checks: []check{{"127.0.0.1:20161", "coprocessor.region-split-size", "128MiB"}},
		},
		{
			name: "tikv split above max: whole-config validation", q: "SET CONFIG tikv `coprocessor.region-split-size` = '512MiB'",
			warnings: [][]string{
				{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: Other("[components/raftstore/src/coprocessor/config.rs:181]: region max size 402653184 must >= split size 536870912")`},
				{"Warning", "1105", `bad request to http://127.0.0.1:20181/config: failed to update, error: Other("[components/raftstore/src/coprocessor/config.rs:181]: region max size 402653184 must >= split size 536870912")`},
				{"Warning", "1105", `bad request to http://127.0.0.1:20182/config: failed to update, error: Other("[components/raftstore/src/coprocessor/config.rs:181]: region max size 402653184 must >= split size 536870912")`},
			},
			checks: []check{{"127.0.0.1:20160", "coprocessor.region-split-size", "256MiB"}},
		},
		{
			name: "tikv keys validation", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `coprocessor.region-max-keys` = 100",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: Other("[components/raftstore/src/coprocessor/config.rs:194]: region max keys 100 must >= split keys 2560000")`}},
			checks:   []check{{"127.0.0.1:20160", "coprocessor.region-max-keys", "3840000"}},
		},
		{
			// numbers pass through float64 on the way to SHOW CONFIG (derived from
			// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go fetchClusterConfig)
			name: "tikv integer above 2^53", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `coprocessor.region-max-keys` = 9007199254740993",
			checks: []check{{"127.0.0.1:20160", "coprocessor.region-max-keys", "9007199254740992"}},
		},
		{
			name: "host names of the cluster resolve", opts: Options{TiKV: 1, Host: "tikv-host"}, q: "SET CONFIG 'TIKV-HOST:20160' `log.level` = 'warn'",
			checks: []check{{"tikv-host:20160", "log.level", "warn"}},
		},
		{
			name: "tikv validation before v8.4", opts: Options{TiKV: 1, Version: "v8.1.2"}, q: "SET CONFIG tikv `coprocessor.region-split-size` = '256MiB'",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: Other("[components/raftstore/src/coprocessor/config.rs:179]: region max size 150994944 must >= split size 268435456")`}},
		},
		{
			name: "tikv bucket validated once enabled", opts: Options{TiKV: 1, Config: []ConfigOverride{{Type: "tikv", Name: "coprocessor.enable-region-bucket", Value: "true"}}},
			q:        "SET CONFIG tikv `coprocessor.region-bucket-size` = '300MiB'",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: Other("[components/raftstore/src/coprocessor/config.rs:148]: region split size 268435456 must >= region bucket size 314572800")`}},
		},
		{
			name: "tikv bool only true/false", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `coprocessor.split-region-on-table` = 'ON'",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "failed to parse: ON"`}},
			checks:   []check{{"127.0.0.1:20160", "coprocessor.split-region-on-table", "false"}},
		},
		{
			name: "tikv bool 1 rejected", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `coprocessor.split-region-on-table` = 1",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "failed to parse: 1"`}},
		},
		{
			name: "tikv bool TRUE", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `coprocessor.split-region-on-table` = TRUE",
			checks: []check{{"127.0.0.1:20160", "coprocessor.split-region-on-table", "true"}},
		},
		{
			name: "tikv duration order", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `raftstore.raft-log-gc-tick-interval` = '30m1h'",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "failed to parse: 30m1h"`}},
		},
		{
			name: "tikv duration rendered", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `raftstore.raft-log-gc-tick-interval` = '90s'",
			checks: []check{{"127.0.0.1:20160", "raftstore.raft-log-gc-tick-interval", "1m30s"}},
		},
		{
			name: "tikv restart-only item", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `resource-control.enabled` = false",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "config enabled can not be changed"`}},
			checks:   []check{{"127.0.0.1:20160", "resource-control.enabled", "true"}},
		},
		{
			// import.num-threads online since v8.1.2: #[online_config(skip)] in
			// tikv/tikv@v8.1.1:components/sst_importer/src/config.rs, gone at v8.1.2
			name: "import.num-threads restart-only on 8.1.1", opts: Options{TiKV: 1, Version: "v8.1.1"}, q: "SET CONFIG tikv `import.num-threads` = 4",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "config num_threads can not be changed"`}},
		},
		{
			name: "import.num-threads online on 8.1.2", opts: Options{TiKV: 1, Version: "v8.1.2"}, q: "SET CONFIG tikv `import.num-threads` = 4",
			checks: []check{{"127.0.0.1:20160", "import.num-threads", "4"}},
		},
		{
			name: "resource-control window restart-only", opts: Options{TiKV: 1, Version: "v8.5.7"}, q: "SET CONFIG tikv `resource-control.historical-usage-window-mins` = 30",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "config historical_usage_window_mins can not be changed"`}},
		},
		{
			name: "resource-control admission online", opts: Options{TiKV: 1, Version: "v8.5.7"}, q: "SET CONFIG tikv `resource-control.enable-read-admission-control` = true",
			checks: []check{{"127.0.0.1:20160", "resource-control.enable-read-admission-control", "true"}},
		},
		{
			name: "tikv IME cross-check restart-only", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `in-memory-engine.cross-check-interval` = '10s'",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "config cross_check_interval can not be changed"`}},
		},
		{
			name: "tikv IME enable accepted online", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `in-memory-engine.enable` = true",
			checks: []check{{"127.0.0.1:20160", "in-memory-engine.enable", "true"}},
		},
		{
			name: "tikv unknown item", opts: Options{TiKV: 1}, q: "SET CONFIG tikv `coprocessor.nosuch-item` = 1",
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "unexpect fields: nosuch_item"`}},
		},
		{
			// corpus messages.tsv gh-tidb-50763: the key is new in v7.0.0 (renamed
			// from snap-max-write-bytes-per-sec, tikv/tikv#14275), so a v6.5
			// TiKV does not know it
			name: "corpus: snap-io unexpected on 6.5", opts: Options{TiKV: 1, Version: "v6.5.0"}, q: `set config tikv ` + "`server.snap-io-max-bytes-per-sec`" + ` = "200MiB";`,
			warnings: [][]string{{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "unexpect fields: snap_io_max_bytes_per_sec"`}},
		},
		{
			name: "one instance", q: "SET CONFIG '127.0.0.1:20161' `log.level` = 'warn'",
			checks: []check{{"127.0.0.1:20160", "log.level", "info"}, {"127.0.0.1:20161", "log.level", "warn"}, {"127.0.0.1:20162", "log.level", "info"}},
		},
		{
			name: "pd int", q: "SET CONFIG pd `schedule.max-merge-region-size` = 20",
			checks: []check{{"127.0.0.1:2379", "schedule.max-merge-region-size", "20"}, {"127.0.0.1:2379", "schedule.max-merge-region-keys", "200000"}},
		},
		{
			name: "pd int quoted rejected", q: "SET CONFIG pd `schedule.max-merge-region-size` = '54'",
			warnings: [][]string{{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"json: cannot unmarshal string into Go struct field ScheduleConfig.max-merge-region-size of type uint64\"\n"}},
		},
		{
			name: "pd string bool needs quotes", q: "SET CONFIG pd `schedule.enable-cross-table-merge` = FALSE",
			warnings: [][]string{{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"json: invalid use of ,string struct tag, trying to unmarshal unquoted value into bool\"\n"}},
			checks:   []check{{"127.0.0.1:2379", "schedule.enable-cross-table-merge", "true"}},
		},
		{
			name: "pd string bool quoted", q: "SET CONFIG pd `schedule.enable-cross-table-merge` = 'false'",
			checks: []check{{"127.0.0.1:2379", "schedule.enable-cross-table-merge", "false"}},
		},
		{
			name: "pd duration", q: "SET CONFIG pd `schedule.max-store-down-time` = '120m'",
			checks: []check{{"127.0.0.1:2379", "schedule.max-store-down-time", "2h0m0s"}},
		},
		{
			name: "pd every member answers", opts: Options{PD: 3}, q: "SET CONFIG pd `schedule.nosuch` = 1",
			warnings: [][]string{
				{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"config item nosuch not found\"\n"},
				{"Warning", "1105", "bad request to http://127.0.0.1:2382/pd/api/v1/config: \"config item nosuch not found\"\n"},
				{"Warning", "1105", "bad request to http://127.0.0.1:2385/pd/api/v1/config: \"config item nosuch not found\"\n"},
			},
		},
		{
			name: "pd unknown prefix", q: "SET CONFIG pd `nosuch.x` = 1",
			warnings: [][]string{{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"config prefix nosuch not found\"\n"}},
		},
		{
			// corpus messages.tsv gh-tidb-23452
			name: "corpus: location-labels with placement rules", q: "set config pd `replication.location-labels`='region,zone,dc,host';",
			warnings: [][]string{{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"cannot update LocationLabels when placement rules feature is enabled, please update rule instead\"\n"}},
		},
		{
			name: "tiflash raftstore-proxy", opts: Options{TiFlash: 1}, q: "SET CONFIG tiflash `raftstore-proxy.server.snap-io-max-bytes-per-sec` = '300MiB'",
			checks: []check{{"127.0.0.1:3930", "raftstore-proxy.server.snap-io-max-bytes-per-sec", "300MiB"}},
		},
		{
			name: "no tiflash: silent success", q: "SET CONFIG tiflash `raftstore-proxy.server.snap-io-max-bytes-per-sec` = '300MiB'",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, tc.opts)
			db := openDB(t, srv)
			res, err := db.Exec(tc.q)
			if err != nil {
				t.Fatalf("%s: %v", tc.q, err)
			}
			if n, _ := res.RowsAffected(); n != 0 {
				t.Errorf("rows affected %d", n)
			}
			want := tc.warnings
			if want == nil {
				want = [][]string{}
			}
			if d := cmp.Diff(want, warnings(t, db)); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
			for _, c := range tc.checks {
				got, ok := srv.Cluster.ConfigValue(c.addr, c.name)
				if !ok || got != c.want {
					t.Errorf("%s %s = %q (%v), want %q", c.addr, c.name, got, ok, c.want)
				}
			}
		})
	}
}

// Online TiKV changes are written back to the instance's config file; PD
// changes are not (they live in etcd): https://docs.pingcap.com/tidb/stable/dynamic-config.
func TestSetConfigPersistence(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	if _, err := db.Exec("SET CONFIG '127.0.0.1:20161' `coprocessor.region-split-size` = '128MiB'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("SET CONFIG tikv `resource-control.enabled` = false"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]string{"coprocessor.region-split-size": "128MiB"}, srv.Cluster.ConfigFileChanges("127.0.0.1:20161")); d != "" {
		t.Errorf("tikv-1 file (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{}, srv.Cluster.ConfigFileChanges("127.0.0.1:20160")); d != "" {
		t.Errorf("tikv-0 file (-want +got):\n%s", d)
	}
	if got := srv.Cluster.ConfigFileChanges("127.0.0.1:2379"); got != nil {
		t.Errorf("pd has no config-file write-back, got %v", got)
	}
}

// An instance that is down: its rows are missing with a warning, SET CONFIG to
// it warns, the others are still changed (memtable_reader.go fetchClusterConfig,
// set_config.go SetConfigExec.Next).
func TestInstanceDown(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	srv.Cluster.SetInstanceDown("127.0.0.1:20161", true)
	got := queryRows(t, db, "SHOW CONFIG WHERE type='tikv' AND name='log.level'")
	want := [][]string{{"tikv", "127.0.0.1:20160", "log.level", "info"}, {"tikv", "127.0.0.1:20162", "log.level", "info"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	wantW := [][]string{{"Warning", "1105", `Get "http://127.0.0.1:20181/config": dial tcp 127.0.0.1:20181: connect: connection refused`}}
	if d := cmp.Diff(wantW, warnings(t, db)); d != "" {
		t.Errorf("SHOW CONFIG warnings (-want +got):\n%s", d)
	}
	if _, err := db.Exec("SET CONFIG tikv `log.level` = 'warn'"); err != nil {
		t.Fatal(err)
	}
	if log := srv.QueryLog(); log[len(log)-1].Contacts != 3 {
		t.Errorf("SET CONFIG tikv contacted %d instances, want 3 (the down one too)", log[len(log)-1].Contacts)
	}
	wantW = [][]string{{"Warning", "1105", `Post "http://127.0.0.1:20181/config": dial tcp 127.0.0.1:20181: connect: connection refused`}}
	if d := cmp.Diff(wantW, warnings(t, db)); d != "" {
		t.Errorf("SET CONFIG warnings (-want +got):\n%s", d)
	}
	for addr, want := range map[string]string{"127.0.0.1:20160": "warn", "127.0.0.1:20161": "info", "127.0.0.1:20162": "warn"} {
		if v, _ := srv.Cluster.ConfigValue(addr, "log.level"); v != want {
			t.Errorf("%s log.level = %s, want %s", addr, v, want)
		}
	}
	// PD down: the pd URL shape
	srv.Cluster.SetInstanceDown("127.0.0.1:20161", false)
	srv.Cluster.SetInstanceDown("127.0.0.1:2379", true)
	queryRows(t, db, "SELECT * FROM information_schema.cluster_config WHERE type='pd'")
	wantW = [][]string{{"Warning", "1105", `Get "http://127.0.0.1:2379/pd/api/v1/config": dial tcp 127.0.0.1:2379: connect: connection refused`}}
	if d := cmp.Diff(wantW, warnings(t, db)); d != "" {
		t.Errorf("PD down warnings (-want +got):\n%s", d)
	}
	// CLUSTER_INFO still lists it (compare the two to find the missing instance)
	if n := len(queryRows(t, db, "SELECT * FROM information_schema.cluster_info WHERE type='pd'")); n != 1 {
		t.Errorf("cluster_info pd rows %d", n)
	}
}

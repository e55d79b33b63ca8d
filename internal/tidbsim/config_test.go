package tidbsim

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const regionQuery = "SHOW CONFIG WHERE type='tikv' AND name IN ('coprocessor.region-split-size', 'coprocessor.region-max-size', 'coprocessor.region-split-keys', 'coprocessor.region-max-keys')"

func regionRows(split, max, splitKeys, maxKeys string, tikvs int) [][]string {
	var out [][]string
	for i := 0; i < tikvs; i++ {
		addr := "127.0.0.1:" + itoa(20160+i)
		// rows sorted by key per instance (fetchClusterConfig)
		out = append(out,
			[]string{"tikv", addr, "coprocessor.region-max-keys", maxKeys},
			[]string{"tikv", addr, "coprocessor.region-max-size", max},
			[]string{"tikv", addr, "coprocessor.region-split-keys", splitKeys},
			[]string{"tikv", addr, "coprocessor.region-split-size", split},
		)
	}
	return out
}

// The bar per version: https://docs.pingcap.com/tidb/stable/tikv-configuration-file#region-split-size
// (256MiB from v8.4.0) and tikv/tikv#18503 (inheritance from v8.5.3).
func TestShowConfigRegionSizeByVersion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts Options
		want [][]string
	}{
		{"v7.5.6", Options{Version: "v7.5.6"}, regionRows("96MiB", "144MiB", "960000", "1440000", 3)},
		{"v8.1.2", Options{Version: "v8.1.2"}, regionRows("96MiB", "144MiB", "960000", "1440000", 3)},
		{"v8.5.1", Options{Version: "v8.5.1"}, regionRows("256MiB", "384MiB", "2560000", "3840000", 3)},
		{"v8.5.3", Options{Version: "v8.5.3"}, regionRows("256MiB", "384MiB", "2560000", "3840000", 3)},
		{"v9.0 build", Options{Version: "v9.0.0-beta.2.pre-784-gcf74287377"}, regionRows("256MiB", "384MiB", "2560000", "3840000", 3)},
		// upgraded from v8.1 to v8.5.1 (before the fix): new defaults (tikv/tikv#18503).
		{"upgraded 8.1 to 8.5.1", Options{Version: "v8.5.1", BootstrappedFrom: "v8.1.2"}, regionRows("256MiB", "384MiB", "2560000", "3840000", 3)},
		// upgraded from v8.1 to v8.5.3: inherited from last_tikv.toml (tikv/tikv#18545).
		{"upgraded 8.1 to 8.5.3", Options{Version: "v8.5.3", BootstrappedFrom: "v8.1.2"}, regionRows("96MiB", "144MiB", "960000", "1440000", 3)},
		// explicitly set split size on 8.5.3 upgrade: the others inherited, not re-derived (tikv/tikv#18567).
		{"8.5.3 upgrade with split size set", Options{Version: "v8.5.3", BootstrappedFrom: "v8.1.2", TiKV: 1,
			Config: []ConfigOverride{{Type: "tikv", Name: "coprocessor.region-split-size", Value: "128MiB"}}},
			regionRows("128MiB", "144MiB", "960000", "1440000", 1)},
		{"one tikv, explicit values", Options{TiKV: 1, Config: []ConfigOverride{
			{Type: "tikv", Name: "coprocessor.region-split-size", Value: "128MiB"}}},
			regionRows("128MiB", "192MiB", "1280000", "1920000", 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, tc.opts)
			db := openDB(t, srv)
			got := queryRows(t, db, regionQuery)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestStartRejectsInvalidTiKVConfig(t *testing.T) {
	t.Parallel()
	// tikv/tikv#18567: split size above the inherited max size fails validation.
	_, err := Start(Options{Version: "v8.5.3", BootstrappedFrom: "v8.1.2", Config: []ConfigOverride{{Type: "tikv", Name: "coprocessor.region-split-size", Value: "256MiB"}}})
	if err == nil || !strings.Contains(err.Error(), "region max size 150994944 must >= split size 268435456") {
		t.Fatalf("want a validation error, got %v", err)
	}
	if _, err := Start(Options{Config: []ConfigOverride{{Type: "tikv", Name: "no.such-item", Value: "1"}}}); err == nil {
		t.Fatal("unknown config item accepted")
	}
}

func TestShowConfigLikeAndOrder(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiKV: 1})
	db := openDB(t, srv)
	got := queryRows(t, db, "SHOW CONFIG WHERE type='tikv' AND name LIKE 'coprocessor.region%'")
	var names []string
	for _, r := range got {
		names = append(names, r[2])
	}
	want := []string{
		"coprocessor.region-bucket-merge-size-ratio", "coprocessor.region-bucket-size", "coprocessor.region-max-keys",
		"coprocessor.region-max-size", "coprocessor.region-size-threshold-for-approximate", "coprocessor.region-split-keys",
		"coprocessor.region-split-size",
	}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("LIKE region%% (-want +got):\n%s", d)
	}
	// SHOW CONFIG LIKE matches the Type column (https://docs.pingcap.com/tidb/stable/sql-statement-show-config).
	for _, r := range queryRows(t, db, "SHOW CONFIG LIKE 'pd'") {
		if r[0] != "pd" {
			t.Fatalf("SHOW CONFIG LIKE 'pd' returned %v", r)
		}
	}
	if n := len(queryRows(t, db, "SHOW CONFIG LIKE 'log.level'")); n != 0 {
		t.Errorf("LIKE must not match names: %d rows", n)
	}
	// server-list order tidb, pd, tikv; sorted by key inside each instance.
	all := queryRows(t, db, "SHOW CONFIG")
	var types []string
	for i, r := range all {
		if len(types) == 0 || types[len(types)-1] != r[0] {
			types = append(types, r[0])
		}
		if i > 0 && all[i-1][1] == r[1] && all[i-1][2] >= r[2] {
			t.Fatalf("rows not sorted by key: %v then %v", all[i-1], r)
		}
	}
	if d := cmp.Diff([]string{"tidb", "pd", "tikv"}, types); d != "" {
		t.Errorf("instance order (-want +got):\n%s", d)
	}
	cols, _ := columnsOf(db, "SHOW CONFIG LIKE 'tikv'")
	if d := cmp.Diff([]string{"Type", "Instance", "Name", "Value"}, cols); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
}

func columnsOf(db interface {
	Query(string, ...any) (*sqlRows, error)
}, q string) ([]string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return rows.Columns()
}

// SHOW CONFIG contacts every instance, CLUSTER_CONFIG only those its
// type/instance predicates select.
func TestClusterConfigPushDown(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	c := srv.Cluster
	tests := []struct {
		q        string
		contacts int
		rows     int
	}{
		{"SHOW CONFIG WHERE type='tikv' AND name='log.level'", 5, 3},
		{"SELECT instance, `key`, value FROM information_schema.cluster_config WHERE type='tikv' AND `key`='log.level'", 3, 3},
		{"SELECT * FROM information_schema.cluster_config WHERE type = 'TiKV' AND instance = '127.0.0.1:20161' AND `key` LIKE 'coprocessor.region-split%'", 1, 0},
		{"SELECT * FROM information_schema.cluster_config WHERE type IN ('pd', 'tikv') AND instance IN ('127.0.0.1:20161', '127.0.0.1:2379') AND `key` = 'log.level'", 2, 2},
		{"SELECT * FROM information_schema.cluster_config WHERE type = 'pd' AND type = 'tikv'", 0, 0},
		{"SELECT * FROM information_schema.cluster_config WHERE `key` = 'log.level'", 5, 5},
	}
	for _, tc := range tests {
		before := c.Contacts()
		got := queryRows(t, db, tc.q)
		if n := c.Contacts() - before; n != tc.contacts {
			t.Errorf("%s: contacted %d instances, want %d", tc.q, n, tc.contacts)
		}
		if len(got) != tc.rows {
			t.Errorf("%s: %d rows, want %d: %v", tc.q, len(got), tc.rows, got)
		}
		log := srv.QueryLog()
		if last := log[len(log)-1]; last.SQL != tc.q || last.Contacts != tc.contacts {
			t.Errorf("query log entry %q contacts %d, want %d", last.SQL, last.Contacts, tc.contacts)
		}
	}
	// lower-cased push-down still matches the case-sensitive WHERE: the TiKV row
	// above with type = 'TiKV' is contacted but filtered out (utf8mb4_bin).
	if c.ContactsOf("127.0.0.1:20161") == 0 {
		t.Error("ContactsOf not counted")
	}
}

func TestClusterConfigKeyColumn(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Version: "v8.5.1"})
	db := openDB(t, srv)
	// The query that detects tikv/tikv#18503 (the four region-size keys of every TiKV).
	got := queryRows(t, db, "SELECT instance, `key`, value FROM information_schema.cluster_config\n  WHERE type = 'tikv' AND `key` IN ('coprocessor.region-split-size', 'coprocessor.region-max-size',\n                                    'coprocessor.region-split-keys', 'coprocessor.region-max-keys')")
	if len(got) != 12 || got[0][2] != "3840000" || got[3][2] != "256MiB" {
		t.Errorf("detect query: %v", got)
	}
	_, err := db.Exec("SELECT key FROM information_schema.cluster_config")
	if me := mysqlErr(t, err); me.Number != 1064 {
		t.Errorf("unquoted KEY: %d %s", me.Number, me.Message)
	}
}

// PD merge thresholds (https://docs.pingcap.com/tidb/stable/pd-configuration-file#max-merge-region-size) and
// their rendering.
func TestPDMergeThresholds(t *testing.T) {
	t.Parallel()
	q := "SHOW CONFIG WHERE type='pd' AND name IN ('schedule.max-merge-region-size','schedule.max-merge-region-keys','schedule.split-merge-interval','schedule.enable-cross-table-merge','cluster-version')"
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"v8.5.1", Options{Version: "v8.5.1"}, []string{"8.5.1", "true", "540000", "54", "1h0m0s"}},
		{"v8.1.2", Options{Version: "v8.1.2"}, []string{"8.1.2", "true", "200000", "20", "1h0m0s"}},
		{"v7.5.6", Options{Version: "v7.5.6"}, []string{"7.5.6", "true", "200000", "20", "1h0m0s"}},
		{"v9.0", Options{Version: "v9.0.0"}, []string{"9.0.0", "true", "540000", "54", "1h0m0s"}},
		{"upgraded from v8.1 keeps 20", Options{Version: "v8.5.3", BootstrappedFrom: "v8.1.0"}, []string{"8.5.3", "true", "200000", "20", "1h0m0s"}},
		{"explicit keys", Options{Config: []ConfigOverride{{Type: "pd", Name: "schedule.max-merge-region-keys", Value: "123"}}}, []string{"8.5.1", "true", "123", "54", "1h0m0s"}},
		// cluster-version = minimum TiKV version (https://docs.pingcap.com/tidb/stable/pd-control).
		{"mixed tikv", Options{Version: "v8.5.3", InstanceVersions: map[string]string{"tikv-1": "v8.5.1"}}, []string{"8.5.1", "true", "540000", "54", "1h0m0s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, tc.opts)
			var got []string
			for _, r := range queryRows(t, openDB(t, srv), q) {
				got = append(got, r[3])
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// Items that exist only in some versions (release notes of v8.4.0, v8.5.0,
// v8.5.5, v8.5.7).
func TestConfigItemsByVersion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version, typ, name string
		want               string // "" = absent
	}{
		{"v8.1.2", "tikv", "in-memory-engine.capacity", ""},
		{"v8.5.1", "tikv", "in-memory-engine.capacity", "5GiB"},
		{"v8.5.1", "tikv", "in-memory-engine.evict-threshold", "4920MiB"},
		{"v8.5.1", "tikv", "in-memory-engine.stop-load-threshold", "4208MiB"},
		{"v8.5.1", "tikv", "in-memory-engine.enable", "false"},
		{"v8.1.2", "tikv", "resource-control.priority-ctl-strategy", ""},
		{"v8.5.1", "tikv", "resource-control.priority-ctl-strategy", "moderate"},
		{"v8.5.1", "tikv", "resource-control.enabled", "true"},
		{"v8.5.6", "tikv", "resource-control.bg-write-io-ceiling", ""},
		{"v8.5.7", "tikv", "resource-control.bg-write-io-ceiling", "100GiB"},
		{"v9.0.0", "tikv", "resource-control.fg-cpu-throttle-threshold", "70"},
		{"v9.0.0", "tikv", "resource-control.historical-usage-window-mins", "15"},
		{"v8.5.1", "tikv", "storage.block-cache.capacity", "30923764531B"},
		{"v8.5.1", "tikv", "raftstore.region-split-check-diff", "16MiB"},
		{"v8.1.2", "tikv", "raftstore.region-split-check-diff", "6MiB"},
		{"v8.5.1", "tikv", "raftstore.raft-log-gc-size-limit", "192MiB"},
		{"v8.1.2", "tikv", "raftstore.raft-log-gc-size-limit", "72MiB"},
		{"v8.5.1", "tikv", "raftstore.raft-log-gc-count-limit", "196608"},
		{"v8.1.2", "tikv", "raftstore.raft-log-gc-count-limit", "73728"},
		{"v8.5.1", "tikv", "split.byte-threshold", "31457280"},
		{"v8.5.1", "tikv", "split.qps-threshold", "3000"},
		{"v8.5.1", "tikv", "log.level", "info"},
		// Option<bool> left None prints null (JSON null through fetchClusterConfig)
		{"v8.5.1", "tikv", "coprocessor.enable-region-bucket", "null"},
		{"v8.5.1", "tikv", "coprocessor.region-bucket-size", "50MiB"},
		{"v8.5.4", "pd", "schedule.max-affinity-merge-region-size", ""},
		{"v8.5.5", "pd", "schedule.max-affinity-merge-region-size", "256"},
		{"v8.1.2", "pd", "schedule.enable-heartbeat-concurrent-runner", ""},
		{"v8.5.1", "pd", "schedule.max-store-down-time", "30m0s"},
		{"v8.5.1", "pd", "schedule.patrol-region-interval", "10ms"},
		{"v8.1.2", "tidb", "binlog.enable", "false"},
		{"v8.5.1", "tidb", "binlog.enable", ""},
		{"v8.5.1", "tidb", "deprecate-integer-display-length", "true"},
		{"v8.1.2", "tidb", "deprecate-integer-display-length", "false"},
	}
	for _, tc := range tests {
		t.Run(tc.version+"/"+tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, Options{Version: tc.version, TiKV: 1})
			got := queryRows(t, openDB(t, srv), "SELECT value FROM information_schema.cluster_config WHERE type = '"+tc.typ+"' AND `key` = '"+tc.name+"'")
			want := [][]string{}
			if tc.want != "" {
				want = [][]string{{tc.want}}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// corpusRows reads corpus/config_rows.tsv rows of one source.
func corpusRows(t *testing.T, source string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/corpus/config_rows.tsv") // copy of the shared corpus
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) == 6 && cols[0] == source {
			out = append(out, cols[2:])
		}
	}
	return out
}

// Real outputs from corpus/config_rows.tsv: (type, instance, name, value);
// each default row must match what the emulator prints for that version.
func TestConfigMatchesCorpus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source, version string
		skip            map[string]bool // rows showing non-default (user-set) values
		instance        string          // only rows of this instance ("" = all)
	}{
		{"docs-cn-cluster-config-v4.0-v8.3", "v8.1.2", nil, ""},
		{"docs-cn-cluster-config-v8.4-v9.0", "v8.5.1", nil, ""},
		{"docs-cn-tikv-in-memory-engine", "v8.5.1", map[string]bool{"in-memory-engine.enable": true}, ""},
		{"docs-cn-pd-control-v5.4-v8.1", "v8.1.2", nil, ""},
		{"docs-cn-pd-control-v8.5-v9.0", "v8.5.1", nil, ""},
		// a real v7.5.0 paste; instance :20165 had been changed by SET CONFIG
		{"blog-tidbnet-c25328d1", "v7.5.0", nil, "127.0.0.1:20160"},
		{"gh-tidb-59856", "v8.5.1", nil, ""},
		// a real v8.5 pd-ctl paste (max-affinity-merge-region-size: ≥ v8.5.5);
		// the reporter had changed max-replicas, low-space-ratio, max-store-down-time
		// max-store-preparing-time: the paste shows 48h, PD's own code prints
		// its typeutil.Duration as 48h0m0s (tools/pdsurface; MarshalJSON of
		// tikv/pd@v8.5.5:pkg/utils/typeutil/duration.go); the paste is not
		// explained, the running code is followed
		{"gh-pd-10262", "v8.5.5", map[string]bool{"replication.max-replicas": true, "schedule.low-space-ratio": true, "schedule.max-store-down-time": true,
			"schedule.max-store-preparing-time": true}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.source, func(t *testing.T) {
			t.Parallel()
			rows := corpusRows(t, tc.source)
			if len(rows) == 0 {
				t.Fatalf("no corpus rows for %s", tc.source)
			}
			srv := startServer(t, Options{Version: tc.version, TiKV: 1})
			checked := 0
			for _, r := range rows {
				typ, name, want := r[0], r[2], r[3]
				if tc.skip[name] || (tc.instance != "" && r[1] != tc.instance) {
					continue
				}
				inst := srv.Cluster.InstancesOf(typ)[0]
				got, ok := srv.Cluster.ConfigValue(inst.Address, name)
				if !ok {
					continue // item not modelled
				}
				checked++
				if got != want {
					t.Errorf("%s %s: got %q, corpus %q", typ, name, got, want)
				}
			}
			if checked == 0 {
				t.Errorf("no corpus row of %s is modelled", tc.source)
			}
		})
	}
}

// Enabling the IME in the config file with an automatic capacity takes
// half of it from the block cache; a manual capacity does not
// (tikv/tikv@v8.5.1:components/in_memory_engine/src/config.rs InMemoryEngineConfig::validate).
func TestIMEBlockCache(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		overrides []ConfigOverride
		capacity  string
		block     string
	}{
		{"disabled", nil, "5GiB", "30923764531B"},
		{"enabled, automatic capacity", []ConfigOverride{{Type: "tikv", Name: "in-memory-engine.enable", Value: "true"}}, "5GiB", "28239409971B"},
		{"enabled, manual capacity", []ConfigOverride{{Type: "tikv", Name: "in-memory-engine.enable", Value: "true"}, {Type: "tikv", Name: "in-memory-engine.capacity", Value: "2GiB"}}, "2GiB", "30923764531B"},
		{"manual block cache", []ConfigOverride{{Type: "tikv", Name: "storage.block-cache.capacity", Value: "4GiB"}}, "858993459B", "4GiB"},
	}
	for _, tc := range tests {
		srv := startServer(t, Options{TiKV: 1, Config: tc.overrides})
		capacity, _ := srv.Cluster.ConfigValue("127.0.0.1:20160", "in-memory-engine.capacity")
		block, _ := srv.Cluster.ConfigValue("127.0.0.1:20160", "storage.block-cache.capacity")
		if capacity != tc.capacity || block != tc.block {
			t.Errorf("%s: capacity %s block cache %s, want %s %s", tc.name, capacity, block, tc.capacity, tc.block)
		}
	}
}

func TestSetTiDBConfigLocked(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiDB: 2})
	c := srv.Cluster
	tidbs := c.InstancesOf(TypeTiDB)
	c.Mu.Lock()
	err := c.SetTiDBConfigLocked(tidbs[1], "instance.tidb_slow_log_threshold", "1000")
	errBad := c.SetTiDBConfigLocked(tidbs[1], "instance.nosuch", "1")
	errType := c.SetTiDBConfigLocked(c.InstancesOf(TypeTiKV)[0], "log.level", "warn")
	c.Mu.Unlock()
	if err != nil || errBad == nil || errType == nil {
		t.Fatalf("errors: %v / %v / %v", err, errBad, errType)
	}
	got := queryRows(t, openDB(t, srv), "SELECT instance, value FROM information_schema.cluster_config WHERE type='tidb' AND `key`='instance.tidb_slow_log_threshold'")
	want := [][]string{{tidbs[0].Address, "300"}, {tidbs[1].Address, "1000"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// Under SEM CLUSTER_CONFIG is invisible; CLUSTER_INFO is not (pkg/util/sem/sem.go).
func TestSEMHidesClusterConfig(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{SEM: true})
	db := openDB(t, srv)
	_, err := db.Query("SELECT * FROM information_schema.cluster_config WHERE type = 'tikv'")
	me := mysqlErr(t, err)
	if me.Number != 1142 || me.Message != "SELECT command denied to user 'root'@'%' for table 'cluster_config'" {
		t.Errorf("got %d %q", me.Number, me.Message)
	}
	// CLUSTER_INFO stays visible, but INSTANCE shows the SERVER_ID and the
	// status address and times are NULL (TiDB dataForTiDBClusterInfo).
	got := queryRows(t, db, "SELECT type, instance, status_address, version, start_time, uptime, server_id FROM information_schema.cluster_info")
	want := [][]string{
		{"tidb", "1", "NULL", "8.5.1", "NULL", "NULL", "1"},
		{"pd", "0", "NULL", "8.5.1", "NULL", "NULL", "0"},
		{"tikv", "0", "NULL", "8.5.1", "NULL", "NULL", "0"},
		{"tikv", "0", "NULL", "8.5.1", "NULL", "NULL", "0"},
		{"tikv", "0", "NULL", "8.5.1", "NULL", "NULL", "0"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cluster_info under SEM (-want +got):\n%s", d)
	}
	if srv.Cluster.Contacts() != 0 {
		t.Error("a hidden table must not contact instances")
	}
}

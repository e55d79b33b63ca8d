package tidbsim

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// surfaceVersions are the versions the surface tests run at: every
// release the generated table observed (those PD's code was run at are
// exact, the others stand on the nearest run).
func surfaceVersions() []string {
	var out []string
	for _, v := range table.Versions[upstream.PD] {
		if v != "master" {
			out = append(out, v)
		}
	}
	return out
}

// printedKeys is the set of keys SHOW CONFIG prints for one instance.
func printedKeys(c *Cluster, in *Instance) []string {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	var out []string
	for _, kv := range in.cfg.rows(in.Address, nil) {
		out = append(out, kv[0])
	}
	return out
}

// TestSurfaceKeySets: SHOW CONFIG of each PD member prints exactly the keys
// PD's own config code printed at the run that stands for the version
// (internal/upstream/pd_surface.json, tools/pdsurface), and of each TiKV
// exactly the generated table's keys of the version that its /config
// serialises: not #[online_config(hidden)] (get_encoder filters them), not
// an empty map (an empty JSON object flattens to no row), plus the
// raft-engine keys modelled under the table's raft-engine. prefix.
func TestSurfaceKeySets(t *testing.T) {
	s := upstream.MustPDSurface()
	for _, vs := range surfaceVersions() {
		t.Run(vs, func(t *testing.T) {
			t.Parallel()
			v := version.MustParse(vs)
			c, err := newCluster(Options{Version: vs, PD: 3, TiKV: 3}, []string{"127.0.0.1:4000"})
			if err != nil {
				t.Fatal(err)
			}
			run := s.RunFor(v)
			var wantPD []string
			for _, r := range s.Rows(run) {
				if st, inTable := table.Setting(upstream.PD, r.Key); inTable && strings.ToLower(r.Key) == r.Key && table.In(st, v) == nil {
					continue // removed after the run that stands for v
				}
				wantPD = append(wantPD, r.Key)
			}
			for _, pd := range c.InstancesOf(TypePD) {
				got := printedKeys(c, pd)
				if run == vs {
					if diff := cmp.Diff(wantPD, got); diff != "" {
						t.Errorf("%s %s: SHOW CONFIG keys differ from PD's (-upstream +emulator):\n%s", pd.Name(), vs, diff)
					}
					continue
				}
				// no run of this version: the run that stands for it, and the
				// table's keys added since
				printed := map[string]bool{}
				for _, k := range got {
					printed[k] = true
				}
				for _, k := range wantPD {
					if !printed[k] {
						t.Errorf("%s %s: %s, printed by PD at %s, is not printed", pd.Name(), vs, k, run)
					}
				}
			}
			wantTiKV := map[string]bool{"raft-engine.dir": true, "raft-engine.enable": true}
			hand := map[string]bool{}
			for _, it := range tikvItems {
				hand[it.name] = true
			}
			var gaps []string
			for _, st := range table.Component(upstream.TiKV) {
				sp := table.In(st, v)
				if sp == nil || sp.Hidden || sp.Kind == upstream.KindMap && (sp.Default == nil || *sp.Default == "{}") {
					continue
				}
				if sp.Default == nil && !sp.Nullable && !hand[st.Key] && table.MachineRuleFor(upstream.TiKV, st.Key, v) == nil {
					// a default computed from something neither the
					// generator nor the model states: not printed
					gaps = append(gaps, st.Key)
					continue
				}
				wantTiKV[st.Key] = true
			}
			if len(gaps) > 0 {
				t.Logf("%s: TiKV keys whose computed default is not modelled (not printed): %s", vs, strings.Join(gaps, ", "))
			}
			for _, kv := range c.InstancesOf(TypeTiKV) {
				if diff := cmp.Diff(sortedSet(wantTiKV), printedKeys(c, kv)); diff != "" {
					t.Errorf("%s %s: SHOW CONFIG keys differ from the table's (-upstream +emulator):\n%s", kv.Name(), vs, diff)
				}
			}
		})
	}
}

// TestSurfaceInstanceValues: each member and instance prints its own name,
// addresses and paths, as TiUP deploys them, and nothing is a placeholder.
func TestSurfaceInstanceValues(t *testing.T) {
	c, err := newCluster(Options{Version: "v8.5.1", PD: 3, TiKV: 3}, []string{"127.0.0.1:4000"})
	if err != nil {
		t.Fatal(err)
	}
	distinct := func(typ string, keys ...string) {
		t.Helper()
		for _, k := range keys {
			seen := map[string]string{}
			for _, in := range c.InstancesOf(typ) {
				v, ok := c.ConfigValue(in.Address, k)
				if !ok || v == "" {
					t.Errorf("%s %s: not printed", in.Name(), k)
					continue
				}
				if other, dup := seen[v]; dup {
					t.Errorf("%s %s = %q, the same as %s", in.Name(), k, v, other)
				}
				seen[v] = in.Name()
			}
		}
	}
	distinct(TypePD, "name", "data-dir", "client-urls", "peer-urls", "advertise-client-urls", "advertise-peer-urls", "metric.job", "log.file.filename")
	distinct(TypeTiKV, "server.addr", "server.status-addr", "server.advertise-addr", "server.advertise-status-addr", "storage.data-dir",
		"raftstore.raftdb-path", "raft-engine.dir", "log.file.filename")
	for _, want := range [][3]string{
		{"127.0.0.1:2382", "name", "pd-127.0.0.1-2382"},
		{"127.0.0.1:2382", "client-urls", "http://0.0.0.0:2382"},
		{"127.0.0.1:2382", "advertise-peer-urls", "http://127.0.0.1:2383"},
		{"127.0.0.1:2382", "data-dir", "/tidb-data/pd-2382"},
		{"127.0.0.1:2379", "initial-cluster", "pd-127.0.0.1-2379=http://127.0.0.1:2380,pd-127.0.0.1-2382=http://127.0.0.1:2383,pd-127.0.0.1-2385=http://127.0.0.1:2386"},
		{"127.0.0.1:20162", "server.advertise-addr", "127.0.0.1:20162"},
		{"127.0.0.1:20162", "server.addr", "0.0.0.0:20162"},
		{"127.0.0.1:20162", "pd.endpoints", `["127.0.0.1:2379","127.0.0.1:2382","127.0.0.1:2385"]`},
		{"127.0.0.1:20162", "raftstore.raftdb-path", "/tidb-data/tikv-20162/raft"},
	} {
		if got, _ := c.ConfigValue(want[0], want[1]); got != want[2] {
			t.Errorf("%s %s = %q, want %q", want[0], want[1], got, want[2])
		}
	}
	for _, in := range c.Instances {
		for _, kv := range printedKeys(c, in) {
			if v, _ := c.ConfigValue(in.Address, kv); strings.Contains(v, "{{") {
				t.Errorf("%s %s = %q: a placeholder was not filled", in.Name(), kv, v)
			}
		}
	}
}

// TestMachineDefaults: TiKV's machine-computed defaults follow the
// instance's machine, which CLUSTER_HARDWARE reports; a value set in the
// config file is kept.
func TestMachineDefaults(t *testing.T) {
	c, err := newCluster(Options{Version: "v8.5.1", TiKV: 3,
		InstanceMachines: map[string]upstream.Machine{"tikv-1": {CPU: 16, Memory: 32 << 30}},
		Config:           []ConfigOverride{{Type: "tikv", Instance: "tikv-2", Name: "storage.block-cache.capacity", Value: "12GiB"}}},
		[]string{"127.0.0.1:4000"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][3]string{
		{"127.0.0.1:20160", "storage.block-cache.capacity", "30923764531B"}, // 64GiB × 0.45
		{"127.0.0.1:20160", "rocksdb.max-background-jobs", "7"},
		{"127.0.0.1:20160", "readpool.unified.max-thread-count", "6"},
		{"127.0.0.1:20161", "storage.block-cache.capacity", "15461882265B"}, // 32GiB × 0.45
		{"127.0.0.1:20161", "rocksdb.max-background-jobs", "9"},
		{"127.0.0.1:20161", "readpool.unified.max-thread-count", "12"},
		{"127.0.0.1:20161", "storage.scheduler-worker-pool-size", "8"},
		{"127.0.0.1:20162", "storage.block-cache.capacity", "12GiB"},
		{"127.0.0.1:20162", "memory-usage-limit", "20GiB"}, // follows the block cache set by hand
	} {
		if got, _ := c.ConfigValue(want[0], want[1]); got != want[2] {
			t.Errorf("%s %s = %q, want %q", want[0], want[1], got, want[2])
		}
	}
	tikv1 := c.InstancesOf(TypeTiKV)[1]
	var cores, memory string
	for _, it := range hardwareItems(tikv1) {
		switch it.key {
		case "cpu-logical-cores":
			cores = it.value
		case "capacity":
			memory = it.value
		}
	}
	if cores != "16" || memory != "34359738368" {
		t.Errorf("CLUSTER_HARDWARE of tikv-1: cpu-logical-cores %s, memory capacity %s; want 16 and 34359738368", cores, memory)
	}
	if _, err := newCluster(Options{InstanceMachines: map[string]upstream.Machine{"tikv-9": DefaultMachine}}, []string{"127.0.0.1:4000"}); err == nil {
		t.Errorf("a machine for an instance that does not exist must fail the start")
	}
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

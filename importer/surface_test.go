package importer

import (
	"strings"
	"testing"

	"github.com/tiform/tiform/state"
)

// leftOutKeys is every key the report left out for why (a prefix of it).
func leftOutKeys(r Report, why string) []string {
	for _, g := range r.LeftOut {
		if strings.HasPrefix(g.Why, why) {
			return g.Keys
		}
	}
	return nil
}

// TestImportWholeSurface: what a production-shaped cluster prints beyond its
// settings is left out with the reason (identity, paths, PD members that
// disagree), defaults computed on each host are not imported while values
// set by hand are, a family is declared whole, and the summary names each
// key once whatever the number of instances.
func TestImportWholeSurface(t *testing.T) {
	l := synthetic()
	l.Instances = append(l.Instances, state.Instance{Component: state.PD, Address: "10.0.0.5:2379", Version: l.ServerVersionParsed})
	l.Machines = map[string]state.Machine{"10.0.0.3:20160": {CPU: 8, Memory: 64 << 30}, "10.0.0.4:20160": {CPU: 16, Memory: 32 << 30}}
	for i, kv := range []string{"10.0.0.3:20160", "10.0.0.4:20160"} {
		row(l, state.TiKV, kv, "server.advertise-addr", kv)
		row(l, state.TiKV, kv, "storage.data-dir", "/tidb-data/tikv-"+string(rune('0'+i)))
		row(l, state.TiKV, kv, "raft-engine.dir", "/tidb-data/raft-engine")
		row(l, state.TiKV, kv, "coprocessor.region-split-size", "128MiB")
		row(l, state.TiKV, kv, "coprocessor.region-max-size", "384MiB")
		row(l, state.TiKV, kv, "coprocessor.region-split-keys", "2560000")
		row(l, state.TiKV, kv, "coprocessor.region-max-keys", "3840000")
		row(l, state.TiKV, kv, "rocksdb.defaultcf.compaction-pri", "min-overlapping-ratio") // printed as a name by some emulators
	}
	// computed from each host: 8 CPUs → 7 jobs, 16 → 9; memory → block cache
	row(l, state.TiKV, "10.0.0.3:20160", "rocksdb.max-background-jobs", "7")
	row(l, state.TiKV, "10.0.0.4:20160", "rocksdb.max-background-jobs", "9")
	row(l, state.TiKV, "10.0.0.3:20160", "storage.block-cache.capacity", "30923764531B")
	row(l, state.TiKV, "10.0.0.4:20160", "storage.block-cache.capacity", "15461882265B")
	// set by hand on both: imported
	row(l, state.TiKV, "10.0.0.3:20160", "readpool.unified.max-thread-count", "12")
	row(l, state.TiKV, "10.0.0.4:20160", "readpool.unified.max-thread-count", "12") // 16 CPUs: 12 is its default
	for _, pd := range []string{"10.0.0.2:2379", "10.0.0.5:2379"} {
		row(l, state.PD, pd, "name", "pd-"+pd)
		row(l, state.PD, pd, "data-dir", "/tidb-data/pd-"+pd)
		row(l, state.PD, pd, "schedule.leader-schedule-limit", "8")
	}
	row(l, state.PD, "10.0.0.2:2379", "lease", "3")
	row(l, state.PD, "10.0.0.5:2379", "lease", "7")
	r, err := Generate([]Cluster{{Name: "prod", DSNEnv: "PROD_DSN", Live: l}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	loadAndPlan(t, r, l)
	var all strings.Builder
	for _, f := range r.Files {
		all.Write(f.Content)
	}
	out := all.String()
	for _, absent := range []string{"advertise-addr", "data-dir", "raft-engine", "pd-10.0.0", "max-background-jobs", "block-cache", "lease", "TIFORM_DSN_PROD"} {
		if strings.Contains(out, absent) {
			t.Errorf("the configuration declares %s:\n%s", absent, out)
		}
	}
	for _, present := range []string{`dsn = env("PROD_DSN")`, "max-thread-count = 12", "leader-schedule-limit = 8",
		`region-split-size = "128MiB"`, `region-max-size   = "384MiB"`, "region-max-keys   = 3840000 # default (v8.5.1)"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(present), " ")) {
			t.Errorf("the configuration lacks %s:\n%s", present, out)
		}
	}
	rep := r.Clusters[0]
	if keys := leftOutKeys(rep, "not settings: it is one instance's own"); strings.Join(keys, ",") != "pd.name,tikv.server.advertise-addr" {
		t.Errorf("identity left out: %v", keys)
	}
	if keys := leftOutKeys(rep, "not settings: it is a path"); strings.Join(keys, ",") != "pd.data-dir,tikv.raft-engine.dir,tikv.storage.data-dir" {
		t.Errorf("paths left out: %v", keys)
	}
	if keys := leftOutKeys(rep, WhyPDMembers); strings.Join(keys, ",") != "pd.lease" {
		t.Errorf("PD members that differ: %v", keys)
	}
	for _, g := range rep.LeftOut {
		if strings.HasPrefix(g.Why, "values tiform cannot declare") {
			t.Errorf("a value of its kind left out: %v", g.Keys)
		}
	}
	// without the hosts, a computed default is imported and named
	l.Machines = nil
	r, err = Generate([]Cluster{{Name: "prod", Live: l}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, g := range r.Clusters[0].Imported {
		named = append(named, g.Keys...)
	}
	if !strings.Contains(strings.Join(named, ","), "tikv.rocksdb.max-background-jobs") {
		t.Errorf("without the hosts, the imported computed values must be named: %+v", r.Clusters[0].Imported)
	}
}

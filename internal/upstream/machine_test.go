package upstream

import (
	"testing"

	"github.com/tiform/tiform/version"
)

// TestBackgroundJobLimits replays tikv/tikv@v8.5.1:src/config/mod.rs
// test_background_job_limits for the raft-kv engine: (cpus, db) → jobs,
// flushes, sub-compactions.
func TestBackgroundJobLimits(t *testing.T) {
	for _, c := range []struct {
		cpu                       float64
		db                        string
		jobs, flushes, subCompact string
	}{
		{1, "rocksdb", "2", "1", "1"}, {1, "raftdb", "2", "1", "1"},
		{2, "rocksdb", "2", "1", "1"}, {2, "raftdb", "2", "1", "1"},
		{4, "rocksdb", "3", "1", "1"}, {4, "raftdb", "3", "1", "1"},
		{8, "rocksdb", "7", "2", "3"}, {8, "raftdb", "4", "1", "2"}, // RAFTDB_DEFAULT_BACKGROUND_JOB_LIMITS
		{16, "rocksdb", "9", "3", "3"}, {16, "raftdb", "4", "1", "2"}, // the defaults themselves
	} {
		m := Machine{CPU: c.cpu, Memory: 64 << 30}
		for key, want := range map[string]string{"max-background-jobs": c.jobs, "max-background-flushes": c.flushes, "max-sub-compactions": c.subCompact} {
			r := ruleNamed(t, c.db+"."+key)
			if got, _ := r.Compute(m, nil); got != want {
				t.Errorf("%s.%s on %v CPUs = %s, want %s", c.db, key, c.cpu, got, want)
			}
		}
	}
}

// TestMachineRules checks the rules on one machine against the arithmetic
// of their sources, and where they apply: only where the table states no
// literal default (or the placeholder optimize_for replaces).
func TestMachineRules(t *testing.T) {
	tbl := MustLoad()
	m := Machine{CPU: 8, Memory: 64 << 30}
	v := version.MustParse("v8.5.1")
	for key, want := range map[string]string{
		"storage.block-cache.capacity":                 "30923764531B", // 64GiB × 0.45
		"memory-usage-limit":                           "51539607551B", // ÷ 0.45 × 0.75 in f64, truncated: not 48GiB
		"readpool.unified.max-thread-count":            "6",
		"readpool.storage.normal-concurrency":          "4",
		"readpool.coprocessor.normal-concurrency":      "6",
		"storage.scheduler-worker-pool-size":           "4",
		"server.end-point-max-concurrency":             "8",
		"server.background-thread-count":               "2",
		"server.end-point-memory-quota":                "8GiB",
		"backup.num-threads":                           "4",
		"backup.auto-tune-remain-threads":              "2",
		"log-backup.num-threads":                       "4",
		"log-backup.initial-scan-pending-memory-quota": "512MiB",
		"rocksdb.max-background-jobs":                  "7",
		"raftdb.max-background-jobs":                   "4",
	} {
		r := tbl.MachineRuleFor(TiKV, key, v)
		if r == nil {
			t.Errorf("%s: no machine rule at %s", key, v.Short())
			continue
		}
		if got, why := r.Compute(m, nil); got != want {
			t.Errorf("%s on %+v = %q (%s), want %q", key, m, got, why, want)
		}
	}
	// a hand-set block cache is what the memory usage limit follows
	r := tbl.MachineRuleFor(TiKV, "memory-usage-limit", v)
	live := func(k string) (string, bool) {
		return map[string]string{"storage.block-cache.capacity": "12GiB"}[k], k == "storage.block-cache.capacity"
	}
	if got, _ := r.Compute(m, live); got != "20GiB" {
		t.Errorf("memory-usage-limit with a 12GiB block cache = %s, want 20GiB", got)
	}
	// grpc-concurrency was the literal 5 before v8.5.4, computed from it
	if r := tbl.MachineRuleFor(TiKV, "server.grpc-concurrency", version.MustParse("v8.5.3")); r != nil {
		t.Errorf("server.grpc-concurrency is the literal 5 on v8.5.3, not computed")
	}
	if r := tbl.MachineRuleFor(TiKV, "server.grpc-concurrency", version.MustParse("v8.5.4")); r == nil {
		t.Errorf("server.grpc-concurrency is computed from v8.5.4")
	} else if got, _ := r.Compute(Machine{CPU: 32, Memory: 1 << 36}, nil); got != "14" {
		t.Errorf("grpc-concurrency on 32 CPUs = %s, want 4×3+2 = 14", got)
	}
	// defaults derived from the Region split size, whatever the machine
	split := func(k string) (string, bool) {
		return map[string]string{"coprocessor.region-split-size": "96MiB", "coprocessor.region-max-size": "144MiB"}[k], k != "coprocessor.enable-region-bucket"
	}
	for key, want := range map[string]string{"raftstore.region-split-check-diff": "6MiB", "raftstore.raft-log-gc-size-limit": "72MiB",
		"raftstore.raft-log-gc-count-limit": "73728"} {
		if got, why := tbl.MachineRuleFor(TiKV, key, v).Compute(Machine{}, split); got != want {
			t.Errorf("%s from a 96MiB split size = %q (%s), want %q", key, got, why, want)
		}
	}
	bucket := func(k string) (string, bool) {
		return map[string]string{"coprocessor.enable-region-bucket": "true", "coprocessor.region-split-size": "96MiB"}[k], true
	}
	if got, why := tbl.MachineRuleFor(TiKV, "raftstore.region-split-check-diff", v).Compute(m, bucket); got != "" || why == "" {
		t.Errorf("with Region buckets the split check diff is also bounded by the bucket size: not computed, got %q", got)
	}
	// cannot compute: the engine shrinks the block cache; no machine known
	ime := func(k string) (string, bool) { return "true", k == "in-memory-engine.enable" }
	if got, why := tbl.MachineRuleFor(TiKV, "storage.block-cache.capacity", v).Compute(m, ime); got != "" || why == "" {
		t.Errorf("with the in-memory engine on, the block cache cannot be computed: got %q", got)
	}
	if got, why := tbl.MachineRuleFor(TiKV, "backup.num-threads", v).Compute(Machine{}, nil); got != "" || why == "" {
		t.Errorf("without a machine nothing is computed: got %q", got)
	}
	// PD computes nothing from the machine; a literal default is no rule
	if tbl.MachineRuleFor(PD, "schedule.max-merge-region-size", v) != nil || tbl.MachineRuleFor(TiKV, "coprocessor.region-split-size", v) != nil {
		t.Errorf("rules only for machine-computed TiKV keys")
	}
}

func ruleNamed(t *testing.T, key string) *MachineRule {
	for i := range machineRules {
		if machineRules[i].Key == key {
			return &machineRules[i]
		}
	}
	t.Fatalf("no rule for %s", key)
	return nil
}

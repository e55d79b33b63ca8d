package upstream

import (
	"math"
	"strconv"
	"strings"

	"github.com/tiform/tiform/version"
)

// Machine is what TiKV's computed defaults depend on: the CPU quota and the
// memory limit of its host (tikv/tikv components/tikv_util/src/sys/mod.rs
// SysQuota::cpu_cores_quota, SysQuota::memory_limit_in_bytes, which honour a
// cgroup's limits). TiKV reports exactly these in
// INFORMATION_SCHEMA.CLUSTER_HARDWARE: DEVICE_TYPE cpu, NAME
// cpu-logical-cores = cpu_cores_quota(); DEVICE_TYPE memory, NAME capacity
// = memory_limit_in_bytes() (tikv/tikv@v8.5.1:src/server/service/diagnostics/sys.rs
// cpu_hardware_info, mem_hardware_info).
type Machine struct {
	CPU    float64 // cores, possibly fractional under a cgroup quota
	Memory uint64  // bytes
}

// A MachineRule is how TiKV computes one key's default from its machine,
// transcribed from the source it cites.
type MachineRule struct {
	Key string
	// Formula is the computation in words, for comments and messages.
	Formula string
	// Source is the upstream code, at the tag it was read at.
	Source string
	// placeholder is the literal default a later step replaces when it is
	// still the value ("0" for the RocksDB background jobs,
	// DbConfig::optimize_for); "" when the rule applies only where the
	// table states no literal default.
	placeholder string
	value       func(m Machine, live Lookup) string
	// unknown says why the default cannot be computed from what the
	// instance prints ("" when it can).
	unknown func(live Lookup) string
	// fromKeys: computed from other keys the instance prints, not from its
	// machine (the machine need not be known).
	fromKeys bool
}

// Lookup returns the value an instance prints for another key (what a
// computed default depends on besides the machine).
type Lookup func(key string) (string, bool)

const (
	kib = 1 << 10
	mib = 1 << 20
)

// machineRules are TiKV's machine-computed defaults. Each applies in a
// version where the generated table states no literal default for the key
// (the source computes it), or states only the placeholder a later step
// replaces; elsewhere the table's literal default holds.
var machineRules = []MachineRule{
	{Key: "storage.block-cache.capacity", Formula: "45% of the memory limit (BLOCK_CACHE_RATE)",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (TikvConfig::validate, BLOCK_CACHE_RATE = 0.45)",
		value: func(m Machine, _ Lookup) string {
			return TiKVSize(blockCache(m))
		},
		unknown: imeShrinks},
	{Key: "memory-usage-limit", Formula: "the block cache ÷ 0.45 × 0.75 (MEMORY_USAGE_LIMIT_RATE), at most the memory limit",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (TikvConfig::validate, MEMORY_USAGE_LIMIT_RATE = 0.75)",
		value: func(m Machine, live Lookup) string {
			// from the block cache as configured (or computed) before the
			// in-memory engine takes its share
			bc := blockCache(m)
			if v, ok := live("storage.block-cache.capacity"); ok {
				if b, ok := parseTiKVSize(v); ok {
					bc = b
				}
			}
			limit := uint64(float64(bc) / 0.45 * 0.75)
			return TiKVSize(min(limit, m.Memory))
		},
		unknown: imeShrinks},
	{Key: "readpool.unified.max-thread-count", Formula: "80% of the CPUs, at least 4",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (UnifiedReadPoolConfig::default, UNIFIED_READPOOL_MIN_CONCURRENCY = 4)",
		value:  func(m Machine, _ Lookup) string { return itoa(max(4, int(m.CPU*0.8))) }},
	{Key: "readpool.storage.high-concurrency", Formula: storageReadPool, Source: storageReadPoolSrc, value: storageConcurrency},
	{Key: "readpool.storage.normal-concurrency", Formula: storageReadPool, Source: storageReadPoolSrc, value: storageConcurrency},
	{Key: "readpool.storage.low-concurrency", Formula: storageReadPool, Source: storageReadPoolSrc, value: storageConcurrency},
	{Key: "readpool.coprocessor.high-concurrency", Formula: coprReadPool, Source: coprReadPoolSrc, value: coprConcurrency},
	{Key: "readpool.coprocessor.normal-concurrency", Formula: coprReadPool, Source: coprReadPoolSrc, value: coprConcurrency},
	{Key: "readpool.coprocessor.low-concurrency", Formula: coprReadPool, Source: coprReadPoolSrc, value: coprConcurrency},
	{Key: "storage.scheduler-worker-pool-size", Formula: "8 with 16 CPUs or more, else the CPUs between 1 and 4",
		Source: "tikv/tikv@v8.5.1:src/storage/config.rs (Config::default)",
		value: func(m Machine, _ Lookup) string {
			if m.CPU >= 16 {
				return "8"
			}
			return itoa(int(math.Min(math.Max(m.CPU, 1), 4)))
		}},
	{Key: "server.end-point-max-concurrency", Formula: "the CPUs, at least 4 (MIN_ENDPOINT_MAX_CONCURRENCY)",
		Source: "tikv/tikv@v8.5.1:src/server/config.rs (Config::default)",
		value:  func(m Machine, _ Lookup) string { return itoa(max(int(m.CPU), 4)) }},
	{Key: "server.background-thread-count", Formula: "3 with more than 16 CPUs, else 2",
		Source: "tikv/tikv@v8.5.1:src/server/config.rs (Config::default)",
		value: func(m Machine, _ Lookup) string {
			if m.CPU > 16 {
				return "3"
			}
			return "2"
		}},
	{Key: "server.end-point-memory-quota", Formula: "12.5% of the memory limit, at least 500MiB (DEFAULT_ENDPOINT_MEMORY_QUOTA)",
		Source: "tikv/tikv@v8.5.1:src/server/config.rs (DEFAULT_ENDPOINT_MEMORY_QUOTA_RATIO = 0.125)",
		value: func(m Machine, _ Lookup) string {
			return TiKVSize(max(500*mib, uint64(float64(m.Memory)*0.125)))
		}},
	{Key: "server.grpc-raft-conn-num", Formula: "the CPUs ÷ 8, between 1 and 4",
		Source: "tikv/tikv@v8.5.4:src/server/config.rs (DEFAULT_GRPC_RAFT_CONN_NUM, calculate_cpu_quota_base_num)",
		value:  func(m Machine, _ Lookup) string { return itoa(grpcRaftConns(m)) }},
	{Key: "server.grpc-concurrency", Formula: "3 × grpc-raft-conn-num + 2",
		Source: "tikv/tikv@v8.5.4:src/server/config.rs (calculate_grpc_concurrency)",
		value:  func(m Machine, _ Lookup) string { return itoa(grpcRaftConns(m)*3 + 2) }},
	{Key: "backup.num-threads", Formula: "half the CPUs, between 1 and 8",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (BackupConfig::default)",
		value:  func(m Machine, _ Lookup) string { return itoa(int(math.Min(math.Max(m.CPU*0.5, 1), 8))) }},
	{Key: "backup.auto-tune-remain-threads", Formula: "20% of the CPUs, rounded",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (BackupConfig::default)",
		value:  func(m Machine, _ Lookup) string { return itoa(int(math.Round(m.CPU * 0.2))) }},
	{Key: "log-backup.num-threads", Formula: "half the CPUs, between 2 and 12",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (BackupStreamConfig::default)",
		value:  func(m Machine, _ Lookup) string { return itoa(int(math.Min(math.Max(m.CPU*0.5, 2), 12))) }},
	{Key: "log-backup.initial-scan-pending-memory-quota", Formula: "10% of the memory limit, at most 512MiB",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (BackupStreamConfig::default)",
		value: func(m Machine, _ Lookup) string {
			return TiKVSize(uint64(math.Min(float64(m.Memory)*0.1, 512*mib)))
		}},
	splitRule("raftstore.region-split-check-diff", "1/16 of coprocessor.region-split-size",
		"tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs (Config::validate)",
		func(split uint64) string { return TiKVSize(split / 16) }),
	splitRule("raftstore.raft-log-gc-size-limit", "3/4 of coprocessor.region-split-size",
		"tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs (Config::validate)",
		func(split uint64) string { return TiKVSize(split * 3 / 4) }),
	splitRule("raftstore.raft-log-gc-count-limit", "3/4 of coprocessor.region-split-size in KiB (an entry taken as 1KiB)",
		"tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs (Config::validate)",
		func(split uint64) string { return strconv.FormatUint(split*3/4/kib, 10) }),
	bgJobs("rocksdb", "max-background-jobs", kvdbJobs),
	bgJobs("rocksdb", "max-background-flushes", kvdbJobs),
	bgJobs("rocksdb", "max-sub-compactions", kvdbJobs),
	bgJobs("raftdb", "max-background-jobs", raftdbJobs),
	bgJobs("raftdb", "max-background-flushes", raftdbJobs),
	bgJobs("raftdb", "max-sub-compactions", raftdbJobs),
}

const (
	storageReadPool    = "half the CPUs, between 4 and 8"
	storageReadPoolSrc = "tikv/tikv@v8.5.1:src/config/mod.rs (StorageReadPoolConfig::default)"
	coprReadPool       = "80% of the CPUs, at least 2"
	coprReadPoolSrc    = "tikv/tikv@v8.5.1:src/config/mod.rs (CoprReadPoolConfig::default)"
)

func storageConcurrency(m Machine, _ Lookup) string {
	return itoa(min(8, max(4, int(m.CPU*0.5))))
}

func coprConcurrency(m Machine, _ Lookup) string { return itoa(max(2, int(m.CPU*0.8))) }

func grpcRaftConns(m Machine) int { return min(max(int(math.Floor(m.CPU/8)), 1), 4) }

// blockCache is (total_mem as f64 * BLOCK_CACHE_RATE) as u64.
func blockCache(m Machine) uint64 { return uint64(float64(m.Memory) * 0.45) }

// jobLimits are a DB's BackgroundJobLimits defaults.
type jobLimits struct{ jobs, flushes, subCompactions uint32 }

var (
	kvdbJobs   = jobLimits{9, 3, 3} // KVDB_DEFAULT_BACKGROUND_JOB_LIMITS
	raftdbJobs = jobLimits{4, 1, 2} // RAFTDB_DEFAULT_BACKGROUND_JOB_LIMITS
)

// bgJobs is get_background_job_limits_impl for the raft-kv engine
// (tikv/tikv@v8.5.1:src/config/mod.rs): jobs = max(2, min(default, cpus −
// 1)); flushes = min((jobs + 3) / 4, default); compactions = jobs −
// flushes; sub-compactions = (compactions − 1) clamped to [1, default];
// jobs = flushes + compactions. cpus = max(cpu_cores_quota as u32, 1).
func bgJobs(db, key string, d jobLimits) MachineRule {
	r := MachineRule{Key: db + "." + key, Formula: "RocksDB background job limits from the CPUs (get_background_job_limits)",
		Source: "tikv/tikv@v8.5.1:src/config/mod.rs (get_background_job_limits_impl)"}
	if db == "rocksdb" {
		// DbConfig::default states 0 from v7.5.0, and optimize_for replaces it
		r.placeholder = "0"
	}
	r.value = func(m Machine, _ Lookup) string {
		cpus := max(uint32(m.CPU), 1)
		jobs := max(2, min(d.jobs, cpus-1))
		flushes := min((jobs+3)/4, d.flushes)
		compactions := jobs - flushes // at least 1: flushes < jobs
		sub := min(max(compactions-1, 1), d.subCompactions)
		switch key {
		case "max-background-jobs":
			return itoa(int(flushes + compactions))
		case "max-background-flushes":
			return itoa(int(flushes))
		}
		return itoa(int(sub))
	}
	return r
}

func itoa(n int) string { return strconv.Itoa(n) }

// splitRule is a default Config::validate derives from the Region split
// size when the config file leaves it unset (without Region buckets).
func splitRule(key, formula, source string, f func(split uint64) string) MachineRule {
	split := func(live Lookup) (uint64, bool) {
		v, ok := live("coprocessor.region-split-size")
		if !ok {
			return 0, false
		}
		return parseTiKVSize(v)
	}
	return MachineRule{Key: key, Formula: formula, Source: source, fromKeys: true,
		value: func(_ Machine, live Lookup) string {
			s, _ := split(live)
			return f(s)
		},
		unknown: func(live Lookup) string {
			if b, ok := live("coprocessor.enable-region-bucket"); ok && b == "true" {
				return "Region buckets are enabled, which bound it by the bucket size too"
			}
			if _, ok := split(live); !ok {
				return "coprocessor.region-split-size is not printed"
			}
			return ""
		}}
}

// imeShrinks: with the in-memory engine enabled and its capacity computed,
// TiKV takes half that capacity off the block cache it prints
// (tikv/tikv@v8.5.1:components/in_memory_engine/src/config.rs
// InMemoryEngineConfig::validate), and what it started from is no longer
// printed.
func imeShrinks(live Lookup) string {
	if v, ok := live("in-memory-engine.enable"); ok && v == "true" {
		return "the in-memory engine is enabled: TiKV takes half its capacity off the block cache it computed, so the computed value is not printed"
	}
	return ""
}

// parseTiKVSize reads a ReadableSize as TiKV prints it ("30GiB",
// "30923764531B", "0KiB").
func parseTiKVSize(s string) (uint64, bool) {
	for _, u := range []struct {
		suf string
		n   uint64
	}{{"PiB", 1 << 50}, {"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if num, ok := strings.CutSuffix(s, u.suf); ok {
			n, err := strconv.ParseUint(num, 10, 64)
			return n * u.n, err == nil
		}
	}
	return 0, false
}

// MachineRuleFor returns the rule that computes key's default at version
// v, or nil when its default there is the table's literal one or not
// computed from the machine.
func (t *Table) MachineRuleFor(component, key string, v version.Version) *MachineRule {
	if component != TiKV {
		return nil
	}
	s, ok := t.Setting(component, key)
	if !ok {
		return nil
	}
	sp := t.In(s, v)
	if sp == nil {
		return nil
	}
	for i := range machineRules {
		r := &machineRules[i]
		if r.Key != s.Key {
			continue
		}
		if sp.Default != nil && (r.placeholder == "" || *sp.Default != r.placeholder) {
			return nil // a literal default holds in this version
		}
		return r
	}
	return nil
}

// Compute is the value the rule gives on m, as TiKV prints it; live is the
// instance's other values. It returns "" and why when it cannot be computed
// from them.
func (r *MachineRule) Compute(m Machine, live Lookup) (value, unknown string) {
	if live == nil {
		live = func(string) (string, bool) { return "", false }
	}
	if r.unknown != nil {
		if why := r.unknown(live); why != "" {
			return "", why
		}
	}
	if !r.fromKeys && (m.CPU <= 0 || m.Memory == 0) {
		return "", "the machine it runs on is not known (INFORMATION_SCHEMA.CLUSTER_HARDWARE gave no cpu-logical-cores and memory capacity for it)"
	}
	return r.value(m, live), ""
}

// IsMachineKey reports whether a machine rule covers key (TiKV computes its
// default from the host).
func IsMachineKey(key string) bool {
	for _, r := range machineRules {
		if r.Key == key {
			return true
		}
	}
	return false
}

// MachineKeys lists the keys a machine rule covers.
func MachineKeys() []string {
	out := make([]string, len(machineRules))
	for i, r := range machineRules {
		out[i] = r.Key
	}
	return out
}

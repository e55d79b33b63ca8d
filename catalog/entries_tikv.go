package catalog

// TiKV config items (SET CONFIG tikv). Sources: tidb-facts.md §2.4 (online
// lists), §3 (region size), §4 (resource control), §6 (in-memory engine),
// §8 (version changes, restart-only items). Defaults are given only where
// tidb-facts.md states them, in the form SHOW CONFIG prints.

func init() {
	register(tikvRegionSize()...)
	register(tikvRaftstore()...)
	register(tikvCoprocessorOther()...)
	register(tikvSplit()...)
	register(tikvStorage()...)
	register(tikvResourceControl()...)
	register(tikvInMemoryEngine()...)
	register(tikvOther()...)
}

const (
	regionSizeRel = "tikv:coprocessor.region-split-size"
	regionMaxRel  = "tikv:coprocessor.region-max-size"
	splitKeysRel  = "tikv:coprocessor.region-split-keys"
	maxKeysRel    = "tikv:coprocessor.region-max-keys"
	mergeSizeRel  = "pd:schedule.max-merge-region-size"
	mergeKeysRel  = "pd:schedule.max-merge-region-keys"
)

// tikvRegionSize is the "region-size" family: since v8.5.3 unset members are
// inherited from last_tikv.toml, so they are managed as a set (§3.3).
func tikvRegionSize() []*Entry {
	fam := family("region-size")
	note := " Part of the region-size family: set all four explicitly (§3.3: since v8.5.3 unset ones are inherited from last_tikv.toml; v8.4.0–v8.5.2 silently switched unset ones to the new defaults on upgrade, tikv#18503)."
	return []*Entry{
		cfg("tikv", KeyRegionSplitSize, KindSize, "§3.1",
			"Size at which a Region is split. Recommended [48MiB, 256MiB], never above 1GiB with TiFlash or Dumpling (§3.1)."+note,
			def("", "96MiB"), def("v8.4.0", "256MiB"), fam,
			advise(48*mib, 256*mib, "docs recommend 48MiB–256MiB (common: 96, 128, 256MiB); never above 1GiB with TiFlash or Dumpling, strongly avoid more than 10GiB (§3.1)"),
			related(regionMaxRel, splitKeysRel, maxKeysRel, mergeSizeRel, mergeKeysRel, "tikv:raftstore.region-split-check-diff")),
		cfg("tikv", KeyRegionMaxSize, KindSize, "§3.1",
			"Largest size a Region may reach before it must split; default region-split-size / 2 * 3; must be >= region-split-size (TiKV validates the whole config on every change, §2.3)."+note,
			def("", "144MiB"), def("v8.4.0", "384MiB"), fam,
			related(regionSizeRel, splitKeysRel, maxKeysRel)),
		cfg("tikv", KeyRegionSplitKeys, KindInt, "§3.1",
			"Number of keys at which a Region is split; default split size in MiB × 10000."+note,
			def("", "960000"), def("v8.4.0", "2560000"), fam,
			related(regionSizeRel, regionMaxRel, maxKeysRel, mergeKeysRel)),
		cfg("tikv", KeyRegionMaxKeys, KindInt, "§3.1",
			"Largest number of keys a Region may hold; default region-split-keys / 2 * 3."+note,
			def("", "1440000"), def("v8.4.0", "3840000"), fam,
			related(regionSizeRel, regionMaxRel, splitKeysRel)),
	}
}

func tikvRaftstore() []*Entry {
	const src = "§2.4"
	derived := " Derived from region-split-size once at start when unset; an online change of region-split-size does not re-derive it (§8.3)."
	d := func(key, doc string, opts ...opt) *Entry {
		return cfg("tikv", "raftstore."+key, KindDuration, src, doc, opts...)
	}
	i := func(key, doc string, opts ...opt) *Entry {
		return cfg("tikv", "raftstore."+key, KindInt, src, doc, opts...)
	}
	s := func(key, doc string, opts ...opt) *Entry {
		return cfg("tikv", "raftstore."+key, KindSize, src, doc, opts...)
	}
	return []*Entry{
		i("raft-max-inflight-msgs", "Maximum number of in-flight Raft messages per peer."),
		d("raft-log-gc-tick-interval", "Interval of the Raft log GC check."),
		i("raft-log-gc-threshold", "Soft limit of residual Raft logs before GC."),
		cfg("tikv", "raftstore.raft-log-gc-count-limit", KindInt, "§3.1, §2.4",
			"Hard limit of residual Raft log entries; default region-split-size × 3/4 / 1KiB."+derived,
			def("", "73728"), def("v8.4.0", "196608"), related(regionSizeRel)),
		cfg("tikv", "raftstore.raft-log-gc-size-limit", KindSize, "§3.1, §2.4",
			"Hard limit of residual Raft log size; default region-split-size × 3/4."+derived,
			def("", "72MiB"), def("v8.4.0", "192MiB"), related(regionSizeRel)),
		s("raft-max-size-per-msg", "Maximum size of one Raft message."),
		s("raft-entry-max-size", "Maximum size of one Raft log entry."),
		d("raft-entry-cache-life-time", "Longest time a Raft entry stays in the entry cache."),
		i("max-apply-unpersisted-log-limit", "Maximum number of committed but not persisted Raft logs that may be applied (not in the v7.5 online list, §2.4)."),
		d("split-region-check-tick-interval", "Interval of the Region split check."),
		cfg("tikv", "raftstore.region-split-check-diff", KindSize, "§3.1, §2.4",
			"Data growth that triggers a split check; default 1/16 of region-split-size."+derived,
			def("", "6MiB"), def("v8.4.0", "16MiB"), related(regionSizeRel)),
		d("pd-heartbeat-tick-interval", "Interval of Region heartbeats to PD."),
		d("pd-store-heartbeat-tick-interval", "Interval of store heartbeats to PD."),
		d("snap-mgr-gc-tick-interval", "Interval of snapshot garbage collection checks."),
		d("snap-gc-timeout", "Longest time a snapshot file is kept."),
		d("lock-cf-compact-interval", "Interval of manual compaction of the lock column family."),
		s("lock-cf-compact-bytes-threshold", "Size that triggers manual compaction of the lock column family."),
		i("messages-per-tick", "Maximum number of messages processed per batch."),
		d("max-peer-down-duration", "Longest time a peer may be inactive before it is marked down."),
		d("max-leader-missing-duration", "Longest time a peer may lack a leader before it checks whether it is stale."),
		d("abnormal-leader-missing-duration", "Time without a leader after which a peer is reported abnormal."),
		d("peer-stale-state-check-interval", "Interval of the check whether a peer lacks a leader."),
		d("consistency-check-interval", "Interval of the consistency check; docs: not recommended, incompatible with TiDB GC (§2.4)."),
		d("raft-store-max-leader-lease", "Longest leader lease."),
		d("merge-check-tick-interval", "Interval of the Region merge check."),
		d("cleanup-import-sst-interval", "Interval of the cleanup of expired imported SST files."),
		i("local-read-batch-size", "Maximum number of read requests per batch."),
		s("apply-yield-write-size", "Data an apply thread writes for one FSM before it yields."),
		d("hibernate-timeout", "Shortest wait before a leader hibernates."),
		i("apply-pool-size", "Number of apply threads."),
		i("store-pool-size", "Number of raftstore threads."),
		i("apply-max-batch-size", "Maximum number of requests per apply batch."),
		i("store-max-batch-size", "Maximum number of requests per raftstore batch."),
		i("store-io-pool-size", "Number of Raft I/O threads. Never change it from 0 to non-0 or from non-0 to 0 online (§2.4)."),
		cfg("tikv", "raftstore.periodic-full-compact-start-max-cpu", KindFloat, src,
			"CPU usage below which periodic full compaction may start (not in the v7.5 online list, §2.4)."),
	}
}

func tikvCoprocessorOther() []*Entry {
	return []*Entry{
		cfg("tikv", "coprocessor.split-region-on-table", KindBool, "§3.1, §2.4", "Split Regions at table boundaries.",
			def("", "false")),
		cfg("tikv", "coprocessor.batch-split-limit", KindInt, "§3.1, §2.4", "Maximum number of Regions split in one batch.",
			def("", "10"), atLeast(1)),
		cfg("tikv", "coprocessor.enable-region-bucket", KindBool, "§2.4, §3.1",
			"Divide Regions into buckets (experimental; considered for large Regions, §3.1).", experimental(),
			related("tikv:coprocessor.region-bucket-size")),
		cfg("tikv", "coprocessor.region-bucket-size", KindSize, "§2.4, §3.1", "Bucket size when enable-region-bucket is on.",
			related("tikv:coprocessor.enable-region-bucket")),
		cfg("tikv", "coprocessor.region-size-threshold-for-approximate", KindSize, "§2.4",
			"Region size above which bucket ranges are approximated (online in code)."),
		cfg("tikv", "coprocessor.region-bucket-merge-size-ratio", KindFloat, "§2.4",
			"Ratio of region-bucket-size below which small buckets are merged (online in code)."),
		cfg("tikv", "coprocessor.consistency-check-method", KindString, "§2.4, §8.2",
			"Method of the Region consistency check.", restart(restartTiKV)),
		cfg("tikv", "coprocessor.perf-level", KindInt, "§2.4", "Coprocessor performance statistics level.", restart(restartTiKV)),
		cfg("tikv", "coprocessor.prefer-approximate-bucket", KindBool, "§2.4", "Prefer approximate bucket ranges.", restart(restartTiKV)),
	}
}

// tikvSplit: load-base-split. Unset thresholds are derived from the Region
// size at start: Regions >= 4 GiB use the "big region" defaults (§2.4, §8.3).
func tikvSplit() []*Entry {
	big := " The default applies to Regions < 4GiB; with region-split-size >= 4GiB the unset default is %s (§2.4, §8.3)."
	return []*Entry{
		cfg("tikv", "split.qps-threshold", KindInt, "§2.4", "QPS of a Region above which load-base-split splits it."+sprintf(big, "7000"),
			def("", "3000")),
		cfg("tikv", "split.byte-threshold", KindSize, "§2.4",
			"Read bytes per second of a Region above which load-base-split splits it. Sent as a plain number of bytes, which TiKV parses whether the field is an integer or a size (§2.2)."+sprintf(big, "100MiB"),
			unit("B"), def("", "31457280")),
		cfg("tikv", "split.region-cpu-overload-threshold-ratio", KindFloat, "§2.4",
			"Share of unified read pool CPU a Region may use before load-base-split splits it."+sprintf(big, "0.75"),
			introduced("v6.2.0"), def("", "0.25")),
		cfg("tikv", "split.split-balance-score", KindFloat, "§2.4", "Balance score for choosing a load-base-split key.", def("", "0.8")),
		cfg("tikv", "split.split-contained-score", KindFloat, "§2.4", "Contained score for choosing a load-base-split key.", def("", "0.5")),
		cfg("tikv", "split.detect-times", KindInt, "§2.4", "Number of detections before a load-base split (online in code)."),
		cfg("tikv", "split.sample-num", KindInt, "§2.4", "Number of requests sampled per detection (online in code)."),
		cfg("tikv", "split.sample-threshold", KindInt, "§2.4", "Minimum sampled request count for a split key (online in code)."),
	}
}

func tikvStorage() []*Entry {
	return []*Entry{
		cfg("tikv", "storage.block-cache.capacity", KindSize, "§2.4", "Shared block cache size (online since v4.0.3).",
			onlineSince("v4.0.3"), func(e *Entry) { e.RestartNote = "before v4.0.3: " + restartTiKV }),
		cfg("tikv", "storage.flow-control.enable", KindBool, "§2.4", "Enable write flow control (the release-8.1 docs table omits the flow-control rows, §2.4)."),
		cfg("tikv", "storage.flow-control.memtables-threshold", KindInt, "§2.4", "Number of memtables that triggers flow control."),
		cfg("tikv", "storage.flow-control.l0-files-threshold", KindInt, "§2.4", "Number of L0 files that triggers flow control."),
		cfg("tikv", "storage.flow-control.soft-pending-compaction-bytes-limit", KindSize, "§2.4", "Pending compaction bytes at which flow control starts rejecting some writes."),
		cfg("tikv", "storage.flow-control.hard-pending-compaction-bytes-limit", KindSize, "§2.4", "Pending compaction bytes at which flow control rejects all writes."),
		cfg("tikv", "storage.scheduler-worker-pool-size", KindInt, "§2.4", "Number of scheduler worker threads."),
		cfg("tikv", "import.num-threads", KindInt, "§2.4", "Number of import threads (online since v8.1.2; restart-only before).",
			onlineSince("v8.1.2"), func(e *Entry) { e.RestartNote = "before v8.1.2: " + restartTiKV }),
		cfg("tikv", "backup.num-threads", KindInt, "§2.4", "Number of backup threads."),
		cfg("tikv", "backup.sst-max-size", KindSize, "§3.1",
			"Largest SST file a BR backup writes; its default followed the Region size change of v8.4.0 (§3.1).",
			def("", "144MiB"), def("v8.4.0", "384MiB"), restart(restartUnlisted), related(regionSizeRel)),
		cfg("tikv", "storage.enable-ttl", KindBool, "§6",
			"TTL for RawKV. Incompatible with the in-memory engine: TiKV refuses to start with both (§6).",
			restart(restartUnlisted), related("tikv:in-memory-engine.enable")),
		cfg("tikv", "readpool.unified.max-thread-count", KindInt, "§2.4", "Maximum number of unified read pool threads."),
		cfg("tikv", "readpool.unified.max-tasks-per-worker", KindInt, "§2.4", "Maximum queued tasks per unified read pool thread (not in the v7.5 online list)."),
		cfg("tikv", "readpool.unified.auto-adjust-pool-size", KindBool, "§2.4", "Adjust the unified read pool size automatically."),
	}
}

func tikvResourceControl() []*Entry {
	new857 := func(key string, kind Kind, doc string) *Entry {
		return cfg("tikv", "resource-control."+key, kind, "§2.4, §8.1", doc+" New in v8.5.7 / v9.0.0; online.",
			introduced("v8.5.7"))
	}
	textKind := " Kind not recorded in tidb-facts.md: compared as text."
	return []*Entry{
		cfg("tikv", "resource-control.enabled", KindBool, "§4.1, §8.2",
			"TiKV side of resource control (scheduling by group priority/RU); effective only with tidb_enable_resource_control=ON. Turning it off is a workaround for tikv#18939 (§4.9).",
			introduced("v6.6.0"), def("", "false"), def("v7.0.0", "true"), restart(restartTiKV),
			related("variable:tidb_enable_resource_control")),
		cfg("tikv", "resource-control.priority-ctl-strategy", KindEnum, "§4.1, §4.9",
			"Priority limiter target: aggressive 0.5, moderate 0.7, conservative 0.9 of resource utilisation (§4.9).",
			introduced("v8.4.0"), enum("aggressive", "moderate", "conservative"), def("v8.4.0", "moderate")),
		cfg("tikv", "resource-control.historical-usage-window-mins", KindInt, "§2.4, §8.2",
			"Window of historical resource usage.", unit("minutes"), restart(restartTiKV)),
		new857("bg-cpu-throttle-threshold", KindString, "Background CPU throttle threshold."+textKind),
		new857("fg-cpu-throttle-threshold", KindString, "Foreground CPU throttle threshold."+textKind),
		new857("bg-compaction-pressure-threshold", KindString, "Background compaction pressure threshold."+textKind),
		new857("bg-write-io-ceiling", KindString, "Background write I/O ceiling."+textKind),
		new857("bg-write-io-floor", KindString, "Background write I/O floor."+textKind),
		new857("enable-fair-scheduling", KindBool, "Fair scheduling between resource groups."),
		new857("enable-read-admission-control", KindBool, "Read admission control."),
		new857("enable-write-admission-control", KindBool, "Write admission control."),
		new857("baseline-burst-pct", KindString, "Baseline burst percentage."+textKind),
		new857("admission-max-delayed-count", KindString, "Maximum number of delayed requests in admission control."+textKind),
	}
}

// tikvInMemoryEngine: the MVCC in-memory engine, new in v8.5.0 (§6).
func tikvInMemoryEngine() []*Entry {
	ime := func(key string, kind Kind, doc string, opts ...opt) *Entry {
		return cfg("tikv", "in-memory-engine."+key, kind, "§6", doc, append([]opt{introduced("v8.5.0")}, opts...)...)
	}
	return []*Entry{
		ime("enable", KindBool,
			"Enable the in-memory engine. Needs TiKV >= 8 GiB memory (32 GiB+ recommended); incompatible with storage.enable-ttl and API v2. Enable only after careful validation (§10.4).",
			def("v8.5.0", "false"), func(e *Entry) {
				e.RestartIfEnabled = true
				e.RestartNote = "false→true is accepted online but the engine is only built at start (§6, §8.2): restart TiKV — " +
					"TiUP `tiup cluster edit-config <cluster>` then `tiup cluster reload <cluster> -R tikv`, or spec.tikv.config of the TidbCluster (TiDB Operator)"
			}),
		ime("capacity", KindSize,
			"Memory for the engine. Default min(10% of system memory, 5GiB); when set manually the block cache is not reduced (OOM risk)."),
		ime("gc-run-interval", KindDuration, "Interval of the engine's MVCC GC.", def("v8.5.0", "3m"), rng(10, 600)),
		ime("mvcc-amplification-threshold", KindInt, "MVCC read amplification ((next+prev)/processed_keys) above which a Region is loaded.",
			def("v8.5.0", "10")),
		ime("evict-threshold", KindSize, "Memory usage at which Regions are evicted; default capacity − min(capacity/10, 200MiB); must be < capacity."),
		ime("stop-load-threshold", KindSize, "Memory usage at which loading stops; must be <= evict-threshold."),
		ime("load-evict-interval", KindDuration, "Interval of load/evict decisions.", def("v8.5.0", "5m"), atLeast(120)),
		ime("cross-check-interval", KindDuration, "Test-only cross check against RocksDB; 0s disables it.",
			def("v8.5.0", "0s"), restart(restartTiKV)),
	}
}

func tikvOther() []*Entry {
	src := "§2.4"
	return []*Entry{
		cfg("tikv", "log.level", KindString, src, "TiKV log level."),
		cfg("tikv", "raft-engine.spill-dir", KindString, "§8.1", "Directory Raft Engine spills to (new in v8.4.0).",
			introduced("v8.4.0"), restart(restartUnlisted)),

		cfg("tikv", "quota.foreground-cpu-time", KindInt, src, "CPU quota of foreground requests."),
		cfg("tikv", "quota.foreground-write-bandwidth", KindSize, src, "Write bandwidth quota of foreground requests."),
		cfg("tikv", "quota.foreground-read-bandwidth", KindSize, src, "Read bandwidth quota of foreground requests."),
		cfg("tikv", "quota.background-cpu-time", KindInt, src, "CPU quota of background requests."),
		cfg("tikv", "quota.background-write-bandwidth", KindSize, src, "Write bandwidth quota of background requests."),
		cfg("tikv", "quota.background-read-bandwidth", KindSize, src, "Read bandwidth quota of background requests."),
		cfg("tikv", "quota.enable-auto-tune", KindBool, src, "Tune background quotas automatically."),
		cfg("tikv", "quota.max-delay-duration", KindDuration, src, "Longest delay a request may get from the quota limiter."),

		cfg("tikv", "pessimistic-txn.wait-for-lock-timeout", KindDuration, src, "Longest wait for a pessimistic lock."),
		cfg("tikv", "pessimistic-txn.wake-up-delay-duration", KindDuration, src, "Delay before waking up lock waiters."),
		cfg("tikv", "pessimistic-txn.pipelined", KindBool, src, "Pipelined pessimistic locking."),
		cfg("tikv", "pessimistic-txn.in-memory", KindBool, src, "In-memory pessimistic locks."),
		cfg("tikv", "pessimistic-txn.in-memory-peer-size-limit", KindSize, src, "Per-Region memory limit of in-memory pessimistic locks."),
		cfg("tikv", "pessimistic-txn.in-memory-instance-size-limit", KindSize, src, "Per-TiKV memory limit of in-memory pessimistic locks."),

		cfg("tikv", "gc.ratio-threshold", KindFloat, "§2.4, §8.3",
			"Garbage ratio that triggers GC of a Region. BR sets -1.0 during restore to pause GC and restores 1.1 (§8.3)."),
		cfg("tikv", "gc.batch-keys", KindInt, src, "Number of keys per GC batch."),
		cfg("tikv", "gc.max-write-bytes-per-sec", KindSize, src, "GC write rate limit (0 = unlimited)."),
		cfg("tikv", "gc.enable-compaction-filter", KindBool, src, "GC in the compaction filter (required by in-memory-engine.cross-check-interval, §6)."),
		cfg("tikv", "gc.compaction-filter-skip-version-check", KindBool, src, "Skip the cluster version check of the compaction filter."),

		cfg("tikv", "server.grpc-memory-pool-quota", KindSize, src, "Memory quota of gRPC."),
		cfg("tikv", "server.max-grpc-send-msg-len", KindInt, src, "Largest gRPC message TiKV sends."),
		cfg("tikv", "server.raft-msg-max-batch-size", KindInt, src, "Largest number of Raft messages per batch."),
		cfg("tikv", "server.simplify-metrics", KindBool, src, "Report fewer metrics."),
		cfg("tikv", "server.snap-io-max-bytes-per-sec", KindSize, src, "Snapshot I/O bandwidth limit."),
		cfg("tikv", "server.concurrent-send-snap-limit", KindInt, src, "Maximum number of snapshots sent at once."),
		cfg("tikv", "server.concurrent-recv-snap-limit", KindInt, src, "Maximum number of snapshots received at once."),
	}
}

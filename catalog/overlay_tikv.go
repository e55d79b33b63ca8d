package catalog

// The TiKV overlay: what the OnlineConfig walk of tikv/tikv does not say
// (families, advice, defaults TiKV computes at start, one line of
// documentation). Kinds, online flags, versions and literal defaults come
// from the generated table.

const (
	regionSizeRel = "tikv:" + KeyRegionSplitSize
	regionMaxRel  = "tikv:" + KeyRegionMaxSize
	splitKeysRel  = "tikv:" + KeyRegionSplitKeys
	maxKeysRel    = "tikv:" + KeyRegionMaxKeys
	mergeSizeRel  = "pd:" + KeyMergeRegionSize
	mergeKeysRel  = "pd:" + KeyMergeRegionKeys
)

// Sources of the Region size facts: the 96 MiB → 256 MiB change of v8.4.0
// (tikv/tikv#17311, release notes), the docs' recommendations, and the
// upgrade problem with unset members (tikv/tikv#18503).
var regionSizeSources = srcs(docRegionSize, docTiKVConfig+"#region-split-size",
	"https://docs.pingcap.com/tidb/stable/release-8.4.0", "https://github.com/tikv/tikv/pull/17311",
	"https://github.com/tikv/tikv/issues/18503")

func tikvOverlays() []overlayEntry {
	var out []overlayEntry
	for _, group := range [][]overlayEntry{tikvRegionSize(), tikvRaftstore(), tikvCoprocessor(), tikvSplit(),
		tikvStorage(), tikvResourceControl(), tikvInMemoryEngine(), tikvOther()} {
		out = append(out, group...)
	}
	return out
}

// tikvRegionSize is the "region-size" family. TiKV derives the unset
// members from region-split-size at start (coprocessor/config.rs validate),
// so upstream states no literal default: the overlay gives the documented
// ones. Since v8.5.3 unset members are inherited from last_tikv.toml;
// v8.4.0–v8.5.2 silently switched unset ones to the new defaults on upgrade
// (tikv/tikv#18503), so they are managed as a set.
func tikvRegionSize() []overlayEntry {
	fam := family("region-size")
	note := " Part of the region-size family: set all four explicitly (since v8.5.3 unset ones are inherited from last_tikv.toml; v8.4.0–v8.5.2 silently switched unset ones to the new defaults on upgrade, tikv/tikv#18503)."
	return []overlayEntry{
		ov("tikv", KeyRegionSplitSize, regionSizeSources,
			"Size at which a Region is split. Recommended [48MiB, 256MiB], never above 1GiB with TiFlash or Dumpling."+note,
			def("", "96MiB"), def("v8.4.0", "256MiB"), fam,
			advise(48*mib, 256*mib, "docs recommend 48MiB–256MiB (common: 96, 128, 256MiB); never above 1GiB with TiFlash or Dumpling, strongly avoid more than 10GiB ("+docRegionSize+")"),
			related(regionMaxRel, splitKeysRel, maxKeysRel, mergeSizeRel, mergeKeysRel, "tikv:raftstore.region-split-check-diff")),
		ov("tikv", KeyRegionMaxSize, regionSizeSources,
			"Largest size a Region may reach before it must split; default region-split-size / 2 * 3; must be >= region-split-size (TiKV validates the whole config on every change)."+note,
			def("", "144MiB"), def("v8.4.0", "384MiB"), fam, related(regionSizeRel, splitKeysRel, maxKeysRel)),
		ov("tikv", KeyRegionSplitKeys, regionSizeSources,
			"Number of keys at which a Region is split; default split size in MiB × 10000."+note,
			def("", "960000"), def("v8.4.0", "2560000"), fam, related(regionSizeRel, regionMaxRel, maxKeysRel, mergeKeysRel)),
		ov("tikv", KeyRegionMaxKeys, regionSizeSources,
			"Largest number of keys a Region may hold; default region-split-keys / 2 * 3."+note,
			def("", "1440000"), def("v8.4.0", "3840000"), fam, related(regionSizeRel, regionMaxRel, splitKeysRel)),
	}
}

func tikvRaftstore() []overlayEntry {
	src := srcs(docTiKVConfig + "#raftstore")
	derived := " Derived from region-split-size once at start when unset; an online change of region-split-size does not re-derive it (components/raftstore/src/store/config.rs validate)."
	r := func(key, doc string, opts ...opt) overlayEntry {
		return ov("tikv", "raftstore."+key, src, doc, opts...)
	}
	return []overlayEntry{
		r("raft-max-inflight-msgs", "Maximum number of in-flight Raft messages per peer."),
		r("raft-log-gc-tick-interval", "Interval of the Raft log GC check."),
		r("raft-log-gc-threshold", "Soft limit of residual Raft logs before GC."),
		ov("tikv", "raftstore.raft-log-gc-count-limit", regionSizeSources,
			"Hard limit of residual Raft log entries; default region-split-size × 3/4 / 1KiB."+derived,
			def("", "73728"), def("v8.4.0", "196608"), related(regionSizeRel)),
		ov("tikv", "raftstore.raft-log-gc-size-limit", regionSizeSources,
			"Hard limit of residual Raft log size; default region-split-size × 3/4."+derived,
			def("", "72MiB"), def("v8.4.0", "192MiB"), related(regionSizeRel)),
		r("raft-max-size-per-msg", "Maximum size of one Raft message."),
		r("raft-entry-max-size", "Maximum size of one Raft log entry."),
		r("raft-entry-cache-life-time", "Longest time a Raft entry stays in the entry cache."),
		r("max-apply-unpersisted-log-limit", "Maximum number of committed but not persisted Raft logs that may be applied."),
		r("split-region-check-tick-interval", "Interval of the Region split check."),
		ov("tikv", "raftstore.region-split-check-diff", regionSizeSources,
			"Data growth that triggers a split check; default 1/16 of region-split-size."+derived,
			def("", "6MiB"), def("v8.4.0", "16MiB"), related(regionSizeRel)),
		r("pd-heartbeat-tick-interval", "Interval of Region heartbeats to PD."),
		r("pd-store-heartbeat-tick-interval", "Interval of store heartbeats to PD."),
		r("snap-mgr-gc-tick-interval", "Interval of snapshot garbage collection checks."),
		r("snap-gc-timeout", "Longest time a snapshot file is kept."),
		r("lock-cf-compact-interval", "Interval of manual compaction of the lock column family."),
		r("lock-cf-compact-bytes-threshold", "Size that triggers manual compaction of the lock column family."),
		r("messages-per-tick", "Maximum number of messages processed per batch."),
		r("max-peer-down-duration", "Longest time a peer may be inactive before it is marked down."),
		r("max-leader-missing-duration", "Longest time a peer may lack a leader before it checks whether it is stale."),
		r("abnormal-leader-missing-duration", "Time without a leader after which a peer is reported abnormal."),
		r("peer-stale-state-check-interval", "Interval of the check whether a peer lacks a leader."),
		r("consistency-check-interval", "Interval of the consistency check; the docs advise against it: it is incompatible with TiDB's GC."),
		r("raft-store-max-leader-lease", "Longest leader lease."),
		r("merge-check-tick-interval", "Interval of the Region merge check."),
		r("cleanup-import-sst-interval", "Interval of the cleanup of expired imported SST files."),
		r("local-read-batch-size", "Maximum number of read requests per batch."),
		r("apply-yield-write-size", "Data an apply thread writes for one FSM before it yields."),
		r("apply-pool-size", "Number of apply threads."),
		r("store-pool-size", "Number of raftstore threads."),
		r("apply-max-batch-size", "Maximum number of requests per apply batch."),
		r("store-max-batch-size", "Maximum number of requests per raftstore batch."),
		r("store-io-pool-size", "Number of Raft I/O threads. Never change it from 0 to non-0 or from non-0 to 0 online ("+docDynamicConfig+")."),
		r("periodic-full-compact-start-max-cpu", "CPU usage below which periodic full compaction may start."),
	}
}

func tikvCoprocessor() []overlayEntry {
	src := srcs(docTiKVConfig + "#coprocessor")
	c := func(key, doc string, opts ...opt) overlayEntry {
		return ov("tikv", "coprocessor."+key, src, doc, opts...)
	}
	return []overlayEntry{
		c("split-region-on-table", "Split Regions at table boundaries."),
		c("batch-split-limit", "Maximum number of Regions split in one batch.", atLeast(1)),
		c("enable-region-bucket", "Divide Regions into buckets (experimental; considered for large Regions, "+docRegionSize+").",
			experimental(), related("tikv:coprocessor.region-bucket-size")),
		c("region-bucket-size", "Bucket size when enable-region-bucket is on.", related("tikv:coprocessor.enable-region-bucket")),
		c("region-size-threshold-for-approximate", "Region size above which bucket ranges are approximated."),
		c("region-bucket-merge-size-ratio", "Ratio of region-bucket-size below which small buckets are merged."),
		c("consistency-check-method", "Method of the Region consistency check."),
		c("prefer-approximate-bucket", "Prefer approximate bucket ranges."),
	}
}

// tikvSplit: load-base-split. Unset thresholds are derived from the Region
// size at start: Regions >= 4 GiB use the "big region" defaults
// (components/raftstore/src/store/worker/split_config.rs).
func tikvSplit() []overlayEntry {
	src := srcs(docLoadBaseSplit)
	big := " The default applies to Regions < 4GiB; with region-split-size >= 4GiB the unset default is %s."
	s := func(key, doc string, opts ...opt) overlayEntry { return ov("tikv", "split."+key, src, doc, opts...) }
	return []overlayEntry{
		s("qps-threshold", "QPS of a Region above which load-base-split splits it."+sprintf(big, "7000"), def("", "3000")),
		s("byte-threshold", "Read bytes per second of a Region above which load-base-split splits it. TiKV parses it as an integer (usize); tiform also accepts a size such as \"30MiB\" and sends the number of bytes."+sprintf(big, "104857600"),
			refine(KindSize), unit("B"), def("", "31457280")),
		s("region-cpu-overload-threshold-ratio", "Share of unified read pool CPU a Region may use before load-base-split splits it."+sprintf(big, "0.75"),
			def("", "0.25")),
		s("split-balance-score", "Balance score for choosing a load-base-split key."),
		s("split-contained-score", "Contained score for choosing a load-base-split key."),
		s("detect-times", "Number of detections before a load-base split."),
		s("sample-num", "Number of requests sampled per detection."),
		s("sample-threshold", "Minimum sampled request count for a split key."),
	}
}

func tikvStorage() []overlayEntry {
	src := srcs(docTiKVConfig + "#storage")
	s := func(key, doc string, opts ...opt) overlayEntry { return ov("tikv", key, src, doc, opts...) }
	return []overlayEntry{
		s("storage.block-cache.capacity", "Shared block cache size (default: a share of the host's memory, computed at start)."),
		s("storage.flow-control.enable", "Enable write flow control."),
		s("storage.flow-control.memtables-threshold", "Number of memtables that triggers flow control."),
		s("storage.flow-control.l0-files-threshold", "Number of L0 files that triggers flow control."),
		s("storage.flow-control.soft-pending-compaction-bytes-limit", "Pending compaction bytes at which flow control starts rejecting some writes."),
		s("storage.flow-control.hard-pending-compaction-bytes-limit", "Pending compaction bytes at which flow control rejects all writes."),
		s("storage.scheduler-worker-pool-size", "Number of scheduler worker threads."),
		s("import.num-threads", "Number of import threads."),
		s("backup.num-threads", "Number of backup threads."),
		ov("tikv", "backup.sst-max-size", append(srcs(docTiKVConfig+"#sst-max-size"), regionSizeSources...),
			"Largest SST file a BR backup writes; its default is region-max-size, so it followed the Region size change of v8.4.0.",
			def("", "144MiB"), def("v8.4.0", "384MiB"), related(regionSizeRel)),
		ov("tikv", "storage.enable-ttl", srcs(docIME),
			"TTL for RawKV. Incompatible with the in-memory engine: TiKV refuses to start with both.",
			related("tikv:in-memory-engine.enable")),
		s("readpool.unified.max-thread-count", "Maximum number of unified read pool threads."),
		s("readpool.unified.max-tasks-per-worker", "Maximum queued tasks per unified read pool thread."),
		s("readpool.unified.auto-adjust-pool-size", "Adjust the unified read pool size automatically."),
	}
}

func tikvResourceControl() []overlayEntry {
	src := srcs(docResourceCtl, docTiKVConfig+"#resource-control")
	r := func(key, doc string, opts ...opt) overlayEntry {
		return ov("tikv", "resource-control."+key, src, doc, opts...)
	}
	return []overlayEntry{
		r("enabled", "TiKV side of resource control (scheduling by group priority/RU); effective only with tidb_enable_resource_control=ON. Turning it off is a workaround for tikv/tikv#18939.",
			related("variable:tidb_enable_resource_control")),
		r("priority-ctl-strategy", "Priority limiter target: aggressive 0.5, moderate 0.7, conservative 0.9 of resource utilisation (tikv/tikv#18939)."),
		r("historical-usage-window-mins", "Window of historical resource usage, in minutes.", unit("minutes")),
		r("bg-cpu-throttle-threshold", "CPU usage (percent) at which background tasks start to be throttled."),
		r("fg-cpu-throttle-threshold", "CPU usage (percent) at which foreground protection is fully active; must be greater than bg-cpu-throttle-threshold."),
		r("bg-compaction-pressure-threshold", "Compaction pressure (percent of storage.flow-control.soft-pending-compaction-bytes-limit) at which background write I/O starts to be throttled."),
		r("bg-write-io-ceiling", "Background write I/O rate allowed while compaction pressure is low."),
		r("bg-write-io-floor", "Background write I/O rate guaranteed even under the highest compaction pressure."),
		r("enable-fair-scheduling", "RU-based two-phase fair scheduling for reads."),
		r("enable-read-admission-control", "Admission control for reads."),
		r("enable-write-admission-control", "Admission control for writes."),
		r("baseline-burst-pct", "Headroom (percent) above a group's historical RU baseline before it counts as over it."),
		r("admission-max-delayed-count", "Maximum number of requests admission control keeps delayed (0 = unlimited)."),
	}
}

// tikvInMemoryEngine: the MVCC in-memory engine (docs: new in v8.5.0; the
// keys already exist in v8.4.0's code).
func tikvInMemoryEngine() []overlayEntry {
	src := srcs(docIME, docTiKVConfig+"#in-memory-engine-new-in-v850")
	ime := func(key, doc string, opts ...opt) overlayEntry {
		return ov("tikv", "in-memory-engine."+key, src, doc, opts...)
	}
	return []overlayEntry{
		ime("enable", "Enable the in-memory engine. Needs TiKV >= 8 GiB memory (32 GiB+ recommended); incompatible with storage.enable-ttl and API v2. Enable only after careful validation.",
			restartIfEnabled("false→true is accepted online but the engine is only built at start ("+docIME+"): restart TiKV — "+
				"TiUP `tiup cluster edit-config <cluster>` then `tiup cluster reload <cluster> -R tikv`, or spec.tikv.config of the TidbCluster (TiDB Operator)")),
		ime("capacity", "Memory for the engine. Default min(10% of system memory, 5GiB); when set manually the block cache is not reduced (OOM risk)."),
		ime("gc-run-interval", "Interval of the engine's MVCC GC.", rng(10, 600)),
		ime("mvcc-amplification-threshold", "MVCC read amplification ((next+prev)/processed_keys) above which a Region is loaded."),
		ime("evict-threshold", "Memory usage at which Regions are evicted; default capacity − min(capacity/10, 200MiB); must be < capacity."),
		ime("stop-load-threshold", "Memory usage at which loading stops; must be <= evict-threshold."),
		ime("load-evict-interval", "Interval of load/evict decisions.", atLeast(120)),
		ime("cross-check-interval", "Test-only cross check against RocksDB; 0s disables it; needs gc.enable-compaction-filter."),
	}
}

func tikvOther() []overlayEntry {
	src := srcs(docTiKVConfig)
	o := func(key, doc string, opts ...opt) overlayEntry { return ov("tikv", key, src, doc, opts...) }
	return []overlayEntry{
		o("log.level", "TiKV log level."),
		o("quota.foreground-cpu-time", "CPU quota of foreground requests."),
		o("quota.foreground-write-bandwidth", "Write bandwidth quota of foreground requests."),
		o("quota.foreground-read-bandwidth", "Read bandwidth quota of foreground requests."),
		o("quota.background-cpu-time", "CPU quota of background requests."),
		o("quota.background-write-bandwidth", "Write bandwidth quota of background requests."),
		o("quota.background-read-bandwidth", "Read bandwidth quota of background requests."),
		o("quota.enable-auto-tune", "Tune background quotas automatically."),
		o("quota.max-delay-duration", "Longest delay a request may get from the quota limiter."),
		o("pessimistic-txn.wait-for-lock-timeout", "Longest wait for a pessimistic lock."),
		o("pessimistic-txn.wake-up-delay-duration", "Delay before waking up lock waiters."),
		o("pessimistic-txn.pipelined", "Pipelined pessimistic locking."),
		o("pessimistic-txn.in-memory", "In-memory pessimistic locks."),
		o("pessimistic-txn.in-memory-peer-size-limit", "Per-Region memory limit of in-memory pessimistic locks."),
		o("pessimistic-txn.in-memory-instance-size-limit", "Per-TiKV memory limit of in-memory pessimistic locks."),
		ov("tikv", "gc.ratio-threshold", srcs(docTiKVConfig+"#ratio-threshold", "https://docs.pingcap.com/tidb/stable/br-snapshot-guide"),
			"Garbage ratio that triggers GC of a Region. BR sets -1.0 during restore to pause GC and restores 1.1."),
		o("gc.batch-keys", "Number of keys per GC batch."),
		o("gc.max-write-bytes-per-sec", "GC write rate limit (0 = unlimited)."),
		o("gc.enable-compaction-filter", "GC in the compaction filter (required by in-memory-engine.cross-check-interval)."),
		o("gc.compaction-filter-skip-version-check", "Skip the cluster version check of the compaction filter."),
		o("server.grpc-memory-pool-quota", "Memory quota of gRPC."),
		o("server.max-grpc-send-msg-len", "Largest gRPC message TiKV sends."),
		o("server.raft-msg-max-batch-size", "Largest number of Raft messages per batch."),
		o("server.simplify-metrics", "Report fewer metrics."),
		o("server.snap-io-max-bytes-per-sec", "Snapshot I/O bandwidth limit."),
		o("server.concurrent-send-snap-limit", "Maximum number of snapshots sent at once."),
		o("server.concurrent-recv-snap-limit", "Maximum number of snapshots received at once."),
	}
}

package catalog

// PD config items (SET CONFIG pd). All PD instances share one config and
// every item here is online; values are persisted in etcd, so editing the
// PD config file or TiUP topology after bootstrap has no effect (§2.5, §2.6).
// Booleans tagged json:",string" need a quoted 'true'/'false' (§1.3, §2.2).
// Sources: tidb-facts.md §2.4 (online list), §1.3 (rendering), §3.2 (merge).

// unconfirmedBool is appended to the Doc of PD booleans whose JSON form is
// not recorded in tidb-facts.md.
const unconfirmedBool = " Not in the §1.3 list of ,string booleans, so sent as TRUE/FALSE (JSON true/false); UNCONFIRMED (§9 item 7): check SHOW WARNINGS after applying."

func init() {
	register(pdSchedule()...)
	register(pdReplication()...)
	register(pdServer()...)
}

func pdSchedule() []*Entry {
	const src = "§2.4"
	i := func(key, doc string, opts ...opt) *Entry {
		return cfg("pd", "schedule."+key, KindInt, src, doc, opts...)
	}
	d := func(key, doc string, opts ...opt) *Entry {
		return cfg("pd", "schedule."+key, KindDuration, src, doc, opts...)
	}
	f := func(key, doc string, opts ...opt) *Entry {
		return cfg("pd", "schedule."+key, KindFloat, src, doc, opts...)
	}
	b := func(key, doc string, opts ...opt) *Entry {
		return cfg("pd", "schedule."+key, KindBool, "§2.4, §1.3", doc, append([]opt{stringBool()}, opts...)...)
	}
	merge := family("pd-merge")
	return []*Entry{
		cfg("pd", KeyMergeRegionSize, KindInt, "§3.2",
			"PD does not merge a Region larger than this (MiB). Scale it with region-split-size (20/96 ≈ 54/256) and keep it well below it, or split and merge ping-pong. Clusters bootstrapped before v8.4 keep their stored value (§3.2).",
			unit("MiB"), def("", "20"), def("v8.4.0", "54"), merge,
			related(mergeKeysRel, regionSizeRel, "pd:schedule.split-merge-interval")),
		cfg("pd", KeyMergeRegionKeys, KindInt, "§3.2, §1.3",
			"PD does not merge a Region with more keys than this. Unset (0) means max-merge-region-size × 10000, and SHOW CONFIG then shows that effective value (§1.3).",
			def("", "200000"), def("v8.4.0", "540000"), merge,
			related(mergeSizeRel, splitKeysRel)),
		cfg("pd", "schedule.max-affinity-merge-region-size", KindInt, "§3.2, §8.1",
			"Merge threshold for table-affinity Regions (MiB).", unit("MiB"), introduced("v8.5.5"), def("v8.5.5", "256"),
			related(mergeSizeRel)),
		d("split-merge-interval", "A newly split Region is not merged within this interval (§3.2).", def("", "1h0m0s"), related(mergeSizeRel)),
		d("patrol-region-interval", "Interval at which the replica checker patrols Regions."),
		i("max-snapshot-count", "Maximum number of snapshots a store sends or receives at once."),
		i("max-pending-peer-count", "Maximum number of pending peers per store."),
		d("max-store-down-time", "Time after which a disconnected store is considered down."),
		d("max-store-preparing-time", "Longest time a store may stay preparing."),
		cfg("pd", "schedule.leader-schedule-policy", KindEnum, src, "Leader balancing by count or size.", enum("count", "size")),
		i("leader-schedule-limit", "Concurrent leader scheduling tasks."),
		i("region-schedule-limit", "Concurrent Region scheduling tasks."),
		i("replica-schedule-limit", "Concurrent replica scheduling tasks."),
		i("merge-schedule-limit", "Concurrent Region merge tasks."),
		i("hot-region-schedule-limit", "Concurrent hot Region scheduling tasks."),
		i("hot-region-cache-hits-threshold", "Hits after which a Region counts as hot."),
		f("high-space-ratio", "Store space ratio below which space is considered sufficient."),
		f("low-space-ratio", "Store space ratio above which space is considered insufficient."),
		f("tolerant-size-ratio", "Balance buffer size ratio."),
		b("enable-remove-down-replica", "Remove down replicas automatically."),
		b("enable-replace-offline-replica", "Migrate replicas from offline stores."),
		b("enable-make-up-replica", "Add missing replicas."),
		b("enable-remove-extra-replica", "Remove extra replicas."),
		b("enable-location-replacement", "Isolation-level checks (location replacement)."),
		b("enable-cross-table-merge", "Merge Regions across tables.", def("", "true"), related(mergeSizeRel)),
		b("enable-one-way-merge", "Merge a Region only with its next neighbour."),
		cfg("pd", "schedule.region-score-formula-version", KindEnum, src, "Region score formula version.", enum("v1", "v2")),
		i("scheduler-max-waiting-operator", "Maximum waiting operators per scheduler."),
		b("enable-debug-metrics", "Debug metrics."),
		// §2.4 says only that the 8.5 docs list these and the 7.5/8.1 lists do
		// not; the version that introduced them is not recorded, so no
		// Introduced (a wrong one would make TF150 refuse a valid plan).
		b("enable-heartbeat-concurrent-runner", "Concurrent heartbeat processing (in the 8.5 online list, not in 7.5/8.1: may not exist before 8.5; version introduced not recorded)."),
		b("enable-heartbeat-breakdown-metrics", "Heartbeat breakdown metrics (in the 8.5 online list; version introduced not recorded)."),
		b("enable-joint-consensus", "Joint consensus for replica changes."),
		b("enable-tikv-split-region", "Let TiKV split Regions."),
		b("enable-diagnostic", "Scheduler diagnostics."),
		b("enable-witness", "Witness replicas."),
		d("hot-regions-write-interval", "Interval at which hot Region history is written."),
		i("hot-regions-reserved-days", "Days of hot Region history kept."),
		i("max-movable-hot-peer-size", "Largest hot peer the hot Region scheduler moves."),
		cfg("pd", "schedule.store-limit-version", KindString, src, "Store limit algorithm version."),
		i("patrol-region-worker-count", "Workers patrolling Regions (in the 8.5 online list; version introduced not recorded)."),
	}
}

func pdReplication() []*Entry {
	const src = "§2.4"
	return []*Entry{
		cfg("pd", "replication.max-replicas", KindInt, src, "Number of replicas per Region."),
		cfg("pd", "replication.location-labels", KindList, src,
			"Topology labels used for replica isolation, in order (e.g. zone,rack,host). Changing them in the TiUP topology and reloading has no effect after bootstrap (§2.6)."),
		cfg("pd", "replication.enable-placement-rules", KindBool, "§2.4, §1.3", "Placement Rules.", stringBool()),
		cfg("pd", "replication.enable-placement-rules-cache", KindBool, "§1.3", "Placement Rules cache.", stringBool()),
		cfg("pd", "replication.strictly-match-label", KindBool, "§2.4, §1.3", "Require TiKV labels to match location-labels.", stringBool()),
		cfg("pd", "replication.isolation-level", KindString, src, "Minimum topology isolation level (a location label)."),
		cfg("pd", "replication-mode.replication-mode", KindString, src, "Replication mode (majority or dr-auto-sync)."),
		cfg("pd", "replication-mode.dr-auto-sync.label-key", KindString, src, "Label that distinguishes the data centres."),
		cfg("pd", "replication-mode.dr-auto-sync.primary", KindString, src, "Primary data centre."),
		cfg("pd", "replication-mode.dr-auto-sync.dr", KindString, src, "Disaster-recovery data centre."),
		cfg("pd", "replication-mode.dr-auto-sync.primary-replicas", KindInt, src, "Voter replicas in the primary data centre."),
		cfg("pd", "replication-mode.dr-auto-sync.dr-replicas", KindInt, src, "Voter replicas in the DR data centre."),
		cfg("pd", "replication-mode.dr-auto-sync.wait-store-timeout", KindDuration, src, "Wait before switching to async replication."),
		cfg("pd", "replication-mode.dr-auto-sync.wait-recover-timeout", KindDuration, src, "Wait before switching back to sync-recover."),
		cfg("pd", "replication-mode.dr-auto-sync.pause-region-split", KindBool, src, "Pause Region splits in async mode."+unconfirmedBool),
	}
}

func pdServer() []*Entry {
	const src = "§2.4"
	return []*Entry{
		cfg("pd", "log.level", KindString, src, "PD log level."),
		cfg("pd", "cluster-version", KindString, "§2.4, §7",
			"Cluster version PD enforces; it is the minimum TiKV version, not the PD binary version (§7)."),
		cfg("pd", "pd-server.use-region-storage", KindBool, src, "Store Region metadata in a separate storage."+unconfirmedBool),
		cfg("pd", "pd-server.max-gap-reset-ts", KindDuration, src, "Largest gap at which the TSO is reset."),
		cfg("pd", "pd-server.key-type", KindString, src, "Key type of the cluster."),
		cfg("pd", "pd-server.metric-storage", KindString, src, "Prometheus address PD queries."),
		cfg("pd", "pd-server.dashboard-address", KindString, src, "Address of TiDB Dashboard."),
		cfg("pd", "pd-server.flow-round-by-digit", KindInt, src, "Digits by which Region flow is rounded."),
		cfg("pd", "pd-server.min-resolved-ts-persistence-interval", KindDuration, src, "Interval of min resolved ts persistence."),
		cfg("pd", "pd-server.server-memory-limit", KindFloat, src, "Memory limit of PD as a share of system memory."),
		cfg("pd", "pd-server.server-memory-limit-gc-trigger", KindFloat, src, "Share of the memory limit that triggers GC."),
		cfg("pd", "pd-server.enable-gogc-tuner", KindBool, src, "GOGC tuner."+unconfirmedBool),
		cfg("pd", "pd-server.gc-tuner-threshold", KindFloat, src, "Threshold of the GOGC tuner."),
	}
}

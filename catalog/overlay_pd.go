package catalog

// The PD overlay. Kinds, the keys PD's config update API accepts (online),
// ",string" booleans and literal defaults come from the generated table;
// PD keeps schedule and replication settings in etcd, so editing the PD
// config file or the TiUP topology after bootstrap has no effect on them
// (https://docs.pingcap.com/tidb/stable/pd-configuration-file).

func pdOverlays() []overlayEntry {
	return append(append(pdSchedule(), pdReplication()...), pdServer()...)
}

func pdSchedule() []overlayEntry {
	src := srcs(docPDConfig + "#schedule")
	s := func(key, doc string, opts ...opt) overlayEntry { return ov("pd", "schedule."+key, src, doc, opts...) }
	merge := family("pd-merge")
	mergeSrc := srcs(docPDConfig+"#max-merge-region-size", "https://github.com/tikv/pd/pull/8445", "https://github.com/tikv/pd/pull/5084")
	return []overlayEntry{
		ov("pd", KeyMergeRegionSize, mergeSrc,
			"PD does not merge a Region larger than this (MiB). Scale it with region-split-size (20/96 ≈ 54/256) and keep it well below it, or split and merge ping-pong. Clusters bootstrapped before v8.4 keep their stored value (PD loads its stored schedule config on start, tikv/pd server/config/persist_options.go Reload).",
			unit("MiB"), merge,
			related(mergeKeysRel, regionSizeRel, "pd:schedule.split-merge-interval")),
		ov("pd", KeyMergeRegionKeys, mergeSrc,
			"PD does not merge a Region with more keys than this. Unset (0, the stored default) means max-merge-region-size × 10000, and SHOW CONFIG shows that effective value (tikv/pd server/api/config.go GetConfig).",
			shown("", "200000"), shown("v8.4.0", "540000"), merge, related(mergeSizeRel, splitKeysRel)),
		ov("pd", "schedule.max-affinity-merge-region-size", mergeSrc, "Merge threshold for table-affinity Regions (MiB).",
			unit("MiB"), related(mergeSizeRel)),
		s("split-merge-interval", "A newly split Region is not merged within this interval.", related(mergeSizeRel)),
		s("patrol-region-interval", "Interval at which the replica checker patrols Regions."),
		s("max-snapshot-count", "Maximum number of snapshots a store sends or receives at once."),
		s("max-pending-peer-count", "Maximum number of pending peers per store."),
		s("max-store-down-time", "Time after which a disconnected store is considered down."),
		s("max-store-preparing-time", "Longest time a store may stay preparing."),
		s("leader-schedule-policy", "Leader balancing by count or size.", refine(KindEnum), enum("count", "size")),
		s("leader-schedule-limit", "Concurrent leader scheduling tasks."),
		s("region-schedule-limit", "Concurrent Region scheduling tasks."),
		s("replica-schedule-limit", "Concurrent replica scheduling tasks."),
		s("merge-schedule-limit", "Concurrent Region merge tasks."),
		s("hot-region-schedule-limit", "Concurrent hot Region scheduling tasks."),
		s("hot-region-cache-hits-threshold", "Hits after which a Region counts as hot."),
		s("high-space-ratio", "Store space ratio below which space is considered sufficient."),
		s("low-space-ratio", "Store space ratio above which space is considered insufficient."),
		s("tolerant-size-ratio", "Balance buffer size ratio."),
		s("enable-remove-down-replica", "Remove down replicas automatically."),
		s("enable-replace-offline-replica", "Migrate replicas from offline stores."),
		s("enable-make-up-replica", "Add missing replicas."),
		s("enable-remove-extra-replica", "Remove extra replicas."),
		s("enable-location-replacement", "Isolation-level checks (location replacement)."),
		s("enable-cross-table-merge", "Merge Regions across tables.", related(mergeSizeRel)),
		s("enable-one-way-merge", "Merge a Region only with its next neighbour."),
		s("region-score-formula-version", "Region score formula version.", refine(KindEnum), enum("v1", "v2"),
			defNote("", "v2", "new clusters; a cluster that already stored v1 keeps it (tikv/pd pkg/schedule/config/config.go Adjust)")),
		s("scheduler-max-waiting-operator", "Maximum waiting operators per scheduler."),
		s("enable-debug-metrics", "Debug metrics."),
		s("enable-heartbeat-concurrent-runner", "Concurrent heartbeat processing."),
		s("enable-heartbeat-breakdown-metrics", "Heartbeat breakdown metrics."),
		s("enable-joint-consensus", "Joint consensus for replica changes."),
		s("enable-tikv-split-region", "Let TiKV split Regions."),
		s("enable-diagnostic", "Scheduler diagnostics."),
		s("enable-witness", "Witness replicas."),
		s("hot-regions-write-interval", "Interval at which hot Region history is written."),
		s("hot-regions-reserved-days", "Days of hot Region history kept."),
		s("max-movable-hot-peer-size", "Largest hot peer the hot Region scheduler moves."),
		s("store-limit-version", "Store limit algorithm version."),
		s("patrol-region-worker-count", "Workers patrolling Regions."),
	}
}

func pdReplication() []overlayEntry {
	src := srcs(docPDConfig + "#replication")
	r := func(key, doc string, opts ...opt) overlayEntry { return ov("pd", key, src, doc, opts...) }
	return []overlayEntry{
		r("replication.max-replicas", "Number of replicas per Region."),
		r("replication.location-labels", "Topology labels used for replica isolation, in order (e.g. zone,rack,host). Changing them in the TiUP topology and reloading has no effect after bootstrap."),
		r("replication.enable-placement-rules", "Placement Rules."),
		r("replication.enable-placement-rules-cache", "Placement Rules cache."),
		r("replication.strictly-match-label", "Require TiKV labels to match location-labels."),
		r("replication.isolation-level", "Minimum topology isolation level (a location label)."),
		r("replication-mode.replication-mode", "Replication mode (majority or dr-auto-sync).", refine(KindEnum), enum("majority", "dr-auto-sync")),
		r("replication-mode.dr-auto-sync.label-key", "Label that distinguishes the data centres."),
		r("replication-mode.dr-auto-sync.primary", "Primary data centre."),
		r("replication-mode.dr-auto-sync.dr", "Disaster-recovery data centre."),
		r("replication-mode.dr-auto-sync.primary-replicas", "Voter replicas in the primary data centre."),
		r("replication-mode.dr-auto-sync.dr-replicas", "Voter replicas in the DR data centre."),
		r("replication-mode.dr-auto-sync.wait-store-timeout", "Wait before switching to async replication."),
		r("replication-mode.dr-auto-sync.wait-recover-timeout", "Wait before switching back to sync-recover."),
		r("replication-mode.dr-auto-sync.pause-region-split", "Pause Region splits in async mode."),
	}
}

func pdServer() []overlayEntry {
	src := srcs(docPDConfig + "#pd-server")
	p := func(key, doc string, opts ...opt) overlayEntry { return ov("pd", key, src, doc, opts...) }
	return []overlayEntry{
		p("log.level", "PD log level."),
		ov("pd", "cluster-version", srcs(docPDConfig, "https://docs.pingcap.com/tidb/stable/pd-control#config-show--set-option-value--placement-rules",
			"tikv/pd@v8.5.1:server/cluster/cluster.go#L2133"),
			"Cluster version PD enforces; it is the minimum TiKV version, not the PD binary version. PD raises it as stores join and upgrade, so it is computed, not a setting to declare.",
			computed()),
		p("pd-server.use-region-storage", "Store Region metadata in a separate storage."),
		p("pd-server.max-gap-reset-ts", "Largest gap at which the TSO is reset."),
		p("pd-server.key-type", "Key type of the cluster."),
		p("pd-server.metric-storage", "Prometheus address PD queries."),
		p("pd-server.dashboard-address", "Address of TiDB Dashboard."),
		p("pd-server.flow-round-by-digit", "Digits by which Region flow is rounded."),
		p("pd-server.min-resolved-ts-persistence-interval", "Interval of min resolved ts persistence."),
		p("pd-server.server-memory-limit", "Memory limit of PD as a share of system memory."),
		p("pd-server.server-memory-limit-gc-trigger", "Share of the memory limit that triggers GC."),
		p("pd-server.enable-gogc-tuner", "GOGC tuner."),
		p("pd-server.gc-tuner-threshold", "Threshold of the GOGC tuner."),
	}
}

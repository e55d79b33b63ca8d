package tidbsim

// The data-driven config model: which items each component shows in SHOW
// CONFIG, their value kind (how they are rendered and parsed), default, and
// whether TiKV accepts them online. Sections of tidb-facts.md are cited per
// group; items whose default is derived from other items are marked derived
// and computed in configmodel.go. Defaults not stated in tidb-facts.md are
// marked "code default" (TiKV/PD source defaults as commonly documented) so a
// reader knows they are less certain than the cited ones.

type valueKind int

const (
	// TiKV (and the TiFlash proxy, which is TiKV code): JSON types of the
	// /config output, parsed by `to_change_value` on SET CONFIG (§2.2).
	kSize     valueKind = iota // ReadableSize, JSON string "256MiB"
	kDuration                  // ReadableDuration, JSON string "10m"
	kU64                       // unsigned integer, JSON number
	kF64                       // float, JSON number
	kBool                      // bool, JSON bool; parses only true/false
	kString                    // free string
	kEnum                      // string restricted to enum values

	// PD: merged into Go structs with encoding/json (§2.2).
	pInt        // uint64/int, JSON number
	pFloat      // float64, JSON number
	pBoolString // bool tagged `json:",string"`, JSON string "true" (§1.3 list)
	pDuration   // typeutil.Duration, JSON string of Go duration "1h0m0s"
	pString     // string (incl. StringSlice, rendered comma-joined)

	// display-only items of TiDB and TiFlash (never changed by SET CONFIG).
	dString
	dNumber
	dBool
)

func (k valueKind) isNumber() bool {
	return k == kU64 || k == kF64 || k == pInt || k == pFloat || k == dNumber
}

// configItem is one flattened config key.
type configItem struct {
	name string
	kind valueKind
	def  string // default as stored (see storedValue); ignored when derived
	// derived: the default is computed from other items (configmodel.go).
	derived bool
	// static: TiKV `#[online_config(skip)]`; SET CONFIG warns
	// "config <leaf> can not be changed" (§2.3, §8.2).
	static bool
	enum   []string
	// since/before bound the versions that have the item: [since, before).
	since, before string
	// staticBefore: restart-only before this version, online from it.
	staticBefore string
	// unexpectBefore: before this version TiKV's online config does not know
	// the item although /config shows it ("unexpect fields: …", corpus
	// messages.tsv gh-tidb-50763 for server.snap-io-max-bytes-per-sec).
	unexpectBefore string
}

// tikvItems: tidb-facts.md §2.4 (online lists), §3.1 (region size family),
// §4.1 (resource-control), §6 (in-memory-engine), §8.2 (restart-only).
var tikvItems = []configItem{
	// §3.1 coprocessor; online except consistency-check-method,
	// prefer-approximate-bucket (§2.4 "[CODE] coprocessor/config.rs").
	{name: "coprocessor.split-region-on-table", kind: kBool, def: "false"},
	{name: "coprocessor.batch-split-limit", kind: kU64, def: "10"},
	{name: "coprocessor.region-split-size", kind: kSize, derived: true},
	{name: "coprocessor.region-max-size", kind: kSize, derived: true},
	{name: "coprocessor.region-split-keys", kind: kU64, derived: true},
	{name: "coprocessor.region-max-keys", kind: kU64, derived: true},
	{name: "coprocessor.consistency-check-method", kind: kEnum, def: "mvcc", enum: []string{"raw", "mvcc"}, static: true},
	// enable-region-bucket is an Option<bool> left None unless set (validate
	// only fills it for raftstore-v2), so /config has JSON null, printed
	// "null" (§1.3). Bucket size 50MiB (DEFAULT_BUCKET_SIZE), approximate
	// threshold = bucket × 10 / 2 × 3 = 750MiB. [CODE] tikv/tikv
	// components/raftstore/src/coprocessor/config.rs (master with
	// `validate(raft_kv_v2)`).
	{name: "coprocessor.enable-region-bucket", kind: kBool, def: "null"},
	{name: "coprocessor.region-bucket-size", kind: kSize, def: "50MiB"},
	{name: "coprocessor.region-size-threshold-for-approximate", kind: kSize, def: "750MiB"},
	{name: "coprocessor.region-bucket-merge-size-ratio", kind: kF64, def: "0.33"},
	{name: "coprocessor.prefer-approximate-bucket", kind: kBool, def: "true", static: true},

	// §2.4 raftstore (online list); derived ones per §3.1. Defaults: code
	// defaults (the 2019 corpus rows gh-tidb-13063 agree for gc items).
	{name: "raftstore.raft-max-inflight-msgs", kind: kU64, def: "256"},
	{name: "raftstore.raft-log-gc-tick-interval", kind: kDuration, def: "3s"},
	{name: "raftstore.raft-log-gc-threshold", kind: kU64, def: "50"},
	{name: "raftstore.raft-log-gc-count-limit", kind: kU64, derived: true},
	{name: "raftstore.raft-log-gc-size-limit", kind: kSize, derived: true},
	{name: "raftstore.raft-max-size-per-msg", kind: kSize, def: "1MiB"},
	{name: "raftstore.raft-entry-max-size", kind: kSize, def: "8MiB"},
	{name: "raftstore.raft-entry-cache-life-time", kind: kDuration, def: "30s"},
	// §2.4: absent from the 7.5 docs list; modelled as new in v8.1.0 (the
	// exact release is UNCONFIRMED). Same for periodic-full-compact-start-max-cpu.
	{name: "raftstore.max-apply-unpersisted-log-limit", kind: kU64, def: "1024", since: "v8.1.0"},
	{name: "raftstore.split-region-check-tick-interval", kind: kDuration, def: "10s"},
	{name: "raftstore.region-split-check-diff", kind: kSize, derived: true},
	{name: "raftstore.pd-heartbeat-tick-interval", kind: kDuration, def: "1m"},
	{name: "raftstore.pd-store-heartbeat-tick-interval", kind: kDuration, def: "10s"},
	{name: "raftstore.snap-mgr-gc-tick-interval", kind: kDuration, def: "1m"},
	{name: "raftstore.snap-gc-timeout", kind: kDuration, def: "4h"},
	{name: "raftstore.lock-cf-compact-interval", kind: kDuration, def: "10m"},
	{name: "raftstore.lock-cf-compact-bytes-threshold", kind: kSize, def: "256MiB"},
	{name: "raftstore.messages-per-tick", kind: kU64, def: "4096"},
	{name: "raftstore.max-peer-down-duration", kind: kDuration, def: "10m"},
	{name: "raftstore.max-leader-missing-duration", kind: kDuration, def: "2h"},
	{name: "raftstore.abnormal-leader-missing-duration", kind: kDuration, def: "10m"},
	{name: "raftstore.peer-stale-state-check-interval", kind: kDuration, def: "5m"},
	{name: "raftstore.consistency-check-interval", kind: kDuration, def: "0s"},
	{name: "raftstore.raft-store-max-leader-lease", kind: kDuration, def: "9s"},
	{name: "raftstore.merge-check-tick-interval", kind: kDuration, def: "2s"},
	{name: "raftstore.cleanup-import-sst-interval", kind: kDuration, def: "10m"},
	{name: "raftstore.local-read-batch-size", kind: kU64, def: "1024"},
	{name: "raftstore.apply-yield-write-size", kind: kSize, def: "32KiB"},
	{name: "raftstore.hibernate-timeout", kind: kDuration, def: "10m"},
	{name: "raftstore.apply-pool-size", kind: kU64, def: "2"},
	{name: "raftstore.store-pool-size", kind: kU64, def: "2"},
	{name: "raftstore.apply-max-batch-size", kind: kU64, def: "256"},
	{name: "raftstore.store-max-batch-size", kind: kU64, def: "256"},
	{name: "raftstore.store-io-pool-size", kind: kU64, def: "1"},
	{name: "raftstore.periodic-full-compact-start-max-cpu", kind: kF64, def: "0.1", since: "v8.1.0"},

	// §2.4 "Also log.level".
	{name: "log.level", kind: kEnum, def: "info", enum: []string{"trace", "debug", "info", "warn", "warning", "error", "critical", "fatal"}},

	// §2.4 readpool.unified (max-thread-count: max(4, 0.8 × CPUs) on the
	// modelled 8-CPU host; min-thread-count/stack-size restart-only).
	{name: "readpool.unified.min-thread-count", kind: kU64, def: "1", static: true},
	{name: "readpool.unified.max-thread-count", kind: kU64, def: "6"},
	{name: "readpool.unified.stack-size", kind: kSize, def: "10MiB", static: true},
	{name: "readpool.unified.max-tasks-per-worker", kind: kU64, def: "2000"},
	{name: "readpool.unified.auto-adjust-pool-size", kind: kBool, def: "false"},

	// §2.4 split.* (load-base-split); defaults depend on region size.
	{name: "split.qps-threshold", kind: kU64, derived: true},
	{name: "split.byte-threshold", kind: kU64, derived: true},
	{name: "split.region-cpu-overload-threshold-ratio", kind: kF64, derived: true},
	{name: "split.split-balance-score", kind: kF64, def: "0.8"},
	{name: "split.split-contained-score", kind: kF64, def: "0.5"},
	{name: "split.detect-times", kind: kU64, def: "10"},
	{name: "split.sample-num", kind: kU64, def: "20"},
	{name: "split.sample-threshold", kind: kU64, def: "100"},

	// §2.4 storage.*; block-cache.capacity = 45% of the modelled 64 GiB host
	// memory, as bytes (BLOCK_CACHE_RATE; not a round size, so rendered in B).
	{name: "storage.block-cache.capacity", kind: kSize, derived: true},
	{name: "storage.flow-control.enable", kind: kBool, def: "true"},
	{name: "storage.flow-control.memtables-threshold", kind: kU64, def: "5"},
	{name: "storage.flow-control.l0-files-threshold", kind: kU64, def: "20"},
	{name: "storage.flow-control.soft-pending-compaction-bytes-limit", kind: kSize, def: "192GiB"},
	{name: "storage.flow-control.hard-pending-compaction-bytes-limit", kind: kSize, def: "1TiB"},
	{name: "storage.scheduler-worker-pool-size", kind: kU64, def: "4"},
	// §2.4: import.num-threads online since v8.1.2.
	{name: "import.num-threads", kind: kU64, def: "8", staticBefore: "v8.1.2"},
	{name: "backup.num-threads", kind: kU64, def: "4"},

	// §2.4 server.* (corpus blog-tidbnet-c25328d1 v7.5.0 shows 100MiB/32/32);
	// corpus gh-tidb-50763: SET CONFIG of snap-io-max-bytes-per-sec answered
	// "unexpect fields" (2024-01, version not stated), while §2.4 (docs,
	// master) lists it as online. The release from which TiKV accepts it
	// online is UNCONFIRMED: tidbsim's v8.1.0 boundary is a guess.
	{name: "server.snap-io-max-bytes-per-sec", kind: kSize, def: "100MiB", unexpectBefore: "v8.1.0"},
	{name: "server.concurrent-send-snap-limit", kind: kU64, def: "32"},
	{name: "server.concurrent-recv-snap-limit", kind: kU64, def: "32"},
	{name: "server.max-grpc-send-msg-len", kind: kU64, def: "10485760"},
	{name: "server.raft-msg-max-batch-size", kind: kU64, def: "128"},

	// §2.4 gc.* (corpus docs-cn-gc-config: enable-compaction-filter).
	{name: "gc.enable-compaction-filter", kind: kBool, def: "true"},
	{name: "gc.ratio-threshold", kind: kF64, def: "1.1"},
	{name: "gc.batch-keys", kind: kU64, def: "512"},
	{name: "gc.max-write-bytes-per-sec", kind: kSize, def: "0KiB"},

	// §2.4 quota.* (code defaults: 0 = no limit, auto-tune off, 500ms delay).
	{name: "quota.foreground-cpu-time", kind: kU64, def: "0"},
	{name: "quota.foreground-write-bandwidth", kind: kSize, def: "0KiB"},
	{name: "quota.foreground-read-bandwidth", kind: kSize, def: "0KiB"},
	{name: "quota.background-cpu-time", kind: kU64, def: "0"},
	{name: "quota.background-write-bandwidth", kind: kSize, def: "0KiB"},
	{name: "quota.background-read-bandwidth", kind: kSize, def: "0KiB"},
	{name: "quota.enable-auto-tune", kind: kBool, def: "false"},
	{name: "quota.max-delay-duration", kind: kDuration, def: "500ms"},

	// §2.4 pessimistic-txn.*.
	{name: "pessimistic-txn.wait-for-lock-timeout", kind: kDuration, def: "1s"},
	{name: "pessimistic-txn.wake-up-delay-duration", kind: kDuration, def: "20ms"},
	{name: "pessimistic-txn.pipelined", kind: kBool, def: "true"},
	{name: "pessimistic-txn.in-memory", kind: kBool, def: "true"},

	// §4.1: resource-control.enabled default true, restart-only;
	// priority-ctl-strategy from v8.4.0, online. §2.4: the admission/throttle
	// items are new in v8.5.7 / v9.0.0, historical-usage-window-mins
	// restart-only; defaults [CODE] tikv/tikv
	// components/resource_control/src/config.rs `impl Default for Config`.
	{name: "resource-control.enabled", kind: kBool, def: "true", static: true},
	{name: "resource-control.priority-ctl-strategy", kind: kEnum, def: "moderate", enum: []string{"aggressive", "moderate", "conservative"}, since: "v8.4.0"},
	{name: "resource-control.bg-cpu-throttle-threshold", kind: kF64, def: "60", since: "v8.5.7"},
	{name: "resource-control.fg-cpu-throttle-threshold", kind: kF64, def: "70", since: "v8.5.7"},
	{name: "resource-control.bg-compaction-pressure-threshold", kind: kF64, def: "70", since: "v8.5.7"},
	{name: "resource-control.bg-write-io-ceiling", kind: kSize, def: "100GiB", since: "v8.5.7"},
	{name: "resource-control.bg-write-io-floor", kind: kSize, def: "10MiB", since: "v8.5.7"},
	{name: "resource-control.enable-fair-scheduling", kind: kBool, def: "false", since: "v8.5.7"},
	{name: "resource-control.enable-read-admission-control", kind: kBool, def: "false", since: "v8.5.7"},
	{name: "resource-control.enable-write-admission-control", kind: kBool, def: "false", since: "v8.5.7"},
	{name: "resource-control.historical-usage-window-mins", kind: kU64, def: "15", static: true, since: "v8.5.7"},
	{name: "resource-control.baseline-burst-pct", kind: kF64, def: "20", since: "v8.5.7"},
	{name: "resource-control.admission-max-delayed-count", kind: kU64, def: "10000", since: "v8.5.7"},

	// §6 in-memory-engine.*, from v8.5.0. enable is accepted online (the
	// engine is only built at start); cross-check-interval is restart-only.
	{name: "in-memory-engine.enable", kind: kBool, def: "false", since: "v8.5.0"},
	{name: "in-memory-engine.capacity", kind: kSize, derived: true, since: "v8.5.0"},
	{name: "in-memory-engine.gc-run-interval", kind: kDuration, def: "3m", since: "v8.5.0"},
	{name: "in-memory-engine.mvcc-amplification-threshold", kind: kU64, def: "10", since: "v8.5.0"},
	{name: "in-memory-engine.evict-threshold", kind: kSize, derived: true, since: "v8.5.0"},
	{name: "in-memory-engine.stop-load-threshold", kind: kSize, derived: true, since: "v8.5.0"},
	{name: "in-memory-engine.load-evict-interval", kind: kDuration, def: "5m", since: "v8.5.0"},
	{name: "in-memory-engine.cross-check-interval", kind: kDuration, def: "0s", static: true, since: "v8.5.0"},
}

// pdItems: tidb-facts.md §2.4 (PD list), §3.2 (merge thresholds), §1.3 (the
// `,string` booleans and Go durations). Defaults agree with the pd-ctl
// samples in corpus/config_rows.tsv (docs-cn-pd-control-v5.4-v8.1,
// -v8.5-v9.0, gh-pd-10262).
var pdItems = []configItem{
	{name: "log.level", kind: pString, def: "info"},
	{name: "cluster-version", kind: pString, derived: true},
	{name: "schedule.max-merge-region-size", kind: pInt, derived: true},
	{name: "schedule.max-merge-region-keys", kind: pInt, def: "0"}, // rendered as size×10000 when 0 (§1.3)
	{name: "schedule.patrol-region-interval", kind: pDuration, def: "10ms"},
	{name: "schedule.split-merge-interval", kind: pDuration, def: "1h0m0s"},
	{name: "schedule.max-snapshot-count", kind: pInt, def: "64"},
	{name: "schedule.max-pending-peer-count", kind: pInt, def: "64"},
	{name: "schedule.max-store-down-time", kind: pDuration, def: "30m0s"},
	// corpus gh-pd-10262 (v8.5) prints "48h" for the default.
	{name: "schedule.max-store-preparing-time", kind: pString, def: "48h"},
	{name: "schedule.leader-schedule-policy", kind: pString, def: "count"},
	{name: "schedule.leader-schedule-limit", kind: pInt, def: "4"},
	{name: "schedule.region-schedule-limit", kind: pInt, def: "2048"},
	{name: "schedule.replica-schedule-limit", kind: pInt, def: "64"},
	{name: "schedule.merge-schedule-limit", kind: pInt, def: "8"},
	{name: "schedule.hot-region-schedule-limit", kind: pInt, def: "4"},
	{name: "schedule.hot-region-cache-hits-threshold", kind: pInt, def: "3"},
	{name: "schedule.high-space-ratio", kind: pFloat, def: "0.7"},
	{name: "schedule.low-space-ratio", kind: pFloat, def: "0.8"},
	{name: "schedule.tolerant-size-ratio", kind: pFloat, def: "0"},
	{name: "schedule.enable-remove-down-replica", kind: pBoolString, def: "true"},
	{name: "schedule.enable-replace-offline-replica", kind: pBoolString, def: "true"},
	{name: "schedule.enable-make-up-replica", kind: pBoolString, def: "true"},
	{name: "schedule.enable-remove-extra-replica", kind: pBoolString, def: "true"},
	{name: "schedule.enable-location-replacement", kind: pBoolString, def: "true"},
	{name: "schedule.enable-cross-table-merge", kind: pBoolString, def: "true"},
	{name: "schedule.enable-one-way-merge", kind: pBoolString, def: "false"},
	{name: "schedule.region-score-formula-version", kind: pString, def: "v2"},
	{name: "schedule.scheduler-max-waiting-operator", kind: pInt, def: "5"},
	{name: "schedule.enable-debug-metrics", kind: pBoolString, def: "false"},
	{name: "schedule.enable-heartbeat-concurrent-runner", kind: pBoolString, def: "true", since: "v8.5.0"},
	{name: "schedule.enable-heartbeat-breakdown-metrics", kind: pBoolString, def: "true", since: "v8.5.0"},
	{name: "schedule.enable-joint-consensus", kind: pBoolString, def: "true"},
	{name: "schedule.enable-tikv-split-region", kind: pBoolString, def: "true"},
	{name: "schedule.enable-witness", kind: pBoolString, def: "false"},
	{name: "schedule.enable-diagnostic", kind: pBoolString, def: "true"},
	{name: "schedule.hot-regions-write-interval", kind: pDuration, def: "10m0s"},
	{name: "schedule.hot-regions-reserved-days", kind: pInt, def: "7"},
	{name: "schedule.max-movable-hot-peer-size", kind: pInt, def: "512"},
	{name: "schedule.store-limit-version", kind: pString, def: "v1"},
	{name: "schedule.patrol-region-worker-count", kind: pInt, def: "1", since: "v8.5.0"},
	// §3.2: new in v8.5.5 / v9.0.0.
	{name: "schedule.max-affinity-merge-region-size", kind: pInt, def: "256", since: "v8.5.5"},
	{name: "replication.max-replicas", kind: pInt, def: "3"},
	{name: "replication.location-labels", kind: pString, def: ""},
	{name: "replication.enable-placement-rules", kind: pBoolString, def: "true"},
	{name: "replication.enable-placement-rules-cache", kind: pBoolString, def: "false"},
	{name: "replication.strictly-match-label", kind: pBoolString, def: "false"},
	{name: "replication.isolation-level", kind: pString, def: ""},
	{name: "pd-server.use-region-storage", kind: pBoolString, def: "true"},
	{name: "pd-server.max-gap-reset-ts", kind: pDuration, def: "24h0m0s"},
	{name: "pd-server.key-type", kind: pString, def: "table"},
	{name: "pd-server.metric-storage", kind: pString, def: ""},
	{name: "pd-server.dashboard-address", kind: pString, def: "auto"},
	{name: "pd-server.flow-round-by-digit", kind: pInt, def: "3"},
	{name: "pd-server.min-resolved-ts-persistence-interval", kind: pDuration, def: "1s"},
	{name: "pd-server.server-memory-limit", kind: pFloat, def: "0"},
	{name: "pd-server.server-memory-limit-gc-trigger", kind: pFloat, def: "0.7"},
	{name: "pd-server.enable-gogc-tuner", kind: pBoolString, def: "false"},
	{name: "pd-server.gc-tuner-threshold", kind: pFloat, def: "0.6"},
	{name: "replication-mode.replication-mode", kind: pString, def: "majority"},
	{name: "replication-mode.dr-auto-sync.label-key", kind: pString, def: ""},
	{name: "replication-mode.dr-auto-sync.primary", kind: pString, def: ""},
	{name: "replication-mode.dr-auto-sync.dr", kind: pString, def: ""},
	{name: "replication-mode.dr-auto-sync.primary-replicas", kind: pInt, def: "0"},
	{name: "replication-mode.dr-auto-sync.dr-replicas", kind: pInt, def: "0"},
	{name: "replication-mode.dr-auto-sync.wait-store-timeout", kind: pDuration, def: "1m0s"},
	{name: "replication-mode.dr-auto-sync.pause-region-split", kind: pBoolString, def: "false"},
}

// tidbItems: a few TiDB config-file items (SHOW CONFIG shows TiDB rows too;
// corpus docs-cn-show-config / docs-cn-dynamic-config / docs-cn-ddl-faq-2023).
// TiDB cannot change them with SET CONFIG (§2.2).
var tidbItems = []configItem{
	{name: "advertise-address", kind: dString, derived: true},
	{name: "host", kind: dString, def: "0.0.0.0"},
	// §7: server-version overrides VERSION() (Options.ServerVersion); "" = unset.
	{name: "server-version", kind: dString, derived: true},
	{name: "port", kind: dNumber, derived: true},
	{name: "status.status-port", kind: dNumber, derived: true},
	{name: "store", kind: dString, def: "tikv"},
	{name: "temp-dir", kind: dString, def: "/tmp/tidb"},
	{name: "token-limit", kind: dNumber, def: "1000"},
	{name: "split-table", kind: dBool, def: "true"},
	{name: "log.level", kind: dString, def: "info"},
	{name: "check-mb4-value-in-utf8", kind: dBool, def: "true"},
	// §8.1: TiDB Binlog (and its config) removed in v8.4.0.
	{name: "binlog.enable", kind: dBool, def: "false", before: "v8.4.0"},
	{name: "binlog.binlog-socket", kind: dString, def: "", before: "v8.4.0"},
	{name: "binlog.ignore-error", kind: dBool, def: "false", before: "v8.4.0"},
	{name: "binlog.strategy", kind: dString, def: "range", before: "v8.4.0"},
	{name: "binlog.write-timeout", kind: dString, def: "15s", before: "v8.4.0"},
	// §8.1: deprecate-integer-display-length false→true in v8.5.
	{name: "deprecate-integer-display-length", kind: dBool, derived: true},
	// §2.2: instance.* items mirror INSTANCE-scope variables.
	{name: "instance.tidb_slow_log_threshold", kind: dNumber, def: "300"},
	{name: "instance.max_connections", kind: dNumber, def: "0"},
}

// tiflashItems: TiFlash shows its own items and the raftstore-proxy.* items;
// only raftstore-proxy.* can be changed online (§2.2, §8.2). The proxy is
// TiKV code, so its items use the TiKV kinds. Defaults are TiFlash's
// documented config-file defaults (code defaults, not in tidb-facts.md).
var tiflashItems = []configItem{
	{name: "logger.level", kind: dString, def: "info"},
	{name: "profiles.default.max_memory_usage", kind: dNumber, def: "0"},
	{name: "raftstore-proxy.log-level", kind: kEnum, def: "info", enum: []string{"trace", "debug", "info", "warn", "warning", "error", "critical", "fatal"}, static: true},
	{name: "raftstore-proxy.raftstore.apply-pool-size", kind: kU64, def: "4"},
	{name: "raftstore-proxy.raftstore.store-pool-size", kind: kU64, def: "4"},
	{name: "raftstore-proxy.server.snap-io-max-bytes-per-sec", kind: kSize, def: "100MiB"},
}

// itemsFor returns the item table of a component type.
func itemsFor(typ string) []configItem {
	switch typ {
	case TypeTiKV:
		return tikvItems
	case TypePD:
		return pdItems
	case TypeTiDB:
		return tidbItems
	case TypeTiFlash:
		return tiflashItems
	}
	return nil
}

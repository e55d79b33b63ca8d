package tidbsim

// The data-driven config model: which items each component shows in SHOW
// CONFIG, their value kind (how they are rendered and parsed), default, and
// whether TiKV accepts them online. TiKV and PD keys come from the generated
// upstream table (upstream.go); the tables here hold what it does not give
// (derived defaults, computed in configmodel.go; kinds and values a newtype
// hides), and TiDB's and TiFlash's items, which the table does not cover.

type valueKind int

const (
	// TiKV (and the TiFlash proxy, which is TiKV code): JSON types of the
	// /config output, parsed by `to_change_value` on SET CONFIG
	// (tikv/tikv@v8.5.1:src/config/mod.rs).
	kSize     valueKind = iota // ReadableSize, JSON string "256MiB"
	kDuration                  // ReadableDuration, JSON string "10m"
	kU64                       // unsigned integer, JSON number
	kF64                       // float, JSON number
	kBool                      // bool, JSON bool; parses only true/false
	kString                    // free string
	kEnum                      // string restricted to enum values
	kI64                       // signed integer (i32/i64 fields that may be negative), JSON number

	// PD: merged into Go structs with encoding/json
	// (tikv/pd@v8.5.1:pkg/utils/jsonutil/jsonutil.go MergeJSONObject).
	pInt        // uint64/int, JSON number
	pFloat      // float64, JSON number
	pBoolString // bool tagged `json:",string"`, JSON string "true" (tikv/pd@v8.5.1:pkg/schedule/config/config.go)
	pDuration   // typeutil.Duration, JSON string of Go duration "1h0m0s"
	pString     // string (incl. StringSlice, rendered comma-joined)
	pBool       // bool without `,string`: JSON true/false

	// display-only items of TiDB and TiFlash (never changed by SET CONFIG).
	dString
	dNumber
	dBool
)

func (k valueKind) isNumber() bool {
	return k == kU64 || k == kI64 || k == kF64 || k == pInt || k == pFloat || k == dNumber
}

// configItem is one flattened config key.
type configItem struct {
	name string
	kind valueKind
	def  string // default as stored (see storedValue); ignored when derived
	// derived: the default is computed from other items (configmodel.go).
	derived bool
	// shown: def is what a real cluster showed for the default (a corpus
	// row), kept over the generated table's default.
	shown bool
	// static: TiKV `#[online_config(skip)]`, or a PD key the update API does
	// not accept; SET CONFIG warns "config <leaf> can not be changed".
	static bool
	// unstated: the generated table states no literal default (TiKV computes
	// it from the host, another crate or a constant the generator does not
	// follow) and no hand item models it: SHOW CONFIG leaves the key out
	// until it is set rather than print an invented value.
	unstated bool
	enum     []string
	// hidden: TiKV #[online_config(hidden)]: its /config leaves it out
	// (status_server get_config filters hidden items through get_encoder).
	hidden bool
	// member: the default is a PD member's own value (a placeholder of the
	// surface, configsurface.go), filled per member.
	member bool
	// since/before bound the versions that have a TiDB or TiFlash item
	// (TiKV and PD keys exist where the generated table says): [since, before).
	since, before string
}

// tikvItems are the TiKV items whose behaviour the generated table does not
// give (upstream.go gives every other key, its default and whether it is
// online): defaults TiKV derives from other items or from the modelled host
// at start (configmodel.go), and the log level's values.
var tikvItems = []configItem{
	// The region-size family and the values derived from it in
	// components/raftstore/src/coprocessor/config.rs and
	// components/raftstore/src/store/config.rs (validate), and
	// components/raftstore/src/store/worker/split_config.rs (load-base-split).
	{name: "coprocessor.region-split-size", kind: kSize, derived: true},
	{name: "coprocessor.region-max-size", kind: kSize, derived: true},
	{name: "coprocessor.region-split-keys", kind: kU64, derived: true},
	{name: "coprocessor.region-max-keys", kind: kU64, derived: true},
	{name: "raftstore.raft-log-gc-count-limit", kind: kU64, derived: true},
	{name: "raftstore.raft-log-gc-size-limit", kind: kSize, derived: true},
	{name: "raftstore.region-split-check-diff", kind: kSize, derived: true},
	{name: "split.qps-threshold", kind: kU64, derived: true},
	{name: "split.byte-threshold", kind: kU64, derived: true},
	{name: "split.region-cpu-overload-threshold-ratio", kind: kF64, derived: true},
	// store/config.rs validate fills an unset max_batch_size with 256
	// (components/batch-system/src/config.rs max_batch_size()).
	{name: "raftstore.apply-max-batch-size", kind: kU64, def: "256"},
	{name: "raftstore.store-max-batch-size", kind: kU64, def: "256"},
	// TiKV's LogLevel is a newtype over slog::Level; the level names of
	// https://docs.pingcap.com/tidb/stable/tikv-configuration-file#level.
	{name: "log.level", kind: kEnum, def: "info", enum: []string{"trace", "debug", "info", "warn", "warning", "error", "critical", "fatal"}},
	// block-cache.capacity = 45% of the instance's memory (BLOCK_CACHE_RATE,
	// src/config/mod.rs); the in-memory engine's sizes follow it
	// (components/in_memory_engine/src/config.rs). The other defaults TiKV
	// computes from the machine come from upstream.MachineRule
	// (configsurface.go machineDefaults).
	{name: "storage.block-cache.capacity", kind: kSize, derived: true},
	// backup.sst-max-size defaults to the version's default Region max size
	// (tikv/tikv@v8.5.1:src/config/mod.rs BackupConfig::default,
	// CopConfig::default().region_max_size()).
	{name: "backup.sst-max-size", kind: kSize, derived: true},
	// Defaults the generator does not evaluate, as TiKV prints them:
	// components/causal_ts/src/tso.rs DEFAULT_TSO_BATCH_* (3000 ms, 8192,
	// 100, 100 ms); std::isize::MAX (a JSON number TiDB prints through a
	// float64); the compression levels of src/config/mod.rs
	// (`[No, No, Lz4, Lz4, Lz4, Zstd, Zstd]`, lock/raft CFs `[No; 7]`, as
	// compression_type_level_serde names them); PerfLevel::Uninitialized,
	// printed as 0 (perf_level_serde is numeric,
	// components/engine_traits/src/perf_context.rs); cfg!(feature = "test")
	// false; EncryptionMethod::Plaintext ("plaintext");
	// DEFAULT_GRPC_MEMORY_POOL_QUOTA = isize::MAX bytes
	// (src/server/config.rs).
	{name: "causal-ts.alloc-ahead-buffer", kind: kDuration, def: "3s"},
	{name: "causal-ts.renew-batch-max-size", kind: kU64, def: "8192"},
	{name: "causal-ts.renew-batch-min-size", kind: kU64, def: "100"},
	{name: "causal-ts.renew-interval", kind: kDuration, def: "100ms"},
	{name: "pd.retry-max-count", kind: kI64, def: "9223372036854775807"},
	{name: "rocksdb.defaultcf.compression-per-level", kind: kString, def: compressionLevels},
	{name: "rocksdb.writecf.compression-per-level", kind: kString, def: compressionLevels},
	{name: "rocksdb.lockcf.compression-per-level", kind: kString, def: noCompression},
	{name: "rocksdb.raftcf.compression-per-level", kind: kString, def: noCompression},
	{name: "raftdb.defaultcf.compression-per-level", kind: kString, def: compressionLevels},
	{name: "raftstore.allow-remove-leader", kind: kBool, def: "false"},
	{name: "raftstore.clean-stale-ranges-tick", kind: kU64, def: "10"},
	{name: "raftstore.perf-level", kind: kU64, def: "0"},
	{name: "server.end-point-perf-level", kind: kU64, def: "0"},
	{name: "raftstore.region-worker-tick-interval", kind: kDuration, def: "1s"},
	{name: "security.encryption.data-encryption-method", kind: kString, def: "plaintext"},
	{name: "server.grpc-memory-pool-quota", kind: kSize, def: "9223372036854775807B"},
	// raft-engine.* are the tikv/raft-engine crate's keys (the table lists
	// the section as a prefix); the engine is on and its directory is
	// derived from the data directory (TikvConfig::validate,
	// infer_raft_engine_path). The crate's other keys are not modelled.
	{name: "raft-engine.enable", kind: kBool, def: "true"},
	{name: "raft-engine.dir", kind: kString, def: ""},
	{name: "in-memory-engine.capacity", kind: kSize, derived: true},
	{name: "in-memory-engine.evict-threshold", kind: kSize, derived: true},
	{name: "in-memory-engine.stop-load-threshold", kind: kSize, derived: true},
}

const (
	compressionLevels = `["no","no","lz4","lz4","lz4","zstd","zstd"]`
	noCompression     = `["no","no","no","no","no","no","no"]`
)

// pdItems are the PD items whose behaviour the generated table does not
// give: the cluster version PD derives from its members and the merge size
// that depends on the bootstrap version (PD keeps its stored value on
// upgrade, server/config/persist_options.go Reload). Every other default is
// what PD's own code prints (configsurface.go).
var pdItems = []configItem{
	{name: "cluster-version", kind: pString, derived: true},
	{name: "schedule.max-merge-region-size", kind: pInt, derived: true},
}

// tidbItems: a few TiDB config-file items (SHOW CONFIG shows TiDB rows too;
// corpus docs-cn-show-config / docs-cn-dynamic-config / docs-cn-ddl-faq-2023).
// TiDB cannot change them with SET CONFIG
// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tidb-configuration-dynamically).
var tidbItems = []configItem{
	{name: "advertise-address", kind: dString, derived: true},
	{name: "host", kind: dString, def: "0.0.0.0"},
	// server-version overrides VERSION() (Options.ServerVersion; "" = unset):
	// https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version.
	{name: "server-version", kind: dString, derived: true},
	{name: "port", kind: dNumber, derived: true},
	{name: "status.status-port", kind: dNumber, derived: true},
	{name: "store", kind: dString, def: "tikv"},
	{name: "temp-dir", kind: dString, def: "/tmp/tidb"},
	{name: "token-limit", kind: dNumber, def: "1000"},
	{name: "split-table", kind: dBool, def: "true"},
	{name: "log.level", kind: dString, def: "info"},
	{name: "check-mb4-value-in-utf8", kind: dBool, def: "true"},
	// TiDB Binlog (and its config) removed in v8.4.0 (https://docs.pingcap.com/tidb/stable/release-8.4.0).
	{name: "binlog.enable", kind: dBool, def: "false", before: "v8.4.0"},
	{name: "binlog.binlog-socket", kind: dString, def: "", before: "v8.4.0"},
	{name: "binlog.ignore-error", kind: dBool, def: "false", before: "v8.4.0"},
	{name: "binlog.strategy", kind: dString, def: "range", before: "v8.4.0"},
	{name: "binlog.write-timeout", kind: dString, def: "15s", before: "v8.4.0"},
	// deprecate-integer-display-length false→true in v8.5 (https://docs.pingcap.com/tidb/stable/release-8.5.0).
	{name: "deprecate-integer-display-length", kind: dBool, derived: true},
	// instance.* items mirror INSTANCE-scope variables
	// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tidb-configuration-dynamically).
	{name: "instance.tidb_slow_log_threshold", kind: dNumber, def: "300"},
	{name: "instance.max_connections", kind: dNumber, def: "0"},
}

// tiflashItems: TiFlash shows its own items and the raftstore-proxy.* items;
// only raftstore-proxy.* can be changed online (pingcap/tidb@v8.5.1:
// pkg/executor/set_config.go, TiFlash branch). The proxy is
// TiKV code, so its items use the TiKV kinds. Defaults are TiFlash's
// documented config-file defaults (https://docs.pingcap.com/tidb/stable/tiflash-configuration).
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

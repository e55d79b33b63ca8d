package tidbsim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// instanceConfig is the config of one instance as its /config endpoint would
// return it. All PD instances share one instanceConfig: PD config lives in
// etcd and is cluster-wide (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-pd-configuration-dynamically).
// Guarded by Cluster.Mu.
type instanceConfig struct {
	items map[string]*configItem
	names []string          // sorted keys (rows are sorted by key, fetchClusterConfig)
	vals  map[string]string // stored values, see storedValue
	// fileChanges are the online changes TiKV wrote back into its config file
	// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tikv-configuration-dynamically); nil for
	// other components.
	fileChanges map[string]string
	// byLower indexes names by their lower case (namesByLower).
	byLower map[string][]string
	// local holds, for the PD config every member shares, each member's own
	// values (name, URLs, paths) by address, as rendered
	// (configsurface.go).
	local map[string]map[string]string
}

// storedValue: values are kept as the text of their JSON form: sizes and
// durations as the component renders them ("256MiB", "10m", "1h0m0s"),
// numbers as decimal text, booleans "true"/"false", strings raw.

// renderValue is what SHOW CONFIG prints for a stored value: strings as-is,
// numbers through float64 and json.Marshal, booleans true/false (derived from
// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go fetchClusterConfig, which
// decodes the component's JSON without UseNumber).
func renderValue(it *configItem, stored string) string {
	if it.kind.isNumber() {
		return renderJSONNumber(stored)
	}
	return stored
}

func inVersion(it *configItem, v version.Version) bool {
	if it.since != "" && v.Compare(version.MustParse(it.since)) < 0 {
		return false
	}
	if it.before != "" && v.Compare(version.MustParse(it.before)) >= 0 {
		return false
	}
	return true
}

func newInstanceConfig(typ string, v version.Version, newer []configItem) *instanceConfig {
	ic := &instanceConfig{items: map[string]*configItem{}, vals: map[string]string{}}
	items := append(configTable(typ, v), newer...)
	for i := range items {
		it := &items[i]
		if !inVersion(it, v) {
			continue
		}
		ic.items[it.name] = it
		ic.names = append(ic.names, it.name)
		if !it.derived && !it.unstated && !it.member {
			ic.vals[it.name] = it.def
		}
	}
	sort.Strings(ic.names)
	if typ == TypeTiKV {
		ic.fileChanges = map[string]string{}
	}
	return ic
}

// canonicalValue parses a config-file value for an item and returns its
// stored form, or an error if the component would reject it.
func canonicalValue(it *configItem, raw string) (string, error) {
	switch it.kind {
	case kSize:
		b, err := parseReadableSize(raw)
		if err != nil {
			return "", err
		}
		return formatReadableSize(b), nil
	case kDuration:
		d, err := parseReadableDuration(raw)
		if err != nil {
			return "", err
		}
		return formatReadableDuration(d), nil
	case kU64:
		if _, err := strconv.ParseUint(strings.TrimPrefix(raw, "+"), 10, 64); err != nil {
			return "", fmt.Errorf("invalid unsigned integer %q", raw)
		}
		return strings.TrimPrefix(raw, "+"), nil
	case kI64:
		n, err := strconv.ParseInt(strings.TrimPrefix(raw, "+"), 10, 64)
		if err != nil {
			return "", fmt.Errorf("invalid integer %q", raw)
		}
		return strconv.FormatInt(n, 10), nil
	case kF64, pFloat, dNumber:
		if _, err := strconv.ParseFloat(raw, 64); err != nil {
			return "", fmt.Errorf("invalid number %q", raw)
		}
		return raw, nil
	case pInt:
		if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
			return "", fmt.Errorf("invalid integer %q", raw)
		}
		return raw, nil
	case kBool, pBool, pBoolString, dBool:
		if raw != "true" && raw != "false" {
			return "", fmt.Errorf("invalid boolean %q", raw)
		}
		return raw, nil
	case kEnum:
		for _, e := range it.enum {
			if raw == e {
				return raw, nil
			}
		}
		return "", fmt.Errorf("invalid value %q (one of %s)", raw, strings.Join(it.enum, ", "))
	case pDuration:
		d, err := time.ParseDuration(raw)
		if err != nil {
			return "", err
		}
		return formatPDDuration(d), nil
	}
	return raw, nil
}

// initConfig builds every instance's config: defaults for its version, the
// config-file overrides, then the derived values.
func (c *Cluster) initConfig(overrides []ConfigOverride) error {
	files := map[*Instance]map[string]string{} // explicit config-file values
	for _, o := range overrides {
		typ := strings.ToLower(o.Type)
		matched := false
		for _, in := range c.Instances {
			if in.Type != typ || (o.Instance != "" && in.Address != o.Instance && in.Name() != o.Instance) {
				continue
			}
			matched = true
			if files[in] == nil {
				files[in] = map[string]string{}
			}
			files[in][strings.ToLower(o.Name)] = o.Value
		}
		if !matched {
			return fmt.Errorf("tidbsim: config override %s %s %s: no such instance", o.Type, o.Instance, o.Name)
		}
	}
	var pd *instanceConfig
	for _, in := range c.Instances {
		if in.Type == TypePD && pd != nil {
			in.cfg = pd // one shared PD config (etcd)
			c.pdMemberValues(in, pd)
			continue
		}
		ic := newInstanceConfig(in.Type, in.Version, c.newerItems[in.Type])
		if err := c.deriveConfig(in, ic, files); err != nil {
			return err
		}
		in.cfg = ic
		if in.Type == TypePD {
			pd = ic
			c.pdMemberValues(in, pd)
		}
	}
	return nil
}

// pdMemberValues fills the member's own values of the shared PD config.
func (c *Cluster) pdMemberValues(in *Instance, ic *instanceConfig) {
	r := c.pdPlaceholders(in)
	if ic.local == nil {
		ic.local = map[string]map[string]string{}
	}
	own := map[string]string{}
	for _, name := range ic.names {
		if it := ic.items[name]; it.member {
			own[name] = r.Replace(it.def)
		}
	}
	ic.local[in.Address] = own
}

func applyFile(in *Instance, ic *instanceConfig, file map[string]string) (map[string]bool, error) {
	set := map[string]bool{}
	names := make([]string, 0, len(file))
	for n := range file {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		it, ok := ic.items[name]
		if !ok {
			return nil, fmt.Errorf("tidbsim: %s has no config item %q in %s", in.Name(), name, in.ReleaseVersion())
		}
		v, err := canonicalValue(it, file[name])
		if err != nil {
			return nil, fmt.Errorf("tidbsim: %s config %s: %w", in.Name(), name, err)
		}
		ic.vals[name] = v
		set[name] = true
	}
	return set, nil
}

func (c *Cluster) deriveConfig(in *Instance, ic *instanceConfig, files map[*Instance]map[string]string) error {
	set, err := applyFile(in, ic, files[in])
	if err != nil {
		return err
	}
	switch in.Type {
	case TypeTiKV:
		for k, v := range c.tikvIdentity(in) {
			if _, ok := ic.items[k]; ok && !set[k] {
				ic.vals[k] = v
			}
		}
		deriveTiKV(in, ic, set)
		// From v8.5.3 the four region-size items not set in the file are
		// inherited from last_tikv.toml (the previous run's derived values):
		// tikv/tikv#18503, fixed by tikv/tikv#18545;
		// tikv/tikv@v8.5.3:src/config/mod.rs TikvConfig::compatible_adjust.
		// The previous run is modelled as the bootstrap version (a direct
		// upgrade) with the same config file minus the four region-size items:
		// the upgrade is when a user adds them (tikv#18567's scenario).
		boot := c.BootstrappedFrom
		if in.Version.InheritsRegionSize() && boot.Compare(in.Version) < 0 {
			prev := newInstanceConfig(TypeTiKV, boot, c.newerItems[TypeTiKV])
			pset, err := applyFile(in, prev, filterExisting(files[in], prev))
			if err != nil {
				return err
			}
			deriveTiKVAt(in, prev, pset, boot)
			inherited := false
			for _, n := range regionSizeItems {
				if !set[n] {
					ic.vals[n] = prev.vals[n]
					inherited = true
				}
			}
			if inherited {
				deriveTiKVDependents(ic, set)
				deriveIME(in, ic, set)
			}
		}
		if msg := validateTiKV(ic, in.Version); msg != "" {
			return fmt.Errorf("tidbsim: %s would not start: %s", in.Name(), msg)
		}
	case TypePD:
		// Merge thresholds are persisted at bootstrap and survive upgrades
		// (derived from tikv/pd@v8.5.1:server/config/persist_options.go
		// PersistOptions.Reload; not documented).
		if !set["schedule.max-merge-region-size"] {
			if c.BootstrappedFrom.AtLeast(8, 4, 0) {
				ic.vals["schedule.max-merge-region-size"] = "54"
			} else {
				ic.vals["schedule.max-merge-region-size"] = "20"
			}
		}
		// cluster-version is the minimum TiKV version (https://docs.pingcap.com/tidb/stable/pd-control).
		if !set["cluster-version"] {
			var min *version.Version
			for _, t := range c.InstancesOf(TypeTiKV) {
				if min == nil || t.Version.Compare(*min) < 0 {
					v := t.Version
					min = &v
				}
			}
			cv := strings.TrimPrefix(in.ReleaseVersion(), "v")
			if min != nil {
				cv = fmt.Sprintf("%d.%d.%d", min.Major, min.Minor, min.Patch)
			}
			ic.vals["cluster-version"] = cv
		}
	case TypeTiDB:
		host, port := splitHostPort(in.Address)
		setDerived(ic, set, "advertise-address", host)
		setDerived(ic, set, "port", port)
		_, sport := splitHostPort(in.StatusAddress)
		setDerived(ic, set, "status.status-port", sport)
		setDerived(ic, set, "deprecate-integer-display-length", strconv.FormatBool(in.Version.AtLeast(8, 5, 0)))
		setDerived(ic, set, "server-version", in.serverVersion)
	}
	return nil
}

func filterExisting(file map[string]string, ic *instanceConfig) map[string]string {
	out := map[string]string{}
	for k, v := range file {
		if _, ok := ic.items[k]; ok && !isRegionSizeItem(k) {
			out[k] = v
		}
	}
	return out
}

func splitHostPort(addr string) (string, string) {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return addr, ""
	}
	return addr[:i], addr[i+1:]
}

func setDerived(ic *instanceConfig, set map[string]bool, name, val string) {
	if _, ok := ic.items[name]; ok && !set[name] {
		ic.vals[name] = val
	}
}

var regionSizeItems = []string{"coprocessor.region-split-size", "coprocessor.region-max-size", "coprocessor.region-split-keys", "coprocessor.region-max-keys"}

func sizeOf(ic *instanceConfig, name string) uint64 {
	b, _ := parseReadableSize(ic.vals[name])
	return b
}

func uintOf(ic *instanceConfig, name string) uint64 {
	u, _ := strconv.ParseUint(ic.vals[name], 10, 64)
	return u
}

// deriveTiKV computes TiKV's derived defaults (https://docs.pingcap.com/tidb/stable/tikv-configuration-file)
// for the instance's version.
func deriveTiKV(in *Instance, ic *instanceConfig, set map[string]bool) {
	deriveTiKVAt(in, ic, set, in.Version)
}

// deriveTiKVAt is deriveTiKV for version v of the instance (the previous
// run of an upgraded one).
func deriveTiKVAt(in *Instance, ic *instanceConfig, set map[string]bool, v version.Version) {
	// 256MiB from v8.4.0, 96MiB before (https://docs.pingcap.com/tidb/stable/release-8.4.0; tikv/tikv#17311).
	if !set["coprocessor.region-split-size"] {
		if v.RegionSize256Default() {
			ic.vals["coprocessor.region-split-size"] = formatReadableSize(256 * mib)
		} else {
			ic.vals["coprocessor.region-split-size"] = formatReadableSize(96 * mib)
		}
	}
	split := sizeOf(ic, "coprocessor.region-split-size")
	if !set["coprocessor.region-split-keys"] {
		// split_size_MiB × 10000 (as_mb_f64() * 10000.0) as u64
		ic.vals["coprocessor.region-split-keys"] = strconv.FormatUint(uint64(float64(split)/float64(mib)*10000), 10)
	}
	if !set["coprocessor.region-max-size"] {
		ic.vals["coprocessor.region-max-size"] = formatReadableSize(split / 2 * 3)
	}
	if !set["coprocessor.region-max-keys"] {
		ic.vals["coprocessor.region-max-keys"] = strconv.FormatUint(uintOf(ic, "coprocessor.region-split-keys")/2*3, 10)
	}
	deriveTiKVDependents(ic, set)
	// storage.block-cache.capacity: 45% of system memory, in bytes
	// (https://docs.pingcap.com/tidb/stable/tikv-configuration-file, storage.block-cache).
	if !set["storage.block-cache.capacity"] {
		ic.vals["storage.block-cache.capacity"] = formatReadableSize(blockCacheDefault(in.Machine))
	}
	// backup.sst-max-size is the default Region max size of the version,
	// whatever the config says: BackupConfig::default takes
	// CopConfig::default().region_max_size()
	// (tikv/tikv@v8.5.1:src/config/mod.rs).
	if v.RegionSize256Default() {
		setDerived(ic, set, "backup.sst-max-size", formatReadableSize(384*mib))
	} else {
		setDerived(ic, set, "backup.sst-max-size", formatReadableSize(144*mib))
	}
	machineDefaults(in, ic, set)
	deriveIME(in, ic, set)
}

// deriveIME computes the in-memory-engine defaults
// (tikv/tikv@v8.5.1:components/in_memory_engine/src/config.rs
// InMemoryEngineConfig::validate): capacity
// = 20% of the block cache capped at 5 GiB, at least 2 × split size;
// evict-threshold = capacity − min(capacity/10, 200 MiB); stop-load-threshold
// = evict − min(15% capacity, 2 × split + 200 MiB).
func deriveIME(in *Instance, ic *instanceConfig, set map[string]bool) {
	split := sizeOf(ic, "coprocessor.region-split-size")
	if _, ok := ic.items["in-memory-engine.capacity"]; ok {
		if !set["in-memory-engine.capacity"] {
			block := blockCacheDefault(in.Machine)
			if set["storage.block-cache.capacity"] {
				block = sizeOf(ic, "storage.block-cache.capacity")
			}
			c := block / 5
			if c > 5*gib {
				c = 5 * gib
			}
			if c < 2*split {
				c = 2 * split
			}
			ic.vals["in-memory-engine.capacity"] = formatReadableSize(c)
			// With an automatic capacity and the engine enabled, the block
			// cache gives up half that amount (a manual capacity does not).
			if ic.vals["in-memory-engine.enable"] == "true" && !set["storage.block-cache.capacity"] {
				ic.vals["storage.block-cache.capacity"] = formatReadableSize(blockCacheDefault(in.Machine) - c/2)
			}
		}
		capacity := sizeOf(ic, "in-memory-engine.capacity")
		if !set["in-memory-engine.evict-threshold"] {
			ic.vals["in-memory-engine.evict-threshold"] = formatReadableSize(capacity - minU64(capacity/10, 200*mib))
		}
		evict := sizeOf(ic, "in-memory-engine.evict-threshold")
		if !set["in-memory-engine.stop-load-threshold"] {
			ic.vals["in-memory-engine.stop-load-threshold"] = formatReadableSize(evict - minU64(capacity*15/100, 2*split+200*mib))
		}
	}
}

// deriveTiKVDependents derives the items that follow the region split size
// (tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs Config::validate,
// components/raftstore/src/store/worker/split_config.rs SplitConfig::optimize_for,
// coprocessor bucket switch).
func deriveTiKVDependents(ic *instanceConfig, set map[string]bool) {
	split := sizeOf(ic, "coprocessor.region-split-size")
	if !set["raftstore.region-split-check-diff"] {
		ic.vals["raftstore.region-split-check-diff"] = formatReadableSize(split / 16)
	}
	if !set["raftstore.raft-log-gc-size-limit"] {
		ic.vals["raftstore.raft-log-gc-size-limit"] = formatReadableSize(split * 3 / 4)
	}
	if !set["raftstore.raft-log-gc-count-limit"] {
		ic.vals["raftstore.raft-log-gc-count-limit"] = strconv.FormatUint(split*3/4/kib, 10)
	}
	// qps 3000 (7000 if region size >= 4 GiB), byte 30 MiB (100 MiB),
	// cpu ratio 0.25 (0.75). byte-threshold is a plain number of bytes.
	big := split >= 4*gib
	pick := func(small, large string) string {
		if big {
			return large
		}
		return small
	}
	setDerived(ic, set, "split.qps-threshold", pick("3000", "7000"))
	setDerived(ic, set, "split.byte-threshold", pick(strconv.FormatUint(30*mib, 10), strconv.FormatUint(100*mib, 10)))
	setDerived(ic, set, "split.region-cpu-overload-threshold-ratio", pick("0.25", "0.75"))
}

func minU64(a, b uint64) uint64 {
	if a < b {
		return a
	}
	return b
}

// tikvValidateAt is the `[file:line]: ` prefix TiKV's box_err! adds to
// coprocessor validation errors (components/raftstore/src/coprocessor/
// config.rs `validate`, `validate_bucket_size`). The lines are those of the
// master source read (SPLIT_SIZE 96MiB: max size at 179, max keys at 192,
// bucket at 146); from v8.4.0 the SPLIT_SIZE doc comment grew by two lines
// (tikv/tikv@v8.4.0:components/raftstore/src/coprocessor/config.rs, the
// SPLIT_SIZE comment "In version >= 8.3.0 …"), so +2. Unconfirmed per
// release: match on the text after the prefix.
func tikvValidateAt(v version.Version, line int) string {
	if v.RegionSize256Default() {
		line += 2
	}
	return fmt.Sprintf("[components/raftstore/src/coprocessor/config.rs:%d]: ", line)
}

// validateTiKV is the part of TikvConfig::validate that the model covers
// (tikv/tikv@v8.5.1:components/raftstore/src/coprocessor/config.rs
// Config::validate: "region max size X must >= split size Y", sizes in bytes; the keys
// pair; bucket sizes when buckets are enabled). It returns "" when valid, else
// the Debug rendering of the error as TiKV's status server prints it after
// "failed to update, error: ".
func validateTiKV(ic *instanceConfig, v version.Version) string {
	split, max := sizeOf(ic, "coprocessor.region-split-size"), sizeOf(ic, "coprocessor.region-max-size")
	if max < split {
		return fmt.Sprintf(`Other("%sregion max size %d must >= split size %d")`, tikvValidateAt(v, 179), max, split)
	}
	sk, mk := uintOf(ic, "coprocessor.region-split-keys"), uintOf(ic, "coprocessor.region-max-keys")
	if mk < sk {
		return fmt.Sprintf(`Other("%sregion max keys %d must >= split keys %d")`, tikvValidateAt(v, 192), mk, sk)
	}
	if ic.vals["coprocessor.enable-region-bucket"] == "true" {
		if bucket := sizeOf(ic, "coprocessor.region-bucket-size"); split < bucket {
			return fmt.Sprintf(`Other("%sregion split size %d must >= region bucket size %d")`, tikvValidateAt(v, 146), split, bucket)
		}
	}
	return ""
}

// ---- Go API for tests ----

// ConfigValue returns the value SHOW CONFIG prints for item name on the
// instance with address addr.
func (c *Cluster) ConfigValue(addr, name string) (string, bool) {
	in, ok := c.Instance(addr)
	if !ok {
		return "", false
	}
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return in.cfg.render(addr, name)
}

// render is what the instance at addr prints for name.
func (ic *instanceConfig) render(addr, name string) (string, bool) {
	it, ok := ic.items[name]
	if !ok || it.hidden {
		return "", false
	}
	if it.member {
		v, ok := ic.local[addr][name]
		return v, ok
	}
	v, set := ic.vals[name]
	if it.unstated && !set {
		return "", false
	}
	// PD's GetConfig (tikv/pd@v8.5.1:server/api/config.go) replaces an unset
	// max-merge-region-keys with
	// max-merge-region-size × 10000.
	if name == "schedule.max-merge-region-keys" && v == "0" {
		size, _ := strconv.ParseUint(ic.vals["schedule.max-merge-region-size"], 10, 64)
		v = strconv.FormatUint(size*10000, 10)
	}
	return renderValue(it, v), true
}

// ConfigFileChanges returns the items an online change wrote back into the
// config file of the TiKV instance at addr
// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tikv-configuration-dynamically), as
// name → rendered value; nil for other components.
func (c *Cluster) ConfigFileChanges(addr string) map[string]string {
	in, ok := c.Instance(addr)
	if !ok {
		return nil
	}
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if in.cfg.fileChanges == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range in.cfg.fileChanges {
		out[k] = v
	}
	return out
}

// rows returns the (name, rendered value) pairs the instance at addr prints,
// sorted by name, of the names m keeps (nil: all). Call with c.Mu held.
func (ic *instanceConfig) rows(addr string, m *Match) [][2]string {
	names := ic.names
	if m != nil {
		names = ic.matching(m)
	}
	out := make([][2]string, 0, len(names))
	for _, n := range names {
		if v, ok := ic.render(addr, n); ok {
			out = append(out, [2]string{n, v})
		}
	}
	return out
}

// matching returns the item names m keeps, sorted, looking up the values m
// allows rather than testing every name. Call with c.Mu held.
func (ic *instanceConfig) matching(m *Match) []string {
	vals, lowered := m.Lookups()
	seen := make(map[string]bool, len(vals))
	out := make([]string, 0, len(vals))
	for i, v := range vals {
		cands := vals[i : i+1]
		if lowered {
			cands = ic.namesByLower()[v]
		}
		for _, n := range cands {
			if _, ok := ic.items[n]; ok && !seen[n] && m.Keep(n) {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// namesByLower indexes the item names by their lower case (built on first
// use: the names never change after newInstanceConfig). Call with c.Mu held.
func (ic *instanceConfig) namesByLower() map[string][]string {
	if ic.byLower == nil {
		ic.byLower = make(map[string][]string, len(ic.names))
		for _, n := range ic.names {
			l := strings.ToLower(n)
			ic.byLower[l] = append(ic.byLower[l], n)
		}
	}
	return ic.byLower
}

// blockCacheDefault is (total_mem as f64 * BLOCK_CACHE_RATE) as u64 with
// BLOCK_CACHE_RATE = 0.45 (TiKV src/config/mod.rs), on the instance's
// machine.
func blockCacheDefault(m upstream.Machine) uint64 {
	return uint64(float64(m.Memory) * 0.45)
}

func isRegionSizeItem(name string) bool {
	for _, n := range regionSizeItems {
		if n == name {
			return true
		}
	}
	return false
}

// SetTiDBConfigLocked sets a display-only config item of a TiDB instance, for
// the TiDB config items that mirror INSTANCE-scoped variables
// (instance.tidb_slow_log_threshold ↔ tidb_slow_log_threshold,
// instance.max_connections ↔ max_connections;
// https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tidb-configuration-dynamically). value is
// stored as given (numbers as decimal text). The caller must hold c.Mu.
func (c *Cluster) SetTiDBConfigLocked(in *Instance, name, value string) error {
	if in.Type != TypeTiDB {
		return fmt.Errorf("tidbsim: %s is not a tidb instance", in.Name())
	}
	it, ok := in.cfg.items[name]
	if !ok {
		return fmt.Errorf("tidbsim: tidb has no config item %q", name)
	}
	v, err := canonicalValue(it, value)
	if err != nil {
		return fmt.Errorf("tidbsim: tidb config %s: %w", name, err)
	}
	in.cfg.vals[name] = v
	return nil
}

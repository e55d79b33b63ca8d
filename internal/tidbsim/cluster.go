package tidbsim

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// Component types (the TYPE column of CLUSTER_INFO / SHOW CONFIG,
// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go fetchClusterConfig).
const (
	TypeTiDB    = "tidb"
	TypePD      = "pd"
	TypeTiKV    = "tikv"
	TypeTiFlash = "tiflash"
)

// DefaultVersion is the version of every component unless overridden.
const DefaultVersion = "v8.5.1"

// Options describe the emulated cluster. The zero value is a v8.5.1 cluster of
// 1 tidb, 1 pd and 3 tikv listening on 127.0.0.1:0.
type Options struct {
	// Addr is the listen address of the first TiDB instance ("127.0.0.1:0"
	// when empty). TiDB instance i listens on port+i (or an ephemeral port
	// when the port is 0).
	Addr string
	// Host is the host used in the (fictitious) addresses of PD, TiKV and
	// TiFlash instances and TiDB status addresses. Default "127.0.0.1".
	Host string
	// Version is the version of every component (default v8.5.1); the
	// per-component fields override it.
	Version                                             string
	TiDBVersion, TiKVVersion, PDVersion, TiFlashVersion string
	// InstanceVersions overrides single instances, keyed "<type>-<index>"
	// (e.g. "tikv-2": "v8.5.3") for mixed-version clusters (rolling upgrades).
	InstanceVersions map[string]string
	// Instance counts. 0 means the default (1 tidb, 1 pd, 3 tikv, 0 tiflash);
	// -1 means none (a cluster needs at least one tidb).
	TiDB, TiKV, PD, TiFlash int
	// BootstrappedFrom is the version the cluster was first bootstrapped with
	// (default: the PD version). PD keeps the schedule config persisted in etcd
	// at bootstrap across upgrades (derived from
	// tikv/pd@v8.5.1:server/config/persist_options.go PersistOptions.Reload).
	BootstrappedFrom string
	// Config sets non-default config values at startup, as if written in the
	// components' config files (see ConfigOverride).
	Config []ConfigOverride
	// SQL statements executed as root after startup (seeding variables,
	// resource groups, users).
	SQL []string
	// Faults injected from the start.
	Faults Faults
	// SEM enables Security Enhanced Mode (TiDB Cloud): CLUSTER_CONFIG and
	// other system tables are invisible
	// (pingcap/tidb@v8.5.1:pkg/util/sem/sem.go IsInvisibleTable).
	SEM bool
	// ServerVersion is TiDB's `server-version` config item on every TiDB
	// instance (empty = not set): VERSION(), @@version, the handshake and
	// CLUSTER_INFO.VERSION of TiDB then return it verbatim, while
	// TIDB_VERSION() keeps the build's release version
	// (https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version).
	ServerVersion string
	// NewerVariables and NewerConfig add the settings of a release newer
	// than the tables this package models (newer.go): a cluster newer than
	// the client that manages it.
	NewerVariables []NewerVariable
	NewerConfig    []NewerConfigItem
	// StatementsSummary seeds the statement summary tables
	// (stmtsummary.go): statistics per statement and window.
	StatementsSummary []StatementStat
	// Now is the cluster's clock (statement summary windows, NOW(),
	// UNIX_TIMESTAMP()); nil means time.Now. Tests pin it.
	Now func() time.Time
	// Machine is the host of every instance (zero: DefaultMachine, 8 CPUs
	// and 64 GiB); InstanceMachines overrides single instances, keyed
	// "<type>-<index>". CLUSTER_HARDWARE reports it and TiKV computes its
	// machine-dependent defaults from it (hardware.go, configmodel.go).
	Machine          upstream.Machine
	InstanceMachines map[string]upstream.Machine
}

// ConfigOverride sets one config item in the config file of every instance of
// Type, or of the one instance whose address is Instance.
type ConfigOverride struct {
	Type     string `json:"type" toml:"type"`
	Instance string `json:"instance,omitempty" toml:"instance"`
	Name     string `json:"name" toml:"name"`
	Value    string `json:"value" toml:"value"`
}

// Instance is one server of the cluster.
type Instance struct {
	Type          string
	Index         int    // position among instances of its type
	Address       string // service address, the INSTANCE column
	StatusAddress string // HTTP status address (PD: same as Address, information-schema-cluster-info)
	Version       version.Version
	GitHash       string
	StartTime     time.Time
	ServerID      int64 // TiDB's SERVER_ID (0 for others)
	// serverVersion is the TiDB `server-version` config (Options.ServerVersion).
	serverVersion string
	// Machine is the instance's host (Options.Machine, InstanceMachines).
	Machine upstream.Machine
	// tidbVersion (tidbVersionString) and infoVersion (CLUSTER_INFO.VERSION,
	// clusterInfoVersion) are derived once from the fields above, which never
	// change.
	tidbVersion, infoVersion string

	// cfg is the instance's config (guarded by Cluster.Mu).
	cfg *instanceConfig
}

// Name is "<type>-<index>", e.g. "tikv-2".
func (in *Instance) Name() string { return fmt.Sprintf("%s-%d", in.Type, in.Index) }

// ReleaseVersion is the version tag, e.g. "v8.5.1".
func (in *Instance) ReleaseVersion() string {
	r := in.Version.Raw
	if !strings.HasPrefix(r, "v") {
		r = "v" + r
	}
	return r
}

// Cluster is the shared state of one emulated cluster.
type Cluster struct {
	// Mu guards all mutable cluster state: instance config, faults,
	// counters and every extension state stored with SetExt. Do not hold it
	// while sleeping or blocking (e.g. waiting for GET_LOCK).
	Mu sync.Mutex

	// Instances in server-list order: tidb, pd, tikv, tiflash (the order of
	// TiDB's GetClusterServerInfo, pingcap/tidb@v8.5.1:pkg/infoschema/tables.go).
	// Immutable.
	Instances []*Instance
	// BootstrappedFrom is the version the cluster was bootstrapped with.
	BootstrappedFrom version.Version
	// SEM is Security Enhanced Mode (immutable).
	SEM bool
	// newerVars and newerItems are Options.NewerVariables and
	// Options.NewerConfig, validated (immutable).
	newerVars  map[string]*SysVarDef
	newerItems map[string][]configItem

	ext            map[any]any
	qlog           queryLog
	fault          Faults
	contacts       int
	contactsByAddr map[string]int
	nextConnID     uint32
	// now is Options.Now or time.Now (immutable).
	now func() time.Time
	// opts are the options the cluster was started with (immutable): domain
	// inits read their part (StatementsSummary).
	opts Options
	// sleep waits out injected latency (time.Sleep; tests replace it, with
	// Mu held, to observe the latency without timing anything). Guarded by Mu.
	sleep func(time.Duration)
}

// Now is the cluster's clock (Options.Now, else time.Now).
func (c *Cluster) Now() time.Time { return c.now() }

// Ext returns the cluster-wide extension state stored under key. Call with
// c.Mu held if the state is mutable.
func (c *Cluster) Ext(key any) any { return c.ext[key] }

// SetExt stores cluster-wide extension state (normally from a
// RegisterClusterInit function).
func (c *Cluster) SetExt(key, val any) { c.ext[key] = val }

// InstancesOf returns the instances of one type in server-list order.
func (c *Cluster) InstancesOf(typ string) []*Instance {
	var out []*Instance
	for _, in := range c.Instances {
		if in.Type == typ {
			out = append(out, in)
		}
	}
	return out
}

// Instance returns the instance with service address addr.
func (c *Cluster) Instance(addr string) (*Instance, bool) {
	for _, in := range c.Instances {
		if in.Address == addr {
			return in, true
		}
	}
	return nil, false
}

func (c *Cluster) newConnID() uint32 {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.nextConnID++
	return c.nextConnID
}

// newCluster builds the topology and config model. tidbAddrs are the real
// listen addresses of the TiDB instances.
func newCluster(o Options, tidbAddrs []string) (*Cluster, error) {
	host := o.Host
	if host == "" {
		host = "127.0.0.1"
	}
	base := o.Version
	if base == "" {
		base = DefaultVersion
	}
	compVersion := func(typ, override string) string {
		if override != "" {
			return override
		}
		return base
	}
	counts := map[string]int{TypeTiDB: len(tidbAddrs), TypePD: orDefault(o.PD, 1), TypeTiKV: orDefault(o.TiKV, 3), TypeTiFlash: orDefault(o.TiFlash, 0)}
	versions := map[string]string{
		TypeTiDB: compVersion(TypeTiDB, o.TiDBVersion), TypePD: compVersion(TypePD, o.PDVersion),
		TypeTiKV: compVersion(TypeTiKV, o.TiKVVersion), TypeTiFlash: compVersion(TypeTiFlash, o.TiFlashVersion),
	}
	start := time.Now().Truncate(time.Second)
	c := &Cluster{ext: map[any]any{}, contactsByAddr: map[string]int{}, sleep: time.Sleep, now: o.Now, opts: o}
	if c.now == nil {
		c.now = time.Now
	}
	used, usedMachine := map[string]bool{}, map[string]bool{}
	for _, typ := range []string{TypeTiDB, TypePD, TypeTiKV, TypeTiFlash} {
		for i := 0; i < counts[typ]; i++ {
			key := fmt.Sprintf("%s-%d", typ, i)
			vs := versions[typ]
			if v, ok := o.InstanceVersions[key]; ok {
				vs = v
				used[key] = true
			}
			v, err := version.Parse(vs)
			if err != nil {
				return nil, fmt.Errorf("tidbsim: %s version: %w", key, err)
			}
			in := &Instance{Type: typ, Index: i, Version: v, StartTime: start, Machine: o.Machine}
			if in.Machine == (upstream.Machine{}) {
				in.Machine = DefaultMachine
			}
			if m, ok := o.InstanceMachines[key]; ok {
				in.Machine = m
				usedMachine[key] = true
			}
			switch typ {
			case TypeTiDB:
				in.Address = tidbAddrs[i]
				in.StatusAddress = fmt.Sprintf("%s:%d", host, 10080+i)
				in.ServerID = int64(i + 1)
				in.serverVersion = o.ServerVersion
			case TypePD:
				in.Address = fmt.Sprintf("%s:%d", host, 2379+3*i)
				in.StatusAddress = in.Address // PD status address == address (tables.go GetPDServerInfo)
			case TypeTiKV:
				in.Address = fmt.Sprintf("%s:%d", host, 20160+i)
				in.StatusAddress = fmt.Sprintf("%s:%d", host, 20180+i)
			case TypeTiFlash:
				in.Address = fmt.Sprintf("%s:%d", host, 3930+i)
				in.StatusAddress = fmt.Sprintf("%s:%d", host, 20292+i)
			}
			sum := sha1.Sum([]byte(typ + "/" + v.Raw))
			in.GitHash = hex.EncodeToString(sum[:])
			in.tidbVersion = tidbVersionString(in)
			in.infoVersion = clusterInfoVersion(in)
			c.Instances = append(c.Instances, in)
		}
	}
	for k := range o.InstanceVersions {
		if !used[k] {
			return nil, fmt.Errorf("tidbsim: instance version override %q names no instance", k)
		}
	}
	for k, m := range o.InstanceMachines {
		if !usedMachine[k] {
			return nil, fmt.Errorf("tidbsim: instance machine %q names no instance", k)
		}
		if m.CPU <= 0 || m.Memory == 0 {
			return nil, fmt.Errorf("tidbsim: instance machine %q needs CPUs and memory", k)
		}
	}
	boot := o.BootstrappedFrom
	if boot == "" {
		boot = versions[TypePD]
	}
	bv, err := version.Parse(boot)
	if err != nil {
		return nil, fmt.Errorf("tidbsim: bootstrapped-from version: %w", err)
	}
	c.BootstrappedFrom = bv
	c.SEM = o.SEM
	if c.newerVars, err = newerVariableDefs(o.NewerVariables); err != nil {
		return nil, err
	}
	if c.newerItems, err = newerConfigItems(o.NewerConfig); err != nil {
		return nil, err
	}
	if err := c.initConfig(o.Config); err != nil {
		return nil, err
	}
	c.SetFaults(o.Faults)
	if err := validateStatementStats(o.StatementsSummary, counts[TypeTiDB]); err != nil {
		return nil, err
	}
	for _, fn := range clusterInits {
		fn(c)
	}
	return c, nil
}

func orDefault(n, def int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return def
	}
	return n
}

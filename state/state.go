package state

import (
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/version"
)

// Component is a TiDB cluster component type as printed in the TYPE column of
// SHOW CONFIG / CLUSTER_INFO (https://docs.pingcap.com/tidb/stable/sql-statement-show-config).
type Component string

const (
	TiDB    Component = "tidb"
	TiKV    Component = "tikv"
	PD      Component = "pd"
	TiFlash Component = "tiflash"
)

// Components lists the config-bearing components in the order tiform reports them.
var Components = []Component{TiDB, PD, TiKV, TiFlash}

// LiteralType is the type a value was written with in HCL. It decides nothing
// about comparison (the catalog does); it only matters for keys the catalog
// does not know, where tiform must pick a SQL literal form on its own.
type LiteralType int

const (
	LiteralString LiteralType = iota
	LiteralNumber
	LiteralBool
)

// Value is one setting's value as text: as written in HCL (desired) or as
// rendered by the component (live). Text for HCL booleans is "true"/"false";
// for HCL numbers, the shortest decimal form.
type Value struct {
	Text string
	Type LiteralType
	// Sensitive is set when the value comes from an input variable marked
	// sensitive (directly or through an expression): every view, plan file
	// and log shows "(sensitive)" instead of it. Only component settings and
	// system variables may be sensitive (schema refuses a sensitive value
	// anywhere else).
	Sensitive bool
}

// SensitiveText stands for a sensitive value wherever a value is shown.
const SensitiveText = "(sensitive)"

// Shown is v's text as views show it: SensitiveText when v is sensitive.
func (v Value) Shown() string {
	if v.Sensitive {
		return SensitiveText
	}
	return v.Text
}

// ---------------------------------------------------------------------------
// Desired state (from HCL)

// Desired is everything the configuration declares, resolved per cluster: the
// top-level baseline merged with each cluster block's overrides.
type Desired struct {
	Clusters []*DesiredCluster
	// ConfigHash is a hash of the configuration files' contents (saved plans use it).
	ConfigHash string
	// Sources is the configuration's text with every secret masked, for the
	// snippets of diagnostics raised after loading (the planner's). UI only.
	Sources diag.Sources
	// Rollout is the order apply changes the clusters in (nil: all at once,
	// as selected); Windows the change windows and blackouts (rollout.go,
	// window.go).
	Rollout *Rollout
	Windows []Window
}

// DesiredCluster is the resolved desired state of one cluster.
type DesiredCluster struct {
	Name string
	// DSN is secret material: it may contain a password and must never be printed,
	// written to a plan, a snapshot, a log or an error message.
	DSN string
	// DSNEnv is the environment variable the cluster block's dsn reads when
	// it is exactly env("NAME") (a name, no secret); "" otherwise.
	DSNEnv string
	Labels map[string]string
	// TiUPCluster is the name `tiup cluster` commands know the cluster by
	// (tiup_cluster in its cluster block); "" when not declared.
	TiUPCluster string
	// Persisted is the persisted layer its cluster block names
	// (tiup_topology, operator_manifests), read at load; nil when none.
	Persisted *Persisted
	Range     diag.SourceRange

	// Config holds component settings, type-wide (Instance == "") and per-instance.
	Config []ConfigSetting
	// Variables holds TiDB system variables to be set with SET GLOBAL.
	Variables []VariableSetting
	// ResourceGroups holds declared groups. Groups live but not declared are
	// "unmanaged": reported, and dropped only when DropUnmanagedGroups is true.
	ResourceGroups      []ResourceGroup
	DropUnmanagedGroups bool
	// AllowInstanceVariables opts in to applying INSTANCE-scoped variables,
	// which only reach the connected TiDB instance (https://docs.pingcap.com/tidb/stable/system-variables).
	AllowInstanceVariables bool
	// ReportUnmanaged asks drift reports for the cluster's unmanaged drift
	// (unmanaged_settings = "report"): undeclared settings whose live value
	// is not the default.
	ReportUnmanaged  bool
	Acknowledgements []Acknowledgement
	// Ignores are accepted, known drift: differences on the addresses they
	// match are neither planned nor applied, and every view lists them.
	Ignores []Ignore
}

// ConfigSetting is one declared component config item.
type ConfigSetting struct {
	Component Component
	// Instance is "" for every instance of Component, or a service address
	// ("10.0.1.17:20160") as in CLUSTER_INFO.INSTANCE (pingcap/tidb@v8.5.1:
	// pkg/executor/set_config.go matches SET CONFIG targets against it).
	Instance string
	// Key is the flattened name as SHOW CONFIG prints it ("coprocessor.region-split-size").
	Key   string
	Value Value
	Range diag.SourceRange
}

// VariableSetting is one declared TiDB system variable (GLOBAL scope unless the
// catalog says INSTANCE).
type VariableSetting struct {
	Name  string
	Value Value
	Range diag.SourceRange
}

// Acknowledgement suppresses one guard finding code until a date.
type Acknowledgement struct {
	Code   string
	Reason string
	// Until is the last day the acknowledgement is valid (inclusive); zero = no expiry.
	Until time.Time
	Range diag.SourceRange
}

// Ignore accepts known drift on the addresses Pattern matches, until a date:
// ignore "tikv.raftstore.*" { reason = "…", until = "2027-03-31" }.
type Ignore struct {
	Pattern AddressPattern
	Reason  string
	// Until is the last day the ignore holds (inclusive, UTC); zero = no expiry.
	Until time.Time
	Range diag.SourceRange
}

// ---------------------------------------------------------------------------
// Resource groups and users (both sides)

// UnlimitedRU is the RU_PER_SEC value TiDB renders as UNLIMITED (math.MaxInt32:
// pingcap/tidb@v8.5.1:pkg/executor/infoschema_reader.go, setDataFromResourceGroups).
const UnlimitedRU int64 = 2147483647

// Burst modes, in the v9.0 vocabulary
// (https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group). Before v9.0
// INFORMATION_SCHEMA prints YES (= BurstUnlimited) or NO (= BurstOff).
const (
	BurstOff       = "OFF"
	BurstModerated = "MODERATED"
	BurstUnlimited = "UNLIMITED"
)

// BurstSyntax is the BURSTABLE vocabulary a TiDB speaks, as its
// INFORMATION_SCHEMA.RESOURCE_GROUPS shows it: the version alone does not
// tell, because development builds of v9.0 differ (the upstream master of
// 2025-11-26, v9.0.0-beta.2.pre, still prints YES/NO and refuses BURSTABLE =
// UNLIMITED: pingcap/tidb@e4e814fdc0af:pkg/parser/parser.y,
// DirectResourceGroupOption; the modes came with pingcap/tidb#59218).
type BurstSyntax string

const (
	// BurstSyntaxUnknown: no group was read; the version decides (Modes).
	BurstSyntaxUnknown BurstSyntax = ""
	// BurstSyntaxBool: YES/NO; CREATE/ALTER take BURSTABLE [= TRUE|FALSE].
	BurstSyntaxBool BurstSyntax = "bool"
	// BurstSyntaxModes: OFF/MODERATED/UNLIMITED; BURSTABLE = mode.
	BurstSyntaxModes BurstSyntax = "modes"
)

// Modes reports whether a TiDB of this syntax and version takes BURSTABLE =
// OFF|MODERATED|UNLIMITED: what the cluster showed, else what version v
// documents (version.BurstModes).
func (s BurstSyntax) Modes(v version.Version) bool {
	switch s {
	case BurstSyntaxModes:
		return true
	case BurstSyntaxBool:
		return false
	}
	return v.BurstModes()
}

// ResourceGroup is a resource group. In a desired group a nil pointer field
// means "not declared: leave as is"; in a live group nil means the cluster
// reported NULL or the version has no such column.
type ResourceGroup struct {
	Name     string
	RUPerSec *int64 // UnlimitedRU for UNLIMITED
	Priority *string
	// Burstable is one of BurstOff, BurstModerated, BurstUnlimited. A desired
	// `burstable = true` is recorded as BurstableBool so the planner can map it
	// per version (https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group).
	Burstable     *string
	BurstableBool *bool
	// QueryLimit: in a desired group, non-nil with Empty=true means "declared
	// empty: remove any limit" (QUERY_LIMIT=NULL).
	QueryLimit *QueryLimit
	Background *Background
	// Users bound to the group, as "user@host" (desired) or read from mysql.user
	// (live). Desired nil = not managed; empty non-nil = no user may be bound.
	Users []UserRef

	PreventDestroy bool
	Range          diag.SourceRange
	// FieldRanges maps an HCL attribute name ("ru_per_sec", "priority", …) to its
	// source range, for guards and plan addresses.
	FieldRanges map[string]diag.SourceRange
}

// QueryLimit is a runaway-query rule
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries). Durations are
// canonical Go durations ("1m0s") as INFORMATION_SCHEMA prints them.
type QueryLimit struct {
	Empty         bool
	ExecElapsed   string
	ProcessedKeys *int64
	RU            *int64
	Action        string // DRYRUN, COOLDOWN, KILL, SWITCH_GROUP
	SwitchGroup   string // target group when Action == SWITCH_GROUP
	Watch         string // EXACT, SIMILAR, PLAN or ""
	WatchDuration string // Go duration, or "UNLIMITED"/"" for unlimited
}

// BackgroundTaskTypes are the task types BACKGROUND = (TASK_TYPES = '…')
// accepts, sorted: TiDB checks each against client-go's explicit request
// sources (pingcap/tidb@e4e814fdc0af:pkg/ddl/resource_group.go,
// parseBackgroundJobTypes; tikv/client-go@471c5bd6ec4d:util/request_source.go,
// ExplicitTypeList). The docs' "import" is not one: TiDB refuses it
// ("Unknown background task name 'import'"); imports run as "lightning".
var BackgroundTaskTypes = []string{"background", "br", "ddl", "dumpling", "lightning", "stats"}

// MaxUtilizationLimit is the largest BACKGROUND UTILIZATION_LIMIT; TiDB
// accepts 1 to 100 ("the valid range is (0, 100]",
// pingcap/tidb@e4e814fdc0af:pkg/ddl/resource_group.go, SetDirectResourceGroupBackgroundOption).
const MaxUtilizationLimit = 100

// Background is the default group's background-task setting
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).
type Background struct {
	Empty            bool
	TaskTypes        []string
	UtilizationLimit *int64
}

// UserRef names a MySQL account.
type UserRef struct {
	User, Host string
}

// String renders the account the way HCL writes it: user@host.
func (u UserRef) String() string { return u.User + "@" + u.Host }

// UserBinding is a live account and the resource group in its User_attributes
// (https://docs.pingcap.com/tidb/stable/sql-statement-alter-user). ResourceGroup is
// "" when none is set (that is `default`).
type UserBinding struct {
	UserRef
	ResourceGroup string
}

// ---------------------------------------------------------------------------
// Live state (from a cluster or a snapshot)

// Live is what inspection read from one cluster.
type Live struct {
	ReadAt time.Time
	// ServerVersion is VERSION() of the connected TiDB.
	ServerVersion string
	// ConnectedInstance is the TiDB instance this session is on, when known.
	ConnectedInstance string
	// Secure is true when the read went over TLS (the DSN asked for it), as
	// an apply with the same DSN will: TiDB accepts some values only from a
	// secure connection (require_secure_transport = ON). False for a
	// snapshot.
	Secure    bool
	Instances []Instance
	// Config rows, one per (component, instance, key) as the component rendered them.
	// Only components that inspection was asked for are present.
	Config []ConfigRow
	// ConfigRead lists the components whose config was read.
	ConfigRead []Component
	// Variables are GLOBAL values by lower-case name.
	Variables map[string]string
	// VariablesRead is false when inspection did not read variables.
	VariablesRead  bool
	ResourceGroups []ResourceGroup
	Users          []UserBinding
	// ResourceGroupsRead / UsersRead are false when inspection did not read
	// them (then ResourceGroups / Users say nothing about the cluster).
	ResourceGroupsRead bool
	UsersRead          bool
	// BurstSyntax is the BURSTABLE vocabulary RESOURCE_GROUPS printed
	// (unknown when no group was read).
	BurstSyntax BurstSyntax
	// Warnings are SHOW WARNINGS rows seen after the reads.
	Warnings []string
	// Offline is set when the state came from a snapshot file.
	Offline *SnapshotInfo
	// SEM is true when the cluster hides CLUSTER_CONFIG (Security Enhanced Mode,
	// TiDB Cloud; pingcap/tidb@v8.5.1:pkg/util/sem/sem.go, IsInvisibleTable).
	SEM bool

	// ServerVersionParsed is ServerVersion parsed (or, when the TiDB config
	// server-version overrides VERSION(), tidb_version()'s Release Version);
	// zero when neither parses (https://docs.pingcap.com/tidb/stable/tidb-functions).
	ServerVersionParsed version.Version
	// InstanceVariables lists the names in Variables whose scope is INSTANCE:
	// their values come from ConnectedInstance only; other TiDB instances may
	// differ (https://docs.pingcap.com/tidb/stable/system-variables).
	InstanceVariables []string
	// Notes are facts about the read a reader should see that are not
	// warnings and do not make the read incomplete (e.g. an unparseable
	// instance version).
	Notes []string
	// Machines is, by instance address, the host INFORMATION_SCHEMA.CLUSTER_HARDWARE
	// reported for each TiKV instance: what TiKV computes its
	// machine-dependent defaults from. Nil when not read (MachinesRead).
	Machines     map[string]Machine
	MachinesRead bool
	// Gaps is what could not be read (instance down, missing row for a
	// managed key), so the planner can mark the affected changes instead of
	// guessing from text. A Live with a gap is incomplete (Incomplete): a plan
	// over it must not report "no changes". Add gaps with AddGap.
	Gaps []Gap
}

// Machine is an instance's host as CLUSTER_HARDWARE reports it: TiKV's CPU
// quota (cpu-logical-cores) and memory limit (memory capacity)
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-hardware).
type Machine struct {
	CPU    float64
	Memory uint64
}

// Incomplete lists why the read is known to be partial: each gap's reason,
// in order. It is derived from Gaps, so the two always correspond.
func (l *Live) Incomplete() []string {
	if len(l.Gaps) == 0 {
		return nil
	}
	out := make([]string, 0, len(l.Gaps))
	for _, g := range l.Gaps {
		out = append(out, g.Reason)
	}
	return out
}

// AddGap records g unless a gap with the same reason is already recorded
// (the same sentence is the same gap), and reports whether it was added.
func (l *Live) AddGap(g Gap) bool {
	for _, x := range l.Gaps {
		if x.Reason == g.Reason {
			return false
		}
	}
	l.Gaps = append(l.Gaps, g)
	return true
}

// GapKind says what a Gap is missing.
type GapKind string

const (
	// GapInstance: an instance of a component whose config was requested
	// returned no rows (down, or no status address;
	// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig).
	GapInstance GapKind = "instance"
	// GapConfigKey: an instance returned config rows, but none for a managed key.
	GapConfigKey GapKind = "config-key"
	// GapComponent: a component's config was requested and could not be read
	// at all (no instance in CLUSTER_INFO, hidden table, not in a snapshot).
	GapComponent GapKind = "component"
	// GapVariable: a managed variable was not reported by the server.
	GapVariable GapKind = "variable"
	// GapRead: a read reported warnings or could not run; Reason says which.
	GapRead GapKind = "read"
)

// Gap is one thing a Live is known not to contain although it was asked for.
type Gap struct {
	Kind      GapKind
	Component Component // GapInstance, GapConfigKey, GapComponent
	Instance  string    // GapInstance, GapConfigKey (service address)
	Key       string    // GapConfigKey: config key; GapVariable: variable name; GapRead: the table ("RESOURCE_GROUPS", "mysql.user") when one is concerned
	Reason    string    // the human sentence Live.Incomplete lists; never empty
}

// SnapshotInfo describes where an offline Live came from.
type SnapshotInfo struct {
	Path    string
	TakenAt time.Time
	Hash    string
	// Cluster is the cluster name the snapshot was pulled for; ToolVersion
	// the tiform version that wrote it.
	Cluster     string
	ToolVersion string
}

// Instance is one CLUSTER_INFO row
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info).
type Instance struct {
	Component     Component
	Address       string
	StatusAddress string
	VersionText   string
	Version       version.Version
}

// ConfigRow is one SHOW CONFIG / CLUSTER_CONFIG row.
type ConfigRow struct {
	Component Component
	Instance  string
	Key       string
	Value     string
}

// MinVersion returns the lowest version among the instances of c, and whether
// any instance of c exists (PD's cluster-version is likewise the lowest TiKV
// version: https://docs.pingcap.com/tidb/stable/pd-control).
func (l *Live) MinVersion(c Component) (version.Version, bool) {
	var min version.Version
	found := false
	for _, in := range l.Instances {
		if in.Component != c || in.Version.IsZero() {
			continue
		}
		if !found || in.Version.Compare(min) < 0 {
			min = in.Version
			found = true
		}
	}
	return min, found
}

// Mixed reports whether instances of c run different versions.
func (l *Live) Mixed(c Component) bool {
	var first version.Version
	seen := false
	for _, in := range l.Instances {
		if in.Component != c {
			continue
		}
		if !seen {
			first, seen = in.Version, true
			continue
		}
		if in.Version.Compare(first) != 0 {
			return true
		}
	}
	return false
}

// InstancesOf returns the service addresses of c's instances in CLUSTER_INFO order.
func (l *Live) InstancesOf(c Component) []string {
	var out []string
	for _, in := range l.Instances {
		if in.Component == c {
			out = append(out, in.Address)
		}
	}
	return out
}

// ConfigByKey groups c's config rows by lower-cased key, each with its value
// per lower-cased instance, and returns the keys sorted.
func (l *Live) ConfigByKey(c Component) ([]string, map[string]map[string]string) {
	by := map[string]map[string]string{}
	for _, r := range l.Config {
		if r.Component != c {
			continue
		}
		k := strings.ToLower(r.Key)
		if by[k] == nil {
			by[k] = map[string]string{}
		}
		by[k][strings.ToLower(r.Instance)] = r.Value
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, by
}

// Store is the TiDB config value store ("tikv", "unistore") the first TiDB
// instance read shows; "" when TiDB's config was not read. Some variables
// start with another value on another store (catalog.Host.Store).
func (l *Live) Store() string {
	for _, r := range l.Config {
		if r.Component == TiDB && strings.EqualFold(r.Key, "store") {
			return r.Value
		}
	}
	return ""
}

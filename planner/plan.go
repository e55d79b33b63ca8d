package planner

import (
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// Action is what a change does, with the symbol plans show for it.
type Action rune

const (
	NoOp   Action = ' '
	Create Action = '+'
	Update Action = '~'
	Delete Action = '-'
	// Drift: the type-wide value is as declared on some instances but not on
	// others; the statement targets only the drifted instances.
	Drift Action = '!'
)

func (a Action) String() string {
	switch a {
	case Create:
		return "create"
	case Update:
		return "update"
	case Delete:
		return "delete"
	case Drift:
		return "drift"
	}
	return "no-op"
}

// Kind of thing a change is about.
type Kind string

const (
	KindConfig        Kind = "config"
	KindVariable      Kind = "variable"
	KindResourceGroup Kind = "resource_group"
	KindUser          Kind = "user"
	// KindVersion appears only in fingerprints: the version of one instance.
	KindVersion Kind = "version"
	// KindInstance appears only in fingerprints: one instance of the topology.
	KindInstance Kind = "instance"
)

// Persistence says how a change is applied and whether it survives a restart
// (tidb-facts.md §2.5).
type Persistence string

const (
	PersistTiKVFile     Persistence = "tikv-config-file"   // written back to the TiKV config file; TiUP reload overwrites it (§2.6)
	PersistPDEtcd       Persistence = "pd-etcd"            // stored in PD's etcd; prevails over the PD config file
	PersistTiFlashProxy Persistence = "tiflash-proxy"      // raftstore-proxy online change
	PersistCluster      Persistence = "cluster-variable"   // GLOBAL sysvar, persisted cluster-wide
	PersistInstanceOnly Persistence = "connected-instance" // INSTANCE sysvar: only the connected TiDB, lost on restart
	PersistMetadata     Persistence = "cluster-metadata"   // DDL: resource groups, users
	// PersistDeployment: a restart-only item (tidb-facts.md §8.2). TiKV answers
	// SET CONFIG with the warning "config <field> can not be changed" and
	// keeps nothing; the value belongs in the deployment (TiUP topology or
	// TidbCluster spec) with a rolling restart. Guard TF140 blocks such a change.
	PersistDeployment Persistence = "deployment-only"
)

// Plan is everything tiform would do to every cluster of a configuration.
type Plan struct {
	// ConfigHash is state.Desired.ConfigHash of the configuration planned.
	ConfigHash string
	// CreatedAt is Options.Now when the plan was built (the planner has no clock).
	// Renderers use it to compute a snapshot's age, so output stays deterministic.
	CreatedAt time.Time
	Clusters  []*ClusterPlan
}

// HasChanges reports whether any cluster plan has at least one change.
func (p *Plan) HasChanges() bool {
	for _, c := range p.Clusters {
		if len(c.Changes) > 0 {
			return true
		}
	}
	return false
}

// Incomplete reports whether any cluster was planned over a partial read.
// Such a plan must never be reported as "no changes".
func (p *Plan) Incomplete() bool {
	for _, c := range p.Clusters {
		if len(c.Incomplete) > 0 {
			return true
		}
	}
	return false
}

// Status is the outcome of one cluster of a plan, shown in every view and
// deciding the exit code (UI only: it never drives apply).
type Status string

const (
	// StatusInSync: the cluster matches the configuration.
	StatusInSync Status = "in_sync"
	// StatusChanges: the cluster differs (changes, or drift).
	StatusChanges Status = "changes"
	// StatusUnreachable: the cluster could not be reached (connect, timeout).
	StatusUnreachable Status = "unreachable"
	// StatusIncomplete: part of the cluster could not be read.
	StatusIncomplete Status = "incomplete"
	// StatusOK: the cluster was read completely and nothing failed: check
	// and state pull, which compare nothing with a configuration, say ok
	// where plan says in_sync or changes.
	StatusOK Status = "ok"
	// StatusError: the cluster could not be planned (authentication, a
	// privilege, the configuration), or its plan has an unacknowledged error
	// finding.
	StatusError Status = "error"
)

// Failure says why a cluster has no plan: it could not be read or planned.
type Failure struct {
	Status  Status // StatusUnreachable, StatusIncomplete or StatusError
	Message string // what happened and what to do, never a password
}

// ClusterPlan is the plan for one cluster.
type ClusterPlan struct {
	Name string
	// Labels are the cluster block's labels (selection with --label).
	Labels map[string]string
	// Failure is set when the cluster could not be read or planned: the
	// plan then has no changes, and every other field but Name and Labels is
	// empty. Other clusters of the plan are unaffected.
	Failure *Failure
	// Versions is the lowest version per component ("tikv" → "v8.5.1").
	Versions map[state.Component]string
	// Mixed lists components whose instances run different versions.
	Mixed []state.Component
	// Topology counts instances per component.
	Topology map[state.Component]int
	// Offline is set when planned against a snapshot.
	Offline *state.SnapshotInfo
	// Incomplete repeats live.Incomplete(): what could not be read.
	Incomplete []string
	Changes    []*Change
	// Unmanaged lists live resource groups that are not declared and not dropped.
	Unmanaged []string
	// Findings holds all guard findings for this cluster (also linked from changes).
	Findings []guard.Finding
	// Fingerprint lists every live value the plan depends on, for the stale-plan check.
	Fingerprint []Dependency
	// ServerVersion is VERSION() of the TiDB the state was read through.
	ServerVersion string
	// ConnectedInstance is the TiDB instance the state was read through; INSTANCE
	// variables only reach it (tidb-facts.md §2.5).
	ConnectedInstance string
	// Notes are facts about the plan that are neither changes nor guard findings
	// (for example "tiflash: declared but the cluster has no tiflash instance").
	Notes []string
	// Evidence is the cluster's statement statistics, set when the plan
	// changes a plan-cache variable or in-memory-engine.enable (nil
	// otherwise); Evidence.Unavailable says why figures are missing. UI only.
	Evidence *workload.Evidence
}

// Status is the cluster's outcome: its failure, else an unacknowledged error
// finding (apply would refuse), else a partial read, else changes or in sync.
func (c *ClusterPlan) Status() Status {
	switch {
	case c.Failure != nil:
		return c.Failure.Status
	case len(guard.Blocking(c.Findings)) > 0:
		return StatusError
	case len(c.Incomplete) > 0:
		return StatusIncomplete
	case len(c.Changes) > 0:
		return StatusChanges
	}
	return StatusInSync
}

// Failed reports whether any cluster of the plan could not be read or
// planned.
func (p *Plan) Failed() bool {
	for _, c := range p.Clusters {
		if c.Failure != nil {
			return true
		}
	}
	return false
}

// Counts returns how many changes create, update (including drift) and delete.
func (c *ClusterPlan) Counts() (create, update, del int) {
	for _, ch := range c.Changes {
		switch ch.Action {
		case Create:
			create++
		case Update, Drift:
			update++
		case Delete:
			del++
		}
	}
	return
}

// Change is one addressed change with its statements.
type Change struct {
	// Address is stable and unique within a cluster plan, e.g.
	// tikv.coprocessor.region-split-size, tikv["10.0.1.17:20160"].storage.block-cache.capacity,
	// variable.tidb_enable_instance_plan_cache, resource_group.oltp, user."app"@"%".resource_group
	Address string
	Kind    Kind
	Action  Action
	// Component and Key identify config items and variables; Instance is set for
	// per-instance changes.
	Component state.Component
	Key       string
	Instance  string
	// Before holds the live value per instance where it differs from After
	// ("" instance = cluster-wide value). Empty for creates.
	Before []InstanceValue
	// After is the declared value as tiform will send it ("" for deletes).
	After string
	// Statements run in order; each is complete SQL.
	Statements []Statement
	// Verify says how apply reads the change back.
	Verify []Check
	// Rollback statements restore Before (run in order; a plan's changes are
	// rolled back in reverse plan order, so that dependencies unwind: users are
	// re-bound before a re-created group is needed, and so on). Empty when not
	// reversible (the previous value was not reported).
	Rollback        []Statement
	Persistence     Persistence
	RestartRequired bool
	Range           diag.SourceRange
	// Reason is UI only: why the change is ordered where it is, or why it exists.
	// It never drives apply.
	Reason string
	// Findings are the codes of guard findings about this change.
	Findings []string
	// DependsOn lists the addresses of earlier changes this one must follow
	// (the ordering graph's edges into this change; UI and apply both may use it).
	DependsOn []string
	// Sensitive: the declared value comes from a variable marked sensitive.
	// Only apply reads the values and SQL of such a change; every view, plan
	// file and log goes through Shown (sensitive.go).
	Sensitive bool
}

// Instances returns the instances the change's Before names, in order.
func (c *Change) Instances() []string {
	out := make([]string, 0, len(c.Before))
	for _, b := range c.Before {
		out = append(out, b.Instance)
	}
	return out
}

// InstanceValue is a value as seen on one instance.
type InstanceValue struct {
	Instance string
	Value    string
}

// Statement is one SQL statement and what it targets.
type Statement struct {
	SQL string
	// Target is a component type ("tikv") or an instance address for SET CONFIG,
	// "" for statements that run on the connected TiDB.
	Target string
}

// Check is one read-back apply performs after a change: the value Key must have
// on Instance (or on every instance of Component when Instance is "").
// Config items and variables: compare CanonicalValue(read) with Want. Resource
// groups and users: use GroupSatisfies and UserSatisfies.
type Check struct {
	Kind      Kind
	Component state.Component
	Instance  string
	Key       string
	// Want is the canonical (catalog-normalised) value expected.
	Want string
}

// Dependency is one live value a plan was computed from.
type Dependency struct {
	Kind      Kind
	Component state.Component
	Instance  string
	Key       string
	Value     string // canonical; "<absent>" when the item did not exist
}

package planner

import (
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
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
	// Diagnostics are set when the configuration caused the failure: where
	// (file:line:col, the source line) and the fix; Message is then their
	// text rendering.
	Diagnostics diag.Diagnostics
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
	Changes    []*plans.Change
	// Ignored are the differences ignore blocks accepted: not in Changes,
	// never applied, shown by every view.
	Ignored []plans.Ignored
	// Unmanaged lists live resource groups that are not declared and not dropped.
	Unmanaged []string
	// UnmanagedSettings is the cluster's unmanaged drift: the undeclared
	// settings whose live value is not the default (unmanaged.go); nil when
	// not asked for (ReportsUnmanaged). UI only: never planned or applied.
	UnmanagedSettings *UnmanagedReport
	// Findings holds all guard findings for this cluster (also linked from changes).
	Findings []guard.Finding
	// Fingerprint lists every live value the plan depends on, for the stale-plan check.
	Fingerprint []plans.Dependency
	// ServerVersion is VERSION() of the TiDB the state was read through.
	ServerVersion string
	// ConnectedInstance is the TiDB instance the state was read through; INSTANCE
	// variables only reach it (https://docs.pingcap.com/tidb/stable/system-variables).
	ConnectedInstance string
	// Notes are facts about the plan that are neither changes nor guard findings
	// (for example "tiflash: declared but the cluster has no tiflash instance").
	Notes []string
	// Evidence is the cluster's statement statistics, set when the plan
	// changes a plan-cache variable or in-memory-engine.enable (nil
	// otherwise); Evidence.Unavailable says why figures are missing. UI only.
	Evidence *workload.Evidence
	// Layers is, per declared setting, desired / running / persisted (the
	// TiUP topology or Operator resources its cluster block names) and
	// what the next start does to it; nil when the configuration names no
	// persisted layer and declares no INSTANCE-scope variable. UI only.
	Layers *Layers
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

// Counts sums the clusters' Counts; changed is how many clusters have
// changes.
func (p *Plan) Counts() (create, update, del, changed int) {
	for _, cp := range p.Clusters {
		c, u, d := cp.Counts()
		create, update, del = create+c, update+u, del+d
		if len(cp.Changes) > 0 {
			changed++
		}
	}
	return
}

// Counts returns how many changes create, update (including drift) and delete.
func (c *ClusterPlan) Counts() (create, update, del int) {
	for _, ch := range c.Changes {
		switch ch.Action {
		case plans.Create:
			create++
		case plans.Update, plans.Drift:
			update++
		case plans.Delete:
			del++
		}
	}
	return
}

// Reach is the one instance a change or check at addr reaches, "" when it
// reaches every instance of its component or the whole cluster: the instance
// a config address names, or, for a change persisted on the connected
// instance only (an INSTANCE-scoped variable), the TiDB the plan was read
// through.
func (c *ClusterPlan) Reach(addr state.Address, p plans.Persistence) string {
	if addr.Kind == state.KindConfig {
		return addr.Instance
	}
	if p == plans.PersistInstanceOnly {
		return c.ConnectedInstance
	}
	return ""
}

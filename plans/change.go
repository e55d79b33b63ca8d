package plans

import (
	"fmt"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Absent is the value recorded for a setting that does not exist: a config
// item an instance did not report, a variable the server does not have, a
// resource group or user not there.
const Absent = "<absent>"

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

// ParseAction is the inverse of Action.String.
func ParseAction(s string) (Action, error) {
	for _, a := range []Action{Create, Update, Delete, Drift, NoOp} {
		if a.String() == s {
			return a, nil
		}
	}
	return NoOp, fmt.Errorf("unknown action %q", s)
}

// Persistence says how a change is applied and whether it survives a restart
// (https://docs.pingcap.com/tidb/stable/dynamic-config).
type Persistence string

const (
	PersistTiKVFile     Persistence = "tikv-config-file"   // written back to the TiKV config file; TiUP reload overwrites it
	PersistPDEtcd       Persistence = "pd-etcd"            // stored in PD's etcd; prevails over the PD config file
	PersistTiFlashProxy Persistence = "tiflash-proxy"      // raftstore-proxy online change
	PersistCluster      Persistence = "cluster-variable"   // GLOBAL sysvar, persisted cluster-wide
	PersistInstanceOnly Persistence = "connected-instance" // INSTANCE sysvar: only the connected TiDB, lost on restart
	PersistMetadata     Persistence = "cluster-metadata"   // DDL: resource groups, users
	// PersistDeployment: a restart-only item. TiKV answers SET CONFIG with the
	// warning "config <field> can not be changed" and keeps nothing; the value
	// belongs in the deployment (TiUP topology or TidbCluster spec) with a
	// rolling restart. Guard TF140 blocks such a change.
	PersistDeployment Persistence = "deployment-only"
)

// Change is one addressed change with its statements.
type Change struct {
	// Addr is unique within a cluster plan: what the change sets.
	Addr   state.Address
	Action Action
	// Before holds the live value per instance where it differs from After
	// ("" instance = cluster-wide value). Empty for creates. UI and rollback.
	Before []InstanceValue
	// After is the declared value as the component will show it ("" for
	// deletes). UI only: apply verifies Verify, not After.
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
	// (the ordering graph's edges into this change).
	DependsOn []state.Address
	// Sensitive: the declared value comes from a variable marked sensitive.
	// Only apply reads the values and SQL of such a change; every view, plan
	// file and log goes through planner.Plan.Shown (planner/sensitive.go).
	Sensitive bool
	// Spec is what Statements and Rollback are derived from, with the
	// planner's one builder (planner.Derive). The planner fills both from
	// it, and apply re-derives a saved plan's statements from it and refuses
	// the plan when one differs: SQL is never taken from a file.
	Spec Spec
}

// Spec is the structured content of a change's statements.
type Spec struct {
	// Set lists, for a config item or a variable, what each statement sets,
	// in order; Unset what each rollback statement restores.
	Set, Unset []Assignment
	// Group is the resource group as declared (what a create or an alter
	// sets); Live the group as read (what an alter changes from, what a
	// drop removes and its rollback recreates). Version is the TiDB version
	// whose spelling the options take, and BurstSyntax the BURSTABLE
	// vocabulary the cluster showed (it decides over Version when known:
	// state.BurstSyntax.Modes).
	Group, Live *state.ResourceGroup
	Version     string
	BurstSyntax state.BurstSyntax
	// Inverse: the change undoes the change this spec describes (a rollback
	// plan's resource group): its statements are that change's rollback and
	// its rollback that change's statements.
	Inverse bool
}

// Assignment is one SET GLOBAL or SET CONFIG.
type Assignment struct {
	// Target is what a SET CONFIG sets: the component type ("tikv") or one
	// instance's address; "" for a variable.
	Target string
	// Value is the value set: as declared (text and literal type), or as
	// read from the cluster when Restore is set.
	Value state.Value
	// Rendered is how the cluster printed the value being replaced: the
	// literal of a key the catalog does not know follows its spelling. ""
	// when nothing was read.
	Rendered string
	// Restore: Value was read from the cluster and is written back as the
	// catalog restores a read value (a rollback), not as declared.
	Restore bool
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

// Check is one read-back apply performs after a change: what Addr must read
// (for a config item on every instance of its component unless Addr names
// one). planner.Satisfied and planner.GroupSatisfied decide whether a read
// value satisfies it.
type Check struct {
	Addr state.Address
	// Want is the value expected, in any spelling the planner reads (the
	// canonical form in a plan, the value read before the change in a
	// rollback plan): for a config item or variable its value, for a user the
	// group it is bound to. Absent wants the thing gone (a dropped group).
	Want string
	// Options are, for a resource group that must exist, the options the
	// change sets, each with the value it must read (canonical, as
	// INFORMATION_SCHEMA.RESOURCE_GROUPS prints it). Options a change does
	// not set are not checked.
	Options []GroupOption
}

// GroupOption is one resource-group option in canonical form: Name as
// INFORMATION_SCHEMA.RESOURCE_GROUPS names it (RU_PER_SEC, PRIORITY,
// BURSTABLE, QUERY_LIMIT, BACKGROUND) and Value as it prints it ("NULL" for
// an option removed).
type GroupOption struct {
	Name  string
	Value string
}

// Dependency is one live value a plan was computed from.
type Dependency struct {
	Addr  state.Address
	Value string // canonical; Absent when the item did not exist
}

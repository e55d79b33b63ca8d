package guard

import (
	"time"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/workload"
)

// Input is what rules see. The planner builds it; rules never import planner.
//
// Every part is optional: a nil Desired means "no configuration" (CheckCluster
// passes nil and only rules marked Live run), a nil Live means "nothing known
// about the cluster" (version-bound rules then stay silent).
type Input struct {
	Desired *state.DesiredCluster
	Live    *state.Live
	// Changes are the planned changes. Rules about applying (restart-only
	// items, TiUP notes) read them; rules about declared values read Desired.
	Changes []*plans.Change
	// Ignored are the differences ignore blocks kept out of the plan (the
	// ignore rules TF194–TF196 read them; the others never see them).
	Ignored []plans.Ignored
	// IgnoredUnmanaged are the patterns of the ignore blocks that accepted
	// an unmanaged setting of a drift report, one per setting (an ignore
	// block that hides only those is in use: TF196).
	IgnoredUnmanaged []state.AddressPattern
	// Now decides whether acknowledgements have expired (no clock in rules).
	Now time.Time
	// TargetVersions optionally names a planned upgrade per component (for
	// example `tiform check --upgrade-to v8.5.1`): rules that warn about what
	// an upgrade does (TF101) use it. Nil means no upgrade planned.
	TargetVersions map[state.Component]version.Version
	// Evidence is the cluster's statement statistics, read while planning
	// when the plan changes a plan-cache variable or in-memory-engine.enable
	// (TF125, TF126, TF134, TF135). Nil: not read.
	Evidence *workload.Evidence
}

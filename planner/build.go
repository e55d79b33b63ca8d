package planner

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/workload"
)

// Options tune a plan. The zero value is valid (Now zero: acknowledgements never
// expire and snapshot ages are not computed).
type Options struct {
	// Now is the planning time: guards use it to expire acknowledgements, the
	// renderers to show a snapshot's age. The planner never reads a clock.
	Now time.Time
	// AllowPartial plans over a live state that is known to be incomplete
	// (live.Incomplete() non-empty, or a declared component's config not read).
	// Without it such a state is an *IncompleteError.
	AllowPartial bool
	// Guards evaluates the guard rules; nil means guard.Evaluate. Tests inject
	// a fixed evaluator so plan renderings do not change with the rule texts.
	Guards func(guard.Input) []guard.Finding
	// Evidence maps a cluster name to the statement statistics read for it
	// (workload.Evidence), for BuildCluster. A caller that reads them only
	// for the clusters whose plan needs them (EvidenceNeeds) calls
	// DiffCluster, reads, then Conclude instead; the guards cite them
	// (TF125, TF126, TF134, TF135) and the plan shows them. UI only: evidence
	// never changes a statement.
	Evidence map[string]*workload.Evidence
	// Unmanaged reports every cluster's unmanaged drift (plan --drift
	// --unmanaged); Drift says the plan is a drift report, where a cluster
	// whose configuration asks (unmanaged_settings) reports it too
	// (ReportsUnmanaged). The cluster must then have been read whole
	// (live.SurfaceRequest).
	Unmanaged, Drift bool
}

// IncompleteError is returned when the live state is partial and
// Options.AllowPartial is false.
type IncompleteError struct {
	Cluster string
	Reasons []string
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("planner: cluster %q: the live state is incomplete (%s); fix the read or plan with partial state allowed",
		e.Cluster, strings.Join(e.Reasons, "; "))
}

// Build plans every cluster of d. lives maps a cluster name to its live state;
// a cluster without one is an error. The result is deterministic: the same
// inputs give byte-identical renderings.
func Build(d *state.Desired, lives map[string]*state.Live, o Options) (*Plan, error) {
	if d == nil {
		return nil, errors.New("planner: no desired state")
	}
	p := &Plan{ConfigHash: d.ConfigHash, CreatedAt: o.Now}
	seen := map[string]bool{}
	for _, dc := range d.Clusters {
		if dc == nil {
			continue
		}
		if seen[dc.Name] {
			return nil, fmt.Errorf("planner: cluster %q is declared twice", dc.Name)
		}
		seen[dc.Name] = true
		l := lives[dc.Name]
		if l == nil {
			return nil, fmt.Errorf("planner: cluster %q: no live state was read", dc.Name)
		}
		cp, err := BuildCluster(dc, l, o)
		if err != nil {
			return nil, err
		}
		p.Clusters = append(p.Clusters, cp)
	}
	return p, nil
}

// BuildCluster plans one cluster: it compares dc with l, builds one Change per
// address, orders them by their dependencies, computes the fingerprint and
// attaches the statement statistics of o.Evidence and the guards' findings.
func BuildCluster(dc *state.DesiredCluster, l *state.Live, o Options) (*ClusterPlan, error) {
	cp, err := DiffCluster(dc, l, o)
	if err != nil {
		return nil, err
	}
	Conclude(cp, dc, l, o.Evidence[dc.Name], o)
	return cp, nil
}

// DiffCluster is BuildCluster up to the guards: the changes, their order and
// the fingerprint, without evidence or findings. A caller that reads the
// statement statistics the plan calls for (EvidenceNeeds) does so between
// DiffCluster and Conclude, so that the cluster is compared once.
func DiffCluster(dc *state.DesiredCluster, l *state.Live, o Options) (*ClusterPlan, error) {
	if dc == nil || l == nil {
		return nil, errors.New("planner: nil desired or live cluster")
	}
	cp := &ClusterPlan{
		Name:              dc.Name,
		Labels:            dc.Labels,
		Versions:          map[state.Component]string{},
		Topology:          map[state.Component]int{},
		Offline:           l.Offline,
		Incomplete:        l.Incomplete(),
		ServerVersion:     l.ServerVersion,
		ConnectedInstance: l.ConnectedInstance,
	}
	for _, in := range l.Instances {
		cp.Topology[in.Component]++
	}
	for _, c := range state.Components {
		if v, ok := l.MinVersion(c); ok {
			cp.Versions[c] = v.String()
		}
		if l.Mixed(c) {
			cp.Mixed = append(cp.Mixed, c)
		}
	}
	b := &builder{dc: dc, l: l, cp: cp, switchTo: map[*plans.Change]string{}, live: newLiveIndex(l, dc.Config)}
	b.tidbVersion, _ = l.MinVersion(state.TiDB)
	if b.tidbVersion.IsZero() && l.ServerVersion != "" {
		if v, err := version.Parse(l.ServerVersion); err == nil {
			b.tidbVersion = v
		}
	}
	if err := b.config(); err != nil {
		return nil, err
	}
	if err := b.variables(); err != nil {
		return nil, err
	}
	if err := b.groups(); err != nil {
		return nil, err
	}
	if len(cp.Incomplete) > 0 && !o.AllowPartial {
		return nil, &IncompleteError{Cluster: dc.Name, Reasons: cp.Incomplete}
	}
	b.changes, cp.Ignored = ignoreChanges(b.changes, dc.Ignores, o.Now)
	cp.Layers = b.layers()
	if ReportsUnmanaged(dc, o) {
		cp.UnmanagedSettings = unmanaged(dc, l, o.Now)
	}
	if err := checkPreventDestroy(b.changes, dc); err != nil {
		return nil, err
	}
	facts := orderFacts{tikvLive: b.live.compared(state.TiKV, keySplitSize, keyMaxSize, keySplitKeys, keyMaxKeys), switchTo: b.switchTo}
	ordered, err := order(b.changes, facts)
	if err != nil {
		return nil, fmt.Errorf("planner: cluster %q: %w", dc.Name, err)
	}
	cp.Changes = ordered
	cp.Fingerprint = fingerprint(dc, l, b.live)
	// What inspection noted is part of what a reviewer must know: INSTANCE-
	// scoped variables read from the connected TiDB only (https://docs.pingcap.com/tidb/stable/system-variables),
	// versions that did not parse, hidden tables, settings that do not exist
	// in the running version.
	for _, n := range l.Notes {
		if !slices.Contains(cp.Notes, n) {
			cp.Notes = append(cp.Notes, n)
		}
	}
	sort.Strings(cp.Notes)
	return cp, nil
}

// Conclude finishes a plan DiffCluster made: it keeps the parts of ev (the
// statement statistics read for dc; nil when none were) that cp calls for
// (EvidenceNeeds) and attaches the guards' findings, which may cite them.
// Call it once per plan.
func Conclude(cp *ClusterPlan, dc *state.DesiredCluster, l *state.Live, ev *workload.Evidence, o Options) {
	eval := o.Guards
	if eval == nil {
		eval = evaluateGuards
	}
	if need := EvidenceNeeds(cp); need.Any() {
		cp.Evidence = evidenceFor(ev, need)
	}
	attachFindings(cp, dc, l, o.Now, eval)
}

// builder accumulates the changes of one cluster plan.
type builder struct {
	dc          *state.DesiredCluster
	l           *state.Live
	cp          *ClusterPlan
	tidbVersion version.Version
	changes     []*plans.Change
	// switchTo maps group changes to the group their query limit switches
	// to (orderFacts).
	switchTo map[*plans.Change]string
	// live is l.Config indexed, built once: the comparison and the
	// fingerprint share it.
	live *liveIndex
}

func (b *builder) add(c *plans.Change) { b.changes = append(b.changes, c) }

// incomplete records that part of the declared state was not compared,
// unless inspection already recorded a gap that says so (the plan lists each
// missing piece once).
func (b *builder) incomplete(reason string, explained func(state.Gap) bool) {
	for _, g := range b.l.Gaps {
		if explained(g) {
			return
		}
	}
	b.cp.Incomplete = append(b.cp.Incomplete, reason)
}

func (b *builder) note(format string, args ...any) {
	b.cp.Notes = append(b.cp.Notes, fmt.Sprintf(format, args...))
}

// checkPreventDestroy refuses a plan that deletes a resource group declared
// with prevent_destroy. Declared groups are never deleted by the rules above;
// this is the last line of defence should a later rule (a rename, a move
// between clusters) produce such a delete.
func checkPreventDestroy(changes []*plans.Change, dc *state.DesiredCluster) error {
	protected := map[string]diag.SourceRange{}
	for _, g := range dc.ResourceGroups {
		if g.PreventDestroy {
			protected[GroupName(g.Name)] = g.Range
		}
	}
	for _, c := range changes {
		if c.Addr.Kind != state.KindResourceGroup || c.Action != plans.Delete {
			continue
		}
		if r, ok := protected[c.Addr.Key]; ok {
			return inputError(r, fmt.Sprintf("resource_group %q has prevent_destroy set, but the plan would drop it", c.Addr.Key),
				"remove prevent_destroy first if dropping is intended")
		}
	}
	return nil
}

package applier

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// rollbackChange builds the change that undoes what res says took effect:
// the plan's Rollback statements restricted to the instances whose value
// actually moved (a type-wide SET CONFIG is narrowed to per-instance
// statements when only some instances took the change), verified against the
// values read just before the change. Nil when the change has no rollback
// statements.
func rollbackChange(ch *plans.Change, res *ChangeResult, topo []instanceInfo) (*plans.Change, []plans.Dependency) {
	if len(ch.Rollback) == 0 {
		return nil, nil
	}
	// Instances whose value moved, per component; values before and after.
	changed := map[string]bool{}
	var checks []plans.Check
	var before []plans.InstanceValue
	var fp []plans.Dependency
	for _, in := range res.Instances {
		if in.After == "" && in.Before == "" {
			continue
		}
		moved := in.After != "" && in.Before != "" && !planner.SameValue(in.Addr, in.Before, in.After)
		if !moved {
			continue
		}
		changed[in.Instance] = true
		at := in.Addr
		if at.Kind == state.KindConfig {
			at.Instance = in.Instance
		}
		checks = append(checks, restoreCheck(at, in.Before, res.groupBefore(in.Addr)))
		// Before/After are for reading (`tiform show`): rendered the way the
		// plan renders them ("OFF", not the "0" that @@GLOBAL returns).
		before = append(before, plans.InstanceValue{Instance: in.Instance, Value: planner.DisplayValue(at, in.After)})
		fp = append(fp, plans.Dependency{Addr: at, Value: in.After})
	}
	rb := &plans.Change{
		Addr:        ch.Addr,
		Action:      inverse(ch.Action),
		Before:      before,
		After:       rollbackAfter(res),
		Verify:      checks,
		Persistence: ch.Persistence,
		Range:       ch.Range,
		Reason:      fmt.Sprintf("rollback of %s (restores the values read just before it was applied)", ch.Addr),
		Sensitive:   ch.Sensitive,
		Spec:        rollbackSpec(ch, changed, topo),
	}
	if ch.Addr.Kind == state.KindUser && len(ch.Before) == 1 {
		// Exactly the inverse binding.
		rb.Before, rb.After = []plans.InstanceValue{{Value: ch.After}}, ch.Before[0].Value
	}
	// The statements come from the one builder, as every plan's do (a
	// rollback plan is applied like any saved plan: re-derived first).
	stmts, rollback, err := planner.Derive(rb)
	if err != nil || len(stmts) == 0 {
		return nil, nil
	}
	rb.Statements, rb.Rollback = stmts, rollback
	sort.SliceStable(rb.Verify, func(i, j int) bool { return rb.Verify[i].Addr.Instance < rb.Verify[j].Addr.Instance })
	return rb, fp
}

// restoreCheck is the read-back of restoring the value read before a change
// at a: that value (as the cluster printed it: the planner's read-back
// compares meaning, not spelling), or for a resource group every option it
// had (group is what was read then).
func restoreCheck(a state.Address, before string, group *reading) plans.Check {
	if a.Kind == state.KindResourceGroup && group != nil {
		return planner.RestoreGroupCheck(a, group.group, group.tidb)
	}
	return plans.Check{Addr: a, Want: before}
}

// groupBefore is what the change's check at a read before the change, when
// it is a resource group's.
func (res *ChangeResult) groupBefore(a state.Address) *reading {
	if a.Kind != state.KindResourceGroup {
		return nil
	}
	for i := range res.readBefore {
		if r := &res.readBefore[i]; r.addr == a {
			return r
		}
	}
	return nil
}

func rollbackAfter(res *ChangeResult) string {
	v := ""
	for i, in := range res.Instances {
		if i == 0 {
			v = in.Before
		} else if in.Before != v {
			return "" // differs per instance: see Verify
		}
	}
	if len(res.Instances) > 0 {
		return planner.DisplayValue(res.Instances[0].Addr, v)
	}
	return v
}

func inverse(a plans.Action) plans.Action {
	switch a {
	case plans.Create:
		return plans.Delete
	case plans.Delete:
		return plans.Create
	}
	return plans.Update
}

func isInstance(target string, topo []instanceInfo) bool {
	for _, in := range topo {
		if in.Address == target {
			return true
		}
	}
	return false
}

// rollbackSpec is the spec of the change undoing ch: for a config item or a
// variable, ch's rollback assignments restricted to the instances whose value
// moved (a type-wide assignment becomes one per moved instance when only some
// moved), and ch's own assignments as its rollback; for a resource group, ch's
// spec inverted.
func rollbackSpec(ch *plans.Change, changed map[string]bool, topo []instanceInfo) plans.Spec {
	if ch.Addr.Kind == state.KindResourceGroup {
		s := ch.Spec
		s.Inverse = !s.Inverse
		return s
	}
	if ch.Addr.Kind == state.KindUser {
		return plans.Spec{}
	}
	noChecks := len(ch.Verify) == 0
	var set []plans.Assignment
	for _, as := range ch.Spec.Unset {
		switch {
		case noChecks || as.Target == "" || ch.Addr.Kind != state.KindConfig:
			set = append(set, as)
		case isInstance(as.Target, topo):
			if changed[as.Target] {
				set = append(set, as)
			}
		default: // a component type: narrowed when only some instances moved
			var moved []string
			all := true
			for _, in := range instancesOf(topo, state.Component(as.Target)) {
				if changed[in] {
					moved = append(moved, in)
				} else {
					all = false
				}
			}
			if all {
				if len(moved) > 0 {
					set = append(set, as)
				}
				continue
			}
			for _, in := range moved {
				one := as
				one.Target = in
				set = append(set, one)
			}
		}
	}
	if len(set) == 0 && !noChecks && len(changed) == 0 {
		// The read-back saw no value move; keep the plan's rollback so
		// nothing is lost.
		set = ch.Spec.Unset
	}
	return plans.Spec{Set: set, Unset: ch.Spec.Set}
}

// writeRollback assembles the rollback plan: the rollback changes in reverse
// order of application (so dependencies unwind: users re-bound before a group
// is dropped again, region-size items restored in the reverse of the order
// TiKV accepted them), with a fingerprint of the values this apply left, so
// applying it later refuses if the cluster moved again.
func (a *run) writeRollback() {
	if len(a.rollback) == 0 {
		return
	}
	rcp := &planner.ClusterPlan{
		Name:     a.cp.Name,
		Versions: a.cp.Versions,
		Mixed:    a.cp.Mixed,
		Topology: a.cp.Topology,
	}
	// A rollback follows the rollbacks of the changes that depended on the
	// change it undoes (they run first: reverse order), so that apply reads
	// them back before it, as it read the changes back in the plan's order.
	dependents := map[state.Address][]state.Address{}
	for _, r := range a.rollback {
		for _, d := range r.of.DependsOn {
			dependents[d] = append(dependents[d], r.of.Addr)
		}
	}
	for i := len(a.rollback) - 1; i >= 0; i-- {
		r := a.rollback[i]
		r.change.DependsOn = dependents[r.of.Addr]
		rcp.Changes = append(rcp.Changes, r.change)
		rcp.Fingerprint = append(rcp.Fingerprint, r.fingerprint...)
	}
	// Pin the topology the rollback was computed for (planner.Fingerprint
	// does the same with every instance's version).
	for _, in := range a.topo {
		rcp.Fingerprint = append(rcp.Fingerprint, plans.Dependency{Addr: state.VersionAddress(in.Component, in.Address), Value: in.Version})
	}
	p := &planner.Plan{ConfigHash: a.o.ConfigHash, CreatedAt: a.o.now().UTC(), Clusters: []*planner.ClusterPlan{rcp}}
	path := freePath(a.o.rollbackPath(), a.o.now())
	if err := writePlanFile(path, p, a.o.Secrets); err != nil {
		a.rep.RollbackError = scrub(err.Error(), a.o.Secrets)
		return
	}
	a.rep.RollbackPath = path
}

// freePath returns path, or when a file already exists there (an earlier
// rollback plan nobody applied yet: never overwrite it) the same name with a
// UTC timestamp before the extension, then a counter.
func freePath(path string, now time.Time) string {
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return path
	}
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext) + "-" + now.UTC().Format("20060102T150405Z")
	cand := base + ext
	for i := 2; ; i++ {
		if _, err := os.Stat(cand); os.IsNotExist(err) {
			return cand
		}
		cand = fmt.Sprintf("%s-%d%s", base, i, ext)
	}
}

package applier

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// rollbackChange builds the change that undoes what res says took effect:
// the plan's Rollback statements restricted to the instances whose value
// actually moved (a type-wide SET CONFIG is narrowed to per-instance
// statements when only some instances took the change), verified against the
// values read just before the change. Nil when the change has no rollback
// statements.
func rollbackChange(ch *planner.Change, res *ChangeResult, topo []instanceInfo) (*planner.Change, []planner.Dependency) {
	if len(ch.Rollback) == 0 {
		return nil, nil
	}
	// Instances whose value moved, per component; values before and after.
	changed := map[string]bool{}
	var checks []planner.Check
	var before []planner.InstanceValue
	var fp []planner.Dependency
	for _, in := range res.Instances {
		if in.After == "" && in.Before == "" {
			continue
		}
		t := findTarget(ch, in.Key)
		if t == nil {
			continue
		}
		moved := in.After != "" && in.Before != "" && !planner.SameValue(t.Kind, t.Component, t.Key, in.Before, in.After)
		if !moved {
			continue
		}
		changed[in.Instance] = true
		// Want is the value read before, as the cluster printed it: the
		// planner's read-back compares meaning, not spelling.
		checks = append(checks, planner.Check{Kind: t.Kind, Component: t.Component, Instance: in.Instance, Key: t.Key, Want: in.Before})
		// Before/After are for reading (`tiform show`): rendered the way the
		// plan renders them ("OFF", not the "0" that @@GLOBAL returns).
		before = append(before, planner.InstanceValue{Instance: in.Instance, Value: planner.DisplayValue(t.Kind, t.Component, t.Key, in.After)})
		fp = append(fp, planner.Dependency{Kind: t.Kind, Component: t.Component, Instance: in.Instance, Key: t.Key, Value: in.After})
	}
	// A change without read-backs: keep every rollback statement.
	noChecks := len(ch.Verify) == 0
	var stmts []planner.Statement
	for _, st := range ch.Rollback {
		switch {
		case noChecks || st.Target == "" || ch.Kind != planner.KindConfig:
			stmts = append(stmts, st)
		case isInstance(st.Target, topo):
			if changed[st.Target] {
				stmts = append(stmts, st)
			}
		default: // a component type: narrow it when only some instances moved
			all := true
			var moved []string
			for _, in := range instancesOf(topo, state.Component(st.Target)) {
				if changed[in] {
					moved = append(moved, in)
				} else {
					all = false
				}
			}
			if all || len(moved) == 0 {
				if len(moved) > 0 {
					stmts = append(stmts, st)
				}
				continue
			}
			for _, in := range moved {
				if n, ok := narrow(st, in); ok {
					stmts = append(stmts, n)
				} else {
					stmts = append(stmts, st)
					break
				}
			}
		}
	}
	if len(stmts) == 0 && !noChecks && len(changed) == 0 {
		// The read-back saw no value move (e.g. a CREATE whose check is existence
		// only); keep the plan's rollback so nothing is lost.
		stmts = append(stmts, ch.Rollback...)
	}
	if len(stmts) == 0 {
		return nil, nil
	}
	rb := &planner.Change{
		Address:     ch.Address,
		Kind:        ch.Kind,
		Action:      inverse(ch.Action),
		Component:   ch.Component,
		Key:         ch.Key,
		Instance:    ch.Instance,
		Before:      before,
		After:       rollbackAfter(ch, res),
		Statements:  stmts,
		Verify:      checks,
		Rollback:    ch.Statements,
		Persistence: ch.Persistence,
		Range:       ch.Range,
		Reason:      fmt.Sprintf("rollback of %s (restores the values read just before it was applied)", ch.Address),
		Sensitive:   ch.Sensitive,
	}
	sort.SliceStable(rb.Verify, func(i, j int) bool { return rb.Verify[i].Instance < rb.Verify[j].Instance })
	return rb, fp
}

func rollbackAfter(ch *planner.Change, res *ChangeResult) string {
	v := ""
	for i, in := range res.Instances {
		if i == 0 {
			v = in.Before
		} else if in.Before != v {
			return "" // differs per instance: see Verify
		}
	}
	if len(res.Instances) > 0 {
		if t := findTarget(ch, res.Instances[0].Key); t != nil {
			return planner.DisplayValue(t.Kind, t.Component, t.Key, v)
		}
	}
	return v
}

func findTarget(ch *planner.Change, key string) *target {
	for _, c := range ch.Verify {
		t := target{Kind: c.Kind, Component: c.Component, Instance: c.Instance, Key: c.Key}
		if t.String() == key {
			return &t
		}
	}
	return nil
}

func inverse(a planner.Action) planner.Action {
	switch a {
	case planner.Create:
		return planner.Delete
	case planner.Delete:
		return planner.Create
	}
	return planner.Update
}

func isInstance(target string, topo []instanceInfo) bool {
	for _, in := range topo {
		if in.Address == target {
			return true
		}
	}
	return false
}

var setConfigType = regexp.MustCompile(`(?is)^\s*SET\s+CONFIG\s+([a-z]+)\s+(.*)$`)

// narrow rewrites a type-wide `SET CONFIG tikv `k` = v` into the same
// assignment for one instance (tidb-facts.md §2.1: a string literal targets
// one instance by its INSTANCE address).
func narrow(st planner.Statement, instance string) (planner.Statement, bool) {
	m := setConfigType.FindStringSubmatch(st.SQL)
	if m == nil {
		return st, false
	}
	return planner.Statement{SQL: "SET CONFIG " + quote.String(instance) + " " + m[2], Target: instance}, true
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
	for i := len(a.rollback) - 1; i >= 0; i-- {
		rcp.Changes = append(rcp.Changes, a.rollback[i])
		rcp.Fingerprint = append(rcp.Fingerprint, a.rollbackFP[i]...)
	}
	// Pin the topology the rollback was computed for (planner.Fingerprint
	// does the same with every instance's version).
	for _, in := range a.topo {
		rcp.Fingerprint = append(rcp.Fingerprint, planner.Dependency{Kind: planner.KindVersion, Component: in.Component, Instance: in.Address, Value: in.Version})
	}
	p := &planner.Plan{ConfigHash: a.o.ConfigHash, CreatedAt: a.o.now().UTC(), Clusters: []*planner.ClusterPlan{rcp}}
	path := freePath(a.o.rollbackPath(), a.o.now())
	if err := writePlanFile(path, p); err != nil {
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

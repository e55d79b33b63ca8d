package live

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tiform/tiform/state"
)

// RecordGaps adds to l.Gaps what req asks for that l does not hold:
// components whose config was not read (for example a snapshot pulled for
// another configuration), instances without rows, managed config keys with no
// row on a reachable instance, managed variables the server did not report,
// and resource groups or users that were not read. Inspect calls it; a plan
// from a snapshot calls it again with its own request (FromSnapshot). It is
// idempotent: a gap already recorded (same reason) is not added again.
func RecordGaps(l *state.Live, req Request) {
	f := newGapFinder(l)
	for _, cr := range req.Config {
		if req.OnlyManagedKeys && len(cr.Keys) == 0 {
			continue // nothing of it was asked for
		}
		f.configGaps(cr, req.OnlyManagedKeys)
	}
	f.variableGaps(req.variableNames())
	f.unreadGaps(req)
}

// gapFinder indexes what a Live holds, once, so that each managed key on
// each instance is one map lookup.
type gapFinder struct {
	l        *state.Live
	seen     map[string]bool          // gap reasons already recorded
	read     map[state.Component]bool // components whose config was read
	rows     map[rowKey]bool          // rows read, key in lower case
	instRows map[rowKey]bool          // instances that returned rows (key "")
	down     map[string]bool          // comp \x00 instance ("" = whole component): already a gap
}

type rowKey struct {
	comp      state.Component
	inst, key string
}

func newGapFinder(l *state.Live) *gapFinder {
	f := &gapFinder{l: l, seen: map[string]bool{}, read: map[state.Component]bool{},
		rows: make(map[rowKey]bool, len(l.Config)), instRows: map[rowKey]bool{}, down: map[string]bool{}}
	for _, g := range l.Gaps {
		f.seen[g.Reason] = true
		if g.Kind == state.GapInstance || g.Kind == state.GapComponent {
			f.down[string(g.Component)+"\x00"+g.Instance] = true
		}
	}
	for _, c := range l.ConfigRead {
		f.read[c] = true
	}
	var last rowKey
	for _, r := range l.Config {
		f.rows[rowKey{r.Component, r.Instance, strings.ToLower(r.Key)}] = true
		if inst := (rowKey{comp: r.Component, inst: r.Instance}); inst != last {
			f.instRows[inst], last = true, inst
		}
	}
	return f
}

// add is state.Live.AddGap's rule with a set: a request for many keys on
// many instances must not cost a scan of every gap per gap.
func (f *gapFinder) add(g state.Gap) {
	if !f.seen[g.Reason] {
		f.seen[g.Reason] = true
		f.l.Gaps = append(f.l.Gaps, g)
	}
}

// notRead says that what was not read ("tikv config was not read"), or,
// when the state came from a snapshot, that the snapshot lacks it.
func (f *gapFinder) notRead(what string, plural bool) string {
	was, is := "was", "is"
	if plural {
		was, is = "were", "are"
	}
	if f.l.Offline != nil {
		return fmt.Sprintf("%s %s not in the snapshot %s (pull it again with this configuration)", what, is, f.l.Offline.Path)
	}
	return fmt.Sprintf("%s %s not read", what, was)
}

// configGaps decides what is missing for one component's request: the
// whole component, instances that returned no rows (unless only managed
// keys were read: an instance may have none of them; one that did not
// answer is a gap already, named by its warning), then managed keys.
func (f *gapFinder) configGaps(cr ComponentRequest, onlyKeys bool) {
	c := cr.Component
	if !f.read[c] {
		if !f.down[string(c)+"\x00"] {
			f.add(state.Gap{Kind: state.GapComponent, Component: c, Reason: f.notRead(string(c)+" config", false)})
		}
		return
	}
	insts := f.l.InstancesOf(c)
	if len(insts) == 0 && f.l.SEM {
		// CLUSTER_INFO hidden: the instances are those that returned rows.
		insts = configInstances(f.l, c)
	}
	if len(insts) == 0 {
		switch {
		case len(cr.Keys) == 0:
			return // read "whatever there is" (Everything): none is fine
		case !f.l.SEM:
			f.add(state.Gap{Kind: state.GapComponent, Component: c,
				Reason: fmt.Sprintf("%s settings are declared but CLUSTER_INFO lists no %s instance", c, c)})
			return
		}
		// SEM and no instance returned rows: per-instance keys are gaps below.
	}
	for _, a := range insts {
		if f.instRows[rowKey{comp: c, inst: a}] || f.down[string(c)+"\x00"+a] {
			continue
		}
		if inst, ok := f.instance(c, a); ok && inst.StatusAddress == "" && !f.l.SEM {
			if len(cr.Keys) == 0 {
				addNote(f.l, noStatusAddress(inst))
			} else {
				f.add(state.Gap{Kind: state.GapInstance, Component: c, Instance: a, Reason: noStatusAddress(inst)})
			}
			continue
		}
		if !onlyKeys {
			f.add(state.Gap{Kind: state.GapInstance, Component: c, Instance: a,
				Reason: fmt.Sprintf("%s %s returned no config rows (instance down or unreachable)", c, a)})
		}
	}
	for _, k := range cr.Keys {
		f.keyGaps(c, insts, k, onlyKeys)
	}
}

// instance is the instance of c at address a in CLUSTER_INFO.
func (f *gapFinder) instance(c state.Component, a string) (state.Instance, bool) {
	for _, in := range f.l.Instances {
		if in.Component == c && in.Address == a {
			return in, true
		}
	}
	return state.Instance{}, false
}

// noStatusAddress says why an instance CLUSTER_INFO lists without a status
// address has no config rows: TiDB reads each instance's config from its
// status address and only warns "<type> node <addr> does not contain status
// address" for one that has none (pingcap/tidb@e4e814fdc0af:pkg/executor/memtable_reader.go,
// fetchClusterConfig): a store registered without one, or the single store
// of a TiDB on unistore. Its version, from the same metadata, is often
// empty too.
func noStatusAddress(inst state.Instance) string {
	s := fmt.Sprintf("%s %s reports no status address in CLUSTER_INFO, so TiDB cannot read its configuration", inst.Component, inst.Address)
	if inst.VersionText == "" {
		s += ""
	}
	return s + "; settings of other components and instances are read as usual"
}

// keyGaps decides whether managed key k has a row on every instance it
// targets that returned rows (an instance without rows is already a gap);
// a key the instance's version does not have is a note, not a gap.
func (f *gapFinder) keyGaps(c state.Component, insts []string, k ManagedKey, onlyKeys bool) {
	targets := insts
	if k.Instance != "" {
		if !slices.Contains(insts, k.Instance) {
			f.add(state.Gap{Kind: state.GapInstance, Component: c, Instance: k.Instance, Key: k.Key,
				Reason: fmt.Sprintf("%s %s (declared for %s) is not in CLUSTER_INFO", c, k.Instance, k.Key)})
			return
		}
		targets = []string{k.Instance}
	}
	for _, a := range targets {
		answered := f.instRows[rowKey{comp: c, inst: a}] || onlyKeys && !f.down[string(c)+"\x00"+a]
		if !answered || f.rows[rowKey{c, a, strings.ToLower(k.Key)}] {
			continue
		}
		if note, ok := absentInVersion(f.l, c, a, k.Key); ok {
			addNote(f.l, note)
			continue
		}
		f.add(state.Gap{Kind: state.GapConfigKey, Component: c, Instance: a, Key: k.Key,
			Reason: fmt.Sprintf("%s %s reported no row for %s (unknown in this version, hidden, or an empty section)", c, a, k.Key)})
	}
}

// variableGaps decides which managed variables are missing: all of them
// when variables were not read, else each one the server did not report
// (unless its version does not have it: a note).
func (f *gapFinder) variableGaps(names []string) {
	if len(names) == 0 {
		return
	}
	if !f.l.VariablesRead {
		f.add(state.Gap{Kind: state.GapVariable, Reason: f.notRead("system variables", true)})
		return
	}
	for _, n := range names {
		if _, ok := f.l.Variables[n]; ok {
			continue
		}
		if note, ok := absentInVersion(f.l, state.TiDB, "", n); ok {
			addNote(f.l, note)
			continue
		}
		f.add(state.Gap{Kind: state.GapVariable, Key: n,
			Reason: fmt.Sprintf("variable %s was not reported by the server (unknown in this TiDB version?)", n)})
	}
}

// unreadGaps records resource groups and user bindings req asks for but
// that were not read, unless the read already said why.
func (f *gapFinder) unreadGaps(req Request) {
	if req.ResourceGroups && !f.l.ResourceGroupsRead && !hasGap(f.l, "RESOURCE_GROUPS") {
		f.add(state.Gap{Kind: state.GapRead, Key: "RESOURCE_GROUPS", Reason: f.notRead("resource groups", true)})
	}
	if req.Users && !f.l.UsersRead && !hasGap(f.l, "mysql.user") {
		f.add(state.Gap{Kind: state.GapRead, Key: "mysql.user", Reason: f.notRead("user bindings", true)})
	}
}

// hasGap reports a GapRead recorded for the source named key.
func hasGap(l *state.Live, key string) bool {
	for _, g := range l.Gaps {
		if g.Kind == state.GapRead && g.Key == key {
			return true
		}
	}
	return false
}

package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
)

// Ordering. Changes are ordered by a dependency graph, never by declaration
// order. Each rule below adds edges "from must run before to" with a reason
// the plan shows. Ties (changes with no path between them) are broken by kind
// (variables, component config, resource groups, users) and then by address,
// so the order is a pure function of the set of changes.

const (
	varResourceControl  = "tidb_enable_resource_control"
	varPreparedCache    = "tidb_enable_prepared_plan_cache"
	varNonPreparedCache = "tidb_enable_non_prepared_plan_cache"
	varInstanceCache    = "tidb_enable_instance_plan_cache"
	varSQLMode          = "sql_mode"

	keySplitSize = catalog.KeyRegionSplitSize
	keyMaxSize   = catalog.KeyRegionMaxSize
	keySplitKeys = catalog.KeyRegionSplitKeys
	keyMaxKeys   = catalog.KeyRegionMaxKeys

	keyMergeSize = catalog.KeyMergeRegionSize
	keyMergeKeys = catalog.KeyMergeRegionKeys
)

type edge struct {
	from, to int
	why      string
}

func kindRank(k Kind) int {
	switch k {
	case KindVariable:
		return 0
	case KindConfig:
		return 1
	case KindResourceGroup:
		return 2
	case KindUser:
		return 3
	}
	return 4
}

// order returns changes in dependency order. tikvLive holds the canonical live
// TiKV values per key and instance, for the region-size rule.
func order(changes []*Change, tikvLive map[string]map[string]string) ([]*Change, error) {
	seen := map[string]bool{}
	for _, c := range changes {
		if seen[c.Address] {
			return nil, fmt.Errorf("two changes have the address %s", c.Address)
		}
		seen[c.Address] = true
	}
	edges, err := dependencies(changes, tikvLive)
	if err != nil {
		return nil, err
	}
	n := len(changes)
	indeg := make([]int, n)
	out := make([][]int, n)
	dedup := map[[2]int]bool{}
	var kept []edge
	for _, e := range edges {
		k := [2]int{e.from, e.to}
		if e.from == e.to || dedup[k] {
			continue
		}
		dedup[k] = true
		kept = append(kept, e)
		indeg[e.to]++
		out[e.from] = append(out[e.from], e.to)
	}
	less := func(a, b int) bool {
		ra, rb := kindRank(changes[a].Kind), kindRank(changes[b].Kind)
		if ra != rb {
			return ra < rb
		}
		return changes[a].Address < changes[b].Address
	}
	var ready []int
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	var result []*Change
	for len(ready) > 0 {
		sort.Slice(ready, func(i, j int) bool { return less(ready[i], ready[j]) })
		i := ready[0]
		ready = ready[1:]
		result = append(result, changes[i])
		for _, j := range out[i] {
			indeg[j]--
			if indeg[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	if len(result) != n {
		var stuck []string
		for i := 0; i < n; i++ {
			if indeg[i] > 0 {
				stuck = append(stuck, changes[i].Address)
			}
		}
		sort.Strings(stuck)
		return nil, fmt.Errorf("the changes %s depend on each other in a cycle; apply them in separate steps", strings.Join(stuck, ", "))
	}
	// Record the edges on the changes (UI and apply), in a stable order.
	sort.SliceStable(kept, func(a, b int) bool {
		if kept[a].to != kept[b].to {
			return kept[a].to < kept[b].to
		}
		return changes[kept[a].from].Address < changes[kept[b].from].Address
	})
	// Edges into one change that share a reason are said once:
	// "after A and B: PD merge thresholds follow the TiKV split size".
	type reasonKey struct {
		to  int
		why string
	}
	var order []reasonKey
	froms := map[reasonKey][]string{}
	for _, e := range kept {
		to := changes[e.to]
		to.DependsOn = append(to.DependsOn, changes[e.from].Address)
		k := reasonKey{e.to, e.why}
		if _, ok := froms[k]; !ok {
			order = append(order, k)
		}
		froms[k] = append(froms[k], changes[e.from].Address)
	}
	for _, k := range order {
		to := changes[k.to]
		if to.Reason != "" {
			to.Reason += "; "
		}
		to.Reason += "after " + joinAnd(froms[k]) + ": " + k.why
	}
	return result, nil
}

// dependencies lists every ordering edge between changes.
func dependencies(cs []*Change, tikvLive map[string]map[string]string) ([]edge, error) {
	var es []edge
	idx := func(kind Kind, key string) []int {
		var out []int
		for i, c := range cs {
			if c.Kind == kind && c.Key == key {
				out = append(out, i)
			}
		}
		return out
	}
	// 1. Resource control switch before resource groups when turning it on,
	// after them when turning it off (tidb-facts.md §4.1).
	for _, s := range idx(KindVariable, varResourceControl) {
		on := cs[s].Verify[0].Want == "true"
		for i, c := range cs {
			if c.Kind != KindResourceGroup {
				continue
			}
			if on {
				es = append(es, edge{s, i, "resource control is switched on before resource groups change"})
			} else {
				es = append(es, edge{i, s, "resource groups change before resource control is switched off"})
			}
		}
	}
	// 2. Groups are created before users are bound to them, and before another
	// group's QUERY_LIMIT switches to them (tidb-facts.md §4.2, §4.5).
	for g, gc := range cs {
		if gc.Kind != KindResourceGroup || gc.Action != Create {
			continue
		}
		for i, c := range cs {
			if c.Kind == KindUser && c.After == gc.Key {
				es = append(es, edge{g, i, "the group must exist before a user is bound to it"})
			}
			if c.Kind == KindResourceGroup && i != g && strings.Contains(c.After, "SWITCH_GROUP("+gc.Key+")") {
				es = append(es, edge{g, i, "the group must exist before a query limit switches to it"})
			}
		}
	}
	// 3. Users are unbound before their group is dropped (tidb-facts.md §4.6).
	for g, gc := range cs {
		if gc.Kind != KindResourceGroup || gc.Action != Delete {
			continue
		}
		for i, c := range cs {
			if c.Kind == KindUser && len(c.Before) > 0 && c.Before[0].Value == gc.Key {
				es = append(es, edge{i, g, "DROP RESOURCE GROUP fails while a user is bound to the group"})
			}
		}
	}
	// 4. Plan-cache switches before the instance plan cache (tidb-facts.md §5.2:
	// the instance cache only stores what the statement-level caches admit).
	for _, ic := range idx(KindVariable, varInstanceCache) {
		for _, k := range []string{varPreparedCache, varNonPreparedCache} {
			for _, s := range idx(KindVariable, k) {
				es = append(es, edge{s, ic, "the plan-cache switches decide what the instance plan cache receives"})
			}
		}
	}
	// 5. Region-size family (tidb-facts.md §2.3, §3.3): TiKV validates the whole
	// config on every change (max >= split), so raise max before split when
	// growing, lower split before max when shrinking, per instance.
	for _, pair := range [][2]string{{keySplitSize, keyMaxSize}, {keySplitKeys, keyMaxKeys}} {
		for _, s := range idx(KindConfig, pair[0]) {
			for _, m := range idx(KindConfig, pair[1]) {
				e, err := regionEdge(cs, s, m, pair, tikvLive)
				if err != nil {
					return nil, err
				}
				es = append(es, e...)
			}
		}
	}
	// 6. PD merge thresholds after the split size they are scaled from
	// (tidb-facts.md §3.2).
	for _, k := range []string{keyMergeSize, keyMergeKeys} {
		for _, p := range idx(KindConfig, k) {
			if cs[p].Component != "pd" {
				continue
			}
			for _, sk := range []string{keySplitSize, keySplitKeys} {
				for _, s := range idx(KindConfig, sk) {
					if cs[s].Component == "tikv" {
						es = append(es, edge{s, p, "PD merge thresholds follow the TiKV split size"})
					}
				}
			}
		}
	}
	// 7. sql_mode last: a new GLOBAL sql_mode reaches every session opened
	// after it, including the ones this apply may still open. tiform's own
	// sessions keep NO_BACKSLASH_ESCAPES off whatever the GLOBAL value (live
	// checks each connection; docs/decisions/0005-sql-literals-and-sql-mode.md),
	// and the change still runs after everything else, so that no statement of
	// this plan is sent after the mode that applications parse with changed.
	for _, sm := range idx(KindVariable, varSQLMode) {
		for i := range cs {
			if i != sm {
				es = append(es, edge{i, sm, sqlModeLastReason})
			}
		}
	}
	return es, nil
}

// sqlModeLastReason is the ordering reason of a sql_mode change.
const sqlModeLastReason = "sql_mode changes last, after every other statement of the plan (tiform's own sessions keep NO_BACKSLASH_ESCAPES off whatever its value)"

// affects returns the TiKV instances a config change sets: every instance for
// a type-wide statement, else the statements' targets.
func affects(c *Change, all map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, st := range c.Statements {
		if st.Target == string(c.Component) {
			for inst := range all {
				out[inst] = true
			}
			for _, b := range c.Before {
				out[b.Instance] = true
			}
			continue
		}
		out[st.Target] = true
	}
	return out
}

func wantOn(c *Change, inst string) string {
	for _, v := range c.Verify {
		if v.Instance == "" || v.Instance == inst {
			return v.Want
		}
	}
	return ""
}

// regionEdge decides the order of a split change s and a max change m.
func regionEdge(cs []*Change, s, m int, pair [2]string, tikvLive map[string]map[string]string) ([]edge, error) {
	sc, mc := cs[s], cs[m]
	if sc.Component != "tikv" || mc.Component != "tikv" {
		return nil, nil
	}
	liveSplit, liveMax := tikvLive[pair[0]], tikvLive[pair[1]]
	sAff, mAff := affects(sc, liveSplit), affects(mc, liveMax)
	var insts []string
	for inst := range sAff {
		if mAff[inst] {
			insts = append(insts, inst)
		}
	}
	sort.Strings(insts)
	var maxFirsts, splitFirsts []string
	for _, inst := range insts {
		ls, ok1 := numeric(liveSplit[inst])
		lm, ok2 := numeric(liveMax[inst])
		ns, ok3 := numeric(wantOn(sc, inst))
		nm, ok4 := numeric(wantOn(mc, inst))
		if !ok1 || !ok2 || !ok3 || !ok4 {
			continue
		}
		if ns > lm {
			maxFirsts = append(maxFirsts, inst)
		}
		if nm < ls {
			splitFirsts = append(splitFirsts, inst)
		}
	}
	maxFirst, splitFirst := someInstances(maxFirsts), someInstances(splitFirsts)
	switch {
	case maxFirst != "" && splitFirst != "":
		return nil, fmt.Errorf("%s and %s cannot be ordered: %s needs %s raised first but %s needs %s lowered first; plan the instances separately",
			sc.Address, mc.Address, maxFirst, pair[1], splitFirst, pair[0])
	case maxFirst != "":
		return []edge{{m, s, fmt.Sprintf("the new %s exceeds the live %s on %s; TiKV rejects split > max, so max is raised first", pair[0], pair[1], maxFirst)}}, nil
	case splitFirst != "":
		return []edge{{s, m, fmt.Sprintf("the new %s is below the live %s on %s; TiKV rejects split > max, so split is lowered first", pair[1], pair[0], splitFirst)}}, nil
	}
	return nil, nil
}

// someInstances names the first instance of a sorted list and how many more
// there are ("" for none): "10.0.1.17:20160 and 2 more".
func someInstances(insts []string) string {
	switch len(insts) {
	case 0:
		return ""
	case 1:
		return insts[0]
	}
	return fmt.Sprintf("%s and %d more", insts[0], len(insts)-1)
}

// joinAnd joins names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

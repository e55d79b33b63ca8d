package planner

import (
	"container/heap"
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
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

func kindRank(k state.Kind) int {
	switch k {
	case state.KindVariable:
		return 0
	case state.KindConfig:
		return 1
	case state.KindResourceGroup:
		return 2
	case state.KindUser:
		return 3
	}
	return 4
}

// orderFacts is what ordering rules read beyond the changes themselves.
type orderFacts struct {
	// tikvLive holds the canonical live TiKV values per key and instance, for
	// the region-size rule.
	tikvLive map[string]map[string]string
	// switchTo maps a resource-group change to the group its query limit
	// switches to (ACTION = SWITCH_GROUP(…)), which must exist first.
	switchTo map[*plans.Change]string
}

// order returns changes in dependency order.
func order(changes []*plans.Change, facts orderFacts) ([]*plans.Change, error) {
	seen := map[state.Address]bool{}
	for _, c := range changes {
		if seen[c.Addr] {
			return nil, fmt.Errorf("two changes have the address %s", c.Addr)
		}
		seen[c.Addr] = true
	}
	edges, err := dependencies(changes, facts)
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
	// Ties are broken by kind, then address: names are computed once.
	ready := &readyQueue{rank: make([]int, n), name: make([]string, n)}
	for i, c := range changes {
		ready.rank[i], ready.name[i] = kindRank(c.Addr.Kind), c.Addr.String()
	}
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	var result []*plans.Change
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		result = append(result, changes[i])
		for _, j := range out[i] {
			indeg[j]--
			if indeg[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	if len(result) != n {
		var stuck []string
		for i := 0; i < n; i++ {
			if indeg[i] > 0 {
				stuck = append(stuck, changes[i].Addr.String())
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
		return ready.name[kept[a].from] < ready.name[kept[b].from]
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
		to.DependsOn = append(to.DependsOn, changes[e.from].Addr)
		k := reasonKey{e.to, e.why}
		if _, ok := froms[k]; !ok {
			order = append(order, k)
		}
		froms[k] = append(froms[k], ready.name[e.from])
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

// readyQueue holds the changes whose dependencies have all been placed,
// smallest (kind rank, address) first (container/heap).
type readyQueue struct {
	items []int
	rank  []int    // by change index
	name  []string // by change index
}

func (q *readyQueue) Len() int { return len(q.items) }
func (q *readyQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if q.rank[a] != q.rank[b] {
		return q.rank[a] < q.rank[b]
	}
	return q.name[a] < q.name[b]
}
func (q *readyQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *readyQueue) Push(x any)    { q.items = append(q.items, x.(int)) }
func (q *readyQueue) Pop() any {
	x := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return x
}

// dependencies lists every ordering edge between changes, rule by rule.
func dependencies(cs []*plans.Change, facts orderFacts) ([]edge, error) {
	g := changeGraph(cs)
	var es []edge
	es = append(es, g.resourceControlEdges()...)
	es = append(es, g.groupEdges(facts)...)
	es = append(es, g.planCacheEdges()...)
	region, err := g.regionSizeEdges(facts)
	if err != nil {
		return nil, err
	}
	es = append(es, region...)
	es = append(es, g.mergeEdges()...)
	es = append(es, g.sqlModeEdges()...)
	return es, nil
}

// changeGraph is the changes an ordering rule reads.
type changeGraph []*plans.Change

// idx returns the indexes of the changes to key of kind.
func (cs changeGraph) idx(kind state.Kind, key string) []int {
	var out []int
	for i, c := range cs {
		if c.Addr.Kind == kind && c.Addr.Key == key {
			out = append(out, i)
		}
	}
	return out
}

// resourceControlEdges: the resource control switch changes before resource
// groups when it turns on, after them when it turns off (with it off,
// CREATE/ALTER RESOURCE GROUP fail with error 8250:
// https://docs.pingcap.com/tidb/stable/sql-statement-create-resource-group).
func (cs changeGraph) resourceControlEdges() []edge {
	var es []edge
	for _, s := range cs.idx(state.KindVariable, varResourceControl) {
		on := cs[s].Verify[0].Want == "true"
		for i, c := range cs {
			if c.Addr.Kind != state.KindResourceGroup {
				continue
			}
			if on {
				es = append(es, edge{s, i, "resource control is switched on before resource groups change"})
			} else {
				es = append(es, edge{i, s, "resource groups change before resource control is switched off"})
			}
		}
	}
	return es
}

// groupEdges: a group is created before users are bound to it and before
// another group's QUERY_LIMIT switches to it
// (https://docs.pingcap.com/tidb/stable/sql-statement-alter-user,
// https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries);
// users are unbound before their group is dropped (tidb PR #40716, "ddl:
// prevent dropping in-use resource group").
func (cs changeGraph) groupEdges(facts orderFacts) []edge {
	// Index once: who binds to, unbinds from, or switches to each group.
	bindTo, unbindFrom, switchTo := map[string][]int{}, map[string][]int{}, map[string][]int{}
	for i, c := range cs {
		switch c.Addr.Kind {
		case state.KindUser:
			bindTo[c.After] = append(bindTo[c.After], i)
			if len(c.Before) > 0 {
				unbindFrom[c.Before[0].Value] = append(unbindFrom[c.Before[0].Value], i)
			}
		case state.KindResourceGroup:
			if to, ok := facts.switchTo[c]; ok {
				switchTo[to] = append(switchTo[to], i)
			}
		}
	}
	var es []edge
	for g, gc := range cs {
		if gc.Addr.Kind != state.KindResourceGroup {
			continue
		}
		switch gc.Action {
		case plans.Create:
			for _, i := range bindTo[gc.Addr.Key] {
				es = append(es, edge{g, i, "the group must exist before a user is bound to it"})
			}
			for _, i := range switchTo[gc.Addr.Key] {
				if i != g {
					es = append(es, edge{g, i, "the group must exist before a query limit switches to it"})
				}
			}
		case plans.Delete:
			for _, i := range unbindFrom[gc.Addr.Key] {
				es = append(es, edge{i, g, "DROP RESOURCE GROUP fails while a user is bound to the group"})
			}
		}
	}
	return es
}

// planCacheEdges: the plan-cache switches change before the instance plan
// cache, which stores only what the statement-level caches admit
// (https://docs.pingcap.com/tidb/stable/system-variables, tidb_enable_instance_plan_cache).
func (cs changeGraph) planCacheEdges() []edge {
	var es []edge
	for _, ic := range cs.idx(state.KindVariable, varInstanceCache) {
		for _, k := range []string{varPreparedCache, varNonPreparedCache} {
			for _, s := range cs.idx(state.KindVariable, k) {
				es = append(es, edge{s, ic, "the plan-cache switches decide what the instance plan cache receives"})
			}
		}
	}
	return es
}

// regionSizeEdges: TiKV validates the whole config on every change (max >=
// split, tikv/tikv#18567), so max is raised before split when growing and
// split lowered before max when shrinking, per instance.
func (cs changeGraph) regionSizeEdges(facts orderFacts) ([]edge, error) {
	var es []edge
	for _, pair := range [][2]string{{keySplitSize, keyMaxSize}, {keySplitKeys, keyMaxKeys}} {
		for _, s := range cs.idx(state.KindConfig, pair[0]) {
			for _, m := range cs.idx(state.KindConfig, pair[1]) {
				e, err := regionEdge(cs, s, m, pair, facts.tikvLive)
				if err != nil {
					return nil, err
				}
				es = append(es, e...)
			}
		}
	}
	return es, nil
}

// mergeEdges: PD's merge thresholds change after the TiKV split size they
// are scaled from (tikv/pd#8445).
func (cs changeGraph) mergeEdges() []edge {
	var es []edge
	for _, k := range []string{keyMergeSize, keyMergeKeys} {
		for _, p := range cs.idx(state.KindConfig, k) {
			if cs[p].Addr.Component != state.PD {
				continue
			}
			for _, sk := range []string{keySplitSize, keySplitKeys} {
				for _, s := range cs.idx(state.KindConfig, sk) {
					if cs[s].Addr.Component == state.TiKV {
						es = append(es, edge{s, p, "PD merge thresholds follow the TiKV split size"})
					}
				}
			}
		}
	}
	return es
}

// sqlModeEdges: sql_mode changes last. A new GLOBAL sql_mode reaches every
// session opened after it, including the ones this apply may still open.
// tiform's own sessions keep NO_BACKSLASH_ESCAPES off whatever the GLOBAL
// value (live checks each connection;
// docs/decisions/0005-sql-literals-and-sql-mode.md), and the change still
// runs after everything else, so that no statement of this plan is sent
// after the mode that applications parse with changed.
func (cs changeGraph) sqlModeEdges() []edge {
	var es []edge
	for _, sm := range cs.idx(state.KindVariable, varSQLMode) {
		for i := range cs {
			if i != sm {
				es = append(es, edge{i, sm, sqlModeLastReason})
			}
		}
	}
	return es
}

// sqlModeLastReason is the ordering reason of a sql_mode change.
const sqlModeLastReason = "sql_mode changes last, after every other statement of the plan (tiform's own sessions keep NO_BACKSLASH_ESCAPES off whatever its value)"

// affects returns the TiKV instances a config change sets: every instance for
// a type-wide statement, else the statements' targets.
func affects(c *plans.Change, all map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, st := range c.Statements {
		if st.Target == string(c.Addr.Component) {
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

func wantOn(c *plans.Change, inst string) string {
	for _, v := range c.Verify {
		if v.Addr.Instance == "" || v.Addr.Instance == inst {
			return v.Want
		}
	}
	return ""
}

// regionEdge decides the order of a split change s and a max change m.
func regionEdge(cs []*plans.Change, s, m int, pair [2]string, tikvLive map[string]map[string]string) ([]edge, error) {
	sc, mc := cs[s], cs[m]
	if sc.Addr.Component != state.TiKV || mc.Addr.Component != state.TiKV {
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
		return nil, inputError(sc.Range, fmt.Sprintf("%s and %s cannot be ordered: %s needs %s raised first but %s needs %s lowered first",
			sc.Addr, mc.Addr, maxFirst, pair[1], splitFirst, pair[0]),
			"plan the instances separately: declare the new values per instance, in two applies",
			diag.Related{Message: mc.Addr.String() + " is declared here", Range: mc.Range})
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

package schema

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// resolve merges the baseline (top-level) layer with one cluster's layer.
// The cluster wins per key: a config key (component, instance, key), a
// variable name, an acknowledged code, a policy; resource groups merge per
// group by name, the cluster's attributes winning and the rest inherited
// (query_limit, background and users are each replaced as a whole, as ALTER
// RESOURCE GROUP replaces them:
// https://docs.pingcap.com/tidb/stable/sql-statement-alter-resource-group).
func (l *loader) resolve(base *layer, c *clusterDecl) *state.DesiredCluster {
	dc := &state.DesiredCluster{
		Name:        c.name,
		DSN:         c.dsn,
		DSNEnv:      c.dsnEnv,
		Labels:      c.labels,
		TiUPCluster: c.tiup,
		Persisted:   c.persisted,
	}
	if c.rng != (hcl.Range{}) {
		dc.Range = rangeOf(c.rng)
	}
	ly := c.layer

	cfg := map[configKey]state.ConfigSetting{}
	for _, k := range base.configOrder {
		cfg[k] = base.config[k].setting
	}
	for _, k := range ly.configOrder {
		cfg[k] = ly.config[k].setting
	}
	for _, s := range cfg {
		dc.Config = append(dc.Config, s)
	}
	sort.Slice(dc.Config, func(i, j int) bool { return configLess(dc.Config[i], dc.Config[j]) })

	dc.Variables = override(base.varOrder, ly.varOrder, func(n string) state.VariableSetting { return base.vars[n].setting },
		func(n string) state.VariableSetting { return ly.vars[n].setting })

	groups := map[string]*groupDecl{}
	for _, n := range base.groupOrder {
		groups[n] = base.groups[n]
	}
	for _, n := range ly.groupOrder {
		if b, ok := groups[n]; ok {
			groups[n] = mergeGroup(b, ly.groups[n])
		} else {
			groups[n] = ly.groups[n]
		}
	}
	for _, n := range sortedKeys(groups) {
		dc.ResourceGroups = append(dc.ResourceGroups, copyGroup(groups[n].group))
	}

	if p := pick(base.unmanaged, ly.unmanaged); p != nil {
		dc.DropUnmanagedGroups = p.on
	}
	if p := pick(base.instanceVars, ly.instanceVars); p != nil {
		dc.AllowInstanceVariables = p.on
	}
	if p := pick(base.unmanagedSettings, ly.unmanagedSettings); p != nil {
		dc.ReportUnmanaged = p.on
	}

	dc.Acknowledgements = override(base.ackOrder, ly.ackOrder, func(c string) state.Acknowledgement { return base.acks[c].ack },
		func(c string) state.Acknowledgement { return ly.acks[c].ack })
	dc.Ignores = override(base.ignoreOrder, ly.ignoreOrder, func(p state.AddressPattern) state.Ignore { return base.ignores[p].ignore },
		func(p state.AddressPattern) state.Ignore { return ly.ignores[p].ignore })

	l.checkCluster(dc, base, ly, groups)
	return dc
}

// override resolves declarations keyed by name (a variable, an acknowledged
// code, an ignore pattern): the baseline's (keys baseKeys, values baseOf),
// each replaced by the cluster's of the same key, sorted by key.
func override[K ~string, V any](baseKeys, clusterKeys []K, baseOf, clusterOf func(K) V) []V {
	m := map[K]V{}
	for _, k := range baseKeys {
		m[k] = baseOf(k)
	}
	for _, k := range clusterKeys {
		m[k] = clusterOf(k)
	}
	var out []V
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

func pick(base, over *policyDecl) *policyDecl {
	if over != nil {
		return over
	}
	return base
}

// componentOrder is the report order of components (state.Components).
func componentOrder(c state.Component) int {
	for i, x := range state.Components {
		if x == c {
			return i
		}
	}
	return len(state.Components)
}

// configLess orders settings by component, then type-wide before
// per-instance, then instance, then key.
func configLess(a, b state.ConfigSetting) bool {
	if a.Component != b.Component {
		return componentOrder(a.Component) < componentOrder(b.Component)
	}
	if a.Instance != b.Instance {
		return a.Instance < b.Instance
	}
	return a.Key < b.Key
}

// mergeGroup overlays a cluster's declaration of a group on the baseline's.
func mergeGroup(base, over *groupDecl) *groupDecl {
	out := &groupDecl{
		group:      base.group,
		labelRange: over.labelRange,
		userRanges: map[string]hcl.Range{},
	}
	g, o := &out.group, over.group
	g.Range = o.Range
	g.FieldRanges = map[string]diag.SourceRange{}
	for k, v := range base.group.FieldRanges {
		g.FieldRanges[k] = v
	}
	for k, v := range o.FieldRanges {
		g.FieldRanges[k] = v
	}
	if o.RUPerSec != nil {
		g.RUPerSec = o.RUPerSec
	}
	if o.Priority != nil {
		g.Priority = o.Priority
	}
	if o.Burstable != nil || o.BurstableBool != nil {
		g.Burstable, g.BurstableBool = o.Burstable, o.BurstableBool
	}
	if o.QueryLimit != nil {
		g.QueryLimit = o.QueryLimit
	}
	if o.Background != nil {
		g.Background = o.Background
	}
	userRanges := base.userRanges
	if o.Users != nil {
		g.Users = o.Users
		userRanges = over.userRanges
	}
	for k, v := range userRanges {
		out.userRanges[k] = v
	}
	out.preventDestroy = base.preventDestroy
	if over.preventDestroy != nil {
		out.preventDestroy = over.preventDestroy
	}
	g.PreventDestroy = out.preventDestroy != nil && *out.preventDestroy
	return out
}

// copyGroup deep-copies the slices and maps of a group, so clusters never
// share mutable state.
func copyGroup(g state.ResourceGroup) state.ResourceGroup {
	if g.Users != nil {
		g.Users = append([]state.UserRef{}, g.Users...)
	}
	if g.FieldRanges != nil {
		m := make(map[string]diag.SourceRange, len(g.FieldRanges))
		for k, v := range g.FieldRanges {
			m[k] = v
		}
		g.FieldRanges = m
	}
	if g.QueryLimit != nil {
		q := *g.QueryLimit
		g.QueryLimit = &q
	}
	if g.Background != nil {
		b := *g.Background
		if b.TaskTypes != nil {
			b.TaskTypes = append([]string{}, b.TaskTypes...)
		}
		g.Background = &b
	}
	return g
}

// orderedPair is a pair of TiKV settings whose values TiKV requires in order:
// low <= high (strict: low < high). TiKV validates its whole configuration on
// every change, so a declared pair out of order is refused whatever the live
// values are (tikv/tikv@v8.5.1:src/config/mod.rs, ConfigController::update_impl).
type orderedPair struct {
	low, high string
	strict    bool
	why       string // completes "TiKV … refuses it when …": the rule and its source
	fix       func(low *big.Int) *big.Int
}

var orderedPairs = []orderedPair{
	{low: catalog.KeyRegionSplitSize, high: catalog.KeyRegionMaxSize,
		why: "the split value is above the max value (\"region max size … must >= split size …\", tikv/tikv@v8.5.1:components/raftstore/src/coprocessor/config.rs)",
		fix: func(v *big.Int) *big.Int { return new(big.Int).Mul(new(big.Int).Quo(v, big.NewInt(2)), big.NewInt(3)) }},
	{low: catalog.KeyRegionSplitKeys, high: catalog.KeyRegionMaxKeys,
		why: "the split value is above the max value (\"region max keys … must >= split keys …\", tikv/tikv@v8.5.1:components/raftstore/src/coprocessor/config.rs)",
		fix: func(v *big.Int) *big.Int { return new(big.Int).Mul(new(big.Int).Quo(v, big.NewInt(2)), big.NewInt(3)) }},
	{low: "in-memory-engine.evict-threshold", high: "in-memory-engine.capacity", strict: true,
		why: "the in-memory engine's evict-threshold is not below its capacity (tikv/tikv@v8.5.1:components/in_memory_engine/src/config.rs)"},
	{low: "in-memory-engine.stop-load-threshold", high: "in-memory-engine.evict-threshold",
		why: "the in-memory engine's stop-load-threshold exceeds its evict-threshold (tikv/tikv@v8.5.1:components/in_memory_engine/src/config.rs)"},
}

// checkOrderedPairs reports a declared pair of TiKV values out of order
// (orderedPairs): on the type-wide values, and on each instance exception
// (its own value, else the type-wide one). Pairs with a live side are the
// guard's business (TF103); here both sides are in the files, so the
// mistake is caught offline.
func (l *loader) checkOrderedPairs(dc *state.DesiredCluster) {
	type at struct{ inst, key string }
	declared := map[at]*state.ConfigSetting{}
	instances := []string{""}
	for i := range dc.Config {
		c := &dc.Config[i]
		if c.Component != state.TiKV {
			continue
		}
		if _, seen := declared[at{c.Instance, ""}]; !seen && c.Instance != "" {
			declared[at{c.Instance, ""}] = nil
			instances = append(instances, c.Instance)
		}
		declared[at{c.Instance, c.Key}] = c
	}
	value := func(s *state.ConfigSetting) (*big.Int, string, bool) {
		e, ok := catalog.Config("tikv", s.Key)
		if !ok {
			return nil, "", false
		}
		c, err := e.Canonical(s.Value.Text)
		if err != nil {
			return nil, "", false
		}
		n, ok := new(big.Int).SetString(c, 10)
		return n, e.Render(c), ok
	}
	for _, inst := range instances {
		for _, pair := range orderedPairs {
			get := func(key string) *state.ConfigSetting {
				if s := declared[at{inst, key}]; s != nil {
					return s
				}
				return declared[at{"", key}]
			}
			low, high := get(pair.low), get(pair.high)
			if low == nil || high == nil || (inst != "" && low.Instance == "" && high.Instance == "") {
				continue // undeclared, or the type-wide pair already checked
			}
			lv, lt, lok := value(low)
			hv, ht, hok := value(high)
			if !lok || !hok {
				continue
			}
			cmp := lv.Cmp(hv)
			if cmp < 0 || (cmp == 0 && !pair.strict) {
				continue
			}
			anchor, other, otherKey := low, high, pair.high
			if low.Instance != inst {
				anchor, other, otherKey = high, low, pair.low
			}
			where := "tikv"
			if inst != "" {
				where = fmt.Sprintf("tikv %q", inst)
			}
			verb, least := "exceeds", "at least"
			if pair.strict {
				verb, least = "is not below", "above"
			}
			hint := fmt.Sprintf("raise %s to %s %s, or lower %s", leafKey(pair.high), least, lt, leafKey(pair.low))
			if pair.fix != nil {
				highEntry, _ := catalog.Config("tikv", pair.high)
				hint = fmt.Sprintf("raise %s to %s %s (TiKV's own derivation is split / 2 × 3 = %s), or lower %s",
					leafKey(pair.high), least, lt, highEntry.Render(pair.fix(lv).String()), leafKey(pair.low))
			}
			l.b.add(diag.Diagnostic{
				Severity: diag.Error,
				Summary:  fmt.Sprintf("%s: %s %s %s %s %s", where, pair.low, lt, verb, pair.high, ht),
				Detail:   "TiKV validates its whole configuration on every change and refuses it when " + pair.why + ".",
				Hint:     hint,
				Range:    anchor.Range,
				Related:  []diag.Related{{Message: leafKey(otherKey) + " set here", Range: other.Range}},
			})
		}
	}
}

// leafKey is the last segment of a dotted key.
func leafKey(key string) string { return key[strings.LastIndexByte(key, '.')+1:] }

// checkCluster runs the checks that need the resolved cluster: INSTANCE-scoped
// variables without the opt-in, accounts bound to two groups, SWITCH_GROUP
// targets, and TiKV values that must be in order (orderedPairs).
func (l *loader) checkCluster(dc *state.DesiredCluster, base, ly *layer, groups map[string]*groupDecl) {
	l.checkOrderedPairs(dc)
	for _, v := range dc.Variables {
		e, ok := catalog.Variable(v.Name)
		if !ok || e.Scope != catalog.ScopeInstance || dc.AllowInstanceVariables {
			continue
		}
		keyRange := l.varKeyRange(base, ly, v.Name)
		l.b.errorf(keyRange, fmt.Sprintf("%s is an INSTANCE-scoped variable", v.Name),
			"SET GLOBAL changes it only on the TiDB instance tiform is connected to, and it is not persisted cluster-wide (https://docs.pingcap.com/tidb/stable/system-variables). Set it in tidb.toml, or opt in if that is what you want.",
			`add instance_variables = "allow" (top level or in the cluster block)`)
	}

	owner := map[string]string{}
	for _, name := range sortedKeys(groups) {
		d := groups[name]
		for _, u := range d.group.Users {
			if other, dup := owner[u.String()]; dup {
				l.b.add(diag.Diagnostic{
					Severity: diag.Error,
					Summary:  fmt.Sprintf("account %s is bound to two resource groups (%s and %s)", u, other, name),
					Detail:   "An account belongs to one resource group at a time (https://docs.pingcap.com/tidb/stable/sql-statement-alter-user).",
					Hint:     fmt.Sprintf("remove %s from one of the groups", u),
					Range:    rangeOf(d.userRanges[u.String()]),
					Related:  []diag.Related{{Message: "also listed in " + other, Range: rangeOf(groups[other].userRanges[u.String()])}},
				})
				continue
			}
			owner[u.String()] = name
		}
	}
	for _, name := range sortedKeys(groups) {
		q := groups[name].group.QueryLimit
		if q == nil || q.SwitchGroup == "" {
			continue
		}
		if q.SwitchGroup == name {
			r := groups[name].group.FieldRanges["query_limit"]
			l.b.add(diag.Diagnostic{Severity: diag.Error,
				Summary: fmt.Sprintf("resource group %q switches runaway queries to itself", name),
				Detail:  "SWITCH_GROUP must name another group.",
				Hint:    `name another group, for example switch_group = "batch"`, Range: r})
		}
	}
}

func (l *loader) varKeyRange(base, ly *layer, name string) hcl.Range {
	if v, ok := ly.vars[name]; ok {
		return v.keyRange
	}
	return base.vars[name].keyRange
}

// describeUsers renders accounts for the --show view.
func describeUsers(us []state.UserRef) string {
	s := make([]string, len(us))
	for i, u := range us {
		s[i] = strconv.Quote(u.String())
	}
	return "[" + strings.Join(s, ", ") + "]"
}

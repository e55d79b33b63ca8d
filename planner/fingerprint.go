package planner

import (
	"slices"
	"sort"
	"strings"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Fingerprint lists every live value a plan of dc over l depends on, in
// canonical form and sorted: each declared config key on every instance of
// its component, each declared variable, every live resource group and every
// declared group, the binding of every declared user and of every user bound
// to a group, and the version of every instance (which also pins the
// topology). It depends only on dc and l, so apply can recompute it from a
// fresh read and refuse a plan whose fingerprint no longer matches.
func Fingerprint(dc *state.DesiredCluster, l *state.Live) []plans.Dependency {
	if dc == nil || l == nil {
		return nil
	}
	return fingerprint(dc, l, newLiveIndex(l, dc.Config))
}

// fingerprint is Fingerprint over l's config index, which a plan shares with
// its comparison (the canonical live values are computed once). The config
// dependencies, nearly all of them on a large cluster, are produced in order;
// only the others are sorted.
func fingerprint(dc *state.DesiredCluster, l *state.Live, live *liveIndex) []plans.Dependency {
	rest := otherDependencies(dc, l)
	// rest holds no config dependency: they go where their kind sorts.
	at := sort.Search(len(rest), func(i int) bool { return rest[i].Addr.Kind > state.KindConfig })
	keys, covers := configCoverage(dc)
	out := make([]plans.Dependency, 0, len(rest)+configDependencyCount(keys, covers, live))
	out = append(out, rest[:at]...)
	out = appendConfigDependencies(out, keys, covers, live)
	return append(out, rest[at:]...)
}

// keyCover is which instances the declarations of one config key cover:
// every instance of the component (a type-wide declaration) or the ones
// declared on their own.
type keyCover struct {
	all       bool
	instances map[string]bool
}

func (c *keyCover) covers(inst string) bool { return c.all || c.instances[inst] }

// configCoverage returns the declared config keys, sorted by component then
// key as compareDependency orders them, and what each covers. A key declared
// twice (which planning refuses) covers what its declarations cover together.
func configCoverage(dc *state.DesiredCluster) ([]configKey, map[configKey]*keyCover) {
	covers := map[configKey]*keyCover{}
	var keys []configKey
	for _, s := range dc.Config {
		k := configKey{s.Component, strings.ToLower(strings.TrimSpace(s.Key))}
		c := covers[k]
		if c == nil {
			c = &keyCover{}
			covers[k] = c
			keys = append(keys, k)
		}
		if s.Instance == "" {
			c.all = true
			continue
		}
		if c.instances == nil {
			c.instances = map[string]bool{}
		}
		c.instances[s.Instance] = true
	}
	slices.SortFunc(keys, func(a, b configKey) int {
		if c := strings.Compare(string(a.component), string(b.component)); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	return keys, covers
}

// configDependencyCount bounds the number of config dependencies, to
// allocate them once (over 160,000 on 300 instances × the whole catalog).
func configDependencyCount(keys []configKey, covers map[configKey]*keyCover, live *liveIndex) int {
	n := 0
	for _, k := range keys {
		if c := covers[k]; c.all {
			n += len(live.component(k.component).instances)
		} else {
			n += len(c.instances)
		}
	}
	return n
}

// appendConfigDependencies appends each declared key on every instance it
// covers, with its canonical live value (plans.Absent where the instance
// printed none), ordered by component, instance, then key: the order of
// state.Compare, so that nothing is sorted. keys is sorted by component then
// key (configCoverage).
func appendConfigDependencies(out []plans.Dependency, keys []configKey, covers map[configKey]*keyCover, live *liveIndex) []plans.Dependency {
	for len(keys) > 0 {
		comp := keys[0].component
		n := 1
		for n < len(keys) && keys[n].component == comp {
			n++
		}
		group := keys[:n]
		keys = keys[n:]
		values, cover := make([][]string, len(group)), make([]*keyCover, len(group))
		for j, k := range group {
			values[j], cover[j] = live.canonical(k), covers[k]
		}
		instances := live.component(comp).instances
		for i, inst := range instances {
			if i > 0 && inst == instances[i-1] {
				continue // listed twice: one address, one value
			}
			for j, k := range group {
				if cover[j].covers(inst) {
					out = append(out, plans.Dependency{Addr: state.ConfigAddress(comp, inst, k.key), Value: values[j][i]})
				}
			}
		}
	}
	return out
}

// otherDependencies lists every dependency but the config ones, sorted: the
// instances' versions, declared variables, resource groups and user
// bindings. One live value per address: an address added twice (a user of
// two groups) reads the same live value both times, and the copies are
// dropped after sorting.
func otherDependencies(dc *state.DesiredCluster, l *state.Live) []plans.Dependency {
	n := len(l.Instances) + len(dc.Variables) + len(l.ResourceGroups) + len(dc.ResourceGroups) + len(l.Users)
	for _, g := range dc.ResourceGroups {
		n += len(g.Users)
	}
	out := make([]plans.Dependency, 0, n)
	add := func(a state.Address, value string) {
		out = append(out, plans.Dependency{Addr: a, Value: value})
	}
	for _, in := range l.Instances {
		// The raw CLUSTER_INFO.VERSION text, as a re-read would see it.
		v := in.VersionText
		if v == "" {
			v = in.Version.String()
		}
		add(state.VersionAddress(in.Component, in.Address), v)
	}
	for _, v := range dc.Variables {
		name := strings.ToLower(strings.TrimSpace(v.Name))
		val := plans.Absent
		if cur, ok := l.Variables[name]; ok {
			val = settingOf(state.KindVariable, state.TiDB, name).Canonical(cur)
		}
		add(state.VariableAddress(name), val)
	}
	tv, _ := l.MinVersion(state.TiDB)
	if tv.IsZero() {
		tv, _ = version.Parse(l.ServerVersion)
	}
	liveGroups := map[string]bool{}
	for i := range l.ResourceGroups {
		g := &l.ResourceGroups[i]
		n := GroupName(g.Name)
		liveGroups[n] = true
		add(state.GroupAddress(n), CanonicalGroup(g, tv))
	}
	for _, g := range dc.ResourceGroups {
		n := GroupName(g.Name)
		if !liveGroups[n] {
			add(state.GroupAddress(n), plans.Absent)
		}
	}
	liveUsers := map[state.UserRef]string{}
	for _, u := range l.Users {
		liveUsers[u.UserRef] = BoundGroup(u)
		if BoundGroup(u) != DefaultGroup {
			add(state.UserAddress(u.UserRef), BoundGroup(u))
		}
	}
	for _, g := range dc.ResourceGroups {
		for _, u := range g.Users {
			val, ok := liveUsers[u]
			if !ok {
				val = plans.Absent
			}
			add(state.UserAddress(u), val)
		}
	}
	slices.SortFunc(out, compareDependency)
	return slices.CompactFunc(out, func(d, o plans.Dependency) bool { return d.Addr == o.Addr })
}

// compareDependency orders dependencies by address, then value.
func compareDependency(d, o plans.Dependency) int {
	if c := state.Compare(d.Addr, o.Addr); c != 0 {
		return c
	}
	return strings.Compare(d.Value, o.Value)
}

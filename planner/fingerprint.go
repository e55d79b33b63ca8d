package planner

import (
	"slices"
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
	return fingerprint(dc, l, indexLiveConfig(l))
}

// fingerprint is Fingerprint with l.Config already indexed.
func fingerprint(dc *state.DesiredCluster, l *state.Live, live liveConfig) []plans.Dependency {
	// One live value per address. An address added twice (a key declared
	// type-wide and per instance, a user of two groups) reads the same live
	// value both times: the copies are dropped after sorting.
	instances := map[state.Component][]string{}
	for _, in := range l.Instances {
		instances[in.Component] = append(instances[in.Component], in.Address)
	}
	// Every address added below, counted before adding: the config rows alone
	// are every declared key × instance (over 160,000 on 300 instances), and
	// growing the slice to that size by doubling copied it a dozen times.
	n := len(l.Instances) + len(dc.Variables) + len(l.ResourceGroups) + len(dc.ResourceGroups) + len(l.Users)
	for _, g := range dc.ResourceGroups {
		n += len(g.Users)
	}
	for _, s := range dc.Config {
		if s.Instance == "" {
			n += len(instances[s.Component])
		} else {
			n++
		}
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
	for _, s := range dc.Config {
		key := strings.ToLower(strings.TrimSpace(s.Key))
		set := settingOf(state.KindConfig, s.Component, key)
		for _, inst := range instances[s.Component] {
			if s.Instance != "" && s.Instance != inst {
				continue
			}
			val := plans.Absent
			if v, ok := live.get(s.Component, inst, key); ok {
				val = set.Canonical(v)
			}
			add(state.ConfigAddress(s.Component, inst, key), val)
		}
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
		n := groupName(g.Name)
		liveGroups[n] = true
		add(state.GroupAddress(n), CanonicalGroup(g, tv))
	}
	for _, g := range dc.ResourceGroups {
		n := groupName(g.Name)
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

package planner

import (
	"sort"
	"strings"

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
func Fingerprint(dc *state.DesiredCluster, l *state.Live) []Dependency {
	if dc == nil || l == nil {
		return nil
	}
	seen := map[Dependency]bool{}
	var out []Dependency
	add := func(d Dependency) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, in := range l.Instances {
		// The raw CLUSTER_INFO.VERSION text, as a re-read would see it.
		v := in.VersionText
		if v == "" {
			v = in.Version.String()
		}
		add(Dependency{Kind: KindVersion, Component: in.Component, Instance: in.Address, Value: v})
	}
	live := indexLiveConfig(l)
	for _, s := range dc.Config {
		key := strings.ToLower(strings.TrimSpace(s.Key))
		set := settingOf(KindConfig, s.Component, key)
		for _, inst := range l.InstancesOf(s.Component) {
			if s.Instance != "" && s.Instance != inst {
				continue
			}
			val := Absent
			if v, ok := live.get(s.Component, inst, key); ok {
				val = set.Canonical(v)
			}
			add(Dependency{Kind: KindConfig, Component: s.Component, Instance: inst, Key: key, Value: val})
		}
	}
	for _, v := range dc.Variables {
		name := strings.ToLower(strings.TrimSpace(v.Name))
		val := Absent
		if cur, ok := l.Variables[name]; ok {
			val = settingOf(KindVariable, state.TiDB, name).Canonical(cur)
		}
		add(Dependency{Kind: KindVariable, Component: state.TiDB, Key: name, Value: val})
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
		add(Dependency{Kind: KindResourceGroup, Key: n, Value: CanonicalGroup(g, tv)})
	}
	for _, g := range dc.ResourceGroups {
		n := groupName(g.Name)
		if !liveGroups[n] {
			add(Dependency{Kind: KindResourceGroup, Key: n, Value: Absent})
		}
	}
	liveUsers := map[state.UserRef]string{}
	for _, u := range l.Users {
		liveUsers[u.UserRef] = boundGroup(u)
		if boundGroup(u) != DefaultGroup {
			add(Dependency{Kind: KindUser, Key: u.String(), Value: boundGroup(u)})
		}
	}
	for _, g := range dc.ResourceGroups {
		for _, u := range g.Users {
			val, ok := liveUsers[u]
			if !ok {
				val = Absent
			}
			add(Dependency{Kind: KindUser, Key: u.String(), Value: val})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].less(out[j]) })
	return out
}

func (d Dependency) less(o Dependency) bool {
	if d.Kind != o.Kind {
		return d.Kind < o.Kind
	}
	if d.Component != o.Component {
		return d.Component < o.Component
	}
	if d.Instance != o.Instance {
		return d.Instance < o.Instance
	}
	if d.Key != o.Key {
		return d.Key < o.Key
	}
	return d.Value < o.Value
}

package applier

import (
	"strings"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// facts is what apply knows of the values it depends on and changes: what
// its one inspection read before the first statement, updated by every
// read-back. The lock keeps other applies out, so the value a change starts
// from is the last one read: there is no separate "before" read.
type facts struct {
	// config holds, per component and lower-case key, the value each
	// instance printed; a slot that was never read (or whose read failed) is
	// missing.
	config map[configSlot]map[string]string
	// vars holds the variables read, by lower-case name (Absent when the
	// server did not report one that was asked for).
	vars map[string]string
	// groups holds every resource group by lower-case name, once read.
	groups     map[string]*state.ResourceGroup
	groupsRead bool
	// users holds every account's bound group, once read.
	users     map[state.UserRef]string
	usersRead bool
	// tidb is the TiDB version resource-group options are compared in.
	tidb version.Version
}

type configSlot struct {
	component state.Component
	key       string
}

func slotOf(a state.Address) configSlot {
	return configSlot{component: a.Component, key: strings.ToLower(a.Key)}
}

func newFacts(l *state.Live) *facts {
	f := &facts{config: map[configSlot]map[string]string{}, vars: map[string]string{}}
	f.tidb, _ = l.MinVersion(state.TiDB)
	if f.tidb.IsZero() {
		f.tidb = l.ServerVersionParsed
	}
	return f
}

// learn records what a read of req found in l, replacing what was known of
// the same values.
func (f *facts) learn(req live.Request, l *state.Live) {
	for _, cr := range req.Config {
		for _, k := range cr.Keys {
			f.config[configSlot{cr.Component, strings.ToLower(k.Key)}] = map[string]string{}
		}
	}
	for _, r := range l.Config {
		s := configSlot{r.Component, strings.ToLower(r.Key)}
		if vals, ok := f.config[s]; ok {
			vals[r.Instance] = r.Value
		}
	}
	for _, n := range req.Variables {
		n = strings.ToLower(strings.TrimSpace(n))
		if v, ok := l.Variables[n]; ok {
			f.vars[n] = v
		} else {
			f.vars[n] = Absent
		}
	}
	if req.ResourceGroups && l.ResourceGroupsRead {
		f.groups, f.groupsRead = map[string]*state.ResourceGroup{}, true
		for i := range l.ResourceGroups {
			g := &l.ResourceGroups[i]
			f.groups[planner.GroupName(g.Name)] = g
		}
	}
	if req.Users && l.UsersRead {
		f.users, f.usersRead = map[state.UserRef]string{}, true
		for _, b := range l.Users {
			f.users[b.UserRef] = planner.BoundGroup(b)
		}
	}
}

// forget drops what is known of the values at addrs (a read-back that
// failed: they are unknown now).
func (f *facts) forget(addrs []state.Address) {
	for _, a := range addrs {
		switch a.Kind {
		case state.KindConfig:
			delete(f.config, slotOf(a))
		case state.KindVariable:
			delete(f.vars, strings.ToLower(a.Key))
		case state.KindResourceGroup:
			f.groups, f.groupsRead = nil, false
		case state.KindUser:
			f.users, f.usersRead = nil, false
		}
	}
}

// known reports whether the value at a is known.
func (f *facts) known(a state.Address) bool {
	switch a.Kind {
	case state.KindConfig:
		_, ok := f.config[slotOf(a)]
		return ok
	case state.KindVariable:
		_, ok := f.vars[strings.ToLower(a.Key)]
		return ok
	case state.KindResourceGroup:
		return f.groupsRead
	case state.KindUser:
		return f.usersRead
	}
	return true
}

// reading is what is known of the value at a: per instance for config (the
// instance named, or every instance that printed it), "" for cluster-wide
// values. An unknown value reads as no value at all.
func (f *facts) reading(a state.Address) reading {
	r := reading{addr: a, values: map[string]string{}}
	switch a.Kind {
	case state.KindConfig:
		for in, v := range f.config[slotOf(a)] {
			if a.Instance == "" || a.Instance == in {
				r.values[in] = v
			}
		}
	case state.KindVariable:
		if v, ok := f.vars[strings.ToLower(a.Key)]; ok {
			r.values[""] = v
		}
	case state.KindResourceGroup:
		if f.groupsRead {
			r.tidb = f.tidb
			r.values[""] = Absent
			if g := f.groups[planner.GroupName(a.Key)]; g != nil {
				r.group = g
				r.values[""] = planner.CanonicalGroup(g, f.tidb)
			}
		}
	case state.KindUser:
		if f.usersRead {
			r.values[""] = Absent
			if g, ok := f.users[a.User]; ok {
				r.values[""] = g
			}
		}
	}
	return r
}

// readings is reading for every check, in order.
func (f *facts) readings(checks []plans.Check) []reading {
	out := make([]reading, len(checks))
	for i, c := range checks {
		out[i] = f.reading(c.Addr)
	}
	return out
}

// requestFor is the read of the values at addrs: one statement per kind of
// value (every component's config keys in one CLUSTER_CONFIG query).
func requestFor(addrs []state.Address) live.Request {
	req := live.Request{OnlyManagedKeys: true}
	for _, a := range addrs {
		addToRequest(&req, a)
	}
	return req
}

// addToRequest adds the value at a to req (versions and instances come with
// every inspection's topology).
func addToRequest(req *live.Request, a state.Address) {
	switch a.Kind {
	case state.KindConfig:
		for i := range req.Config {
			if req.Config[i].Component == a.Component {
				req.Config[i].Keys = append(req.Config[i].Keys, live.ManagedKey{Key: a.Key})
				return
			}
		}
		req.Config = append(req.Config, live.ComponentRequest{Component: a.Component, Keys: []live.ManagedKey{{Key: a.Key}}})
	case state.KindVariable:
		req.Variables = append(req.Variables, a.Key)
	case state.KindResourceGroup:
		req.ResourceGroups = true
	case state.KindUser:
		req.Users = true
	}
}

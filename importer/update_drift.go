package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// liveConfig is the value of comp/key on each instance that reports it.
func liveConfig(l *state.Live, comp state.Component, key string) map[string]string {
	out := map[string]string{}
	for _, r := range l.Config {
		if r.Component == comp && strings.EqualFold(r.Key, key) {
			out[strings.ToLower(r.Instance)] = r.Value
		}
	}
	return out
}

func findConfig(dc *state.DesiredCluster, comp state.Component, inst, key string) *state.ConfigSetting {
	for i, s := range dc.Config {
		if s.Component == comp && strings.EqualFold(s.Instance, inst) && strings.EqualFold(s.Key, key) {
			return &dc.Config[i]
		}
	}
	return nil
}

// withDefault gives v the comment an override carries: the default of the
// cluster's version.
func withDefault(v value, e *catalog.Entry, c Drifted, comp state.Component) value {
	if e != nil {
		v.dflt, v.bare = defaultFor(e, versionOf(c.Live, comp), v.canon, catalog.Host{Store: c.Live.Store()}), false
	}
	return v
}

// configDrift takes a config change: a per-instance declaration gets the
// instance's value; a type-wide one the value all its instances show, or
// the most common one and per-instance values for the others (Drift: only
// per-instance values for the instances that moved).
func (u *updater) configDrift(c Drifted, ch *plans.Change) {
	dc := c.Desired
	e, _ := catalog.Config(string(ch.Addr.Component), ch.Addr.Key)
	s := findConfig(dc, ch.Addr.Component, ch.Addr.Instance, ch.Addr.Key)
	if s == nil {
		u.refuse(dc, ch.Addr.String(), "no declaration of it was found")
		return
	}
	vals := liveConfig(c.Live, ch.Addr.Component, ch.Addr.Key)
	from := display(e, s.Value)
	if ch.Addr.Instance != "" {
		u.configValue(c, ch, e, s, ch.Addr.Instance, vals[strings.ToLower(ch.Addr.Instance)], from)
		return
	}
	insts := ch.Instances()
	if ch.Action == plans.Update {
		common, ok := u.commonValue(c, ch, e, s, insts, vals)
		if !ok {
			return
		}
		u.accept(drift{cluster: dc, decl: s.Range, what: ch.Addr.String(), from: from, to: common,
			target: target{config: &configKey{comp: ch.Addr.Component, key: s.Key}}})
		var rest []string
		for _, in := range insts {
			if v, err := relit(e, vals[strings.ToLower(in)], s.Value); err == nil && v.canon != common.canon {
				rest = append(rest, in)
			}
		}
		insts = rest
	}
	for _, in := range insts {
		u.instanceOverride(c, ch, e, s, in, vals[strings.ToLower(in)], from)
	}
}

// configValue rewrites a per-instance declaration.
func (u *updater) configValue(c Drifted, ch *plans.Change, e *catalog.Entry, s *state.ConfigSetting, inst, text, from string) {
	v, err := relit(e, text, s.Value)
	if err != nil {
		u.refuse(c.Desired, ch.Addr.String(), err.Error())
		return
	}
	u.accept(drift{cluster: c.Desired, decl: s.Range, what: ch.Addr.String(), from: from, to: withDefault(v, e, c, ch.Addr.Component),
		target: target{config: &configKey{comp: ch.Addr.Component, inst: strings.ToLower(inst), key: s.Key}}})
}

// commonValue is the value most of insts show (first in order on a tie).
func (u *updater) commonValue(c Drifted, ch *plans.Change, e *catalog.Entry, s *state.ConfigSetting, insts []string, vals map[string]string) (value, bool) {
	count := map[string]int{}
	byCanon := map[string]value{}
	best := ""
	for _, in := range insts {
		v, err := relit(e, vals[strings.ToLower(in)], s.Value)
		if err != nil {
			u.refuse(c.Desired, ch.Addr.String(), fmt.Sprintf("%s shows a value that cannot be declared: %v", in, err))
			return value{}, false
		}
		count[v.canon]++
		if _, seen := byCanon[v.canon]; !seen {
			byCanon[v.canon] = v
		}
		if best == "" || count[v.canon] > count[best] {
			best = v.canon
		}
	}
	if best == "" {
		u.refuse(c.Desired, ch.Addr.String(), "no instance reported a value")
		return value{}, false
	}
	return withDefault(byCanon[best], e, c, ch.Addr.Component), true
}

// instanceOverride declares the value one instance shows, in the cluster's
// own scope.
func (u *updater) instanceOverride(c Drifted, ch *plans.Change, e *catalog.Entry, s *state.ConfigSetting, inst, text, from string) {
	v, err := relit(e, text, s.Value)
	if err != nil {
		u.refuse(c.Desired, ch.Addr.String(), err.Error())
		return
	}
	d := drift{cluster: c.Desired, decl: s.Range, what: state.ConfigAddress(ch.Addr.Component, inst, s.Key).String(), from: from,
		to: withDefault(v, e, c, ch.Addr.Component), target: target{config: &configKey{comp: ch.Addr.Component, inst: strings.ToLower(inst), key: s.Key}},
		why: "this instance no longer has the value declared for every instance: declared for it alone"}
	u.override(d)
}

func (u *updater) variableDrift(c Drifted, ch *plans.Change) {
	dc := c.Desired
	var s *state.VariableSetting
	for i := range dc.Variables {
		if strings.EqualFold(dc.Variables[i].Name, ch.Addr.Key) {
			s = &dc.Variables[i]
		}
	}
	text, ok := c.Live.Variables[strings.ToLower(ch.Addr.Key)]
	if s == nil || !ok {
		u.refuse(dc, ch.Addr.String(), "the declaration or the cluster's value was not found")
		return
	}
	e, _ := catalog.Variable(s.Name)
	v, err := relit(e, text, s.Value)
	if err != nil {
		u.refuse(dc, ch.Addr.String(), err.Error())
		return
	}
	u.accept(drift{cluster: dc, decl: s.Range, what: ch.Addr.String(), from: display(e, s.Value),
		to: withDefault(v, e, c, state.TiDB), target: target{variable: strings.ToLower(s.Name)}})
}

// display is a declared value as the report shows it: as HCL writes it.
func display(e *catalog.Entry, v state.Value) string {
	if x, err := relit(e, v.Text, v); err == nil {
		return shownValue(x)
	}
	return v.Text
}

func findGroups(c Drifted, name string) (*state.ResourceGroup, *state.ResourceGroup) {
	var dg, lg *state.ResourceGroup
	for i := range c.Desired.ResourceGroups {
		if strings.EqualFold(c.Desired.ResourceGroups[i].Name, name) {
			dg = &c.Desired.ResourceGroups[i]
		}
	}
	for i := range c.Live.ResourceGroups {
		if strings.EqualFold(c.Live.ResourceGroups[i].Name, name) {
			lg = &c.Live.ResourceGroups[i]
		}
	}
	return dg, lg
}

// groupDrift takes each declared option of a group that differs from the
// cluster's, compared by the planner's canonical form of that option alone.
func (u *updater) groupDrift(c Drifted, ch *plans.Change) {
	name := ch.Addr.Key
	dg, lg := findGroups(c, name)
	if dg == nil || lg == nil {
		u.refuse(c.Desired, ch.Addr.String(), "the group is not both declared and on the cluster")
		return
	}
	v := c.Live.ServerVersionParsed
	live := &group{attrs: map[string]value{}}
	groupAttrs(live, lg)
	for _, f := range []string{"ru_per_sec", "priority", "burstable", "query_limit", "background"} {
		r, declared := dg.FieldRanges[f]
		if !declared || planner.CanonicalGroup(only(dg, f), v) == planner.CanonicalGroup(only(lg, f), v) {
			continue
		}
		d := drift{cluster: c.Desired, decl: r, what: ch.Addr.String() + "." + f, from: "the declared value", target: target{group: dg.Name, field: f}}
		if x, ok := declaredAttr(dg, f, c.Live.BurstSyntax.Modes(v)); ok {
			d.from = shownValue(x)
		}
		switch f {
		case "query_limit", "background":
			b := live.queryLimit
			if f == "background" {
				b = live.background
			}
			if b == nil {
				b = newBlock() // the cluster has none: an empty block removes it
			}
			d.target.block = b
			d.to = value{lit: cty.StringVal(f + " {" + strings.ReplaceAll(strings.TrimSpace(b.canon), "\n", ", ") + "}"), canon: b.canon, bare: true}
		default:
			to, ok := live.attrs[f]
			if !ok {
				u.refuse(c.Desired, d.what, "the cluster shows no value for it")
				continue
			}
			d.to = to
		}
		u.accept(d)
	}
}

// only is g with one option kept, to compare that option alone.
func only(g *state.ResourceGroup, field string) *state.ResourceGroup {
	o := &state.ResourceGroup{Name: g.Name}
	switch field {
	case "ru_per_sec":
		o.RUPerSec = g.RUPerSec
	case "priority":
		o.Priority = g.Priority
	case "burstable":
		o.Burstable, o.BurstableBool = g.Burstable, g.BurstableBool
	case "query_limit":
		o.QueryLimit = g.QueryLimit
	case "background":
		o.Background = g.Background
	}
	return o
}

// userDrift takes, once per cluster, the accounts bound to each group whose
// users are declared.
func (u *updater) userDrift(c Drifted, ch *plans.Change) {
	if u.usersDone(c.Desired.Name) {
		return
	}
	for i := range c.Desired.ResourceGroups {
		dg := &c.Desired.ResourceGroups[i]
		if dg.Users == nil {
			continue
		}
		var want, have []string
		for _, x := range dg.Users {
			want = append(want, x.String())
		}
		for _, b := range c.Live.Users {
			if strings.EqualFold(b.ResourceGroup, dg.Name) {
				have = append(have, b.UserRef.String())
			}
		}
		sort.Strings(want)
		sort.Strings(have)
		if strings.Join(want, "\x00") == strings.Join(have, "\x00") {
			continue
		}
		to := plain(stringList(have))
		u.accept(drift{cluster: c.Desired, decl: dg.FieldRanges["users"], what: "resource_group." + dg.Name + ".users",
			from: "[" + strings.Join(want, ", ") + "]", to: to, target: target{group: dg.Name, field: "users"}})
	}
}

// usersDone reports whether a cluster's bindings were taken, and marks them.
func (u *updater) usersDone(cluster string) bool {
	if u.users == nil {
		u.users = map[string]bool{}
	}
	done := u.users[cluster]
	u.users[cluster] = true
	return done
}

// declaredAttr is a declared group option as import would write it.
func declaredAttr(dg *state.ResourceGroup, f string, burstModes bool) (value, bool) {
	g := &group{attrs: map[string]value{}}
	o := *dg
	if dg.BurstableBool != nil {
		mode := state.BurstOff
		if *dg.BurstableBool {
			mode = state.BurstUnlimited
		}
		o.Burstable = &mode
	}
	groupAttrs(g, &o)
	x, ok := g.attrs[f]
	return x, ok
}

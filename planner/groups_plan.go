package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// Planning resource groups and the users bound to them, phase by phase:
// whether they could be read, which groups are declared, which user belongs
// where, then the changes — groups created or altered, declared users bound,
// unlisted users unbound, unmanaged groups reported or dropped. Option values
// and their SQL are in groups.go.

// bindingDocs is what reason texts cite for "a binding reaches new sessions".
const bindingDocs = "https://docs.pingcap.com/tidb/stable/sql-statement-alter-user"

// groupPlan is what the phases share.
type groupPlan struct {
	live      map[string]*state.ResourceGroup // by comparable name
	declared  map[string]*state.ResourceGroup
	names     []string // declared, sorted
	liveUsers map[state.UserRef]state.UserBinding
	// wantUser maps each user a declared group lists to that group, and
	// userRange to where the users list is written.
	wantUser  map[state.UserRef]string
	userRange map[state.UserRef]diag.SourceRange
}

// groups plans resource groups and the users bound to them.
func (b *builder) groups() error {
	if !b.groupsReadable() {
		return nil
	}
	gp, err := b.declaredGroups()
	if err != nil {
		return err
	}
	if err := gp.listUsers(); err != nil {
		return err
	}
	for _, n := range gp.names {
		if err := b.planGroup(n, gp.declared[n], gp.live[n]); err != nil {
			return err
		}
	}
	if err := b.bindListedUsers(gp); err != nil {
		return err
	}
	b.unbindUnlistedUsers(gp)
	return b.unmanagedGroups(gp)
}

// groupsReadable reports whether the groups (and, when users are managed,
// the bindings) were read; otherwise it records what was not compared.
func (b *builder) groupsReadable() bool {
	if (len(b.dc.ResourceGroups) > 0 || b.dc.DropUnmanagedGroups) && !b.l.ResourceGroupsRead {
		b.incomplete("resource groups were not read; declared groups were not compared",
			func(g state.Gap) bool { return g.Kind == state.GapRead && g.Key == "RESOURCE_GROUPS" })
		return false
	}
	usersDeclared := false
	for _, g := range b.dc.ResourceGroups {
		usersDeclared = usersDeclared || g.Users != nil
	}
	if (usersDeclared || b.dc.DropUnmanagedGroups) && !b.l.UsersRead {
		b.incomplete("user bindings were not read; declared users were not compared",
			func(g state.Gap) bool { return g.Kind == state.GapRead && g.Key == "mysql.user" })
		return false
	}
	return true
}

// declaredGroups indexes the live and declared groups by comparable name,
// refusing a group without a name or declared twice.
func (b *builder) declaredGroups() (*groupPlan, error) {
	gp := &groupPlan{live: map[string]*state.ResourceGroup{}, declared: map[string]*state.ResourceGroup{},
		liveUsers: map[state.UserRef]state.UserBinding{}}
	for i := range b.l.ResourceGroups {
		g := &b.l.ResourceGroups[i]
		gp.live[GroupName(g.Name)] = g
	}
	for _, u := range b.l.Users {
		gp.liveUsers[u.UserRef] = u
	}
	for i := range b.dc.ResourceGroups {
		g := &b.dc.ResourceGroups[i]
		n := GroupName(g.Name)
		if n == "" {
			return nil, inputError(g.Range, "resource group without a name", `name it: resource_group "oltp" { … }`)
		}
		if prev := gp.declared[n]; prev != nil {
			return nil, inputError(g.Range, fmt.Sprintf("resource_group %q is declared twice", n), "remove one of the two declarations", declaredHere(prev.Range))
		}
		gp.declared[n] = g
		gp.names = append(gp.names, n)
	}
	sort.Strings(gp.names)
	return gp, nil
}

// listUsers decides who should be bound where, from the groups whose users
// are declared; a user listed by two groups is an error.
func (gp *groupPlan) listUsers() error {
	gp.wantUser = map[state.UserRef]string{}
	gp.userRange = map[state.UserRef]diag.SourceRange{}
	for _, n := range gp.names {
		g := gp.declared[n]
		for _, u := range g.Users {
			if prev, dup := gp.wantUser[u]; dup {
				return inputError(usersRange(g), fmt.Sprintf("user %s is listed in resource groups %q and %q", u, prev, n),
					fmt.Sprintf("a user is bound to one group: remove %s from one of the two", u),
					diag.Related{Message: "also listed here", Range: usersRange(gp.declared[prev])})
			}
			gp.wantUser[u] = n
			gp.userRange[u] = usersRange(g)
		}
	}
	return nil
}

// usersRange is where a group's users list is written (the group when unknown).
func usersRange(g *state.ResourceGroup) diag.SourceRange {
	if fr, ok := g.FieldRanges["users"]; ok {
		return fr
	}
	return g.Range
}

// planGroup creates a declared group the cluster lacks, or alters the options
// of one it has where they differ (`default` always exists).
func (b *builder) planGroup(n string, g, lg *state.ResourceGroup) error {
	want, err := desiredOptions(g, b.dialect())
	if err != nil {
		return inputError(g.Range, fmt.Sprintf("resource_group %q: %v", n, err), "")
	}
	if lg == nil && n != DefaultGroup {
		if _, ok := want["RU_PER_SEC"]; !ok {
			// TiDB refuses a group without RU_PER_SEC: "unknown resource
			// group mode" (pingcap/tidb@e4e814fdc0af:pkg/ddl/resourcegroup/group.go,
			// NewGroupFromOptions).
			return inputError(g.Range, fmt.Sprintf("resource_group %q: a new group needs ru_per_sec", n),
				"add ru_per_sec = 1000 (or the group's budget): TiDB refuses CREATE RESOURCE GROUP without RU_PER_SEC (\"unknown resource group mode\")")
		}
		c := b.groupChange(n, plans.Create, g.Range, "the cluster has no resource group "+n)
		c.After = describeOptions(want, nil)
		c.Spec = b.groupSpecOf(g, nil)
		c.Verify = []plans.Check{{Addr: c.Addr, Options: checkOptions(want, nil)}}
		if err := derived(c); err != nil {
			return err
		}
		b.addGroupChange(c, g)
		return nil
	}
	have := map[string]groupOption{}
	if lg != nil {
		have = liveOptions(lg, b.dialect())
	}
	changed := changedOptions(want, have)
	if len(changed) == 0 {
		return nil
	}
	var fields []string
	for _, name := range groupOptionOrder {
		if changed[name] {
			fields = append(fields, strings.ToLower(name))
		}
	}
	c := b.groupChange(n, plans.Update, g.Range, "changed: "+strings.Join(fields, ", "))
	c.Before = []plans.InstanceValue{{Value: describeOptions(have, changed)}}
	c.After = describeOptions(want, changed)
	c.Spec = b.groupSpecOf(g, lg)
	c.Verify = []plans.Check{{Addr: c.Addr, Options: checkOptions(want, sentOptions(want, changed))}}
	if err := derived(c); err != nil {
		return err
	}
	if r, ok := g.FieldRanges[fields[0]]; ok && len(fields) == 1 {
		c.Range = r
	}
	b.addGroupChange(c, g)
	return nil
}

// dialect is how this cluster's options are spelt.
func (b *builder) dialect() groupDialect { return dialectOf(b.l.BurstSyntax, b.tidbVersion) }

// groupSpecOf is the spec a group change derives its statements from: the
// declared group g and the live one lg (either nil) and the dialect.
func (b *builder) groupSpecOf(g, lg *state.ResourceGroup) plans.Spec {
	return plans.Spec{Group: groupSpec(g), Live: groupSpec(lg), Version: b.tidbVersion.String(), BurstSyntax: b.l.BurstSyntax}
}

func (b *builder) groupChange(n string, a plans.Action, r diag.SourceRange, reason string) *plans.Change {
	return &plans.Change{Addr: state.GroupAddress(n), Action: a, Persistence: plans.PersistMetadata, Range: r, Reason: reason}
}

// addGroupChange adds c and records the group g's query limit switches to,
// which must exist first (an ordering rule).
func (b *builder) addGroupChange(c *plans.Change, g *state.ResourceGroup) {
	b.add(c)
	if q := g.QueryLimit; q != nil && !q.Empty && strings.EqualFold(strings.TrimSpace(q.Action), "SWITCH_GROUP") && q.SwitchGroup != "" {
		b.switchTo[c] = GroupName(q.SwitchGroup)
	}
}

// bindListedUsers binds every user a declared group lists to that group; a
// listed user the cluster does not have is an error.
func (b *builder) bindListedUsers(gp *groupPlan) error {
	refs := make([]state.UserRef, 0, len(gp.wantUser))
	for u := range gp.wantUser {
		refs = append(refs, u)
	}
	sortUsers(refs)
	for _, u := range refs {
		target := gp.wantUser[u]
		lu, ok := gp.liveUsers[u]
		if !ok {
			return inputError(gp.userRange[u], fmt.Sprintf("user %s is listed in resource_group %q but does not exist on the cluster", u, target),
				"create the user first (CREATE USER), or remove it from users")
		}
		if cur := BoundGroup(lu); cur != target {
			b.add(b.userChange(u, cur, target, gp.userRange[u], "bind to "+target))
		}
	}
	return nil
}

// unbindUnlistedUsers unbinds to `default` the users bound live to a group
// whose users list is declared but does not list them
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups).
func (b *builder) unbindUnlistedUsers(gp *groupPlan) {
	var unbind []state.UserBinding
	for _, lu := range b.l.Users {
		cur := BoundGroup(lu)
		g := gp.declared[cur]
		if g == nil || g.Users == nil || cur == DefaultGroup {
			continue
		}
		if _, listed := gp.wantUser[lu.UserRef]; !listed {
			unbind = append(unbind, lu)
		}
	}
	sortBindings(unbind)
	for _, lu := range unbind {
		b.add(b.userChange(lu.UserRef, BoundGroup(lu), DefaultGroup, usersRange(gp.declared[BoundGroup(lu)]),
			fmt.Sprintf("not listed in resource_group %q users; unbound to default", BoundGroup(lu))))
	}
}

// unmanagedGroups reports the live groups nobody declared (never `default`),
// or drops them when the configuration says so, unbinding their users first.
func (b *builder) unmanagedGroups(gp *groupPlan) error {
	var unmanaged []string
	for n := range gp.live {
		if gp.declared[n] == nil && n != DefaultGroup {
			unmanaged = append(unmanaged, n)
		}
	}
	sort.Strings(unmanaged)
	for _, n := range unmanaged {
		if !b.dc.DropUnmanagedGroups {
			b.cp.Unmanaged = append(b.cp.Unmanaged, n)
			continue
		}
		if n == "" {
			// TiDB accepts CREATE RESOURCE GROUP `` but refuses to drop it
			// while any account is bound to no group ("user [x] depends on
			// the resource group to drop": MatchUserResourceGroupName of
			// "", pingcap/tidb@e4e814fdc0af:pkg/ddl/executor.go,
			// DropResourceGroup): a DROP would fail half-way through an apply.
			b.cp.Unmanaged = append(b.cp.Unmanaged, n)
			b.cp.Notes = append(b.cp.Notes, "the cluster has a resource group with an empty name (``): it is not dropped, "+
				"because TiDB refuses to drop it while any account is bound to no group; no session can use it")
			continue
		}
		have := liveOptions(gp.live[n], b.dialect())
		c := b.groupChange(n, plans.Delete, b.dc.Range, "not declared, and the configuration drops unmanaged groups")
		c.Before = []plans.InstanceValue{{Value: describeOptions(have, nil)}}
		c.Spec = b.groupSpecOf(nil, gp.live[n])
		c.Verify = []plans.Check{{Addr: c.Addr, Want: plans.Absent}}
		if err := derived(c); err != nil {
			return err
		}
		b.add(c)
		// DROP fails while a user is bound (tidb PR #40716, "ddl: prevent
		// dropping in-use resource group"): unbind users that no declared
		// group claims.
		var bound []state.UserBinding
		for _, lu := range b.l.Users {
			if _, listed := gp.wantUser[lu.UserRef]; BoundGroup(lu) == n && !listed {
				bound = append(bound, lu)
			}
		}
		sortBindings(bound)
		for _, lu := range bound {
			b.add(b.userChange(lu.UserRef, n, DefaultGroup, b.dc.Range,
				fmt.Sprintf("bound to %s, which is dropped; unbound to default first", n)))
		}
	}
	return nil
}

// recreateSQL rebuilds a dropped group from its live options (rollback).
// It is guarded (IF NOT EXISTS: the group kept its options if the DROP never
// ran), so that it applies whether or not the DROP took effect.
func recreateSQL(n string, have map[string]groupOption) string {
	only := map[string]bool{}
	for k, o := range have {
		if (k == "QUERY_LIMIT" || k == "BACKGROUND") && o.Value == "NULL" {
			continue
		}
		only[k] = true
	}
	return strings.TrimSpace("CREATE RESOURCE GROUP IF NOT EXISTS " + quote.Ident(n) + " " + optionsSQL(have, only))
}

// groupSpec is the part of a group its statements derive from: its name and
// options (not its users, ranges or lifecycle).
func groupSpec(g *state.ResourceGroup) *state.ResourceGroup {
	if g == nil {
		return nil
	}
	return &state.ResourceGroup{Name: g.Name, RUPerSec: g.RUPerSec, Priority: g.Priority, Burstable: g.Burstable,
		BurstableBool: g.BurstableBool, QueryLimit: g.QueryLimit, Background: g.Background}
}

func alterUser(u state.UserRef, group string) string {
	return "ALTER USER " + quote.Account(u.User, u.Host) + " RESOURCE GROUP " + quote.Ident(group)
}

func (b *builder) userChange(u state.UserRef, from, to string, r diag.SourceRange, reason string) *plans.Change {
	a := state.UserAddress(u)
	c := &plans.Change{
		Addr:        a,
		Action:      plans.Update,
		Before:      []plans.InstanceValue{{Value: from}},
		After:       to,
		Verify:      []plans.Check{{Addr: a, Want: to}},
		Persistence: plans.PersistMetadata,
		Range:       r,
		Reason:      reason + " (new sessions only: " + bindingDocs + ")",
	}
	// From and to are group names (checked where declared, or as the
	// cluster reports them): deriving cannot fail.
	c.Statements, c.Rollback, _ = Derive(c)
	return c
}

func sortUsers(us []state.UserRef) {
	sort.Slice(us, func(i, j int) bool {
		if us[i].User != us[j].User {
			return us[i].User < us[j].User
		}
		return us[i].Host < us[j].Host
	})
}

func sortBindings(us []state.UserBinding) {
	sort.Slice(us, func(i, j int) bool {
		if us[i].User != us[j].User {
			return us[i].User < us[j].User
		}
		return us[i].Host < us[j].Host
	})
}

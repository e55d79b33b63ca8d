package planner

import (
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Read-back satisfaction. After a change, apply reads every Check's address
// back and asks these functions whether the cluster took the value; they are
// the only place that decides it.

// Satisfied reports whether read — the value read back at c's address as the
// component printed it (config items, variables), or the group a user is
// bound to (users, "" for none); Absent when nothing was read — satisfies c.
// A resource-group check needs the group itself: use GroupSatisfied.
func Satisfied(c plans.Check, read string) bool {
	if c.Addr.Kind == state.KindUser && read == "" {
		read = DefaultGroup // no group in User_attributes is `default`
	}
	return SameValue(c.Addr, c.Want, read)
}

// GroupSatisfied reports whether a live group (nil: it does not exist)
// satisfies a resource-group check for TiDB version v: a drop wants it
// absent; a create or update wants it there, each option the change sets
// with the value it sets, compared in canonical form.
func GroupSatisfied(c plans.Check, live *state.ResourceGroup, v version.Version) bool {
	if c.Want == plans.Absent {
		return live == nil
	}
	if live == nil {
		return false
	}
	have := liveOptions(live, dialectOf(state.BurstSyntaxUnknown, v))
	for _, o := range c.Options {
		got := "NULL"
		if h, ok := have[o.Name]; ok {
			got = h.Value
		}
		if got != o.Value {
			return false
		}
	}
	return true
}

// RestoreGroupCheck is the read-back of a rollback that restores a resource
// group as it was read before a change (live; nil: it did not exist): gone,
// or there with every option it had, for TiDB version v.
func RestoreGroupCheck(addr state.Address, live *state.ResourceGroup, v version.Version) plans.Check {
	if live == nil {
		return plans.Check{Addr: addr, Want: plans.Absent}
	}
	return plans.Check{Addr: addr, Options: checkOptions(liveOptions(live, dialectOf(state.BurstSyntaxUnknown, v)), nil)}
}

// CheckText shows what a check wants, for views: Want, or a resource group's
// options as INFORMATION_SCHEMA.RESOURCE_GROUPS prints them
// ("RU_PER_SEC=2000, QUERY_LIMIT=(EXEC_ELAPSED='1m0s', ACTION=KILL)").
func CheckText(c plans.Check) string {
	if len(c.Options) == 0 {
		return c.Want
	}
	opts := map[string]groupOption{}
	for _, o := range c.Options {
		opts[o.Name] = groupOption{Name: o.Name, Value: o.Value}
	}
	return describeOptions(opts, nil)
}

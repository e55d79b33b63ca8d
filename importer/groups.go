package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

// defaultGroup is the resource group every unbound session uses.
const defaultGroup = "default"

// extractGroups imports every resource group with every option it has, and
// the accounts bound to it. The default group is imported only where it
// differs from how TiDB creates it (UNLIMITED, MEDIUM, burstable, no
// QUERY_LIMIT, no BACKGROUND: https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group),
// or with Options.All.
func extractGroups(cv *clusterValues, l *state.Live, o Options) {
	for _, lg := range l.ResourceGroups {
		name := strings.ToLower(lg.Name)
		if problem, _ := schema.GroupNameProblem(lg.Name); problem != "" {
			cv.report.leftOut("resource groups whose name tiform refuses (docs/language.md, resource group names)", fmt.Sprintf("%q: %s", clip(lg.Name), problem), false)
			continue
		}
		if name == defaultGroup && !o.All && defaultAsCreated(&lg) {
			continue
		}
		g := &group{attrs: map[string]value{}}
		groupAttrs(g, &lg)
		if name != defaultGroup {
			// Bindings to `default` are every unbound account's: not managed.
			groupUsers(cv, g, &lg)
		}
		cv.groups[name] = g
	}
}

// defaultAsCreated reports whether the default group has the options TiDB
// creates it with.
func defaultAsCreated(g *state.ResourceGroup) bool {
	return (g.RUPerSec == nil || *g.RUPerSec >= state.UnlimitedRU) &&
		(g.Priority == nil || strings.EqualFold(*g.Priority, "MEDIUM")) &&
		(g.Burstable == nil || *g.Burstable == state.BurstUnlimited) &&
		g.QueryLimit == nil && g.Background == nil
}

// groupAttrs declares every option the live group has. BURSTABLE is
// written as its mode ("UNLIMITED", "OFF", from v9.0 also "MODERATED"): a
// boolean changes meaning at v9.0 (guard TF111), a mode does not, and up to
// v8.5 UNLIMITED and OFF are what true and false mean
// (https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group).
func groupAttrs(g *group, lg *state.ResourceGroup) {
	if lg.RUPerSec != nil {
		if *lg.RUPerSec >= state.UnlimitedRU {
			g.attrs["ru_per_sec"] = plain(cty.StringVal("UNLIMITED"))
		} else {
			g.attrs["ru_per_sec"] = plain(cty.NumberIntVal(*lg.RUPerSec))
		}
	}
	if lg.Priority != nil {
		g.attrs["priority"] = plain(cty.StringVal(strings.ToUpper(*lg.Priority)))
	}
	if lg.Burstable != nil {
		g.attrs["burstable"] = plain(cty.StringVal(strings.ToUpper(*lg.Burstable)))
	}
	if q := lg.QueryLimit; q != nil && !q.Empty {
		g.queryLimit = queryLimitBlock(q)
	}
	if b := lg.Background; b != nil && !b.Empty {
		g.background = backgroundBlock(b)
	}
}

func queryLimitBlock(q *state.QueryLimit) *block {
	b := newBlock()
	if q.ExecElapsed != "" {
		b.add("exec_elapsed", cty.StringVal(q.ExecElapsed))
	}
	if q.ProcessedKeys != nil {
		b.add("processed_keys", cty.NumberIntVal(*q.ProcessedKeys))
	}
	if q.RU != nil {
		b.add("ru", cty.NumberIntVal(*q.RU))
	}
	if q.Action != "" {
		b.add("action", cty.StringVal(strings.ToUpper(q.Action)))
	}
	if q.SwitchGroup != "" {
		b.add("switch_group", cty.StringVal(strings.ToLower(q.SwitchGroup)))
	}
	if q.Watch != "" {
		b.add("watch", cty.StringVal(strings.ToUpper(q.Watch)))
		if q.WatchDuration != "" {
			b.add("watch_duration", cty.StringVal(q.WatchDuration))
		}
	}
	return b
}

func backgroundBlock(bg *state.Background) *block {
	b := newBlock()
	types := append([]string(nil), bg.TaskTypes...)
	sort.Strings(types)
	b.add("task_types", stringList(types))
	if bg.UtilizationLimit != nil {
		b.add("utilization_limit", cty.NumberIntVal(*bg.UtilizationLimit))
	}
	return b
}

// groupUsers declares the accounts bound to the group, sorted. When one of
// them is an account the language cannot write, users is not declared at
// all (a users list is the whole set: a partial one would unbind the
// others), and the report says why.
func groupUsers(cv *clusterValues, g *group, lg *state.ResourceGroup) {
	var users []string
	for _, u := range lg.Users {
		s := u.User + "@" + u.Host
		if parsed, problem := schema.ParseAccount(s); problem != "" || parsed != (state.UserRef{User: u.User, Host: strings.ToLower(u.Host)}) {
			if problem == "" {
				problem = "it would be read back differently."
			}
			cv.report.leftOut("the users of resource groups with an account the language cannot write (a partial list would unbind the others)",
				fmt.Sprintf("%s (account %q: %s)", lg.Name, clip(s), strings.TrimSuffix(problem, ".")), false)
			return
		}
		users = append(users, s)
	}
	if len(users) == 0 {
		return
	}
	sort.Strings(users)
	g.attrs["users"] = plain(stringList(users))
}

func stringList(items []string) cty.Value {
	if len(items) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(items))
	for i, s := range items {
		vals[i] = cty.StringVal(s)
	}
	return cty.ListVal(vals)
}

// plain is a value without a default to comment on; it compares by its
// HCL text.
func plain(v cty.Value) value {
	return value{lit: v, canon: string(hclwrite.TokensForValue(v).Bytes()), bare: true}
}

func newBlock() *block { return &block{attrs: map[string]value{}} }

// add appends an attribute; canon grows with it, so two blocks compare equal
// exactly when they declare the same attributes with the same values.
func (b *block) add(name string, v cty.Value) {
	x := plain(v)
	b.names = append(b.names, name)
	b.attrs[name] = x
	b.canon += name + "=" + x.canon + "\n"
}

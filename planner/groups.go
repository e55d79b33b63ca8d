package planner

import (
	"fmt"
	"github.com/tiform/tiform/catalog"
	"sort"
	"strconv"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// DefaultGroup is the resource group every unbound session uses; it always
// exists and cannot be dropped (tidb-facts.md §4.4).
const DefaultGroup = "default"

// groupOption is one resource-group option in canonical form: Name as in
// INFORMATION_SCHEMA (RU_PER_SEC, PRIORITY, BURSTABLE, QUERY_LIMIT, BACKGROUND),
// Value canonical for comparison and display, SQL the option as written in
// CREATE/ALTER.
type groupOption struct {
	Name  string
	Value string
	SQL   string
}

// groupOptionOrder is the order options are compared, shown and written.
var groupOptionOrder = []string{"RU_PER_SEC", "PRIORITY", "BURSTABLE", "QUERY_LIMIT", "BACKGROUND"}

// desiredOptions returns the declared options of g (only those declared), for
// TiDB version v (BURSTABLE is version-dependent, tidb-facts.md §4.2, §8.3).
func desiredOptions(g *state.ResourceGroup, v version.Version) (map[string]groupOption, error) {
	out := map[string]groupOption{}
	if g.RUPerSec != nil {
		if *g.RUPerSec <= 0 {
			return nil, fmt.Errorf("ru_per_sec must be positive, got %d", *g.RUPerSec)
		}
		val := ruText(*g.RUPerSec)
		out["RU_PER_SEC"] = groupOption{"RU_PER_SEC", val, "RU_PER_SEC = " + val}
	}
	if g.Priority != nil {
		p := strings.ToUpper(strings.TrimSpace(*g.Priority))
		switch p {
		case "LOW", "MEDIUM", "HIGH":
		default:
			return nil, fmt.Errorf("priority must be LOW, MEDIUM or HIGH, got %q", *g.Priority)
		}
		out["PRIORITY"] = groupOption{"PRIORITY", p, "PRIORITY = " + p}
	}
	if mode, declared, err := desiredBurst(g); err != nil {
		return nil, err
	} else if declared {
		sql, err := burstSQL(mode, v)
		if err != nil {
			return nil, err
		}
		out["BURSTABLE"] = groupOption{"BURSTABLE", mode, sql}
	}
	if g.QueryLimit != nil {
		val, err := queryLimitText(g.QueryLimit)
		if err != nil {
			return nil, err
		}
		sql := "QUERY_LIMIT = NULL"
		if val != "NULL" {
			sql, err = queryLimitSQL(g.QueryLimit)
			if err != nil {
				return nil, err
			}
		}
		out["QUERY_LIMIT"] = groupOption{"QUERY_LIMIT", val, sql}
	}
	if g.Background != nil {
		if !strings.EqualFold(g.Name, DefaultGroup) {
			return nil, fmt.Errorf("background can only be set on the default group (tidb-facts.md §4.2)")
		}
		val, err := backgroundText(g.Background)
		if err != nil {
			return nil, err
		}
		sql := "BACKGROUND = NULL"
		if val != "NULL" {
			sql = "BACKGROUND = (" + backgroundSQL(g.Background) + ")"
		}
		out["BACKGROUND"] = groupOption{"BACKGROUND", val, sql}
	}
	return out, nil
}

// liveOptions returns every option of a live group in canonical form (nil
// fields are omitted, except QUERY_LIMIT and BACKGROUND, which read "NULL").
func liveOptions(g *state.ResourceGroup, v version.Version) map[string]groupOption {
	out := map[string]groupOption{}
	if g.RUPerSec != nil {
		val := ruText(*g.RUPerSec)
		out["RU_PER_SEC"] = groupOption{"RU_PER_SEC", val, "RU_PER_SEC = " + val}
	}
	if g.Priority != nil {
		p := strings.ToUpper(*g.Priority)
		out["PRIORITY"] = groupOption{"PRIORITY", p, "PRIORITY = " + p}
	}
	if mode, declared, err := desiredBurst(g); err == nil && declared {
		sql, err := burstSQL(mode, v)
		if err != nil {
			sql = "BURSTABLE = " + mode
		}
		out["BURSTABLE"] = groupOption{"BURSTABLE", mode, sql}
	}
	ql := "NULL"
	qlSQL := "QUERY_LIMIT = NULL"
	if g.QueryLimit != nil {
		if t, err := queryLimitText(g.QueryLimit); err == nil {
			ql = t
			if t != "NULL" {
				if s, err := queryLimitSQL(g.QueryLimit); err == nil {
					qlSQL = s
				}
			}
		}
	}
	out["QUERY_LIMIT"] = groupOption{"QUERY_LIMIT", ql, qlSQL}
	bg := "NULL"
	bgSQL := "BACKGROUND = NULL"
	if g.Background != nil {
		if t, err := backgroundText(g.Background); err == nil && t != "NULL" {
			bg = t
			bgSQL = "BACKGROUND = (" + backgroundSQL(g.Background) + ")"
		}
	}
	if strings.EqualFold(g.Name, DefaultGroup) || bg != "NULL" {
		out["BACKGROUND"] = groupOption{"BACKGROUND", bg, bgSQL}
	}
	return out
}

func ruText(n int64) string {
	if n >= state.UnlimitedRU {
		return "UNLIMITED"
	}
	return strconv.FormatInt(n, 10)
}

// desiredBurst returns the burst mode in v9.0 vocabulary. A bool `burstable`
// means the ≤ v8.5 behaviour: true = unlimited burst, false = off
// (tidb-facts.md §8.3). Live groups carry the mode the live reader mapped
// (YES → UNLIMITED, NO → OFF).
func desiredBurst(g *state.ResourceGroup) (string, bool, error) {
	if g.BurstableBool != nil {
		if *g.BurstableBool {
			return state.BurstUnlimited, true, nil
		}
		return state.BurstOff, true, nil
	}
	if g.Burstable == nil {
		return "", false, nil
	}
	switch m := strings.ToUpper(strings.TrimSpace(*g.Burstable)); m {
	case state.BurstOff, state.BurstModerated, state.BurstUnlimited:
		return m, true, nil
	case "YES", "TRUE", "ON":
		return state.BurstUnlimited, true, nil
	case "NO", "FALSE":
		return state.BurstOff, true, nil
	default:
		return "", false, fmt.Errorf("burstable must be true, false, OFF, MODERATED or UNLIMITED, got %q", *g.Burstable)
	}
}

// burstSQL writes a burst mode for TiDB version v (tidb-facts.md §4.2, §8.3):
// up to v8.5 bare BURSTABLE is the unlimited burst and BURSTABLE = FALSE turns
// it off; from v9.0 the mode is explicit, because bare BURSTABLE there means
// MODERATED.
func burstSQL(mode string, v version.Version) (string, error) {
	if v.BurstModes() {
		return "BURSTABLE = " + mode, nil
	}
	switch mode {
	case state.BurstUnlimited:
		return "BURSTABLE", nil
	case state.BurstOff:
		return "BURSTABLE = FALSE", nil
	}
	return "", fmt.Errorf("burstable = %s needs TiDB v9.0.0 or later (this cluster runs %s; tidb-facts.md §4.2)", mode, v.String())
}

var (
	queryActions = map[string]bool{"DRYRUN": true, "COOLDOWN": true, "KILL": true, "SWITCH_GROUP": true}
	watchKinds   = map[string]bool{"EXACT": true, "SIMILAR": true, "PLAN": true}
	taskTypes    = map[string]bool{"import": true, "br": true, "ddl": true, "stats": true, "background": true}
)

func goDuration(s string) (string, error) {
	d, err := catalog.ParseDuration(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a duration", s)
	}
	if d < 0 {
		return "", fmt.Errorf("duration %q is negative", s)
	}
	return d.String(), nil
}

// queryLimitText renders a query limit as INFORMATION_SCHEMA.RESOURCE_GROUPS
// prints it (tidb-facts.md §4.3), or "NULL" when empty.
func queryLimitText(q *state.QueryLimit) (string, error) {
	if q == nil || q.Empty {
		return "NULL", nil
	}
	var parts []string
	if q.ExecElapsed != "" {
		d, err := goDuration(q.ExecElapsed)
		if err != nil {
			return "", fmt.Errorf("query_limit exec_elapsed: %w", err)
		}
		parts = append(parts, "EXEC_ELAPSED='"+d+"'")
	}
	if q.ProcessedKeys != nil {
		parts = append(parts, "PROCESSED_KEYS="+strconv.FormatInt(*q.ProcessedKeys, 10))
	}
	if q.RU != nil {
		parts = append(parts, "RU="+strconv.FormatInt(*q.RU, 10))
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("query_limit needs at least one of exec_elapsed, processed_keys, ru")
	}
	a := strings.ToUpper(strings.TrimSpace(q.Action))
	if !queryActions[a] {
		return "", fmt.Errorf("query_limit action must be DRYRUN, COOLDOWN, KILL or SWITCH_GROUP, got %q", q.Action)
	}
	if a == "SWITCH_GROUP" {
		if q.SwitchGroup == "" {
			return "", fmt.Errorf("query_limit action SWITCH_GROUP needs a target group")
		}
		parts = append(parts, "ACTION=SWITCH_GROUP("+strings.ToLower(q.SwitchGroup)+")")
	} else {
		parts = append(parts, "ACTION="+a)
	}
	if q.Watch != "" {
		w := strings.ToUpper(strings.TrimSpace(q.Watch))
		if !watchKinds[w] {
			return "", fmt.Errorf("query_limit watch must be EXACT, SIMILAR or PLAN, got %q", q.Watch)
		}
		dur := "DURATION=UNLIMITED"
		if q.WatchDuration != "" && !strings.EqualFold(q.WatchDuration, "UNLIMITED") {
			d, err := goDuration(q.WatchDuration)
			if err != nil {
				return "", fmt.Errorf("query_limit watch duration: %w", err)
			}
			dur = "DURATION='" + d + "'"
		}
		parts = append(parts, "WATCH="+w+" "+dur)
	}
	return strings.Join(parts, ", "), nil
}

// queryLimitSQL writes QUERY_LIMIT = (…) for CREATE/ALTER (tidb-facts.md §4.2).
func queryLimitSQL(q *state.QueryLimit) (string, error) {
	var parts []string
	if q.ExecElapsed != "" {
		d, err := goDuration(q.ExecElapsed)
		if err != nil {
			return "", err
		}
		parts = append(parts, "EXEC_ELAPSED = "+quote.String(d))
	}
	if q.ProcessedKeys != nil {
		parts = append(parts, "PROCESSED_KEYS = "+strconv.FormatInt(*q.ProcessedKeys, 10))
	}
	if q.RU != nil {
		parts = append(parts, "RU = "+strconv.FormatInt(*q.RU, 10))
	}
	a := strings.ToUpper(strings.TrimSpace(q.Action))
	if a == "SWITCH_GROUP" {
		parts = append(parts, "ACTION = SWITCH_GROUP("+quote.Ident(strings.ToLower(q.SwitchGroup))+")")
	} else {
		parts = append(parts, "ACTION = "+a)
	}
	if q.Watch != "" {
		w := "WATCH = " + strings.ToUpper(strings.TrimSpace(q.Watch))
		if q.WatchDuration != "" && !strings.EqualFold(q.WatchDuration, "UNLIMITED") {
			d, err := goDuration(q.WatchDuration)
			if err != nil {
				return "", err
			}
			w += " DURATION = " + quote.String(d)
		}
		parts = append(parts, w)
	}
	return "QUERY_LIMIT = (" + strings.Join(parts, ", ") + ")", nil
}

func normTaskTypes(b *state.Background) ([]string, error) {
	var out []string
	for _, t := range b.TaskTypes {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" {
			continue
		}
		if !taskTypes[t] {
			return nil, fmt.Errorf("background task type must be one of import, br, ddl, stats, background; got %q", t)
		}
		out = append(out, t)
	}
	sort.Strings(out)
	return out, nil
}

// backgroundText renders BACKGROUND as INFORMATION_SCHEMA prints it, or "NULL".
func backgroundText(b *state.Background) (string, error) {
	if b == nil || b.Empty {
		return "NULL", nil
	}
	types, err := normTaskTypes(b)
	if err != nil {
		return "", err
	}
	s := "TASK_TYPES='" + strings.Join(types, ",") + "'"
	if b.UtilizationLimit != nil {
		if *b.UtilizationLimit < 0 || *b.UtilizationLimit > 100 {
			return "", fmt.Errorf("background utilization_limit must be 0..100, got %d", *b.UtilizationLimit)
		}
		s += ", UTILIZATION_LIMIT=" + strconv.FormatInt(*b.UtilizationLimit, 10)
	}
	return s, nil
}

func backgroundSQL(b *state.Background) string {
	types, _ := normTaskTypes(b)
	s := "TASK_TYPES = " + quote.String(strings.Join(types, ","))
	if b.UtilizationLimit != nil {
		s += ", UTILIZATION_LIMIT = " + strconv.FormatInt(*b.UtilizationLimit, 10)
	}
	return s
}

// describeOptions renders options in a fixed order as "RU_PER_SEC=1000, PRIORITY=HIGH".
func describeOptions(opts map[string]groupOption, only map[string]bool) string {
	var parts []string
	for _, n := range groupOptionOrder {
		o, ok := opts[n]
		if !ok || (only != nil && !only[n]) {
			continue
		}
		if n == "QUERY_LIMIT" || n == "BACKGROUND" {
			parts = append(parts, n+"=("+o.Value+")")
			if o.Value == "NULL" {
				parts[len(parts)-1] = n + "=NULL"
			}
			continue
		}
		parts = append(parts, n+"="+o.Value)
	}
	return strings.Join(parts, ", ")
}

func optionsSQL(opts map[string]groupOption, only map[string]bool) string {
	var parts []string
	for _, n := range groupOptionOrder {
		o, ok := opts[n]
		if !ok || (only != nil && !only[n]) {
			continue
		}
		parts = append(parts, o.SQL)
	}
	return strings.Join(parts, ", ")
}

// CanonicalGroup is the fingerprint value of a live group for TiDB version v:
// every option in a fixed order, "RU_PER_SEC=1000, PRIORITY=HIGH, BURSTABLE=OFF,
// QUERY_LIMIT=NULL". Apply compares a fresh read with it.
func CanonicalGroup(g *state.ResourceGroup, v version.Version) string {
	return describeOptions(liveOptions(g, v), nil)
}

func groupAddress(name string) string { return "resource_group." + name }

func userAddress(u state.UserRef) string {
	return fmt.Sprintf("user.%q@%q.resource_group", u.User, u.Host)
}

// groupName is the comparable name: TiDB resource group names are
// case-insensitive.
func groupName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// boundGroup is the group a live binding resolves to ("" means default).
func boundGroup(b state.UserBinding) string {
	if b.ResourceGroup == "" {
		return DefaultGroup
	}
	return groupName(b.ResourceGroup)
}

func alterUser(u state.UserRef, group string) string {
	return "ALTER USER " + quote.Account(u.User, u.Host) + " RESOURCE GROUP " + quote.Ident(group)
}

// groups plans resource groups and the users bound to them.
func (b *builder) groups() error {
	v := b.tidbVersion
	if (len(b.dc.ResourceGroups) > 0 || b.dc.DropUnmanagedGroups) && !b.l.ResourceGroupsRead {
		b.incomplete("resource groups were not read; declared groups were not compared",
			func(g state.Gap) bool { return g.Kind == state.GapRead && g.Key == "RESOURCE_GROUPS" })
		return nil
	}
	usersDeclared := false
	for _, g := range b.dc.ResourceGroups {
		usersDeclared = usersDeclared || g.Users != nil
	}
	if (usersDeclared || b.dc.DropUnmanagedGroups) && !b.l.UsersRead {
		b.incomplete("user bindings were not read; declared users were not compared",
			func(g state.Gap) bool { return g.Kind == state.GapRead && g.Key == "mysql.user" })
		return nil
	}
	liveByName := map[string]*state.ResourceGroup{}
	for i := range b.l.ResourceGroups {
		g := &b.l.ResourceGroups[i]
		liveByName[groupName(g.Name)] = g
	}
	declared := map[string]*state.ResourceGroup{}
	var names []string
	for i := range b.dc.ResourceGroups {
		g := &b.dc.ResourceGroups[i]
		n := groupName(g.Name)
		if n == "" {
			return fmt.Errorf("planner: %sresource group without a name", where(g.Range))
		}
		if prev := declared[n]; prev != nil {
			return fmt.Errorf("planner: %sresource_group %q is declared twice (also at %s)", where(g.Range), n, where(prev.Range))
		}
		declared[n] = g
		names = append(names, n)
	}
	sort.Strings(names)

	// Users: who should be bound where, from groups whose users are declared.
	liveUsers := map[state.UserRef]state.UserBinding{}
	for _, u := range b.l.Users {
		liveUsers[u.UserRef] = u
	}
	wantUser := map[state.UserRef]string{}
	userRange := map[state.UserRef]diag.SourceRange{}
	for _, n := range names {
		g := declared[n]
		for _, u := range g.Users {
			if prev, dup := wantUser[u]; dup {
				return fmt.Errorf("planner: %suser %s is listed in resource groups %q and %q; a user is bound to one group", where(g.Range), u, prev, n)
			}
			wantUser[u] = n
			r := g.Range
			if fr, ok := g.FieldRanges["users"]; ok {
				r = fr
			}
			userRange[u] = r
		}
	}

	for _, n := range names {
		g := declared[n]
		want, err := desiredOptions(g, v)
		if err != nil {
			return fmt.Errorf("planner: %sresource_group %q: %w", where(g.Range), n, err)
		}
		lg := liveByName[n]
		if lg == nil && n != DefaultGroup {
			c := &Change{
				Address:     groupAddress(n),
				Kind:        KindResourceGroup,
				Action:      Create,
				Key:         n,
				After:       describeOptions(want, nil),
				Statements:  []Statement{{SQL: strings.TrimSpace("CREATE RESOURCE GROUP " + quote.Ident(n) + " " + optionsSQL(want, nil))}},
				Verify:      []Check{{Kind: KindResourceGroup, Key: n, Want: describeOptions(want, nil)}},
				Rollback:    []Statement{{SQL: "DROP RESOURCE GROUP " + quote.Ident(n)}},
				Persistence: PersistMetadata,
				Range:       g.Range,
				Reason:      "the cluster has no resource group " + n,
			}
			if len(want) == 0 {
				return fmt.Errorf("planner: %sresource_group %q: a new group needs at least ru_per_sec", where(g.Range), n)
			}
			b.add(c)
			continue
		}
		have := map[string]groupOption{}
		if lg != nil {
			have = liveOptions(lg, v)
		}
		changed := map[string]bool{}
		for name, o := range want {
			if h, ok := have[name]; !ok || h.Value != o.Value {
				changed[name] = true
			}
		}
		if len(changed) > 0 {
			before := describeOptions(have, changed)
			c := &Change{
				Address:     groupAddress(n),
				Kind:        KindResourceGroup,
				Action:      Update,
				Key:         n,
				Before:      []InstanceValue{{Value: before}},
				After:       describeOptions(want, changed),
				Statements:  []Statement{{SQL: "ALTER RESOURCE GROUP " + quote.Ident(n) + " " + optionsSQL(want, changed)}},
				Verify:      []Check{{Kind: KindResourceGroup, Key: n, Want: describeOptions(want, changed)}},
				Persistence: PersistMetadata,
				Range:       g.Range,
			}
			// ALTER is incremental; QUERY_LIMIT and BACKGROUND are replaced whole
			// (tidb-facts.md §4.2), so restoring them restores the whole option.
			if rb := optionsSQL(have, changed); rb != "" {
				c.Rollback = []Statement{{SQL: "ALTER RESOURCE GROUP " + quote.Ident(n) + " " + rb}}
			}
			var fields []string
			for _, f := range groupOptionOrder {
				if changed[f] {
					fields = append(fields, strings.ToLower(f))
				}
			}
			c.Reason = "changed: " + strings.Join(fields, ", ")
			if r, ok := g.FieldRanges[fields[0]]; ok && len(fields) == 1 {
				c.Range = r
			}
			b.add(c)
		}
	}

	// Bindings of declared users.
	refs := make([]state.UserRef, 0, len(wantUser))
	for u := range wantUser {
		refs = append(refs, u)
	}
	sortUsers(refs)
	for _, u := range refs {
		target := wantUser[u]
		lu, ok := liveUsers[u]
		if !ok {
			return fmt.Errorf("planner: %suser %s is listed in resource_group %q but does not exist on the cluster; create the user first",
				where(userRange[u]), u, target)
		}
		cur := boundGroup(lu)
		if cur == target {
			continue
		}
		b.add(b.userChange(u, cur, target, userRange[u], "bind to "+target))
	}

	// Users bound live to a group whose users list is declared, but not listed:
	// unbind to default (tidb-facts.md §4.4).
	var unbind []state.UserBinding
	for _, lu := range b.l.Users {
		cur := boundGroup(lu)
		g := declared[cur]
		if g == nil || g.Users == nil || cur == DefaultGroup {
			continue
		}
		if _, listed := wantUser[lu.UserRef]; listed {
			continue
		}
		unbind = append(unbind, lu)
	}
	sortBindings(unbind)
	for _, lu := range unbind {
		g := declared[boundGroup(lu)]
		r := g.Range
		if fr, ok := g.FieldRanges["users"]; ok {
			r = fr
		}
		b.add(b.userChange(lu.UserRef, boundGroup(lu), DefaultGroup, r,
			fmt.Sprintf("not listed in resource_group %q users; unbound to default", boundGroup(lu))))
	}

	// Unmanaged groups: live, not declared, never `default`.
	var unmanaged []string
	for n := range liveByName {
		if declared[n] == nil && n != DefaultGroup {
			unmanaged = append(unmanaged, n)
		}
	}
	sort.Strings(unmanaged)
	for _, n := range unmanaged {
		if !b.dc.DropUnmanagedGroups {
			b.cp.Unmanaged = append(b.cp.Unmanaged, n)
			continue
		}
		lg := liveByName[n]
		have := liveOptions(lg, v)
		c := &Change{
			Address:     groupAddress(n),
			Kind:        KindResourceGroup,
			Action:      Delete,
			Key:         n,
			Before:      []InstanceValue{{Value: describeOptions(have, nil)}},
			Statements:  []Statement{{SQL: "DROP RESOURCE GROUP " + quote.Ident(n)}},
			Verify:      []Check{{Kind: KindResourceGroup, Key: n, Want: Absent}},
			Rollback:    []Statement{{SQL: recreateSQL(n, have)}},
			Persistence: PersistMetadata,
			Range:       b.dc.Range,
			Reason:      "not declared, and the configuration drops unmanaged groups",
		}
		b.add(c)
		// DROP fails while a user is bound (tidb-facts.md §4.6): unbind users
		// that no declared group claims.
		var bound []state.UserBinding
		for _, lu := range b.l.Users {
			if boundGroup(lu) == n {
				if _, listed := wantUser[lu.UserRef]; !listed {
					bound = append(bound, lu)
				}
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
func recreateSQL(n string, have map[string]groupOption) string {
	only := map[string]bool{}
	for k, o := range have {
		if (k == "QUERY_LIMIT" || k == "BACKGROUND") && o.Value == "NULL" {
			continue
		}
		only[k] = true
	}
	return strings.TrimSpace("CREATE RESOURCE GROUP " + quote.Ident(n) + " " + optionsSQL(have, only))
}

func (b *builder) userChange(u state.UserRef, from, to string, r diag.SourceRange, reason string) *Change {
	return &Change{
		Address:     userAddress(u),
		Kind:        KindUser,
		Action:      Update,
		Key:         u.String(),
		Before:      []InstanceValue{{Value: from}},
		After:       to,
		Statements:  []Statement{{SQL: alterUser(u, to)}},
		Verify:      []Check{{Kind: KindUser, Key: u.String(), Want: to}},
		Rollback:    []Statement{{SQL: alterUser(u, from)}},
		Persistence: PersistMetadata,
		Range:       r,
		Reason:      reason + " (new sessions only, tidb-facts.md §4.5)",
	}
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

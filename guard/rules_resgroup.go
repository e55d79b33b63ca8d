package guard

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Resource-control rules: TF110, TF111, TF112
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups, tikv/tikv#18939,
// tikv/tikv#19858).

const (
	linkTikv18939   = "https://github.com/tikv/tikv/issues/18939"
	linkTikv19858   = "https://github.com/tikv/tikv/issues/19858"
	linkCreateGroup = "https://docs.pingcap.com/tidb/stable/sql-statement-create-resource-group"
)

func init() {
	register(
		&Rule{
			Code: "TF110", Severity: diag.Warning, Live: true,
			Title:    "MEDIUM/LOW priority throttled with idle CPU (tikv#18939)",
			Link:     linkTikv18939,
			Versions: "TiKV v7.5.0–v8.5.3 (fixed in v8.5.4) with at least one user-defined resource group",
			Reasoning: "TiKV v7.5.0 added an automatic per-priority quota tuner. It sizes the quota from the read pools' " +
				"share of process CPU, so with a write-heavy mix it shrinks MEDIUM and LOW quotas to the minimum and " +
				"throttles reads while CPU is idle. It runs only when a user-defined group exists; HIGH is never " +
				"limited. TiKV v8.5.4 disabled the tuner (tikv/tikv#18940, release-8.5 cherry-pick tikv/tikv#18992); " +
				"the affected range and the fix version come from the release tags, no release note mentions it. " +
				"Moving latency-sensitive groups to PRIORITY = HIGH avoids it (derived from the code, not official " +
				"guidance).",
			Sources: []string{linkTikv18939, "https://github.com/tikv/tikv/pull/18940", "https://github.com/tikv/tikv/pull/18992",
				"https://github.com/tikv/tikv/pull/15929",
				"tikv/tikv@v8.5.3:components/resource_control/src/worker.rs (PriorityLimiterAdjustWorker::adjust)",
				"tikv/tikv@v8.5.4:components/resource_control/src/resource_group.rs (enable_priority_limiter)"},
			check: checkPriorityLimiter,
		},
		&Rule{
			Code: "TF111", Severity: diag.Warning,
			Title:    "`burstable = true` is v8.5's spelling; a bare BURSTABLE means MODERATED from v9.0",
			Link:     linkCreateGroup,
			Versions: "all versions (the SQL differs from TiDB v9.0.0 on)",
			Reasoning: "Up to v8.5, BURSTABLE lets a group use spare capacity without limit (INFORMATION_SCHEMA shows " +
				"YES). From v9.0.0 BURSTABLE takes OFF | MODERATED | UNLIMITED and a bare BURSTABLE means MODERATED " +
				"(limited overuse). tiform reads a boolean `burstable = true` as the v8.5 meaning on every version: it " +
				"sends a bare BURSTABLE to v8.5 and BURSTABLE = UNLIMITED to v9.0, so the cluster shows YES, then " +
				"UNLIMITED. The boolean is still ambiguous to a reader who knows v9.0's SQL; an explicit mode is not.",
			Sources: []string{"https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group",
				"https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group",
				"https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups"},
			check: checkBurstable,
		},
		&Rule{
			Code: "TF112", Severity: diag.Warning, Live: true,
			Title: "A resource group switches TiKV's transaction scheduler to its priority queue (tikv#19858)",
			Link:  linkTikv19858,
			Versions: "TiKV v7.1.0+ when the first resource group other than `default` is created (tikv/tikv#14582); " +
				"on the 8.5 line from v8.5.7 also when only BACKGROUND is set (tikv/tikv#19554; undone by " +
				"tikv/tikv#19855, release-8.5 tikv/tikv#19895, in no release tag yet)",
			Reasoning: "TiKV's transaction scheduler uses a FIFO queue until a resource group other than `default` " +
				"exists, then a priority queue, which costs 5–10% on write-heavy workloads (tikv/tikv#19858, severity " +
				"major). TiKV v8.5.7 also switches when only background task control is set (`ALTER RESOURCE GROUP " +
				"default BACKGROUND = (TASK_TYPES = …)`); tikv/tikv#19855 undoes that part, and is on release-8.5 but " +
				"in no release tag yet. The range comes from the tags (tikv/tikv#14582 first in v7.1.0, " +
				"tikv/tikv#19554 first in v8.5.7). Nothing in SQL shows the switch: a plan that adds the first group, " +
				"or the background setting, is where a reviewer can weigh it.",
			Sources: []string{linkTikv19858, "https://github.com/tikv/tikv/pull/19855", "https://github.com/tikv/tikv/pull/19895",
				"https://github.com/tikv/tikv/pull/14582", "https://github.com/tikv/tikv/pull/19396", "https://github.com/tikv/tikv/pull/19554",
				"tikv/tikv@v8.5.7:components/resource_control/src/resource_group.rs (ResourceController::is_customized)",
				"tikv/tikv@v8.5.7:src/storage/txn/sched_pool.rs (SchedPool::can_use_priority)"},
			check: checkSchedulerQueue,
		},
	)
}

// plannedGroup is a resource group as it will be after apply.
type plannedGroup struct {
	name     string
	priority string
	desired  *state.ResourceGroup
}

// plannedGroups merges live groups with the declared ones: declared fields
// win, a new group without priority gets TiDB's default MEDIUM
// (https://docs.pingcap.com/tidb/stable/sql-statement-create-resource-group), and
// undeclared live groups are dropped only when the configuration opts in.
func (c *context) plannedGroups() []plannedGroup {
	byName := map[string]*plannedGroup{}
	var order []string
	add := func(name string) *plannedGroup {
		k := strings.ToLower(name)
		if g, ok := byName[k]; ok {
			return g
		}
		g := &plannedGroup{name: name, priority: "MEDIUM"}
		byName[k] = g
		order = append(order, k)
		return g
	}
	declared := map[string]bool{}
	for i := range c.d.ResourceGroups {
		declared[strings.ToLower(c.d.ResourceGroups[i].Name)] = true
	}
	for _, lg := range c.l.ResourceGroups {
		if c.d.DropUnmanagedGroups && !declared[strings.ToLower(lg.Name)] && !strings.EqualFold(lg.Name, "default") {
			continue
		}
		g := add(lg.Name)
		if lg.Priority != nil && *lg.Priority != "" {
			g.priority = strings.ToUpper(*lg.Priority)
		}
	}
	for i := range c.d.ResourceGroups {
		dg := &c.d.ResourceGroups[i]
		g := add(dg.Name)
		g.desired = dg
		if dg.Priority != nil && *dg.Priority != "" {
			g.priority = strings.ToUpper(*dg.Priority)
		}
	}
	// The default group always exists
	// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups), at MEDIUM unless
	// altered: count it even when the live groups were not read.
	add("default")
	sort.Strings(order)
	out := make([]plannedGroup, 0, len(order))
	for _, k := range order {
		out = append(out, *byName[k])
	}
	return out
}

func checkPriorityLimiter(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || !tv.PriorityLimiterBug() {
		return nil
	}
	if off := c.resourceControlOff(); off != "" {
		return nil // no priority scheduling, no limiter (derived from tikv/tikv@v8.5.3:components/resource_control)
	}
	groups := c.plannedGroups()
	userDefined := 0
	for _, g := range groups {
		if !strings.EqualFold(g.name, "default") {
			userDefined++
		}
	}
	if userDefined == 0 {
		return nil // the limiter only runs with more than one group (tikv/tikv@v8.5.3 resource_group.rs enable_priority_limiter)
	}
	var out []Finding
	for _, g := range groups {
		if g.priority != "MEDIUM" && g.priority != "LOW" {
			continue
		}
		f := Finding{Address: state.GroupAddress(g.name).String()}
		if g.desired != nil {
			f.Range = g.desired.Range
			if r, ok := g.desired.FieldRanges["priority"]; ok {
				f.Range = r
			}
		}
		who := fmt.Sprintf("resource group %q", g.name)
		if strings.EqualFold(g.name, "default") {
			who = "the default resource group (every session not bound to a group)"
		}
		f.Summary = fmt.Sprintf("%s runs at PRIORITY %s on TiKV %s: it may be throttled with idle CPU (tikv#18939)",
			who, g.priority, tv.Short())
		f.Detail = fmt.Sprintf("TiKV %s (lowest TiKV version) has the automatic priority quota tuner of TiKV v7.5.0–v8.5.3. "+
			"With %d user-defined resource group(s) it is active, and it can shrink the MEDIUM and LOW quotas to the minimum "+
			"while TiKV has spare CPU: reads slow down, \"Task Wait QPS by Priority\" shows throttling, the unified read "+
			"pool is not busy. HIGH is never limited. Set priority = \"HIGH\" for latency-sensitive OLTP groups (ALTER "+
			"RESOURCE GROUP keeps the other options), or upgrade TiKV to v8.5.4 or later, where the tuner is disabled "+
			"(tikv/tikv#18940; the fix version comes from the release tags, no release note mentions it). "+
			"resource-control.priority-ctl-strategy = \"conservative\" (v8.4+) only raises the target, it does "+
			"not remove the flawed calculation.", tv.Short(), userDefined)
		out = append(out, f)
	}
	return out
}

func checkBurstable(c *context) []Finding {
	var out []Finding
	tidb, known := c.version(state.TiDB)
	for i := range c.d.ResourceGroups {
		g := &c.d.ResourceGroups[i]
		if !v85Burstable(g) {
			continue
		}
		f := Finding{Address: state.GroupAddress(g.Name).String(), Range: g.Range}
		if r, ok := g.FieldRanges["burstable"]; ok {
			f.Range = r
		}
		f.Summary = fmt.Sprintf("resource group %q: `burstable = true` is v8.5's spelling of unlimited burst; "+
			"in v9.0 SQL a bare BURSTABLE means MODERATED", g.Name)
		d := "tiform reads `burstable = true` as the v8.5 meaning on every version: the group may use spare " +
			"capacity without limit. It sends a bare BURSTABLE to a TiDB that shows YES/NO in " +
			"INFORMATION_SCHEMA.RESOURCE_GROUPS (up to v8.5, and v9.0 development builds before the burst modes) and " +
			"BURSTABLE = UNLIMITED to one that shows OFF/MODERATED/UNLIMITED, where a bare BURSTABLE means MODERATED " +
			"(limited overuse)."
		switch {
		case known && c.l.BurstSyntax.Modes(tidb):
			d += fmt.Sprintf(" This cluster runs TiDB %s: the plan says BURSTABLE = UNLIMITED and the group will "+
				"show UNLIMITED.", tidb.Short())
		case known:
			d += fmt.Sprintf(" This cluster runs TiDB %s: the plan says BURSTABLE and the group will show YES; once "+
				"the cluster speaks burst modes tiform sends BURSTABLE = UNLIMITED for the same declaration.", tidb.Short())
		}
		f.Detail = d + " A reader who knows v9.0's SQL reads the boolean as MODERATED: write the mode you mean, " +
			"burstable = \"UNLIMITED\" (the same, valid on every version), \"MODERATED\" (v9.0+ only) or \"OFF\"."
		out = append(out, f)
	}
	return out
}

// v85Burstable reports a declared burstable in v8.5's vocabulary that means
// unlimited burst: true, or the strings YES/TRUE/ON (planner desiredBurst
// reads them so).
func v85Burstable(g *state.ResourceGroup) bool {
	if g.BurstableBool != nil {
		return *g.BurstableBool
	}
	if g.Burstable == nil {
		return false
	}
	switch strings.ToUpper(strings.TrimSpace(*g.Burstable)) {
	case "YES", "TRUE", "ON":
		return true
	}
	return false
}

// queueState is what TiKV's transaction scheduler queue depends on
// (tikv/tikv@v8.5.7:components/resource_control/src/resource_group.rs,
// ResourceController::is_customized): whether a group other than `default`
// exists, and whether any group has background task types.
type queueState struct {
	userGroups int
	background bool
}

// liveQueueState is the state before the plan.
func (c *context) liveQueueState() queueState {
	var q queueState
	for i := range c.l.ResourceGroups {
		g := &c.l.ResourceGroups[i]
		if !strings.EqualFold(g.Name, "default") {
			q.userGroups++
		}
		q.background = q.background || hasBackground(g.Background)
	}
	return q
}

// plannedQueueState is the state after the plan: the planned groups, each
// with its declared background when declared, else its live one.
func (c *context) plannedQueueState() (queueState, *state.ResourceGroup) {
	var q queueState
	var declaredBG *state.ResourceGroup
	live := map[string]*state.ResourceGroup{}
	for i := range c.l.ResourceGroups {
		live[strings.ToLower(c.l.ResourceGroups[i].Name)] = &c.l.ResourceGroups[i]
	}
	for _, g := range c.plannedGroups() {
		if !strings.EqualFold(g.name, "default") {
			q.userGroups++
		}
		bg := (*state.Background)(nil)
		if lg, ok := live[strings.ToLower(g.name)]; ok {
			bg = lg.Background
		}
		if g.desired != nil && g.desired.Background != nil {
			bg = g.desired.Background
			if hasBackground(bg) && declaredBG == nil {
				declaredBG = g.desired
			}
		}
		q.background = q.background || hasBackground(bg)
	}
	return q, declaredBG
}

func hasBackground(b *state.Background) bool { return b != nil && !b.Empty && len(b.TaskTypes) > 0 }

// priorityQueue reports whether TiKV tv runs its transaction scheduler on
// the priority queue in state q.
func priorityQueue(tv version.Version, q queueState) bool {
	return q.userGroups > 0 || q.background && tv.BackgroundSwitchesSchedulerQueue()
}

func checkSchedulerQueue(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || !tv.SchedulerQueueSwitch() || !c.l.ResourceGroupsRead || c.resourceControlOff() != "" {
		return nil
	}
	before := c.liveQueueState()
	cost := "costs 5–10% of throughput on write-heavy workloads (tikv#19858)"
	bgFix := "tikv/tikv#19855 stops background-only control from switching the queue; it is on the release-8.5 " +
		"branch (tikv/tikv#19895) but in no release tag yet, so check the release notes of the next 8.5 patch."
	if !c.hcl {
		// tiform check: only the switch no user group asked for.
		if before.userGroups > 0 || !before.background || !tv.BackgroundSwitchesSchedulerQueue() {
			return nil
		}
		return []Finding{{
			Address: state.GroupAddress("default").String(),
			Summary: fmt.Sprintf("TiKV %s runs its transaction scheduler on the priority queue only because BACKGROUND "+
				"is set: that %s", tv.Short(), cost),
			Detail: fmt.Sprintf("No resource group other than `default` exists, but a group has background task "+
				"types, and TiKV %s (lowest TiKV version) then switches its transaction scheduler from the FIFO queue "+
				"to the priority queue (tikv/tikv#19554, first in v8.5.7). %s Until then, weigh the background "+
				"throttling against the write cost, and remove BACKGROUND (`ALTER RESOURCE GROUP default BACKGROUND = "+
				"NULL`) if it is not needed.", tv.Short(), bgFix),
		}}
	}
	after, declaredBG := c.plannedQueueState()
	if priorityQueue(tv, before) || !priorityQueue(tv, after) {
		return nil
	}
	if after.userGroups > 0 {
		first := c.firstNewGroup()
		if first == nil {
			return nil
		}
		f := Finding{Address: state.GroupAddress(first.Name).String(), Range: first.Range,
			Summary: fmt.Sprintf("creating resource group %q switches TiKV's transaction scheduler to its priority "+
				"queue, which %s", first.Name, cost),
			Detail: fmt.Sprintf("The cluster has no resource group but `default`, so TiKV %s (lowest TiKV version) "+
				"schedules transactions on a FIFO queue. From TiKV v7.1.0 the first other group switches it to the "+
				"priority queue (tikv/tikv#14582), which costs 5–10%% of throughput on write-heavy workloads "+
				"(tikv/tikv#19858, severity major); dropping the last such group switches it back. Nothing in SQL "+
				"shows the switch: measure write latency and throughput before and after the apply, and create the "+
				"group only if its isolation is worth that cost.", tv.Short()),
		}
		return []Finding{f}
	}
	if declaredBG == nil {
		return nil
	}
	f := Finding{Address: state.GroupAddress(declaredBG.Name).String(), Range: declaredBG.Range,
		Summary: fmt.Sprintf("setting BACKGROUND on resource group %q switches TiKV %s's transaction scheduler to "+
			"its priority queue, which %s", declaredBG.Name, tv.Short(), cost),
		Detail: fmt.Sprintf("The cluster has no resource group but `default`, so TiKV schedules transactions on a "+
			"FIFO queue. TiKV %s (lowest TiKV version) also switches to the priority queue when only background task "+
			"control is set (tikv/tikv#19554, first in v8.5.7), which costs 5–10%% of throughput on write-heavy "+
			"workloads (tikv/tikv#19858, severity major). %s Weigh the background throttling against that cost, "+
			"measure write latency and throughput before and after the apply, or wait for a TiKV patch with the fix.",
			tv.Short(), bgFix),
	}
	if r, ok := declaredBG.FieldRanges["background"]; ok {
		f.Range = r
	}
	return []Finding{f}
}

// firstNewGroup returns the first declared group, other than `default`, that
// the cluster does not have.
func (c *context) firstNewGroup() *state.ResourceGroup {
	have := map[string]bool{}
	for _, g := range c.l.ResourceGroups {
		have[strings.ToLower(g.Name)] = true
	}
	for i := range c.d.ResourceGroups {
		g := &c.d.ResourceGroups[i]
		if !strings.EqualFold(g.Name, "default") && !have[strings.ToLower(g.Name)] {
			return g
		}
	}
	return nil
}

// resourceControlOff says why resource control is off after the plan ("" when
// it is on or unknown): tidb_enable_resource_control OFF, or TiKV
// resource-control.enabled false on every TiKV instance
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups).
// resource-control.enabled is restart-only
// (tikv/tikv@v8.5.1:components/resource_control/src/config.rs, #[online_config(skip)]): the live value governs
// until TiKV restarts, so a declared value counts only when the live one is
// unknown.
func (c *context) resourceControlOff() string {
	if on, _ := c.effectiveBool("tidb_enable_resource_control", true); !on {
		return "tidb_enable_resource_control is OFF"
	}
	rows := c.liveConfig(state.TiKV, "resource-control.enabled")
	if len(rows) == 0 {
		if s := c.setting(state.TiKV, "", "resource-control.enabled"); s != nil {
			if v, ok := truth(s.Value.Text); ok && !v {
				return "TiKV resource-control.enabled is false"
			}
		}
		return ""
	}
	for _, r := range rows {
		if v, ok := truth(r.Value); !ok || v {
			return ""
		}
	}
	return "TiKV resource-control.enabled is false"
}

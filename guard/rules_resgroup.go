package guard

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Resource-control rules: TF110, TF111
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups, tikv/tikv#18939).

const (
	linkTikv18939   = "https://github.com/tikv/tikv/issues/18939"
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
			Title:    "`burstable = true` means different things on v8.5 and v9.0",
			Link:     linkCreateGroup,
			Versions: "all versions (the meaning changes at TiDB v9.0.0)",
			Reasoning: "Up to v8.5, BURSTABLE lets a group use spare capacity without limit (INFORMATION_SCHEMA shows " +
				"YES). From v9.0.0 BURSTABLE takes OFF | MODERATED | UNLIMITED and a bare BURSTABLE means MODERATED " +
				"(limited overuse). A boolean declaration silently changes meaning at the upgrade; an explicit mode " +
				"does not.",
			Sources: []string{"https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group",
				"https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group",
				"https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups"},
			check: checkBurstable,
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
		if g.BurstableBool == nil || !*g.BurstableBool {
			continue // burstable = false means OFF on every version
		}
		f := Finding{Address: state.GroupAddress(g.Name).String(), Range: g.Range}
		if r, ok := g.FieldRanges["burstable"]; ok {
			f.Range = r
		}
		f.Summary = fmt.Sprintf("resource group %q: `burstable = true` changes meaning at TiDB v9.0 (unlimited → MODERATED)", g.Name)
		now := "Up to v8.5, `burstable = true` is BURSTABLE: the group may use spare capacity without limit " +
			"(INFORMATION_SCHEMA.RESOURCE_GROUPS shows YES). From v9.0.0, a bare BURSTABLE means MODERATED (limited " +
			"overuse); unlimited is BURSTABLE = UNLIMITED."
		switch {
		case known && tidb.BurstModes():
			now += fmt.Sprintf(" This cluster runs TiDB %s, so today it means MODERATED.", tidb.Short())
		case known:
			now += fmt.Sprintf(" This cluster runs TiDB %s, so today it means unlimited; after an upgrade to v9.0 it "+
				"would mean MODERATED.", tidb.Short())
		}
		f.Detail = now + " Write the mode you mean: burstable = \"UNLIMITED\" (the v8.5 behaviour, valid on both), " +
			"\"MODERATED\" (v9.0+ only) or \"OFF\"."
		out = append(out, f)
	}
	return out
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

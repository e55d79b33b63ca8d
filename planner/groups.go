package planner

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// DefaultGroup is the resource group every unbound session uses; it always
// exists and cannot be dropped
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups).
const DefaultGroup = "default"

// groupDialect is what decides how options are spelt for one cluster: the
// BURSTABLE vocabulary it showed, else its TiDB version
// (state.BurstSyntax.Modes).
type groupDialect struct {
	syntax  state.BurstSyntax
	version version.Version
}

// dialectOf is the dialect a change's spec records.
func dialectOf(syntax state.BurstSyntax, v version.Version) groupDialect {
	return groupDialect{syntax: syntax, version: v}
}

func (d groupDialect) burstModes() bool { return d.syntax.Modes(d.version) }

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

// desiredOptions returns the declared options of g (only those declared),
// spelt for dialect d (BURSTABLE differs: compare
// https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group with
// https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group).
func desiredOptions(g *state.ResourceGroup, d groupDialect) (map[string]groupOption, error) {
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
		sql, err := burstSQL(mode, d)
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
			return nil, fmt.Errorf("background can only be set on the default group (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks)")
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
func liveOptions(g *state.ResourceGroup, d groupDialect) map[string]groupOption {
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
		sql, err := burstSQL(mode, d)
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
// (https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group). Live groups carry the mode the live reader mapped
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

// burstSQL writes a burst mode in dialect d
// (https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group for
// the modes): where TiDB shows YES/NO, bare BURSTABLE is the unlimited burst
// and BURSTABLE = FALSE turns it off; with the modes the mode is explicit,
// because bare BURSTABLE there means MODERATED.
func burstSQL(mode string, d groupDialect) (string, error) {
	if d.burstModes() {
		return "BURSTABLE = " + mode, nil
	}
	switch mode {
	case state.BurstUnlimited:
		return "BURSTABLE", nil
	case state.BurstOff:
		return "BURSTABLE = FALSE", nil
	}
	if d.syntax == state.BurstSyntaxBool {
		return "", fmt.Errorf("burstable = %s needs a TiDB with burst modes: this cluster (TiDB %s) shows BURSTABLE as YES/NO in "+
			"INFORMATION_SCHEMA.RESOURCE_GROUPS and accepts only BURSTABLE [= TRUE|FALSE] (the modes came with pingcap/tidb#59218; "+
			"https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group)", mode, d.version.String())
	}
	return "", fmt.Errorf("burstable = %s needs TiDB v9.0.0 or later (this cluster runs %s; https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group)", mode, d.version.String())
}

var (
	queryActions = map[string]bool{"DRYRUN": true, "COOLDOWN": true, "KILL": true, "SWITCH_GROUP": true}
	watchKinds   = map[string]bool{"EXACT": true, "SIMILAR": true, "PLAN": true}
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
// prints it (pingcap/tidb@v8.5.1:pkg/executor/infoschema_reader.go,
// setDataFromResourceGroups), or "NULL" when empty.
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

// queryLimitSQL writes QUERY_LIMIT = (…) for CREATE/ALTER
// (https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries).
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
		if !slices.Contains(state.BackgroundTaskTypes, t) {
			return nil, fmt.Errorf("background task type must be one of %s; got %q", strings.Join(state.BackgroundTaskTypes, ", "), t)
		}
		out = append(out, t)
	}
	sort.Strings(out)
	return out, nil
}

// backgroundText renders BACKGROUND as INFORMATION_SCHEMA prints it, or
// "NULL": TASK_TYPES only when there are some, UTILIZATION_LIMIT only when
// set, NULL when neither (pingcap/tidb@e4e814fdc0af:pkg/executor/infoschema_reader.go,
// setDataFromResourceGroups). Task types are sorted: TiDB keeps the order
// written, which does not change what they mean.
func backgroundText(b *state.Background) (string, error) {
	if b == nil || b.Empty {
		return "NULL", nil
	}
	types, err := normTaskTypes(b)
	if err != nil {
		return "", err
	}
	var parts []string
	if len(types) > 0 {
		parts = append(parts, "TASK_TYPES='"+strings.Join(types, ",")+"'")
	}
	if b.UtilizationLimit != nil {
		if *b.UtilizationLimit < 1 || *b.UtilizationLimit > state.MaxUtilizationLimit {
			return "", fmt.Errorf("background utilization_limit must be 1..%d, got %d", state.MaxUtilizationLimit, *b.UtilizationLimit)
		}
		parts = append(parts, "UTILIZATION_LIMIT="+strconv.FormatInt(*b.UtilizationLimit, 10))
	}
	if len(parts) == 0 {
		return "NULL", nil
	}
	return strings.Join(parts, ", "), nil
}

// backgroundSQL writes BACKGROUND = (…)'s options; the whole setting is
// replaced, so TASK_TYPES is always written (” for none).
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

// sentOptions are the options an ALTER of the changed ones sends: those,
// and BURSTABLE when RU_PER_SEC is sent as UNLIMITED and opts has BURSTABLE,
// because TiDB makes a group burstable when it sets RU_PER_SEC = UNLIMITED
// (pingcap/tidb@e4e814fdc0af:pkg/ddl/resource_group.go,
// SetDirectResourceGroupRUSecondOption): the BURSTABLE written after it keeps
// the declared burst.
func sentOptions(opts map[string]groupOption, changed map[string]bool) map[string]bool {
	_, burst := opts["BURSTABLE"]
	if !changed["RU_PER_SEC"] || opts["RU_PER_SEC"].Value != "UNLIMITED" || !burst || changed["BURSTABLE"] {
		return changed
	}
	out := map[string]bool{"BURSTABLE": true}
	for k, v := range changed {
		out[k] = v
	}
	return out
}

// checkOptions returns the options a read-back must find, in the fixed
// order, with their canonical values (plans.Check.Options).
func checkOptions(opts map[string]groupOption, only map[string]bool) []plans.GroupOption {
	var out []plans.GroupOption
	for _, n := range groupOptionOrder {
		if o, ok := opts[n]; ok && (only == nil || only[n]) {
			out = append(out, plans.GroupOption{Name: n, Value: o.Value})
		}
	}
	return out
}

// CanonicalGroup is the fingerprint value of a live group for TiDB version v:
// every option in a fixed order, "RU_PER_SEC=1000, PRIORITY=HIGH, BURSTABLE=OFF,
// QUERY_LIMIT=NULL" (values only: the same in every dialect). Apply compares
// a fresh read with it.
func CanonicalGroup(g *state.ResourceGroup, v version.Version) string {
	return describeOptions(liveOptions(g, dialectOf(state.BurstSyntaxUnknown, v)), nil)
}

// GroupName is the comparable name of a resource group (state.GroupName).
func GroupName(s string) string { return state.GroupName(s) }

// BoundGroup is the group a live binding resolves to (no group: the default
// one), as plans and apply compare it.
func BoundGroup(b state.UserBinding) string {
	if b.ResourceGroup == "" {
		return DefaultGroup
	}
	return GroupName(b.ResourceGroup)
}

package schema

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// groupDecl is one resource_group block of one scope.
type groupDecl struct {
	group state.ResourceGroup
	// preventDestroy is nil when no lifecycle block was written.
	preventDestroy *bool
	labelRange     hcl.Range
	userRanges     map[string]hcl.Range // user@host → where it is listed
}

var (
	groupAttrs      = []string{"ru_per_sec", "priority", "burstable", "users"}
	groupBlocks     = []string{"query_limit", "background", "lifecycle"}
	queryLimitAttrs = []string{"exec_elapsed", "processed_keys", "ru", "action", "switch_group", "watch", "watch_duration"}
	backgroundAttrs = []string{"task_types", "utilization_limit"}
	// Background task types (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).
	taskTypes = []string{"background", "br", "ddl", "import", "stats"}
)

// groupNameRe: resource group names are identifiers (https://docs.pingcap.com/tidb/stable/sql-statement-create-resource-group).
var groupNameRe = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// maxGroupName is the longest resource group name: the NAME column of
// INFORMATION_SCHEMA.RESOURCE_GROUPS is varchar(32)
// (https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups).
const maxGroupName = 32

func (l *loader) resourceGroupBlock(ly *layer, blk *hclsyntax.Block) {
	name, ok := l.groupName(blk)
	if !ok {
		return
	}
	if first, dup := ly.groups[name]; dup {
		l.b.duplicate(blk.LabelRanges[0], first.labelRange, fmt.Sprintf("resource group %q is declared twice", name),
			"Declare each group once per scope; a cluster block may override a top-level group of the same name.")
		return
	}
	d := &groupDecl{
		group:      state.ResourceGroup{Name: name, Range: rangeOf(blk.Range()), FieldRanges: map[string]diag.SourceRange{}},
		labelRange: blk.LabelRanges[0],
		userRanges: map[string]hcl.Range{},
	}
	for _, a := range sortedAttrs(blk.Body) {
		l.groupAttr(d, a)
	}
	seen := map[string]hcl.Range{}
	for _, nb := range blk.Body.Blocks {
		if first, dup := seen[nb.Type]; dup {
			l.b.duplicate(nb.TypeRange, first, fmt.Sprintf("%s block appears twice in resource group %q", nb.Type, name), "Write it once.")
			continue
		}
		seen[nb.Type] = nb.TypeRange
		l.groupBlock(d, nb)
	}
	if d.preventDestroy != nil {
		d.group.PreventDestroy = *d.preventDestroy
	}
	ly.groups[name] = d
	ly.groupOrder = append(ly.groupOrder, name)
}

// groupName is the block's group name, lower-cased as TiDB does (names are
// case-insensitive identifiers), or false after an error when the label is
// missing, not an identifier, or too long for TiDB.
func (l *loader) groupName(blk *hclsyntax.Block) (string, bool) {
	if len(blk.Labels) != 1 {
		l.b.errorf(blk.TypeRange, "resource_group needs exactly one name",
			`Write resource_group "oltp" { ru_per_sec = 2000 }.`, "")
		return "", false
	}
	if !l.checkGroupNameASCII(blk.Labels[0], blk.LabelRanges[0]) {
		return "", false
	}
	name := strings.ToLower(blk.Labels[0])
	if !groupNameRe.MatchString(name) {
		l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("invalid resource group name %q", blk.Labels[0]),
			"A resource group name holds letters, digits and underscores.", `rename it, for example resource_group "oltp"`)
		return "", false
	}
	if len(name) > maxGroupName {
		l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("resource group name %q is longer than %d characters", blk.Labels[0], maxGroupName),
			"INFORMATION_SCHEMA.RESOURCE_GROUPS.NAME is varchar(32) (pingcap/tidb@v8.5.1:pkg/infoschema/tables.go, tableResourceGroupsCols): a longer name does not fit.",
			fmt.Sprintf("shorten it to %d characters or fewer", maxGroupName))
		return "", false
	}
	return name, true
}

// groupAttr sets one attribute of a group (ru_per_sec, priority, burstable,
// users) and records its range; an unknown or invalid one is an error.
func (l *loader) groupAttr(d *groupDecl, a *hclsyntax.Attribute) {
	g := &d.group
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return
	}
	if v.IsNull() {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("%s is null", a.Name), "Remove the line to leave the option unmanaged.", "")
		return
	}
	switch a.Name {
	case "ru_per_sec":
		g.RUPerSec = l.ruPerSec(a, v)
	case "priority":
		s, ok := keyword(v, "LOW", "MEDIUM", "HIGH")
		if !ok {
			l.b.errorf(a.Expr.Range(), "invalid priority",
				"PRIORITY is LOW, MEDIUM or HIGH (https://docs.pingcap.com/tidb/stable/sql-statement-create-resource-group).", `write priority = "HIGH"`)
			return
		}
		g.Priority = &s
	case "burstable":
		l.burstable(g, a, v)
	case "users":
		g.Users = l.users(d, a, v)
	default:
		sugg := didYouMean(a.Name, append(append([]string{}, groupAttrs...), groupBlocks...), "")
		if sugg == "" && slices.Contains(groupBlocks, a.Name) {
			sugg = fmt.Sprintf("%s is a block: write %s { … } without =", a.Name, a.Name)
		}
		l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in resource_group", a.Name),
			"A resource_group takes ru_per_sec, priority, burstable and users, and the blocks query_limit, background and lifecycle.", sugg)
		return
	}
	g.FieldRanges[a.Name] = rangeOf(a.SrcRange)
}

// burstable sets BURSTABLE: a boolean, or since v9.0 a mode keyword.
func (l *loader) burstable(g *state.ResourceGroup, a *hclsyntax.Attribute, v cty.Value) {
	if v.Type() == cty.Bool {
		b := v.True()
		g.BurstableBool = &b
		return
	}
	s, ok := keyword(v, state.BurstOff, state.BurstModerated, state.BurstUnlimited)
	if !ok {
		l.b.errorf(a.Expr.Range(), "invalid burstable",
			"burstable is true/false, or since v9.0 a mode: \"OFF\", \"MODERATED\" or \"UNLIMITED\" (https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group).",
			"write burstable = true")
		return
	}
	g.Burstable = &s
}

// groupBlock reads one nested block of a group: query_limit, background
// (the default group only) or lifecycle.
func (l *loader) groupBlock(d *groupDecl, nb *hclsyntax.Block) {
	g := &d.group
	if len(nb.Labels) > 0 {
		l.b.errorf(nb.LabelRanges[0], fmt.Sprintf("%s takes no label", nb.Type), "", "")
		return
	}
	switch nb.Type {
	case "query_limit":
		g.FieldRanges["query_limit"] = rangeOf(nb.Range())
		g.QueryLimit = l.queryLimit(nb)
	case "background":
		g.FieldRanges["background"] = rangeOf(nb.Range())
		if g.Name != "default" {
			l.b.errorf(nb.TypeRange, fmt.Sprintf("background is only valid on the default group, not %q", g.Name),
				"Only the default resource group can set BACKGROUND; it governs every group's background tasks (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).",
				`move it to resource_group "default" { background { … } }`)
			return
		}
		g.Background = l.background(nb)
	case "lifecycle":
		l.lifecycle(d, nb)
	default:
		l.b.errorf(nb.TypeRange, fmt.Sprintf("unknown block %q in resource_group", nb.Type),
			"A resource_group takes the blocks query_limit, background and lifecycle.", didYouMean(nb.Type, groupBlocks, ""))
	}
}

// lifecycle reads prevent_destroy, the only lifecycle setting.
func (l *loader) lifecycle(d *groupDecl, nb *hclsyntax.Block) {
	for _, a := range sortedAttrs(nb.Body) {
		if a.Name != "prevent_destroy" {
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in lifecycle", a.Name),
				"lifecycle takes prevent_destroy = true.", didYouMean(a.Name, []string{"prevent_destroy"}, ""))
			continue
		}
		v, ok := l.eval(a.Expr)
		if !ok || !v.IsWhollyKnown() {
			continue
		}
		if v.IsNull() || v.Type() != cty.Bool {
			l.b.errorf(a.Expr.Range(), "prevent_destroy must be true or false", "", "write prevent_destroy = true")
			continue
		}
		b := v.True()
		d.preventDestroy = &b
		d.group.FieldRanges["prevent_destroy"] = rangeOf(a.SrcRange)
	}
	for _, bb := range nb.Body.Blocks {
		l.b.errorf(bb.TypeRange, fmt.Sprintf("unexpected block %q in lifecycle", bb.Type), "lifecycle takes prevent_destroy = true.", "")
	}
}

// keyword matches a string value case-insensitively against allowed words
// and returns the canonical (upper-case) spelling.
func keyword(v cty.Value, allowed ...string) (string, bool) {
	if v.Type() != cty.String {
		return "", false
	}
	s := strings.TrimSpace(v.AsString())
	for _, a := range allowed {
		if strings.EqualFold(s, a) {
			return a, true
		}
	}
	return "", false
}

// ruPerSec is a positive integer or "UNLIMITED" (https://docs.pingcap.com/tidb/stable/sql-statement-create-resource-group).
func (l *loader) ruPerSec(a *hclsyntax.Attribute, v cty.Value) *int64 {
	if s, ok := keyword(v, "UNLIMITED"); ok && s != "" {
		n := state.UnlimitedRU
		return &n
	}
	n, ok := intValue(v)
	if !ok || n < 1 || n > state.UnlimitedRU {
		l.b.errorf(a.Expr.Range(), "invalid ru_per_sec",
			fmt.Sprintf("RU_PER_SEC is a whole number of request units per second from 1 to %d, or \"UNLIMITED\".", state.UnlimitedRU),
			"write ru_per_sec = 2000")
		return nil
	}
	return &n
}

// intValue accepts a whole HCL number, or a string holding one.
func intValue(v cty.Value) (int64, bool) {
	switch v.Type() {
	case cty.Number:
		f := v.AsBigFloat()
		if !f.IsInt() {
			return 0, false
		}
		i, acc := f.Int64()
		return i, acc == big.Exact
	case cty.String:
		f, _, err := big.ParseFloat(strings.TrimSpace(v.AsString()), 10, 128, big.ToNearestEven)
		if err != nil || !f.IsInt() {
			return 0, false
		}
		i, acc := f.Int64()
		return i, acc == big.Exact
	}
	return 0, false
}

// users parses users = ["app@%", …] into UserRefs.
func (l *loader) users(d *groupDecl, a *hclsyntax.Attribute, v cty.Value) []state.UserRef {
	ty := v.Type()
	if !(ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		l.b.errorf(a.Expr.Range(), "users must be a list of accounts", `Write users = ["app@%", "report@10.0.%"].`, "")
		return nil
	}
	out := []state.UserRef{}
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		_, ev := it.Element()
		rng := a.Expr.Range()
		if tc, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(tc.Exprs) {
			rng = tc.Exprs[i].Range()
		}
		if ev.IsNull() || ev.Type() != cty.String {
			l.b.errorf(rng, "an account must be a string", `Write accounts as "user@host", for example "app@%".`, "")
			continue
		}
		u, problem := parseUser(ev.AsString())
		if problem != "" {
			l.b.errorf(rng, fmt.Sprintf("invalid account %q", ev.AsString()), problem, `write "app@%" (user@host; % matches any host)`)
			continue
		}
		if first, dup := d.userRanges[u.String()]; dup {
			l.b.duplicate(rng, first, fmt.Sprintf("account %s is listed twice", u), "List each account once.")
			continue
		}
		d.userRanges[u.String()] = rng
		out = append(out, u)
	}
	return out
}

// parseUser splits "user@host" at the last '@' (user names may contain '@',
// host names may not). Quotes as in SQL ('app'@'%') are accepted and dropped.
func parseUser(s string) (state.UserRef, string) {
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return state.UserRef{}, "An account is user@host; this has no '@'."
	}
	user, host := unquoteSQL(s[:at]), unquoteSQL(s[at+1:])
	if user == "" {
		return state.UserRef{}, "The user name is empty."
	}
	if host == "" {
		return state.UserRef{}, "The host is empty; use % for any host."
	}
	if strings.ContainsAny(user+host, "'`\" \t\n") {
		return state.UserRef{}, "An account holds no quotes or spaces other than surrounding quotes ('app'@'%')."
	}
	return state.UserRef{User: user, Host: strings.ToLower(host)}, ""
}

func unquoteSQL(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		if q := s[0]; (q == '\'' || q == '"' || q == '`') && s[len(s)-1] == q {
			return s[1 : len(s)-1]
		}
	}
	return s
}

// queryLimit decodes query_limit { … }; an empty block means QUERY_LIMIT=NULL
// (remove any limit), https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries.
func (l *loader) queryLimit(blk *hclsyntax.Block) *state.QueryLimit {
	q := &state.QueryLimit{}
	if len(blk.Body.Attributes) == 0 && len(blk.Body.Blocks) == 0 {
		q.Empty = true
		return q
	}
	for _, nb := range blk.Body.Blocks {
		l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in query_limit", nb.Type),
			"query_limit takes "+strings.Join(queryLimitAttrs, ", ")+".", "")
	}
	attrs := map[string]*hclsyntax.Attribute{}
	errsBefore := len(l.b.diags.Errors())
	for _, a := range sortedAttrs(blk.Body) {
		attrs[a.Name] = a
		v, ok := l.eval(a.Expr)
		if !ok || !v.IsWhollyKnown() {
			continue
		}
		if v.IsNull() {
			l.b.errorf(a.Expr.Range(), fmt.Sprintf("%s is null", a.Name), "", "")
			continue
		}
		switch a.Name {
		case "exec_elapsed":
			q.ExecElapsed = l.goDuration(a, v, false)
		case "watch_duration":
			q.WatchDuration = l.goDuration(a, v, true)
		case "processed_keys", "ru":
			n, ok := intValue(v)
			if !ok || n < 1 {
				l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid %s", a.Name), fmt.Sprintf("%s is a whole number greater than 0.", strings.ToUpper(a.Name)),
					fmt.Sprintf("write %s = 10000", a.Name))
				continue
			}
			if a.Name == "ru" {
				q.RU = &n
			} else {
				q.ProcessedKeys = &n
			}
		case "action":
			if v.Type() == cty.String {
				if m := switchGroupRe.FindStringSubmatch(strings.TrimSpace(v.AsString())); m != nil {
					q.Action, q.SwitchGroup = "SWITCH_GROUP", strings.ToLower(m[1])
					continue
				}
			}
			s, ok := keyword(v, "DRYRUN", "COOLDOWN", "KILL", "SWITCH_GROUP")
			if !ok {
				l.b.errorf(a.Expr.Range(), "invalid action",
					"ACTION is DRYRUN, COOLDOWN, KILL or SWITCH_GROUP (with switch_group = \"GROUP\"): https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries.", `write action = "KILL"`)
				continue
			}
			q.Action = s
		case "switch_group":
			if v.Type() != cty.String || !groupNameRe.MatchString(v.AsString()) {
				l.b.errorf(a.Expr.Range(), "invalid switch_group", "switch_group names the resource group runaway queries move to.", `write switch_group = "batch"`)
				continue
			}
			if q.SwitchGroup != "" {
				l.b.errorf(a.NameRange, "switch_group is given twice", "action = \"SWITCH_GROUP(x)\" already names the group.", "keep one of the two")
				continue
			}
			q.SwitchGroup = strings.ToLower(v.AsString())
		case "watch":
			s, ok := keyword(v, "EXACT", "SIMILAR", "PLAN")
			if !ok {
				l.b.errorf(a.Expr.Range(), "invalid watch", "WATCH is EXACT, SIMILAR or PLAN (https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries).", `write watch = "SIMILAR"`)
				continue
			}
			q.Watch = s
		default:
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in query_limit", a.Name),
				"query_limit takes "+strings.Join(queryLimitAttrs, ", ")+".", didYouMean(a.Name, queryLimitAttrs, ""))
		}
	}
	if len(l.b.diags.Errors()) > errsBefore {
		return q
	}
	switch {
	case q.ExecElapsed == "" && q.ProcessedKeys == nil && q.RU == nil:
		l.b.errorf(blk.TypeRange, "query_limit needs a condition",
			"A runaway rule needs at least one of exec_elapsed, processed_keys or ru (https://docs.pingcap.com/tidb/stable/tidb-resource-control-runaway-queries). An empty query_limit {} removes the limit.",
			`add exec_elapsed = "60s"`)
	case q.Action == "":
		l.b.errorf(blk.TypeRange, "query_limit needs an action",
			"ACTION says what happens to a runaway query: DRYRUN, COOLDOWN, KILL or SWITCH_GROUP.", `add action = "KILL"`)
	case q.Action == "SWITCH_GROUP" && q.SwitchGroup == "":
		l.b.errorf(attrs["action"].Expr.Range(), "SWITCH_GROUP needs a target group", "Name the group runaway queries move to.", `add switch_group = "batch"`)
	case q.Action != "SWITCH_GROUP" && q.SwitchGroup != "":
		l.b.errorf(attrs["switch_group"].NameRange, "switch_group is only used with action = \"SWITCH_GROUP\"", "", `set action = "SWITCH_GROUP" or remove switch_group`)
	case q.WatchDuration != "" && q.Watch == "":
		l.b.errorf(attrs["watch_duration"].NameRange, "watch_duration without watch", "DURATION belongs to a WATCH rule.", `add watch = "SIMILAR"`)
	}
	return q
}

var switchGroupRe = regexp.MustCompile(`(?i)^switch_group\s*\(\s*([A-Za-z0-9_]+)\s*\)$`)

// goDuration parses a duration ("60s", "1m", "1h30m") and returns Go's
// canonical form ("1m0s"), which INFORMATION_SCHEMA prints
// (pingcap/tidb@v8.5.1:pkg/executor/infoschema_reader.go, setDataFromResourceGroups).
// With unlimited, "UNLIMITED" (any case) is accepted and kept.
func (l *loader) goDuration(a *hclsyntax.Attribute, v cty.Value, unlimited bool) string {
	if v.Type() == cty.String {
		s := strings.TrimSpace(v.AsString())
		if unlimited && strings.EqualFold(s, "UNLIMITED") {
			return "UNLIMITED"
		}
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			return d.String()
		}
	}
	l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid %s", a.Name),
		"Expected a positive duration such as \"60s\", \"10m\" or \"1h30m\" (units h, m, s, ms).",
		fmt.Sprintf("write %s = %q", a.Name, "60s"))
	return ""
}

// background decodes background { task_types, utilization_limit }; empty
// means BACKGROUND=NULL (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).
func (l *loader) background(blk *hclsyntax.Block) *state.Background {
	bg := &state.Background{}
	if len(blk.Body.Attributes) == 0 && len(blk.Body.Blocks) == 0 {
		bg.Empty = true
		return bg
	}
	for _, nb := range blk.Body.Blocks {
		l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in background", nb.Type), "background takes task_types and utilization_limit.", "")
	}
	for _, a := range sortedAttrs(blk.Body) {
		v, ok := l.eval(a.Expr)
		if !ok || !v.IsWhollyKnown() {
			continue
		}
		switch a.Name {
		case "task_types":
			ty := v.Type()
			if v.IsNull() || !(ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
				l.b.errorf(a.Expr.Range(), "task_types must be a list", `Write task_types = ["br", "ddl"].`, "")
				continue
			}
			bg.TaskTypes = []string{}
			for it := v.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				s, ok := keyword(ev, taskTypes...)
				if ev.IsNull() || !ok {
					l.b.errorf(a.Expr.Range(), "invalid task type",
						"Task types are "+strings.Join(taskTypes, ", ")+" (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).", `write task_types = ["br", "ddl"]`)
					bg.TaskTypes = nil
					break
				}
				bg.TaskTypes = append(bg.TaskTypes, strings.ToLower(s))
			}
		case "utilization_limit":
			n, ok := intValue(v)
			if v.IsNull() || !ok || n < 0 || n > 100 {
				l.b.errorf(a.Expr.Range(), "invalid utilization_limit",
					"UTILIZATION_LIMIT is a percentage of each TiKV node, a whole number from 0 to 100 (https://docs.pingcap.com/tidb/stable/tidb-resource-control-background-tasks).", "write utilization_limit = 30")
				continue
			}
			bg.UtilizationLimit = &n
		default:
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in background", a.Name),
				"background takes task_types and utilization_limit.", didYouMean(a.Name, backgroundAttrs, ""))
		}
	}
	return bg
}

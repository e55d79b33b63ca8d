package live

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/state"
)

// parseResourceGroup turns one INFORMATION_SCHEMA.RESOURCE_GROUPS row, given
// as column name (upper case) → cell, into a state.ResourceGroup. A missing
// column (older version: compare https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups
// with the /v7.5/ page) or a NULL cell leaves the field
// nil. Cells are the text TiDB renders; nil means SQL NULL.
func parseResourceGroup(row map[string]*string) (state.ResourceGroup, state.BurstSyntax, error) {
	var g state.ResourceGroup
	syntax := state.BurstSyntaxUnknown
	name := row["NAME"]
	if name == nil {
		return g, syntax, fmt.Errorf("row without NAME")
	}
	// An empty NAME is a group TiDB created as `` (it accepts the empty
	// identifier): kept, so that the read stays complete; the planner
	// reports it as unmanaged, since no declaration can name it.
	g.Name = *name
	if v := cell(row, "RU_PER_SEC"); v != "" {
		n, err := parseRU(v)
		if err != nil {
			return g, syntax, fmt.Errorf("resource group %s: RU_PER_SEC %q: %w", g.Name, v, err)
		}
		g.RUPerSec = &n
	}
	if v := cell(row, "PRIORITY"); v != "" {
		p := strings.ToUpper(v)
		switch p {
		case "LOW", "MEDIUM", "HIGH":
		default:
			return g, syntax, fmt.Errorf("resource group %s: unknown PRIORITY %q", g.Name, v)
		}
		g.Priority = &p
	}
	if v := cell(row, "BURSTABLE"); v != "" {
		b, syn, err := parseBurstable(v)
		if err != nil {
			return g, syntax, fmt.Errorf("resource group %s: %w", g.Name, err)
		}
		g.Burstable, syntax = &b, syn
	}
	if v := cell(row, "QUERY_LIMIT"); v != "" {
		ql, err := parseQueryLimit(v)
		if err != nil {
			return g, syntax, fmt.Errorf("resource group %s: QUERY_LIMIT %q: %w", g.Name, v, err)
		}
		g.QueryLimit = ql
	}
	if v := cell(row, "BACKGROUND"); v != "" {
		bg, err := parseBackground(v)
		if err != nil {
			return g, syntax, fmt.Errorf("resource group %s: BACKGROUND %q: %w", g.Name, v, err)
		}
		g.Background = bg
	}
	return g, syntax, nil
}

// cell returns the text of a column, "" for a missing column, SQL NULL, or the
// "<nil>" spelling TiDB's test kit prints for NULL.
func cell(row map[string]*string, col string) string {
	v, ok := row[col]
	if !ok || v == nil {
		return ""
	}
	s := strings.TrimSpace(*v)
	if s == "NULL" || s == "<nil>" {
		return ""
	}
	return s
}

// parseRU reads RU_PER_SEC: an integer or UNLIMITED (= math.MaxInt32:
// pingcap/tidb@v8.5.1:pkg/executor/infoschema_reader.go, setDataFromResourceGroups).
func parseRU(v string) (int64, error) {
	if strings.EqualFold(v, "UNLIMITED") {
		return state.UnlimitedRU, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not UNLIMITED or a non-negative integer")
	}
	return n, nil
}

// parseBurstable maps the YES/NO rendering (up to v8.5, and v9.0
// development builds without burst modes) and the modes onto the modes'
// vocabulary (https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group):
// YES = UNLIMITED, NO = OFF. The syntax says which vocabulary the cell was
// in, so that statements are written in the one this TiDB parses.
func parseBurstable(v string) (string, state.BurstSyntax, error) {
	switch strings.ToUpper(v) {
	case "YES":
		return state.BurstUnlimited, state.BurstSyntaxBool, nil
	case "NO":
		return state.BurstOff, state.BurstSyntaxBool, nil
	case state.BurstOff, state.BurstModerated, state.BurstUnlimited:
		return strings.ToUpper(v), state.BurstSyntaxModes, nil
	}
	return "", state.BurstSyntaxUnknown, fmt.Errorf("unknown BURSTABLE %q", v)
}

// splitItems splits a QUERY_LIMIT or BACKGROUND cell into its KEY=VALUE
// items: at each comma followed (after spaces) by one of keys and "=". TiDB
// joins the items with ", " and writes a SWITCH_GROUP target unquoted
// (pingcap/tidb@e4e814fdc0af:pkg/executor/infoschema_reader.go,
// setDataFromResourceGroups), so a group name may hold commas, quotes and
// parentheses: only a known key starts an item.
func splitItems(s string, keys ...string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ',' {
			continue
		}
		rest := strings.TrimLeft(s[i+1:], " ")
		for _, k := range keys {
			if len(rest) > len(k) && strings.EqualFold(rest[:len(k)], k) && rest[len(k)] == '=' {
				parts = append(parts, strings.TrimSpace(s[start:i]))
				start = i + 1
				break
			}
		}
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

// The item keys of QUERY_LIMIT and BACKGROUND.
var (
	queryLimitKeys = []string{"EXEC_ELAPSED", "PROCESSED_KEYS", "RU", "ACTION", "WATCH"}
	backgroundKeys = []string{"TASK_TYPES", "UTILIZATION_LIMIT"}
)

// unquote strips one pair of matching single or double quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// goDuration parses a duration as TiDB prints it (Go form, quoted or not) and
// returns Go's canonical rendering ("60s" → "1m0s").
func goDuration(s string) (string, error) {
	d, err := time.ParseDuration(unquote(strings.TrimSpace(s)))
	if err != nil {
		return "", fmt.Errorf("bad duration %q", s)
	}
	return d.String(), nil
}

// parseQueryLimit reads the QUERY_LIMIT column (pingcap/tidb@v8.5.1:pkg/executor/infoschema_reader.go,
// setDataFromResourceGroups). Accepted
// forms, all seen in real output (corpus resource_groups.tsv):
//
//	EXEC_ELAPSED='1s', ACTION=COOLDOWN, WATCH=EXACT DURATION='30s'   v7.4+
//	EXEC_ELAPSED=100ms, ACTION=KILL                                   v7.2–v8.5 docs
//	EXEC_ELAPSED=1s, ACTION=COOLDOWN, WATCH=EXACT[30s]                v7.2–v7.3
//	…, ACTION=SWITCH_GROUP(rg2), WATCH=SIMILAR DURATION=UNLIMITED
//	PROCESSED_KEYS=<n>, RU=<n>
func parseQueryLimit(v string) (*state.QueryLimit, error) {
	ql := &state.QueryLimit{}
	for _, part := range splitItems(v, queryLimitKeys...) {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("item %q is not KEY=VALUE", part)
		}
		key = strings.ToUpper(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		switch key {
		case "EXEC_ELAPSED":
			d, err := goDuration(val)
			if err != nil {
				return nil, fmt.Errorf("EXEC_ELAPSED: %w", err)
			}
			ql.ExecElapsed = d
		case "PROCESSED_KEYS", "RU":
			n, err := strconv.ParseInt(unquote(val), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is not an integer", key, val)
			}
			if key == "RU" {
				ql.RU = &n
			} else {
				ql.ProcessedKeys = &n
			}
		case "ACTION":
			a := strings.ToUpper(val)
			if strings.HasPrefix(a, "SWITCH_GROUP(") && strings.HasSuffix(a, ")") {
				ql.Action = "SWITCH_GROUP"
				// The name as TiDB wrote it: unquoted, spaces kept.
				ql.SwitchGroup = val[len("SWITCH_GROUP(") : len(val)-1]
				break
			}
			switch a {
			case "DRYRUN", "COOLDOWN", "KILL":
				ql.Action = a
			default:
				return nil, fmt.Errorf("unknown ACTION %q", val)
			}
		case "WATCH":
			if err := parseWatch(val, ql); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unknown item %s", key)
		}
	}
	return ql, nil
}

// parseWatch reads "EXACT DURATION='30s'", "SIMILAR DURATION=UNLIMITED",
// "PLAN" or the v7.2 form "EXACT[30s]".
func parseWatch(val string, ql *state.QueryLimit) error {
	kind, rest := val, ""
	if i := strings.IndexAny(val, " ["); i >= 0 {
		kind, rest = val[:i], strings.TrimSpace(val[i:])
	}
	kind = strings.ToUpper(kind)
	switch kind {
	case "EXACT", "SIMILAR", "PLAN":
	default:
		return fmt.Errorf("unknown WATCH %q", val)
	}
	ql.Watch = kind
	switch {
	case rest == "":
	case strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]"):
		d, err := goDuration(rest[1 : len(rest)-1])
		if err != nil {
			return fmt.Errorf("WATCH duration: %w", err)
		}
		ql.WatchDuration = d
	default:
		k, dv, ok := strings.Cut(rest, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "DURATION") {
			return fmt.Errorf("unknown WATCH option %q", rest)
		}
		dv = strings.TrimSpace(dv)
		if strings.EqualFold(unquote(dv), "UNLIMITED") {
			ql.WatchDuration = "UNLIMITED"
			break
		}
		d, err := goDuration(dv)
		if err != nil {
			return fmt.Errorf("WATCH DURATION: %w", err)
		}
		ql.WatchDuration = d
	}
	return nil
}

// parseBackground reads "TASK_TYPES='br,ddl'[, UTILIZATION_LIMIT=30]"
// (pingcap/tidb@v8.5.1:pkg/executor/infoschema_reader.go, setDataFromResourceGroups).
func parseBackground(v string) (*state.Background, error) {
	bg := &state.Background{}
	for _, part := range splitItems(v, backgroundKeys...) {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("item %q is not KEY=VALUE", part)
		}
		switch strings.ToUpper(strings.TrimSpace(key)) {
		case "TASK_TYPES":
			types := []string{}
			for _, t := range strings.Split(unquote(strings.TrimSpace(val)), ",") {
				if t = strings.TrimSpace(t); t != "" {
					types = append(types, strings.ToLower(t))
				}
			}
			bg.TaskTypes = types
		case "UTILIZATION_LIMIT":
			n, err := strconv.ParseInt(unquote(strings.TrimSpace(val)), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("UTILIZATION_LIMIT %q is not an integer", val)
			}
			bg.UtilizationLimit = &n
		default:
			return nil, fmt.Errorf("unknown item %s", key)
		}
	}
	return bg, nil
}

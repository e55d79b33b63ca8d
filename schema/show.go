package schema

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// WriteCluster prints the resolved desired state of one cluster, every
// setting with its value and the file:line it comes from. The output is
// deterministic (sorted) and never contains the DSN: only whether one is set.
// It is what `tiform validate --show NAME` prints.
func WriteCluster(w io.Writer, c *state.DesiredCluster) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "cluster %q%s\n", c.Name, at(c.Range))
	if c.DSN != "" {
		sb.WriteString("  dsn: (set, not shown)\n")
	} else {
		sb.WriteString("  dsn: (not known here: from the environment, --dsn or TIFORM_DSN at plan time)\n")
	}
	if len(c.Labels) > 0 {
		keys := make([]string, 0, len(c.Labels))
		for k := range c.Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%q", k, c.Labels[k])
		}
		fmt.Fprintf(&sb, "  labels: %s\n", strings.Join(parts, " "))
	}
	if c.TiUPCluster != "" {
		fmt.Fprintf(&sb, "  tiup_cluster: %s\n", c.TiUPCluster)
	}
	if p := c.Persisted; p != nil {
		attr := map[state.PersistTool]string{state.PersistTiUP: "tiup_topology", state.PersistOperator: "operator_manifests"}[p.Tool]
		fmt.Fprintf(&sb, "  %s: %s (%d config sections read)\n", attr, strings.Join(p.Files, ", "), len(p.Places))
	}
	policy := "report"
	if c.DropUnmanagedGroups {
		policy = "drop"
	}
	fmt.Fprintf(&sb, "  unmanaged_resource_groups: %s\n", policy)
	fmt.Fprintf(&sb, "  instance_variables: %s\n", map[bool]string{true: "allow", false: "deny"}[c.AllowInstanceVariables])
	if c.ReportUnmanaged {
		sb.WriteString("  unmanaged_settings: report\n")
	}

	if len(c.Config) > 0 {
		sb.WriteString("\n  config:\n")
		for _, s := range c.Config {
			addr := state.ConfigAddress(s.Component, s.Instance, s.Key)
			fmt.Fprintf(&sb, "    %s = %s%s\n", addr, valueText(s.Value), at(s.Range))
		}
	}
	if len(c.Variables) > 0 {
		sb.WriteString("\n  variables:\n")
		for _, v := range c.Variables {
			fmt.Fprintf(&sb, "    %s = %s%s\n", v.Name, valueText(v.Value), at(v.Range))
		}
	}
	if len(c.ResourceGroups) > 0 {
		sb.WriteString("\n  resource groups:\n")
		for _, g := range c.ResourceGroups {
			writeGroup(&sb, g)
		}
	}
	if len(c.Acknowledgements) > 0 {
		sb.WriteString("\n  acknowledgements:\n")
		for _, a := range c.Acknowledgements {
			fmt.Fprintf(&sb, "    %s (%s): %s%s\n", a.Code, untilText(a.Until), diag.Printable(a.Reason), at(a.Range))
		}
	}
	if len(c.Ignores) > 0 {
		sb.WriteString("\n  ignored drift:\n")
		for _, ig := range c.Ignores {
			fmt.Fprintf(&sb, "    %s (%s): %s%s\n", diag.Printable(string(ig.Pattern)), untilText(ig.Until), diag.Printable(ig.Reason), at(ig.Range))
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// untilText is "until 2027-03-31", or "no expiry" for a zero date.
func untilText(until time.Time) string {
	if until.IsZero() {
		return "no expiry"
	}
	return "until " + until.Format("2006-01-02")
}

func writeGroup(sb *strings.Builder, g state.ResourceGroup) {
	fmt.Fprintf(sb, "    %s%s\n", diag.Printable(g.Name), at(g.Range))
	for _, f := range GroupFields(g) {
		fmt.Fprintf(sb, "      %s = %s%s\n", f.Name, diag.Printable(f.Value), at(f.Range))
	}
}

// GroupField is one declared option of a resource group, rendered for
// people: Value is HCL-like ("2000", "\"HIGH\"", "{ exec_elapsed=1m0s action=KILL }").
type GroupField struct {
	Name  string
	Value string
	Range diag.SourceRange
}

// GroupFields lists the options a desired group declares, in a fixed order
// (ru_per_sec, priority, burstable, users, query_limit, background,
// prevent_destroy). Options left undeclared (nil) are omitted.
func GroupFields(g state.ResourceGroup) []GroupField {
	var out []GroupField
	field := func(name, value string) {
		out = append(out, GroupField{Name: name, Value: value, Range: g.FieldRanges[name]})
	}
	if g.RUPerSec != nil {
		if *g.RUPerSec == state.UnlimitedRU {
			field("ru_per_sec", `"UNLIMITED"`)
		} else {
			field("ru_per_sec", strconv.FormatInt(*g.RUPerSec, 10))
		}
	}
	if g.Priority != nil {
		field("priority", strconv.Quote(*g.Priority))
	}
	if g.BurstableBool != nil {
		field("burstable", strconv.FormatBool(*g.BurstableBool))
	}
	if g.Burstable != nil {
		field("burstable", strconv.Quote(*g.Burstable))
	}
	if g.Users != nil {
		field("users", describeUsers(g.Users))
	}
	if q := g.QueryLimit; q != nil {
		if q.Empty {
			field("query_limit", "{} (remove any limit)")
		} else {
			var parts []string
			add := func(k, v string) {
				if v != "" {
					parts = append(parts, k+"="+v)
				}
			}
			add("exec_elapsed", q.ExecElapsed)
			if q.ProcessedKeys != nil {
				add("processed_keys", strconv.FormatInt(*q.ProcessedKeys, 10))
			}
			if q.RU != nil {
				add("ru", strconv.FormatInt(*q.RU, 10))
			}
			add("action", q.Action)
			add("switch_group", q.SwitchGroup)
			add("watch", q.Watch)
			add("watch_duration", q.WatchDuration)
			field("query_limit", "{ "+strings.Join(parts, " ")+" }")
		}
	}
	if b := g.Background; b != nil {
		if b.Empty {
			field("background", "{} (remove)")
		} else {
			var parts []string
			if b.TaskTypes != nil {
				parts = append(parts, "task_types=["+strings.Join(b.TaskTypes, ", ")+"]")
			}
			if b.UtilizationLimit != nil {
				parts = append(parts, "utilization_limit="+strconv.FormatInt(*b.UtilizationLimit, 10))
			}
			field("background", "{ "+strings.Join(parts, " ")+" }")
		}
	}
	if g.PreventDestroy {
		field("prevent_destroy", "true")
	}
	return out
}

func valueText(v state.Value) string {
	if v.Sensitive {
		return v.Shown()
	}
	if v.Type == state.LiteralString {
		return strconv.Quote(v.Text)
	}
	return v.Text
}

// at is "  # file:line" for a source range, "" for none.
func at(r diag.SourceRange) string {
	if r.IsZero() {
		return ""
	}
	return "  # " + diag.Printable(r.FileLine())
}

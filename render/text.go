package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// TextOptions control the text view. The CLI decides Color (terminal,
// --no-color, NO_COLOR); the renderer never looks at the environment.
type TextOptions struct {
	// Color enables ANSI colours.
	Color bool
	// Verbose unfolds per-instance values, lists every statement, the
	// read-back checks, the rollback statements and the ordering edges.
	Verbose bool
}

// foldStatements is how many statements a change shows before folding (non-verbose).
const foldStatements = 4

// longValue is the length above which a before/after pair is shown as a diff.
const longValue = 48

const (
	ansiReset   = "\x1b[0m"
	ansiBold    = "\x1b[1m"
	ansiDim     = "\x1b[2m"
	ansiRed     = "\x1b[31m"
	ansiGreen   = "\x1b[32m"
	ansiYellow  = "\x1b[33m"
	ansiMagenta = "\x1b[35m"
	ansiCyan    = "\x1b[36m"
)

type textWriter struct {
	w   io.Writer
	o   TextOptions
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err != nil {
		return
	}
	_, t.err = fmt.Fprintf(t.w, format, args...)
}

func (t *textWriter) color(code, s string) string {
	if !t.o.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func actionColor(a plans.Action) string {
	switch a {
	case plans.Create:
		return ansiGreen
	case plans.Update:
		return ansiYellow
	case plans.Delete:
		return ansiRed
	case plans.Drift:
		return ansiMagenta
	}
	return ""
}

func severityColor(s diag.Severity) string {
	switch s {
	case diag.Error:
		return ansiRed
	case diag.Warning:
		return ansiYellow
	}
	return ansiCyan
}

// Text writes the plan in the familiar Terraform style: "+" create, "~"
// update, "-" delete, "!" drift, one block per change in apply order, with
// the statements that will run and where, then guard findings and a summary
// line per cluster. Output depends only on p and o.
func Text(w io.Writer, p *planner.Plan, o TextOptions) error {
	t := &textWriter{w: w, o: o}
	if p == nil {
		return fmt.Errorf("render: no plan")
	}
	p = printable(p.Shown()) // sensitive values never reach a view; control characters are escaped
	for i, cp := range p.Clusters {
		if i > 0 {
			t.printf("\n")
		}
		if cp.Failure != nil {
			t.failure(cp)
			continue
		}
		t.cluster(p, cp, len(p.Clusters) > 1)
	}
	if len(p.Clusters) == 0 {
		t.printf("No clusters are declared; nothing to plan.\n")
	}
	if len(p.Clusters) > 1 {
		t.fleetSummary(p)
	}
	return t.err
}

// failure shows a cluster that could not be read or planned.
func (t *textWriter) failure(cp *planner.ClusterPlan) {
	t.printf("%s %s\n", t.color(ansiBold, "Cluster "+quoteName(cp.Name)+":"), t.color(ansiRed+ansiBold, "not planned ("+string(cp.Failure.Status)+")"))
	for _, line := range strings.Split(strings.TrimRight(cp.Failure.Message, "\n"), "\n") {
		t.printf("  %s\n", line)
	}
}

// countsText is how every view words a plan's counts: "1 to create, 2 to
// change, 0 to delete".
func countsText(create, update, del int) string {
	return fmt.Sprintf("%d to create, %d to change, %d to delete", create, update, del)
}

// StatusDetail is the one-line account of a cluster's outcome that follows
// its status in every view's per-cluster summary.
func StatusDetail(cp *planner.ClusterPlan) string {
	if cp.Failure != nil {
		line, _, _ := strings.Cut(cp.Failure.Message, "\n")
		return line
	}
	counts := countsText(cp.Counts())
	switch cp.Status() {
	case planner.StatusError:
		var codes []string
		for _, f := range guard.Blocking(cp.Findings) {
			if !slices.Contains(codes, f.Code) {
				codes = append(codes, f.Code)
			}
		}
		return "error finding " + strings.Join(codes, ", ") + " (apply would refuse); " + counts
	case planner.StatusIncomplete:
		return plural(len(cp.Incomplete), "part", "parts") + " not read (partial plan); " + counts
	case planner.StatusChanges:
		return counts + ignoredCount(cp)
	}
	return "matches the configuration" + ignoredCount(cp)
}

// ignoredCount is ", 1 difference ignored" when ignore blocks accepted any.
func ignoredCount(cp *planner.ClusterPlan) string {
	if len(cp.Ignored) == 0 {
		return ""
	}
	return "; " + plural(len(cp.Ignored), "difference", "differences") + " ignored"
}

func topologyText(cp *planner.ClusterPlan) string {
	var parts []string
	for _, c := range state.Components {
		n := cp.Topology[c]
		if n == 0 {
			continue
		}
		s := fmt.Sprintf("%d %s", n, c)
		if v := cp.Versions[c]; v != "" {
			s += " " + v
		}
		for _, m := range cp.Mixed {
			if m == c {
				s += " (mixed versions)"
			}
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no instances reported"
	}
	return strings.Join(parts, ", ")
}

// Age renders how old a snapshot is at plan time, rounded to minutes.
func Age(created, taken time.Time) string {
	if created.IsZero() || taken.IsZero() {
		return ""
	}
	d := created.Sub(taken).Round(time.Minute)
	if d < 0 {
		return "taken after the plan time"
	}
	if d < time.Minute {
		return "less than a minute old"
	}
	h := int(d / time.Hour)
	m := int((d % time.Hour) / time.Minute)
	switch {
	case h >= 48:
		return fmt.Sprintf("%d days old", h/24)
	case h > 0:
		return fmt.Sprintf("%dh%02dm old", h, m)
	}
	return fmt.Sprintf("%dm old", m)
}

func (t *textWriter) cluster(p *planner.Plan, cp *planner.ClusterPlan, fleet bool) {
	t.printf("%s %s\n", t.color(ansiBold, "Cluster "+quoteName(cp.Name)+":"), topologyText(cp))
	if cp.Offline != nil {
		line := "Offline plan: live state from snapshot " + cp.Offline.Path
		if !cp.Offline.TakenAt.IsZero() {
			line += ", taken " + cp.Offline.TakenAt.UTC().Format(time.RFC3339)
		}
		if age := Age(p.CreatedAt, cp.Offline.TakenAt); age != "" {
			line += " (" + age + ")"
		}
		t.printf("%s\n", t.color(ansiYellow, line+"."))
	}
	if len(cp.Incomplete) > 0 {
		t.printf("\n%s\n", t.color(ansiYellow+ansiBold, "The live state is incomplete; this plan covers only what could be read:"))
		for _, r := range cp.Incomplete {
			t.printf("  - %s\n", r)
		}
	}
	if len(cp.Changes) > 0 {
		t.printf("\ntiform will run these changes, in this order:\n")
		for i, c := range cp.Changes {
			t.change(cp, i+1, c)
		}
	}
	t.ignored(cp)
	if len(cp.Unmanaged) > 0 {
		t.printf("\nUnmanaged resource groups (on the cluster, not in the configuration; kept):\n")
		for _, g := range cp.Unmanaged {
			t.printf("  - %s\n", g)
		}
		t.printf("  Declare them to manage them, or set unmanaged_resource_groups = \"drop\" to drop them.\n")
	}
	if len(cp.Notes) > 0 {
		t.printf("\nNotes:\n")
		for _, n := range cp.Notes {
			t.printf("  - %s\n", n)
		}
	}
	t.evidence(cp.Evidence)
	t.persisted(persistedJSON(cp))
	t.findings(cp)
	t.printf("\n")
	switch {
	case len(cp.Changes) == 0 && len(cp.Incomplete) > 0:
		t.printf("%s\n", t.color(ansiYellow+ansiBold, "No changes found in what could be read, but the live state is incomplete: this is not a clean plan."))
	case len(cp.Changes) == 0:
		t.printf("%s\n", t.color(ansiGreen+ansiBold, "No changes. The live cluster matches the configuration."))
	default:
		t.printf("%s\n", t.color(ansiBold, "Plan: "+countsText(cp.Counts())+"."))
	}
}

func quoteName(s string) string { return "\"" + s + "\"" }

// ignored lists the differences ignore blocks accepted: never planned,
// never silent.
func (t *textWriter) ignored(cp *planner.ClusterPlan) {
	if len(cp.Ignored) == 0 {
		return
	}
	t.printf("\nIgnored differences (accepted drift: not planned, not applied):\n")
	for _, ig := range cp.Ignored {
		v := ignoredOf(ig)
		t.printf("  %s %s: live %s, declared %s\n", string(rune(ig.Change.Action)), v.Address, liveText(v.Difference), declaredText(v.Difference))
		t.printf("      %s\n", t.color(ansiDim, ignoreText(v.Ignore)))
	}
}

func (t *textWriter) change(cp *planner.ClusterPlan, n int, c *plans.Change) {
	sym := string(rune(c.Action))
	head := fmt.Sprintf("%s %s", sym, c.Addr)
	t.printf("\n  %2d. %s", n, t.color(actionColor(c.Action)+ansiBold, head))
	if loc := c.Range.FileLine(); loc != "" {
		t.printf("  %s", t.color(ansiDim, "("+loc+")"))
	}
	t.printf("\n")
	ind := "        "
	switch c.Action {
	case plans.Create:
		t.printf("%s%s\n", ind, t.color(ansiGreen, "+ "+c.After))
	case plans.Delete:
		if len(c.Before) > 0 {
			t.printf("%s%s\n", ind, t.color(ansiRed, "- "+c.Before[0].Value))
		}
	default:
		t.values(ind, c, cp.Reach(c.Addr, c.Persistence))
	}
	t.statements(ind, c)
	var flags []string
	if c.Persistence != "" {
		p := persistenceText(c.Persistence)
		if at := cp.Reach(c.Addr, c.Persistence); c.Persistence == plans.PersistInstanceOnly && at != "" {
			// Name the one TiDB the change reaches.
			p = "connected TiDB instance only (" + at + "); lost on its restart"
		}
		flags = append(flags, "persists: "+p)
	}
	if c.RestartRequired {
		flags = append(flags, t.color(ansiRed, "takes effect only after a restart"))
	}
	if len(flags) > 0 {
		t.printf("%s%s\n", ind, t.color(ansiDim, strings.Join(flags, "; ")))
	}
	if c.Reason != "" {
		t.printf("%s%s\n", ind, t.color(ansiDim, "why: "+c.Reason))
	}
	if len(c.Findings) > 0 {
		t.printf("%sguards: %s\n", ind, strings.Join(c.Findings, ", "))
	}
	if t.o.Verbose {
		for _, v := range c.Verify {
			where := "every " + string(v.Addr.Component) + " instance"
			if v.Addr.Instance != "" {
				where = v.Addr.Instance
			}
			if v.Addr.Kind != state.KindConfig {
				where = "the cluster"
			}
			t.printf("%s%s\n", ind, t.color(ansiDim, fmt.Sprintf("verify: %s = %s on %s", v.Addr.Name(), planner.CheckText(v), where)))
		}
		for _, r := range c.Rollback {
			t.printf("%s%s\n", ind, t.color(ansiDim, "rollback: "+r.SQL+";"))
		}
		if len(c.Rollback) == 0 {
			t.printf("%s%s\n", ind, t.color(ansiDim, "rollback: none (the previous value was not reported)"))
		}
	}
}

func persistenceText(p plans.Persistence) string {
	switch p {
	case plans.PersistTiKVFile:
		return "TiKV config file (tiup reload overwrites it unless edit-config is updated too)"
	case plans.PersistPDEtcd:
		return "PD etcd (survives restarts; the PD config file no longer applies)"
	case plans.PersistTiFlashProxy:
		return "TiFlash proxy config"
	case plans.PersistCluster:
		return "cluster-wide variable"
	case plans.PersistInstanceOnly:
		return "connected TiDB instance only; lost on its restart"
	case plans.PersistMetadata:
		return "cluster metadata"
	case plans.PersistDeployment:
		return "nowhere online: restart-only, TiKV refuses SET CONFIG for it; set it in the deployment (TiUP edit-config + reload, or the TidbCluster spec)"
	}
	return string(p)
}

// valueGroup is a Before value and the instances that report it.
type valueGroup struct {
	value     string
	instances []string
}

func groupBefore(vs []plans.InstanceValue) []valueGroup {
	var out []valueGroup
	idx := map[string]int{}
	for _, v := range vs {
		i, ok := idx[v.Value]
		if !ok {
			i = len(out)
			idx[v.Value] = i
			out = append(out, valueGroup{value: v.Value})
		}
		if v.Instance != "" {
			out[i].instances = append(out[i].instances, v.Instance)
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// values prints before → after; reach is the one instance the change
// reaches ("" for every instance or the cluster).
func (t *textWriter) values(ind string, c *plans.Change, reach string) {
	groups := groupBefore(c.Before)
	if len(groups) == 1 && (len(groups[0].instances) <= 1 || !t.o.Verbose) {
		g := groups[0]
		suffix := ""
		if len(g.instances) == 1 && reach == "" {
			suffix = " on " + g.instances[0]
		} else if len(g.instances) > 1 {
			suffix = " on " + plural(len(g.instances), "instance", "instances")
		}
		t.pair(ind, g.value, c.After, suffix)
		return
	}
	if !t.o.Verbose {
		for _, g := range groups {
			t.pair(ind, g.value, c.After, " on "+plural(len(g.instances), "instance", "instances"))
		}
		return
	}
	for _, v := range c.Before {
		t.pair(ind, v.Value, c.After, " on "+v.Instance)
	}
}

// pair prints "before -> after", or a diff when the values are long.
func (t *textWriter) pair(ind, before, after, suffix string) {
	if len(before) <= longValue && len(after) <= longValue {
		t.printf("%s%s %s %s%s\n", ind, t.color(ansiRed, before), "->", t.color(ansiGreen, after), suffix)
		return
	}
	t.printf("%s%s%s\n", ind, t.color(ansiRed, "- "+before), suffix)
	t.printf("%s%s\n", ind, t.color(ansiGreen, "+ "+after))
	t.printf("%s  diff: %s\n", ind, inlineDiff(before, after, t.o.Color))
}

func (t *textWriter) statements(ind string, c *plans.Change) {
	sts := c.Statements
	hidden := 0
	if !t.o.Verbose && len(sts) > foldStatements {
		hidden = len(sts) - (foldStatements - 1)
		sts = sts[:foldStatements-1]
	}
	for _, s := range sts {
		t.printf("%s%s\n", ind, t.color(ansiCyan, s.SQL+";"))
	}
	if hidden > 0 {
		t.printf("%s%s\n", ind, t.color(ansiDim, fmt.Sprintf("... and %s (--verbose lists them)", plural(hidden, "more statement", "more statements"))))
	}
}

// findings lists guard findings, highest severity first (the guard package's
// order), in the same layout as `tiform check` (guard.Header, guard.Body).
// Without Verbose, info findings that share a code and summary are folded
// into one entry naming every change, and their details are left out
// (warnings and errors always show everything).
func (t *textWriter) findings(cp *planner.ClusterPlan) {
	if len(cp.Findings) == 0 {
		return
	}
	t.printf("\nGuard findings:\n")
	folded := 0
	seen := map[string]bool{}
	for i, f := range cp.Findings {
		fold := !t.o.Verbose && f.Severity == diag.Info
		if fold {
			k := f.Code + "\x00" + f.Summary
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		t.printf("\n  %s\n", t.color(severityColor(f.Severity)+ansiBold, guard.Header(f)))
		if !fold {
			for _, l := range strings.SplitAfter(guard.Body(f), "\n") {
				if l != "" {
					t.printf("  %s", l)
				}
			}
			continue
		}
		for _, g := range cp.Findings[i:] {
			if g.Severity == f.Severity && g.Code == f.Code && g.Summary == f.Summary {
				if w := findingWhere(g); w != "" {
					t.printf("    --> %s\n", w)
				}
				if g.Detail != "" {
					folded++
				}
			}
		}
		if f.Link != "" {
			t.printf("    see %s\n", f.Link)
		}
	}
	if folded > 0 {
		t.printf("\n  %s\n", t.color(ansiDim, fmt.Sprintf("(%s of info findings folded; --verbose shows them)", plural(folded, "detail", "details"))))
	}
}

// findingWhere is the "-->" line of a folded finding, as guard.Body writes it.
func findingWhere(f guard.Finding) string {
	loc := f.Location()
	switch {
	case loc != "" && f.Address != "":
		return loc + " (" + f.Address + ")"
	case loc != "":
		return loc
	}
	return f.Address
}

func (t *textWriter) fleetSummary(p *planner.Plan) {
	create, update, del, changed := p.Counts()
	t.printf("\n%s\n", t.color(ansiBold, fmt.Sprintf("Fleet: %s, %d with changes. Total: %s.",
		plural(len(p.Clusters), "cluster", "clusters"), changed, countsText(create, update, del))))
	t.statusLines(PlanLines(p))
}

// HighestSeverity returns the highest unacknowledged severity in the plan and
// whether there is any finding at all.
func HighestSeverity(p *planner.Plan) (diag.Severity, bool) {
	var top diag.Severity
	found := false
	for _, cp := range p.Clusters {
		for _, f := range cp.Findings {
			if f.Acknowledged {
				continue
			}
			if !found || f.Severity > top {
				top, found = f.Severity, true
			}
		}
	}
	return top, found
}

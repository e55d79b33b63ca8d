package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
)

// Markdown writes the plan as a pull-request comment (GitHub-flavoured
// Markdown): a summary line with the counts and the highest guard severity, a
// table of changes per cluster in apply order, the guard findings with links,
// and the statements and long values folded in <details>. It never writes
// ANSI escapes.
func Markdown(w io.Writer, p *planner.Plan) error {
	if p == nil {
		return fmt.Errorf("render: no plan")
	}
	p = printable(p.Shown()) // sensitive values never reach a view; control characters are escaped
	m := &textWriter{w: w}
	var create, update, del int
	for _, cp := range p.Clusters {
		c, u, d := cp.Counts()
		create, update, del = create+c, update+u, del+d
	}
	sev := "none"
	if s, ok := HighestSeverity(p); ok {
		sev = s.String()
	}
	m.printf("%s\n", Marker(p))
	m.printf("## tiform plan\n\n")
	switch {
	case p.Failed():
		m.printf("**Not every cluster could be planned** (see the table). Highest guard severity: **%s**.\n", sev)
	case !p.HasChanges() && p.Incomplete():
		m.printf("**No changes found, but the live state is incomplete: this is not a clean plan.** Highest guard severity: **%s**.\n", sev)
	case !p.HasChanges():
		m.printf("**No changes.** The live clusters match the configuration. Highest guard severity: **%s**.\n", sev)
	default:
		m.printf("**Plan: %d to create, %d to change, %d to delete** across %s. Highest guard severity: **%s**.",
			create, update, del, plural(len(p.Clusters), "cluster", "clusters"), sev)
		if p.Incomplete() {
			// A reviewer reads the first line: a partial plan says so there.
			m.printf(" **Partial plan: part of the live state could not be read (listed below).**")
		}
		m.printf("\n")
	}
	if len(p.Clusters) > 1 || p.Failed() {
		m.printf("\n")
		markdownStatusTable(m, PlanLines(p))
	}
	for _, cp := range p.Clusters {
		if cp.Failure != nil {
			m.printf("\n### Cluster `%s`: not planned (%s)\n\n```\n%s\n```\n", cp.Name, cp.Failure.Status, strings.TrimRight(strings.ReplaceAll(cp.Failure.Message, "```", "'''"), "\n"))
			continue
		}
		markdownCluster(m, p, cp)
	}
	return m.err
}

// Marker is the hidden first line of the Markdown view, which a CI workflow
// looks for to update its previous comment instead of adding one: the same
// clusters give the same marker.
func Marker(p *planner.Plan) string {
	names := make([]string, len(p.Clusters))
	for i, cp := range p.Clusters {
		names[i] = cp.Name
	}
	sort.Strings(names)
	return "<!-- tiform:plan cluster=" + strings.Join(names, ",") + " -->"
}

// mdCell makes text safe inside a GFM table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "\\|")
	return s
}

// mdCode renders s as an inline code span, safe in a table cell.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, "\n", " ")
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || fence != "`" {
		pad = " "
	}
	return mdCell(fence + pad + s + pad + fence)
}

// mdText escapes Markdown punctuation in free text (summaries, reasons).
func mdText(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", ">", "&gt;", "[", "\\[", "]", "\\]", "|", "\\|")
	return r.Replace(strings.ReplaceAll(s, "\n", " "))
}

func markdownCluster(m *textWriter, p *planner.Plan, cp *planner.ClusterPlan) {
	markdownClusterHeader(m, p, cp)
	m.printf("\n")
	switch {
	case len(cp.Changes) == 0 && len(cp.Incomplete) > 0:
		m.printf("No changes found in what could be read.\n")
	case len(cp.Changes) == 0:
		m.printf("No changes. The live cluster matches the configuration.\n")
	default:
		markdownChanges(m, cp)
	}
	if len(cp.Ignored) > 0 {
		m.printf("\nIgnored differences (accepted drift: not planned, not applied):\n\n")
		for _, ig := range cp.Ignored {
			v := ignoredOf(ig)
			m.printf("- %s: live %s, declared %s; %s\n", mdCode(v.Address), mdCode(liveText(v.Difference)), mdCode(declaredText(v.Difference)), mdText(ignoreText(v.Ignore)))
		}
	}
	if len(cp.Unmanaged) > 0 {
		var names []string
		for _, g := range cp.Unmanaged {
			names = append(names, mdCode(g))
		}
		m.printf("\nUnmanaged resource groups (kept): %s. Declare them, or set `unmanaged_resource_groups = \"drop\"` to drop them.\n", strings.Join(names, ", "))
	}
	if len(cp.Notes) > 0 {
		m.printf("\nNotes:\n\n")
		for _, n := range cp.Notes {
			m.printf("- %s\n", mdText(n))
		}
	}
	markdownEvidence(m, cp.Evidence)
	if len(cp.Findings) > 0 {
		markdownFindings(m, cp.Findings)
	}
}

// markdownClusterHeader is the cluster's title, topology, and what limits
// the plan: an offline snapshot and its age, a partial read.
func markdownClusterHeader(m *textWriter, p *planner.Plan, cp *planner.ClusterPlan) {
	m.printf("\n### Cluster `%s`\n\n", cp.Name)
	m.printf("%s\n", mdText(topologyText(cp)))
	if cp.Offline != nil {
		line := "Offline plan: live state from snapshot " + mdCode(cp.Offline.Path)
		if age := Age(p.CreatedAt, cp.Offline.TakenAt); age != "" {
			line += " (" + age + ")"
		}
		m.printf("\n> %s.\n", line)
	}
	if len(cp.Incomplete) > 0 {
		m.printf("\n> **The live state is incomplete**; this plan covers only what could be read:\n")
		for _, r := range cp.Incomplete {
			m.printf("> - %s\n", mdText(r))
		}
	}
}

// markdownChanges is the changes' part of a cluster: the summary line with
// the plan hash, the table, then details (statements, long values, order).
func markdownChanges(m *textWriter, cp *planner.ClusterPlan) {
	create, update, del := cp.Counts()
	// The hash ties this comment to the apply: the audit log records it,
	// and `apply --plan-hash` refuses any other plan.
	m.printf("Plan: %d to create, %d to change, %d to delete. Plan hash `%s`.\n\n", create, update, del, cp.Hash())
	m.printf("| # | | Address | Before | After | Applied as | Source | Guards |\n")
	m.printf("|---:|:---:|---|---|---|---|---|---|\n")
	for i, c := range cp.Changes {
		m.printf("%s\n", markdownChangeRow(cp, i+1, c))
	}
	m.printf("\n<details><summary>Statements, in order (%s)</summary>\n\n", plural(countStatements(cp), "statement", "statements"))
	m.printf("```sql\n")
	for i, c := range cp.Changes {
		m.printf("-- %d. %s %s\n", i+1, string(rune(c.Action)), c.Addr)
		for _, s := range c.Statements {
			m.printf("%s;\n", s.SQL)
		}
	}
	m.printf("```\n\n</details>\n")
	markdownLongValues(m, cp.Changes)
	m.printf("\n<details><summary>Why this order</summary>\n\n")
	for i, c := range cp.Changes {
		m.printf("%d. %s: %s\n", i+1, mdCode(c.Addr.String()), mdText(c.Reason))
	}
	m.printf("\n</details>\n")
}

// markdownChangeRow is one table row: the before values grouped by value,
// the after value clipped, how it is applied, the HCL source and guards.
func markdownChangeRow(cp *planner.ClusterPlan, n int, c *plans.Change) string {
	before := ""
	switch {
	case c.Action == plans.Create:
	case len(c.Before) == 1:
		before = mdCode(clip(c.Before[0].Value))
	default:
		var parts []string
		for _, g := range groupBefore(c.Before) {
			parts = append(parts, mdCode(clip(g.value))+" on "+plural(len(g.instances), "instance", "instances"))
		}
		before = strings.Join(parts, "<br>")
	}
	applied := string(c.Persistence)
	if at := cp.Reach(c.Addr, c.Persistence); c.Persistence == plans.PersistInstanceOnly && at != "" {
		applied += " (" + mdCode(at) + ")"
	}
	if c.RestartRequired {
		applied += ", **restart needed**"
	}
	var guards []string
	for _, f := range c.Findings {
		guards = append(guards, mdCode(f))
	}
	return fmt.Sprintf("| %d | `%s` | %s | %s | %s | %s | %s | %s |", n, string(rune(c.Action)), mdCode(c.Addr.String()), before,
		mdCode(clip(c.After)), applied, mdCode(c.Range.FileLine()), strings.Join(guards, " "))
}

// markdownLongValues shows in full every value the table clipped (creates
// and deletes included), and long updates as a diff.
func markdownLongValues(m *textWriter, changes []*plans.Change) {
	var long []*plans.Change
	for _, c := range changes {
		limit := mdCellMax
		if c.Action == plans.Update || c.Action == plans.Drift {
			limit = longValue
		}
		show := len([]rune(c.After)) > limit
		for _, b := range c.Before {
			show = show || len([]rune(b.Value)) > limit
		}
		if show {
			long = append(long, c)
		}
	}
	if len(long) == 0 {
		return
	}
	m.printf("\n<details><summary>Long values (%d)</summary>\n\n", len(long))
	for _, c := range long {
		m.printf("%s\n\n```diff\n", mdCode(c.Addr.String()))
		gs := groupBefore(c.Before)
		if c.Action != plans.Create {
			for _, g := range gs {
				m.printf("- %s\n", g.value)
			}
		}
		if c.Action != plans.Delete {
			m.printf("+ %s\n", c.After)
		}
		m.printf("```\n\n")
		if len(gs) == 1 && (c.Action == plans.Update || c.Action == plans.Drift) {
			m.printf("Word diff: %s\n\n", mdCode(inlineDiff(gs[0].value, c.After, false)))
		}
	}
	m.printf("</details>\n")
}

// markdownFindings lists the guard findings, then their details. As in the
// text view, info findings sharing a code and summary are one bullet naming
// every place they concern.
func markdownFindings(m *textWriter, fs []guard.Finding) {
	m.printf("\n#### Guard findings\n\n")
	seen := map[string]bool{}
	for i, f := range fs {
		group := []guard.Finding{f}
		if f.Severity == diag.Info {
			k := f.Code + "\x00" + f.Summary
			if seen[k] {
				continue
			}
			seen[k] = true
			group = nil
			for _, g := range fs[i:] {
				if g.Severity == f.Severity && g.Code == f.Code && g.Summary == f.Summary {
					group = append(group, g)
				}
			}
		}
		m.printf("%s\n", markdownFindingLine(f, group))
	}
	details := 0
	for _, f := range fs {
		if f.Detail != "" {
			details++
		}
	}
	if details == 0 {
		return
	}
	m.printf("\n<details><summary>Finding details (%d)</summary>\n\n", details)
	for _, f := range fs {
		if f.Detail == "" {
			continue
		}
		m.printf("**%s** %s\n\n", f.Code, mdText(f.Summary))
		m.printf("```text\n%s\n```\n\n", strings.TrimRight(strings.ReplaceAll(f.Detail, "```", "'''"), "\n"))
	}
	m.printf("</details>\n")
}

// markdownFindingLine is one finding's bullet: severity, code, summary, the
// acknowledgement, every place of its group (address and HCL location) and
// its link.
func markdownFindingLine(f guard.Finding, group []guard.Finding) string {
	line := fmt.Sprintf("- **%s** %s: %s", f.Severity, mdCode(f.Code), mdText(f.Summary))
	if f.Acknowledged {
		line += " _(acknowledged: " + mdText(f.AckReason) + ")_"
	}
	var places []string
	for _, g := range group {
		var at []string
		if g.Address != "" {
			at = append(at, mdCode(g.Address))
		}
		if loc := g.Range.FileLine(); loc != "" {
			at = append(at, "at "+mdCode(loc))
		}
		if len(at) > 0 {
			places = append(places, strings.Join(at, " "))
		}
	}
	if len(places) > 0 {
		line += " (" + strings.Join(places, "; ") + ")"
	}
	if f.Link != "" {
		line += " [" + f.Code + "](" + f.Link + ")"
	}
	return line
}

// mdCellMax is the longest value shown whole in a table cell.
const mdCellMax = 80

// clip shortens a value for a table cell, at an option boundary (", ") when
// there is one, so that no option is shown cut in half; the full value is in
// the "Long values" details.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= mdCellMax {
		return s
	}
	head := string(r[:mdCellMax-3])
	if i := strings.LastIndex(head, ", "); i > 0 {
		return head[:i] + ", ..."
	}
	return head + "..."
}

func countStatements(cp *planner.ClusterPlan) int {
	n := 0
	for _, c := range cp.Changes {
		n += len(c.Statements)
	}
	return n
}

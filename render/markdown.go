package render

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
)

// Markdown writes the plan as a pull-request comment (GitHub-flavoured
// Markdown) sized for review: the hidden marker, one headline with the
// counts, a line per cluster when there are several, and a section only for
// the clusters a reviewer must read (changes, failures, partial reads,
// ignored differences, warnings and errors). In a section: the changes table
// with every value in full (long values wrap at option boundaries, never
// cut), the plan hash, the SQL folded, the guard findings grouped by code
// with every address they concern listed once, each distinct detail once,
// and the acknowledged findings on one line. Every count it prints counts
// what it lists. It never writes ANSI escapes.
func Markdown(w io.Writer, p *planner.Plan) error {
	if p == nil {
		return fmt.Errorf("render: no plan")
	}
	p = printable(p.Shown()) // sensitive values never reach a view; control characters are escaped
	m := &textWriter{w: w}
	fleet := len(p.Clusters) > 1
	shown := reviewed(p)
	m.printf("%s\n## tiform plan\n%s\n", Marker(p), markdownHeadline(p, shown))
	if fleet && !allInSync(p) {
		m.printf("\n")
		markdownStatusTable(m, PlanLines(p))
	}
	if fleet {
		markdownUnchangedFindings(m, p)
	}
	for _, cp := range shown {
		markdownCluster(m, p, cp, fleet)
	}
	return m.err
}

// markdownUnchangedFindings lists, once for the fleet, the warnings and
// errors about clusters the plan does not change: one bullet per code
// naming every cluster and address, no details (the text plan has them).
// An unchanged fleet's comment is then a few lines whatever its size.
func markdownUnchangedFindings(m *textWriter, p *planner.Plan) {
	var fs []placedFinding
	for _, cp := range p.Clusters {
		if cp.Failure == nil && len(cp.Changes) == 0 {
			for _, f := range shownFindings(cp) {
				fs = append(fs, placedFinding{cluster: cp.Name, Finding: f})
			}
		}
	}
	groups := groupFindings(fs)
	if len(groups) == 0 {
		return
	}
	if !allInSync(p) {
		m.printf("\nGuard findings on the unchanged clusters (%s):\n\n", groupCounts(groups))
	}
	markdownFindingLines(m, groups)
}

// reviewed are the clusters that get a section: those with something to
// review (a failure, changes, a partial read, ignored differences; alone, its
// warnings, errors and unmanaged groups too). A fleet's unchanged clusters'
// findings are listed once for the fleet (markdownUnchangedFindings).
func reviewed(p *planner.Plan) []*planner.ClusterPlan {
	var out []*planner.ClusterPlan
	alone := len(p.Clusters) == 1
	for _, cp := range p.Clusters {
		if cp.Failure != nil || len(cp.Changes) > 0 || len(cp.Incomplete) > 0 || len(cp.Ignored) > 0 ||
			alone && (len(cp.Unmanaged) > 0 || len(shownFindings(cp)) > 0) {
			out = append(out, cp)
		}
	}
	return out
}

// shownFindings are the findings a cluster's section lists: all of them
// when it has changes, else only the warnings, errors and acknowledged
// ones; info findings about an unchanged cluster are in the text plan.
func shownFindings(cp *planner.ClusterPlan) []guard.Finding {
	if len(cp.Changes) > 0 {
		return cp.Findings
	}
	var out []guard.Finding
	for _, f := range cp.Findings {
		if f.Severity >= diag.Warning || f.Acknowledged {
			out = append(out, f)
		}
	}
	return out
}

func allInSync(p *planner.Plan) bool {
	for _, cp := range p.Clusters {
		if cp.Status() != planner.StatusInSync {
			return false
		}
	}
	return true
}

// markdownHeadline is the comment's one summary line: what the plan does,
// on how many clusters, and the findings the sections list, counted as they
// are listed (one bullet per code and severity).
func markdownHeadline(p *planner.Plan, shown []*planner.ClusterPlan) string {
	create, update, del, changed := p.Counts()
	var head string
	switch {
	case p.Failed():
		head = fmt.Sprintf("**Not every cluster could be planned** (%s, below).", failedText(p))
	case !p.HasChanges() && p.Incomplete():
		head = "**No changes found, but the live state is incomplete: this is not a clean plan.**"
	case !p.HasChanges() && len(p.Clusters) == 1:
		head = "**No changes.** The live cluster matches the configuration."
	case !p.HasChanges():
		var names []string
		for _, cp := range p.Clusters {
			names = append(names, mdCode(cp.Name))
		}
		head = fmt.Sprintf("**No changes.** The %d clusters match the configuration: %s.", len(p.Clusters), strings.Join(names, ", "))
	default:
		head = "**Plan: " + countsText(create, update, del) + "**"
		if len(p.Clusters) > 1 {
			head += fmt.Sprintf(" on %d of %d clusters", changed, len(p.Clusters))
		}
		head += "."
		if p.Incomplete() {
			// A reviewer reads the first line: a partial plan says so there.
			head += " **Partial plan: part of the live state could not be read (listed below).**"
		}
	}
	var groups []findingGroup
	ignored := 0
	for _, cp := range shown {
		groups = append(groups, groupFindings(placed("", shownFindings(cp)))...)
		ignored += len(cp.Ignored)
	}
	if len(p.Clusters) > 1 {
		var fs []placedFinding
		for _, cp := range p.Clusters {
			if cp.Failure == nil && len(cp.Changes) == 0 {
				fs = append(fs, placed(cp.Name, shownFindings(cp))...)
			}
		}
		groups = append(groups, groupFindings(fs)...)
	}
	if s := groupCounts(groups); s != "" {
		head += " Guard findings: " + s + "."
	}
	if ignored > 0 {
		head += " " + plural(ignored, "difference", "differences") + " ignored (accepted drift)."
	}
	return head
}

// failedText names the clusters that could not be planned: "`sapporo` unreachable".
func failedText(p *planner.Plan) string {
	var out []string
	for _, cp := range p.Clusters {
		if cp.Failure != nil {
			out = append(out, mdCode(cp.Name)+" "+string(cp.Failure.Status))
		}
	}
	return strings.Join(out, ", ")
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

// mdText escapes Markdown punctuation in free text (summaries, reasons),
// and keeps it inert: free text quotes the cluster (a table name, a value, a
// version), which must not ping a person, reference an issue or become a
// link in a review. A bare URL is shown as a code span (copyable, never a
// link); mentions and references get a zero-width space (mdInert).
func mdText(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	var b strings.Builder
	for {
		loc := bareURLRE.FindStringIndex(s)
		if loc == nil {
			b.WriteString(mdEscape(s))
			return b.String()
		}
		b.WriteString(mdEscape(s[:loc[0]]))
		b.WriteString(mdCode(s[loc[0]:loc[1]]))
		s = s[loc[1]:]
	}
}

// mdLink is a link to url titled text; a url that is not a plain https
// address (tiform's own links always are) is shown as code instead, never
// linked.
func mdLink(text, url string) string {
	if !strings.HasPrefix(url, "https://") || strings.ContainsAny(url, " \t\n()<>[]`\"'") {
		return mdText(text) + " (" + mdCode(url) + ")"
	}
	return "[" + mdText(text) + "](" + url + ")"
}

// mdEscape is mdText of text without a URL.
func mdEscape(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", ">", "&gt;", "[", "\\[", "]", "\\]", "|", "\\|")
	return mdInert(r.Replace(s))
}

// bareURLRE is what GFM's autolink extension would link without brackets
// (https://github.github.com/gfm/#autolinks-extension-), up to the
// punctuation that ends a sentence.
var bareURLRE = regexp.MustCompile(`(?i)\b(?:(?:https?|ftp)://|www\.)[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'"*_~]`)

// zwsp is a zero-width space as a character reference: it renders as
// nothing, and it splits the text a forge scans for mentions and
// references, so that what is shown is what was written.
const zwsp = "&#8203;"

var (
	// mentionRE: "@name" (a GitHub or GitLab mention; also the '@' of an
	// e-mail address, which would become a mailto link).
	mentionRE = regexp.MustCompile(`@([A-Za-z0-9])`)
	// ghRE: "GH-123", GitHub's other spelling of an issue reference.
	ghRE = regexp.MustCompile(`\b(GH-)([0-9])`)
	// schemeRE: a scheme the URL rule did not take whole (mailto:, a
	// scheme followed by nothing linkable).
	schemeRE = regexp.MustCompile(`(?i)\b(https?|ftp|mailto)(:)`)
)

// inertReferences inserts zwsp into "#123", "owner/repo#123" and "!123" (a
// GitLab merge request), but not into the '#' of a character reference
// ("&#8203;", "&#64;").
func inertReferences(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if (s[i] == '#' || s[i] == '!') && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && (i == 0 || s[i-1] != '&') {
			b.WriteString(zwsp)
		}
	}
	return b.String()
}

// mdInert returns s with a zero-width space inserted where a forge would
// see a mention, an issue or merge-request reference, or a link; the text
// reads the same. Inside code spans and fenced blocks nothing is linked, so
// mdCode needs none of it.
func mdInert(s string) string {
	s = mentionRE.ReplaceAllString(s, "@"+zwsp+"$1")
	s = inertReferences(s)
	s = ghRE.ReplaceAllString(s, "$1"+zwsp+"$2")
	return schemeRE.ReplaceAllString(s, "$1"+zwsp+"$2")
}

func markdownCluster(m *textWriter, p *planner.Plan, cp *planner.ClusterPlan, fleet bool) {
	if cp.Failure != nil {
		m.printf("\n### `%s`: not planned (%s)\n\n```\n%s\n```\n", cp.Name, cp.Failure.Status, strings.TrimRight(strings.ReplaceAll(cp.Failure.Message, "```", "'''"), "\n"))
		return
	}
	markdownClusterHeader(m, p, cp, fleet)
	if len(cp.Changes) > 0 {
		markdownChanges(m, cp)
	}
	if len(cp.Ignored) > 0 {
		m.printf("\nIgnored (accepted drift: not planned, not applied):\n\n")
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
	if len(cp.Notes) > 0 && len(cp.Changes) > 0 {
		m.printf("\nNotes:\n\n")
		for _, n := range cp.Notes {
			m.printf("- %s\n", mdText(n))
		}
	}
	markdownEvidence(m, cp.Evidence)
	markdownFindings(m, placed("", shownFindings(cp)))
}

// markdownClusterHeader is the cluster's title (in a fleet) or name (alone)
// with its topology, its counts and plan hash, and what limits the plan: an
// offline snapshot and its age, a partial read.
func markdownClusterHeader(m *textWriter, p *planner.Plan, cp *planner.ClusterPlan, fleet bool) {
	line := "Cluster " + mdCode(cp.Name) + ": " + mdText(topologyText(cp))
	if fleet {
		m.printf("\n### `%s`\n", cp.Name)
		line = mdText(topologyText(cp))
	}
	if len(cp.Changes) > 0 {
		// The hash ties this comment to the apply: the audit log records it,
		// and `apply --plan-hash` refuses any other plan.
		if fleet {
			line += ". " + countsText(cp.Counts())
		}
		line += fmt.Sprintf(". Plan hash `%s`", cp.Hash())
	}
	m.printf("\n%s.\n", line)
	if cp.Offline != nil {
		off := "Offline plan: live state from snapshot " + mdCode(cp.Offline.Path)
		if age := Age(p.CreatedAt, cp.Offline.TakenAt); age != "" {
			off += " (" + age + ")"
		}
		m.printf("\n> %s.\n", off)
	}
	if len(cp.Incomplete) > 0 {
		m.printf("\n> **The live state is incomplete**; this plan covers only what could be read:\n")
		for _, r := range cp.Incomplete {
			m.printf("> - %s\n", mdText(r))
		}
	}
}

// markdownChanges is the changes' table, in apply order, then the SQL and,
// when there are several changes, why they are in this order, folded.
func markdownChanges(m *textWriter, cp *planner.ClusterPlan) {
	m.printf("\n| # | | Address | Before | After | Applied as | Source | Guards |\n")
	m.printf("|---:|:---:|---|---|---|---|---|---|\n")
	for i, c := range cp.Changes {
		m.printf("%s\n", markdownChangeRow(cp, i+1, c))
	}
	m.printf("\n<details><summary>SQL (%s, in apply order)</summary>\n\n", plural(countStatements(cp), "statement", "statements"))
	m.printf("```sql\n")
	for i, c := range cp.Changes {
		if len(cp.Changes) > 1 {
			m.printf("-- %d. %s %s\n", i+1, string(rune(c.Action)), c.Addr)
		}
		for _, s := range c.Statements {
			m.printf("%s;\n", s.SQL)
		}
	}
	m.printf("```\n\n</details>\n")
	if len(cp.Changes) > 1 {
		m.printf("\n<details><summary>Why this order</summary>\n\n")
		for i, c := range cp.Changes {
			m.printf("%d. %s: %s\n", i+1, mdCode(c.Addr.String()), mdText(c.Reason))
		}
		m.printf("\n</details>\n")
	}
}

// markdownChangeRow is one table row: the before values grouped by value,
// the after value, both in full, how it is applied, the HCL source and
// guards.
func markdownChangeRow(cp *planner.ClusterPlan, n int, c *plans.Change) string {
	before := ""
	switch {
	case c.Action == plans.Create:
	case len(c.Before) == 1:
		before = mdValue(c.Before[0].Value)
	default:
		var parts []string
		for _, g := range groupBefore(c.Before) {
			parts = append(parts, mdValue(g.value)+" on "+plural(len(g.instances), "instance", "instances"))
		}
		before = strings.Join(parts, "<br>")
	}
	applied := mdText(string(c.Persistence))
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
		mdValue(c.After), applied, mdCode(c.Range.FileLine()), strings.Join(guards, " "))
}

// mdWrapAt is the longest value shown on one line of a table cell.
const mdWrapAt = 60

// mdValue is a value in a table cell, in full: a long one is cut into its
// options (at ", "), one per line, so that the cell wraps instead of hiding
// anything.
func mdValue(v string) string {
	if len([]rune(v)) <= mdWrapAt || !strings.Contains(v, ", ") {
		return mdCode(v)
	}
	parts := strings.Split(v, ", ")
	for i, p := range parts {
		if i < len(parts)-1 {
			p += ","
		}
		parts[i] = mdCode(p)
	}
	return strings.Join(parts, "<br>")
}

// placedFinding is a finding and, in a fleet-wide list, the cluster it is
// about ("" in a cluster's own section).
type placedFinding struct {
	cluster string
	guard.Finding
}

func placed(cluster string, fs []guard.Finding) []placedFinding {
	out := make([]placedFinding, len(fs))
	for i, f := range fs {
		out[i] = placedFinding{cluster: cluster, Finding: f}
	}
	return out
}

// findingGroup is the findings of one code, severity and acknowledgement:
// one bullet naming every address once, and each distinct detail once.
type findingGroup struct {
	code     string
	severity diag.Severity
	acked    bool
	items    []placedFinding
}

// groupFindings groups fs, in the order of each group's first finding.
func groupFindings(fs []placedFinding) []findingGroup {
	var out []findingGroup
	idx := map[string]int{}
	for _, f := range fs {
		k := fmt.Sprintf("%s\x00%d\x00%t", f.Code, f.Severity, f.Acknowledged)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, findingGroup{code: f.Code, severity: f.Severity, acked: f.Acknowledged})
		}
		out[i].items = append(out[i].items, f)
	}
	return out
}

// groupCounts counts the bullets groups make: "1 warning, 2 info, 1
// acknowledged".
func groupCounts(gs []findingGroup) string {
	n := map[diag.Severity]int{}
	acked := 0
	for _, g := range gs {
		if g.acked {
			acked++
			continue
		}
		n[g.severity]++
	}
	var parts []string
	for _, s := range []diag.Severity{diag.Error, diag.Warning, diag.Info} {
		if n[s] == 0 {
			continue
		}
		word := s.String()
		if n[s] > 1 && s != diag.Info {
			word += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n[s], word))
	}
	if acked > 0 {
		parts = append(parts, fmt.Sprintf("%d acknowledged", acked))
	}
	return strings.Join(parts, ", ")
}

// markdownFindings lists findings: a bullet per group, the acknowledged ones
// on one line, then each distinct detail once, folded.
func markdownFindings(m *textWriter, fs []placedFinding) {
	groups := groupFindings(fs)
	if len(groups) == 0 {
		return
	}
	m.printf("\n#### Guard findings (%s)\n\n", groupCounts(groups))
	markdownFindingLines(m, groups)
	markdownFindingDetails(m, groups)
}

// markdownFindingLines writes a bullet per unacknowledged group, then the
// acknowledged ones together on one line.
func markdownFindingLines(m *textWriter, groups []findingGroup) {
	var acked []string
	for _, g := range groups {
		if g.acked {
			acked = append(acked, mdCode(g.code)+" on "+placesText(g.items)+": "+mdText(g.items[0].AckReason))
			continue
		}
		m.printf("%s\n", markdownFindingLine(g))
	}
	if len(acked) > 0 {
		m.printf("- Acknowledged: %s\n", strings.Join(acked, "; "))
	}
}

// markdownFindingDetails folds each distinct detail of the unacknowledged
// findings once, under its code.
func markdownFindingDetails(m *textWriter, groups []findingGroup) {
	type detail struct{ code, title, text string }
	var details []detail
	seen := map[string]bool{}
	for _, g := range groups {
		for _, f := range g.items {
			if g.acked || f.Detail == "" || seen[f.Code+"\x00"+f.Detail] {
				continue
			}
			seen[f.Code+"\x00"+f.Detail] = true
			details = append(details, detail{f.Code, groupTitle(g), f.Detail})
		}
	}
	if len(details) == 0 {
		return
	}
	m.printf("\n<details><summary>Details (%d)</summary>\n\n", len(details))
	for _, d := range details {
		m.printf("**%s** %s\n\n```text\n%s\n```\n\n", mdText(d.code), mdText(d.title), strings.TrimRight(strings.ReplaceAll(d.text, "```", "'''"), "\n"))
	}
	m.printf("</details>\n")
}

// groupTitle is what a group's bullet says: its one finding's summary, or
// the rule's title for several.
func groupTitle(g findingGroup) string {
	if len(g.items) == 1 {
		return g.items[0].Summary
	}
	if r, ok := guard.Lookup(g.code); ok && r.Title != "" {
		return r.Title
	}
	return g.items[0].Summary
}

// placesText lists every address of fs once, with its HCL location and, in
// a fleet-wide list, its cluster: "`tikv.gc.ratio-threshold` (`main.hcl:4`),
// `resource_group.oltp`", "`tokyo` `resource_group.default`".
func placesText(fs []placedFinding) string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fs {
		at := mdCode(f.Address)
		if f.cluster != "" {
			at = strings.TrimSpace(mdCode(f.cluster) + " " + at)
		}
		if loc := f.Range.FileLine(); loc != "" {
			at = strings.TrimSpace(at + " (" + mdCode(loc) + ")")
		}
		if at == "" || seen[at] {
			continue
		}
		seen[at] = true
		out = append(out, at)
	}
	if len(out) == 0 {
		return "the cluster"
	}
	return strings.Join(out, ", ")
}

// markdownFindingLine is one group's bullet: severity, code, what it says,
// every address once, and its link.
func markdownFindingLine(g findingGroup) string {
	line := fmt.Sprintf("- **%s** %s %s: %s", g.severity, mdCode(g.code), mdText(groupTitle(g)), placesText(g.items))
	if l := g.items[0].Link; l != "" {
		line += " · " + mdLink("docs", l)
	}
	return line
}

func countStatements(cp *planner.ClusterPlan) int {
	n := 0
	for _, c := range cp.Changes {
		n += len(c.Statements)
	}
	return n
}

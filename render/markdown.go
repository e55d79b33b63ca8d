package render

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
)

// MarkdownOptions say what a plan comment is about beyond the plan: the
// CLI knows them, the plan does not.
type MarkdownOptions struct {
	// Dir is the configuration directory (--chdir): it names the comment
	// (Marker) and the commands the comment points to. "" is ".".
	Dir string
	// PlanFile is where the plan was saved (--out; the plan file `tiform
	// show` rendered), "" when it was not: a shortened comment says where the
	// full plan is.
	PlanFile string
	// Budget is the most bytes the comment takes; 0 is MarkdownBudget.
	Budget int
}

func (o MarkdownOptions) dir() string {
	if o.Dir == "" {
		return "."
	}
	return o.Dir
}

// planCommand is the command that shows every finding and statement.
func (o MarkdownOptions) planCommand() string {
	if o.PlanFile != "" {
		return "tiform show " + shellWord(o.PlanFile)
	}
	if o.dir() == "." {
		return "tiform plan"
	}
	return "tiform plan --chdir " + shellWord(o.dir())
}

// fullPlan says where the full plan is, for a shortened comment.
func (o MarkdownOptions) fullPlan() string {
	if o.PlanFile != "" {
		return fmt.Sprintf("The full plan is the saved plan %s (the workflow keeps it as an artifact): %s shows it, with %s every statement.",
			mdCode(o.PlanFile), mdCode(o.planCommand()), mdCode("--verbose"))
	}
	return fmt.Sprintf("The full plan: %s (with %s every statement).", mdCode(o.planCommand()), mdCode("--verbose"))
}

// shellWord quotes s for a shell command line when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Markdown writes the plan as a pull-request comment (GitHub-flavoured
// Markdown) about the change, within o's budget (MarkdownBudget):
//
//   - the hidden marker (Marker), the title and one headline: the counts and
//     the findings about the change;
//   - a fleet's clusters that are not in sync, one row each with its status,
//     topology and plan hash, and the in-sync ones on one line; one cluster's
//     topology and plan hash;
//   - the changes, one row per distinct change with the clusters it applies
//     to (identical changes on 40 clusters are one row), every value in full,
//     then the SQL and the reasons for the order, folded;
//   - a section per cluster only for what differs there (a failure, a
//     partial or offline read, ignored differences, unmanaged groups, notes,
//     evidence); clusters whose sections would be identical share one;
//   - the guard findings about the change, grouped by code, every address
//     once, each distinct detail once (folded); the standing findings (on
//     unchanged clusters or untouched settings) as one line with their counts
//     and the command that lists them, except errors, which are listed.
//
// Past the budget it leaves out, in order, the folded details, the
// per-cluster sections, then rows from the end, never cutting a block, and
// says so (mdDoc.fit). It never writes ANSI escapes.
func Markdown(w io.Writer, p *planner.Plan, o MarkdownOptions) error {
	if p == nil {
		return fmt.Errorf("render: no plan")
	}
	p = printable(p.Shown()) // sensitive values never reach a view; control characters are escaped
	budget := o.Budget
	if budget <= 0 {
		budget = MarkdownBudget
	}
	_, err := io.WriteString(w, planComment(p, o).fit(budget))
	return err
}

// planComment builds the comment's parts (Markdown documents them).
func planComment(p *planner.Plan, o MarkdownOptions) *mdDoc {
	fleet := len(p.Clusters) > 1
	about, standing := splitFindings(p)
	d := &mdDoc{full: o.fullPlan()}
	d.top = fmt.Sprintf("%s\n## tiform plan\n%s\n", Marker(o.Dir), markdownHeadline(p, about, standing))
	switch {
	case fleet && !allInSync(p):
		markdownClusterTable(d, p)
	case len(p.Clusters) == 1:
		d.add(mdEssential, markdownClusterLine(p.Clusters[0])+"\n")
	}
	if rows := changeRows(p); len(rows) > 0 {
		markdownChanges(d, rows, fleet)
	}
	markdownSections(d, p, fleet)
	markdownFindings(d, about, fleet, "Guard findings about this change")
	markdownStanding(d, standing, fleet, o)
	return d
}

// allInSync reports whether every cluster was read and matches.
func allInSync(p *planner.Plan) bool {
	for _, cp := range p.Clusters {
		if cp.Status() != planner.StatusInSync {
			return false
		}
	}
	return true
}

// markdownHeadline is the comment's one summary line: what the plan does,
// on how many clusters, the findings about the change counted as they are
// listed, and the standing errors.
func markdownHeadline(p *planner.Plan, about, standing []placedFinding) string {
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
	if s := groupCounts(groupFindings(about)); s != "" {
		head += " Guard findings about this change: " + s + "."
	}
	if n := len(groupFindings(standingErrors(standing))); n > 0 {
		head += " " + plural(n, "standing error", "standing errors") + " (apply refuses; below)."
	}
	ignored := 0
	for _, cp := range p.Clusters {
		ignored += len(cp.Ignored)
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

// Marker is the hidden first line of a plan comment, which a CI workflow
// looks for (with the comment's author) to update its previous comment
// instead of adding one: one comment per pull request and configuration
// directory, whichever clusters the plan covers (adding a cluster keeps the
// comment). dir is --chdir ("" is "."), written so that it cannot end the
// HTML comment.
func Marker(dir string) string { return marker("plan", dir) }

// ApplyMarker is the first line of `apply --format markdown`: a workflow that
// posts it never confuses it with the plan comment.
func ApplyMarker(dir string) string { return marker("apply", dir) }

// MarkdownText escapes Markdown punctuation in free text, on one line.
func MarkdownText(s string) string { return mdText(s) }

// MarkdownCode is s as an inline code span.
func MarkdownCode(s string) string { return mdCode(s) }

// MarkdownFence is body in a fenced code block that nothing in body can
// close.
func MarkdownFence(info, body string) string { return mdFence(info, body) }

func marker(kind, dir string) string {
	if dir == "" {
		dir = "."
	}
	var b strings.Builder
	for i := 0; i < len(dir); i++ {
		c := dir[i]
		switch {
		case c == '-' && i+1 < len(dir) && dir[i+1] == '-', c <= ' ', c >= 0x7f, c == '<', c == '>', c == '%', c == '"':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return "<!-- tiform:" + kind + " dir=" + b.String() + " -->"
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

// markdownClusterLine is one cluster's line: its topology and plan hash,
// or that it was not planned.
func markdownClusterLine(cp *planner.ClusterPlan) string {
	if cp.Failure != nil {
		return fmt.Sprintf("Cluster %s: **not planned (%s)**.", mdCode(cp.Name), cp.Failure.Status)
	}
	line := "Cluster " + mdCode(cp.Name) + ": " + mdText(topologyText(cp))
	if len(cp.Changes) > 0 {
		// The hash ties this comment to the apply: the audit log records it,
		// and `apply --plan-hash` refuses any other plan.
		line += fmt.Sprintf(". Plan hash `%s`", cp.Hash())
	}
	return line + "."
}

// markdownClusterTable is a fleet's clusters that are not in sync, a row
// each (status, why, topology, plan hash), then the in-sync ones on one
// line.
func markdownClusterTable(d *mdDoc, p *planner.Plan) {
	var rows, inSync []string
	for _, cp := range p.Clusters {
		if cp.Status() == planner.StatusInSync {
			inSync = append(inSync, mdCode(cp.Name))
			continue
		}
		topo, hash := "", ""
		if cp.Failure == nil {
			topo = mdText(topologyText(cp))
		}
		if len(cp.Changes) > 0 {
			hash = "`" + cp.Hash() + "`"
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s |", mdCode(cp.Name), cp.Status(), mdCell(mdText(StatusDetail(cp))), topo, hash))
	}
	d.addRows("| cluster | status | | topology | plan hash |\n|---|---|---|---|---|\n", rows, "cluster rows")
	if len(inSync) > 0 {
		d.add(mdEssential, fmt.Sprintf("In sync (%d): %s.\n", len(inSync), strings.Join(inSync, ", ")))
	}
}

// markdownSections adds a section per cluster with something of its own to
// read; clusters whose sections would say the same share one.
func markdownSections(d *mdDoc, p *planner.Plan, fleet bool) {
	var bodies []clusterText
	for _, cp := range p.Clusters {
		if body := clusterSection(p, cp, fleet); body != "" {
			bodies = addClusterText(bodies, body, cp.Name)
		}
	}
	for _, b := range bodies {
		if !fleet {
			d.add(mdSection, b.text)
			continue
		}
		names := make([]string, len(b.clusters))
		for i, n := range b.clusters {
			names[i] = mdCode(n)
		}
		title := strings.Join(names, ", ")
		if len(names) > 1 {
			title = fmt.Sprintf("%d clusters: %s", len(names), title)
		}
		d.add(mdSection, "### "+title+"\n\n"+b.text)
	}
}

// clusterSection is what a reviewer reads about one cluster beyond the
// shared tables: why it was not planned, an offline or partial read, the
// ignored differences, unmanaged groups, notes and the evidence of its
// change; "" when there is nothing. Alone, its line (markdownClusterLine)
// already says whether it was planned.
func clusterSection(p *planner.Plan, cp *planner.ClusterPlan, fleet bool) string {
	var parts []string
	if cp.Failure != nil {
		msg := strings.TrimRight(cp.Failure.Message, "\n")
		switch {
		case !fleet:
			return mdFence("text", msg) // the cluster's line says it was not planned
		case !strings.Contains(msg, "\n"):
			return "" // the cluster's row has the whole message
		}
		return fmt.Sprintf("Not planned (%s):\n\n%s", cp.Failure.Status, mdFence("text", msg))
	}
	if cp.Offline != nil {
		off := "Offline plan: live state from snapshot " + mdCode(cp.Offline.Path)
		if age := Age(p.CreatedAt, cp.Offline.TakenAt); age != "" {
			off += " (" + age + ")"
		}
		parts = append(parts, "> "+off+".\n")
	}
	if len(cp.Incomplete) > 0 {
		var b strings.Builder
		b.WriteString("> **The live state is incomplete**; this plan covers only what could be read:\n")
		for _, r := range cp.Incomplete {
			b.WriteString("> - " + mdText(r) + "\n")
		}
		parts = append(parts, b.String())
	}
	if len(cp.Ignored) > 0 {
		var b strings.Builder
		b.WriteString("Ignored (accepted drift: not planned, not applied):\n\n")
		for _, ig := range cp.Ignored {
			v := ignoredOf(ig)
			fmt.Fprintf(&b, "- %s: live %s, declared %s; %s\n", mdCode(v.Address), mdCode(liveText(v.Difference)), mdCode(declaredText(v.Difference)), mdText(ignoreText(v.Ignore)))
		}
		parts = append(parts, b.String())
	}
	if len(cp.Unmanaged) > 0 && (len(p.Clusters) == 1 || len(cp.Changes) > 0) {
		var names []string
		for _, g := range cp.Unmanaged {
			names = append(names, mdCode(g))
		}
		parts = append(parts, fmt.Sprintf("Unmanaged resource groups (kept): %s. Declare them, or set `unmanaged_resource_groups = \"drop\"` to drop them.\n", strings.Join(names, ", ")))
	}
	if len(cp.Notes) > 0 && len(cp.Changes) > 0 {
		var b strings.Builder
		b.WriteString("Notes:\n\n")
		for _, n := range cp.Notes {
			b.WriteString("- " + mdText(n) + "\n")
		}
		parts = append(parts, b.String())
	}
	if ev := markdownEvidence(cp.Evidence, cp.Findings); ev != "" {
		parts = append(parts, ev)
	}
	if pm := persistedMarkdown(persistedJSON(cp)); pm != "" {
		parts = append(parts, pm)
	}
	return strings.Join(parts, "\n")
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

// splitFindings divides the plan's findings: those about a change of the
// plan (on an address its cluster changes), which the comment lists first,
// and the standing ones (on unchanged clusters or untouched settings), which
// it folds into one line unless they are errors. In a fleet each finding
// carries its cluster's name.
func splitFindings(p *planner.Plan) (about, standing []placedFinding) {
	fleet := len(p.Clusters) > 1
	for _, cp := range p.Clusters {
		changed := map[string]bool{}
		for _, c := range cp.Changes {
			changed[c.Addr.String()] = true
		}
		name := ""
		if fleet {
			name = cp.Name
		}
		for _, f := range cp.Findings {
			if f.Address != "" && changed[f.Address] {
				about = append(about, placedFinding{cluster: name, Finding: f})
			} else {
				standing = append(standing, placedFinding{cluster: name, Finding: f})
			}
		}
	}
	return about, standing
}

// standingErrors are the unacknowledged errors among fs: apply refuses
// while they stand, so the comment lists them in full.
func standingErrors(fs []placedFinding) []placedFinding {
	var out []placedFinding
	for _, f := range fs {
		if f.Severity >= diag.Error && !f.Acknowledged {
			out = append(out, f)
		}
	}
	return out
}

// markdownFindings adds findings under title: a bullet per code (rows), the
// acknowledged ones on one line, then each distinct detail once, folded.
func markdownFindings(d *mdDoc, fs []placedFinding, fleet bool, title string) {
	groups := groupFindings(fs)
	if len(groups) == 0 {
		return
	}
	var lines, acked []string
	for _, g := range groups {
		if g.acked {
			acked = append(acked, mdCode(g.code)+" on "+placesText(g.items, fleet)+": "+mdText(g.items[0].AckReason))
			continue
		}
		lines = append(lines, markdownFindingLine(g, fleet))
	}
	if len(acked) > 0 {
		lines = append(lines, "- Acknowledged: "+strings.Join(acked, "; "))
	}
	d.addRows(fmt.Sprintf("#### %s (%s)\n\n", title, groupCounts(groups)), lines, "finding bullets")
	d.add(mdDetails, markdownFindingDetails(groups, fleet))
}

// markdownStanding adds the standing findings: the errors in full, the rest
// as one line with their counts, their codes and the command that lists
// them.
func markdownStanding(d *mdDoc, standing []placedFinding, fleet bool, o MarkdownOptions) {
	errs := standingErrors(standing)
	markdownFindings(d, errs, fleet, "Standing errors, not about this change (apply refuses while they stand)")
	var rest []placedFinding
	for _, f := range standing {
		if f.Severity < diag.Error || f.Acknowledged {
			rest = append(rest, f)
		}
	}
	groups := groupFindings(rest)
	if len(groups) == 0 {
		return
	}
	bySeverity := map[string][]string{}
	var order []string
	clusters := map[string]bool{}
	for _, g := range groups {
		k := g.severity.String()
		if g.acked {
			k = "acknowledged"
		}
		if _, ok := bySeverity[k]; !ok {
			order = append(order, k)
		}
		if !slices.Contains(bySeverity[k], mdCode(g.code)) {
			bySeverity[k] = append(bySeverity[k], mdCode(g.code))
		}
		for _, f := range g.items {
			clusters[f.cluster] = true
		}
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s (%s)", groupCounts(keep(groups, k)), strings.Join(bySeverity[k], ", ")))
	}
	where := ""
	if fleet {
		where = " on " + plural(len(clusters), "cluster", "clusters")
	}
	d.add(mdEssential, fmt.Sprintf("Standing findings, not about this change: %s%s. %s lists them with what to do.\n",
		strings.Join(parts, ", "), where, mdCode(o.planCommand())))
}

// keep are the groups of one severity word ("warning", "acknowledged").
func keep(groups []findingGroup, k string) []findingGroup {
	var out []findingGroup
	for _, g := range groups {
		if g.acked && k == "acknowledged" || !g.acked && g.severity.String() == k {
			out = append(out, g)
		}
	}
	return out
}

// markdownFindingDetails folds each distinct detail of the unacknowledged
// findings once, under its code (and, when a code has several, where it
// applies); "" when there is none.
func markdownFindingDetails(groups []findingGroup, fleet bool) string {
	type detail struct {
		code, text string
		items      []placedFinding
	}
	var details []*detail
	perCode := map[string]int{}
	idx := map[string]*detail{}
	for _, g := range groups {
		if g.acked {
			continue
		}
		for _, f := range g.items {
			if f.Detail == "" {
				continue
			}
			k := f.Code + "\x00" + f.Detail
			if dt, ok := idx[k]; ok {
				dt.items = append(dt.items, f)
				continue
			}
			dt := &detail{code: f.Code, text: f.Detail, items: []placedFinding{f}}
			idx[k] = dt
			details = append(details, dt)
			perCode[f.Code]++
		}
	}
	if len(details) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>Details (%d)</summary>\n\n", len(details))
	for _, dt := range details {
		head := "**" + dt.code + "**"
		if perCode[dt.code] > 1 {
			head += " " + placesText(dt.items, fleet)
		}
		fmt.Fprintf(&b, "%s\n\n%s\n", head, mdFence("text", dt.text))
	}
	b.WriteString("</details>\n")
	return b.String()
}

// groupTitle is what a group's bullet says: its findings' summary when they
// share one, else the rule's title.
func groupTitle(g findingGroup) string {
	same := true
	for _, f := range g.items {
		same = same && f.Summary == g.items[0].Summary
	}
	if same {
		return g.items[0].Summary
	}
	if r, ok := guard.Lookup(g.code); ok && r.Title != "" {
		return r.Title
	}
	return g.items[0].Summary
}

// placesText lists every address of fs once, with its HCL location and,
// in a fleet, the clusters it is on: "`tikv.gc.ratio-threshold`
// (`main.hcl:4`) on 3 clusters: tokyo, osaka, kobe".
func placesText(fs []placedFinding, fleet bool) string {
	var places []clusterText
	for _, f := range fs {
		at := mdCode(f.Address)
		if loc := f.Range.FileLine(); loc != "" {
			at = strings.TrimSpace(at + " (" + mdCode(loc) + ")")
		}
		if at == "" {
			at = "the cluster"
		}
		if i := slices.IndexFunc(places, func(p clusterText) bool { return p.text == at }); i >= 0 && slices.Contains(places[i].clusters, f.cluster) {
			continue
		}
		places = addClusterText(places, at, f.cluster)
	}
	out := make([]string, len(places))
	for i, p := range places {
		out[i] = p.text
		if fleet {
			out[i] += " on " + clusterNames(p.clusters)
		}
	}
	return strings.Join(out, "; ")
}

// markdownFindingLine is one group's bullet: severity, code, what it says,
// every address once, and its link.
func markdownFindingLine(g findingGroup, fleet bool) string {
	line := fmt.Sprintf("- **%s** %s %s: %s", g.severity, mdCode(g.code), mdText(groupTitle(g)), placesText(g.items, fleet))
	if l := g.items[0].Link; l != "" {
		line += " · " + mdLink("docs", l)
	}
	return line
}

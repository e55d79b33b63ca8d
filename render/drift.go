package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/views"
)

// The drift report (`tiform plan --drift`): a view of the same plan that
// shows, per cluster, only what differs between the live cluster and the
// configuration — no statements, order or rollback — which differences are
// new since a previous report, which of its differences are resolved, and the
// differences ignore blocks accepted. DriftReport builds the one structure;
// the JSON view serialises it and the text and Markdown views render it, so
// the three cannot disagree.

// DriftReport is p's drift report. prev is the previous report (--previous,
// read with ParseDrift) and prevPath its file name; nil for none.
func DriftReport(p *planner.Plan, prev *views.Drift, prevPath string) views.Drift {
	doc := views.Drift{Header: views.NewHeader(), ConfigHash: p.ConfigHash, CreatedAt: timeText(p.CreatedAt),
		Clusters: []views.DriftCluster{}}
	doc.Summary.Clusters = len(p.Clusters)
	doc.Summary.Statuses = map[string]int{}
	if prev != nil {
		doc.Previous = &views.DriftPrevious{Path: prevPath, CreatedAt: prev.CreatedAt}
	}
	for _, cp := range p.Clusters {
		dc := driftCluster(cp, previousCluster(prev, cp.Name))
		doc.Summary.Statuses[dc.Status]++
		if len(dc.Differences) > 0 {
			doc.Summary.Drifted++
			doc.HasDrift = true
		}
		doc.Summary.Differences += len(dc.Differences)
		for _, d := range dc.Differences {
			if d.New != nil && *d.New {
				doc.Summary.New++
			}
		}
		doc.Summary.Resolved += len(dc.Resolved)
		doc.Summary.Ignored += len(dc.Ignored)
		addUnmanaged(&doc, dc)
		doc.Clusters = append(doc.Clusters, dc)
	}
	return doc
}

// previousCluster is the previous report's result for name, or nil when it
// has none: no report, no such cluster, or a cluster it could not read.
func previousCluster(prev *views.Drift, name string) *views.DriftCluster {
	if prev == nil {
		return nil
	}
	for i := range prev.Clusters {
		if c := &prev.Clusters[i]; c.Name == name && c.Error == nil {
			return c
		}
	}
	return nil
}

func driftCluster(cp *planner.ClusterPlan, prev *views.DriftCluster) views.DriftCluster {
	dc := views.DriftCluster{Name: cp.Name, ClusterStatus: clusterStatus(cp), Labels: map[string]string{},
		Differences: []views.DriftDifference{}, Resolved: []views.Difference{}, Ignored: ignoredJSON(cp),
		Incomplete: views.Strings(cp.Incomplete), Findings: []views.Finding{}}
	for k, v := range cp.Labels {
		dc.Labels[k] = v
	}
	before := map[string]string{} // address → identity, in the previous report
	if prev != nil {
		for _, d := range prev.Differences {
			before[d.Address] = differenceKey(d.Difference)
		}
	}
	now := map[string]bool{}
	for _, c := range cp.Changes {
		d := views.DriftDifference{Difference: differenceOf(planner.ShownChange(c))}
		if prev != nil {
			isNew := before[d.Address] != differenceKey(d.Difference)
			d.New = &isNew
		}
		now[d.Address] = true
		dc.Differences = append(dc.Differences, d)
	}
	if prev != nil && cp.Failure == nil {
		for _, d := range prev.Differences {
			if !now[d.Address] {
				dc.Resolved = append(dc.Resolved, d.Difference)
			}
		}
	}
	for _, f := range cp.Findings {
		if !f.Acknowledged && f.Severity >= diag.Warning {
			dc.Findings = append(dc.Findings, f.View())
		}
	}
	dc.Persisted = persistedJSON(cp)
	dc.Unmanaged = unmanagedDrift(cp, prev)
	return dc
}

// differenceKey identifies a difference with its values: the same address
// with other live or declared values is a new difference.
func differenceKey(d views.Difference) string {
	var b strings.Builder
	b.WriteString(d.Action + "\x00" + d.Declared)
	for _, v := range d.Live {
		b.WriteString("\x00" + v.Instance + "=" + v.Value)
	}
	return b.String()
}

// ParseDrift reads a previous drift report (--previous): the JSON view of
// `tiform plan --drift --format json`, of this format's major version. The
// caller bounds its size (input.Report).
func ParseDrift(b []byte) (*views.Drift, error) {
	var doc views.Drift
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not a drift report (tiform plan --drift --format json): %w", err)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(b, &keys) // it is an object: Unmarshal above would have failed
	if _, ok := keys["has_drift"]; !ok && doc.FormatVersion != "" {
		return nil, errors.New("not a drift report (tiform plan --drift --format json) but another tiform document (a plan?): write the report with --drift")
	}
	major, _, _ := strings.Cut(string(views.Format), ".")
	got, _, _ := strings.Cut(string(doc.FormatVersion), ".")
	switch {
	case doc.FormatVersion == "":
		return nil, errors.New("not a drift report (tiform plan --drift --format json): no format_version")
	case got != major:
		return nil, fmt.Errorf("format_version %q: this tiform reads drift reports of format %s.x", doc.FormatVersion, major)
	case doc.Clusters == nil:
		return nil, errors.New("not a drift report (tiform plan --drift --format json): no clusters (a plan? write the report with --drift)")
	}
	return &doc, nil
}

// DriftJSON writes the report as JSON (schema/drift.schema.json).
func DriftJSON(w io.Writer, doc views.Drift) error {
	if err := views.Write(w, doc); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

// driftLines are the report's per-cluster summary lines.
func driftLines(doc views.Drift) []ClusterLine {
	out := make([]ClusterLine, len(doc.Clusters))
	for i, c := range doc.Clusters {
		out[i] = ClusterLine{Name: c.Name, Status: planner.Status(c.Status), Detail: driftDetail(c)}
	}
	return out
}

// driftDetail is one cluster's outcome in a line: its failure, or its
// differences (how many new), error findings and ignored differences.
func driftDetail(c views.DriftCluster) string {
	if c.Error != nil {
		line, _, _ := strings.Cut(*c.Error, "\n")
		return line
	}
	var parts []string
	if n := len(c.Differences); n == 0 && c.Unmanaged != nil {
		parts = append(parts, "no managed drift")
	} else if n == 0 {
		parts = append(parts, "no drift")
	} else {
		s := plural(n, "difference", "differences")
		if k := newCount(c); k >= 0 {
			s += fmt.Sprintf(" (%d new)", k)
		}
		parts = append(parts, s)
	}
	if codes := errorCodes(c.Findings); len(codes) > 0 {
		parts = append(parts, "error finding "+strings.Join(codes, ", "))
	}
	if len(c.Incomplete) > 0 {
		parts = append(parts, plural(len(c.Incomplete), "part", "parts")+" not read")
	}
	if len(c.Ignored) > 0 {
		parts = append(parts, plural(len(c.Ignored), "difference", "differences")+" ignored")
	}
	if len(c.Resolved) > 0 {
		parts = append(parts, fmt.Sprintf("%d resolved", len(c.Resolved)))
	}
	if n := revertedCount(c.Persisted); n > 0 {
		parts = append(parts, revertedText(n))
	}
	if u := unmanagedDetail(c.Unmanaged); u != "" {
		parts = append(parts, u)
	}
	return strings.Join(parts, "; ")
}

// newCount counts c's new differences; -1 when nothing is known about the
// previous report.
func newCount(c views.DriftCluster) int {
	n := -1
	for _, d := range c.Differences {
		if d.New == nil {
			continue
		}
		n = max(n, 0)
		if *d.New {
			n++
		}
	}
	return n
}

func errorCodes(fs []views.Finding) []string {
	var codes []string
	for _, f := range fs {
		if f.Severity == diag.Error.String() && !slices.Contains(codes, f.Code) {
			codes = append(codes, f.Code)
		}
	}
	sort.Strings(codes)
	return codes
}

// driftHeadline is the report's first line.
func driftHeadline(doc views.Drift) string {
	s := doc.Summary
	head := "No drift: every cluster read matches the configuration."
	if s.Differences > 0 {
		head = fmt.Sprintf("Drift: %s on %d of %s.", plural(s.Differences, "difference", "differences"), s.Drifted,
			plural(s.Clusters, "cluster", "clusters"))
	}
	var extra []string
	if doc.Previous != nil {
		extra = append(extra, fmt.Sprintf("%d new and %d resolved since %s", s.New, s.Resolved, doc.Previous.Path))
	}
	if s.Ignored > 0 {
		extra = append(extra, plural(s.Ignored, "difference", "differences")+" ignored")
	}
	unread := 0
	for _, c := range doc.Clusters {
		if c.Error != nil || len(c.Incomplete) > 0 {
			unread++
		}
	}
	if unread > 0 {
		extra = append(extra, fmt.Sprintf("%s not read completely (see below)", plural(unread, "cluster", "clusters")))
	}
	reverted := 0
	for _, c := range doc.Clusters {
		reverted += revertedCount(c.Persisted)
	}
	if len(extra) > 0 {
		head = strings.TrimSuffix(head, ".") + "; " + strings.Join(extra, "; ") + "."
	}
	if reverted > 0 {
		// One sentence per layer: what runs against what is declared
		// above, what runs against what persists here.
		head += " Persisted layer: " + revertedText(reverted) + " (see below)."
	}
	if u := unmanagedHeadline(doc); u != "" {
		head += " " + u
	}
	return head
}

// DriftText writes the report for people: one block per cluster with its
// differences (marked new), its ignored ones, what was resolved, its
// warnings and errors, then one line per cluster.
func DriftText(w io.Writer, doc views.Drift, color bool) error {
	doc = diag.PrintableCopy(doc) // control characters are escaped
	t := &textWriter{w: w, o: TextOptions{Color: color}}
	t.printf("%s\n", t.color(ansiBold, driftHeadline(doc)))
	for _, c := range doc.Clusters {
		t.driftCluster(c)
	}
	t.printf("\n")
	t.statusLines(driftLines(doc))
	return t.err
}

func (t *textWriter) driftCluster(c views.DriftCluster) {
	head := t.color(ansiBold, "Cluster "+quoteName(c.Name)+":")
	if c.Error != nil {
		t.printf("\n%s %s\n", head, t.color(ansiRed+ansiBold, "not checked ("+c.Status+")"))
		for _, line := range strings.Split(strings.TrimRight(*c.Error, "\n"), "\n") {
			t.printf("  %s\n", line)
		}
		return
	}
	t.printf("\n%s %s\n", head, driftDetail(c))
	for _, d := range c.Differences {
		mark := ""
		if d.New != nil && *d.New {
			mark = "  " + t.color(ansiYellow+ansiBold, "new")
		}
		a := actionOf(d.Action)
		t.printf("  %s%s\n", t.color(actionColor(a), string(rune(a))+" "+d.Address), mark)
		t.printf("      live %s, declared %s%s\n", liveText(d.Difference), declaredText(d.Difference), t.color(ansiDim, sourceText(d.Range)))
	}
	for _, d := range c.Resolved {
		t.printf("  %s\n", t.color(ansiGreen, "resolved: "+d.Address+" (declared "+declaredText(d)+")"))
	}
	for _, ig := range c.Ignored {
		t.printf("  ignored: %s: live %s, declared %s\n", ig.Address, liveText(ig.Difference), declaredText(ig.Difference))
		t.printf("      %s\n", t.color(ansiDim, ignoreText(ig.Ignore)))
	}
	t.unmanagedText(c.Unmanaged)
	for _, r := range c.Incomplete {
		t.printf("  %s\n", t.color(ansiYellow, "not read: "+r))
	}
	for _, f := range c.Findings {
		t.printf("  %s[%s]: %s%s\n", f.Severity, f.Code, f.Summary, t.color(ansiDim, sourceText(f.Range)))
	}
	t.persisted(c.Persisted)
}

// actionOf is the action a view names (NoOp for a name it does not know).
func actionOf(name string) plans.Action {
	a, _ := plans.ParseAction(name)
	return a
}

// sourceText is "  (main.hcl:3)" for a range, "" for none.
func sourceText(r *views.Range) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("  (%s:%d)", r.Filename, r.Start.Line)
}

// DriftMarkdown writes the report as a comment or job summary: the hidden
// marker, the headline, the per-cluster table, and one table of differences
// per drifted cluster.
func DriftMarkdown(w io.Writer, doc views.Drift) error {
	doc = diag.PrintableCopy(doc) // control characters are escaped
	m := &textWriter{w: w}
	names := make([]string, len(doc.Clusters))
	for i, c := range doc.Clusters {
		names[i] = c.Name
	}
	sort.Strings(names)
	m.printf("<!-- tiform:drift cluster=%s -->\n## tiform drift\n\n%s\n\n", strings.Join(names, ","), mdText(driftHeadline(doc)))
	markdownStatusTable(m, driftLines(doc))
	for _, c := range doc.Clusters {
		if len(c.Differences)+len(c.Ignored)+len(c.Resolved)+len(c.Findings) == 0 && c.Error == nil && persistedMarkdown(c.Persisted) == "" && !hasUnmanaged(c.Unmanaged) {
			continue
		}
		m.printf("\n### Cluster `%s`\n", c.Name)
		if c.Error != nil {
			m.printf("\n```\n%s\n```\n", strings.TrimRight(*c.Error, "\n"))
			continue
		}
		if len(c.Differences) > 0 {
			m.printf("\n| | Address | Live | Declared | Source | |\n|:---:|---|---|---|---|---|\n")
			for _, d := range c.Differences {
				mark := ""
				if d.New != nil && *d.New {
					mark = "**new**"
				}
				m.printf("| `%s` | %s | %s | %s | %s | %s |\n", string(rune(actionOf(d.Action))), mdCode(d.Address), mdCode(liveText(d.Difference)),
					mdCode(declaredText(d.Difference)), mdCode(strings.TrimSpace(strings.Trim(sourceText(d.Range), " ()"))), mark)
			}
		}
		for _, d := range c.Resolved {
			m.printf("\n- resolved: %s", mdCode(d.Address))
		}
		for _, ig := range c.Ignored {
			m.printf("\n- ignored: %s: live %s, declared %s; %s", mdCode(ig.Address), mdCode(liveText(ig.Difference)),
				mdCode(declaredText(ig.Difference)), mdText(ignoreText(ig.Ignore)))
		}
		for _, f := range c.Findings {
			m.printf("\n- **%s** %s: %s", f.Severity, mdCode(f.Code), mdText(f.Summary))
		}
		if len(c.Resolved)+len(c.Ignored)+len(c.Findings) > 0 {
			m.printf("\n")
		}
		if pm := persistedMarkdown(c.Persisted); pm != "" {
			m.printf("\n%s", pm)
		}
		unmanagedMarkdown(m, c.Unmanaged)
	}
	return m.err
}

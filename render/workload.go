package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/workload"
)

// Views of the workload reports: `tiform check plan-cache`, `tiform check
// mvcc` (text, Markdown; JSON in workload_json.go) and the evidence section
// of a plan. Text and Markdown are rendered from the same report the JSON
// view serialises.

// CheckHeader is what a check report says about the cluster it read.
type CheckHeader struct {
	// Name is the cluster's name in the configuration, "" for the one
	// cluster of --dsn: a fleet's reports are named by it.
	Name string
	// Cluster is the topology line ("TiDB v8.5.1 (1), PD v8.5.1 (1), …").
	Cluster string
	// Versions is the lowest version per component ("tidb" → "v8.5.1").
	Versions map[string]string
	// Incomplete lists what the cluster read could not see.
	Incomplete []string
}

// MVCCView is `tiform check mvcc`: the analysis and what the guards would
// say about enabling the In-Memory Engine on this cluster.
type MVCCView struct {
	Report workload.MVCCReport
	// IMEEnabled is the live in-memory-engine.enable ("true", "false",
	// "mixed", or "" when unknown: TiKV config not readable or before v8.5).
	IMEEnabled string
	// IMEFindings are guard.EnableIMEFindings: prerequisites and known
	// problems of enabling it here.
	IMEFindings []guard.Finding
}

// nameText is `cluster "tokyo": ` for a named cluster, "" alone.
func (h CheckHeader) nameText() string {
	if h.Name == "" {
		return ""
	}
	return "cluster " + quoteName(h.Name) + ": "
}

// markdownName is ": cluster `tokyo`" for a named cluster, "" alone.
func (h CheckHeader) markdownName() string {
	if h.Name == "" {
		return ""
	}
	return ": cluster " + mdCode(h.Name)
}

// readLine describes the read behind a report.
func readLine(r workload.Read) string {
	where := r.Source
	if !r.ClusterWide {
		where += " (connected TiDB instance only)"
	}
	s := fmt.Sprintf("%s, windows overlapping the last %s", where, workload.Span(r.Since))
	if !r.From.IsZero() {
		s += fmt.Sprintf(" (%s – %s UTC)", r.From.UTC().Format("2006-01-02 15:04"), r.To.UTC().Format("2006-01-02 15:04"))
	}
	return s + fmt.Sprintf(", %s", plural(r.StatementsRead, "statement shape", "statement shapes"))
}

// ratioRow is one row of the hit-ratio table.
func ratioRow(r workload.Ratio, reduced bool) []string {
	if r.Executions == 0 {
		return []string{"0", "0", "—", "—", "—", "—"}
	}
	unq := "n/a"
	if !reduced {
		unq = workload.Pct(r.UnqualifiedShare())
	}
	return []string{workload.Count(r.Executions), workload.Count(r.Hits), workload.Pct(r.ByExecutions()),
		workload.Pct(r.ByLatency()), unq, workload.Pct(r.SavingBound())}
}

var ratioHeader = []string{"executions", "hits", "hit ratio (executions)", "hit ratio (latency)", "cannot use the cache", "compile time of misses"}

// PlanCacheText writes `tiform check plan-cache` as text.
func PlanCacheText(w io.Writer, h CheckHeader, r workload.PlanCacheReport) error {
	h, r = diag.PrintableCopy(h), diag.PrintableCopy(r) // statement texts come from the cluster
	t := &textWriter{w: w}
	t.printf("tiform check plan-cache: %s%s\n\n", h.nameText(), h.Cluster)
	t.printf("Read: %s.\n", readLine(r.Read))
	if r.Reduced {
		t.printf("\nReduced report. What it cannot see:\n")
		for _, g := range r.CannotSee {
			t.printf("  - %s\n", g)
		}
	}
	t.printf("\nPlan-cache hit ratio (SELECT, INSERT, UPDATE, DELETE, REPLACE):\n")
	rows := [][]string{append([]string{""}, ratioHeader...)}
	rows = append(rows, append([]string{"all"}, ratioRow(r.All, r.Reduced)...))
	rows = append(rows, append([]string{"prepared"}, ratioRow(r.Prepared, r.Reduced)...))
	rows = append(rows, append([]string{"not prepared"}, ratioRow(r.NonPrepared, r.Reduced)...))
	t.table("  ", rows)
	if r.OtherExecutions > 0 {
		t.printf("  (%s executions of other statements — COMMIT, BEGIN, SET, system tables, no table at all — are left out)\n", workload.Count(r.OtherExecutions))
	}
	if len(r.NotCounted) > 0 {
		t.printf("\nNot counted as misses (no plan cache serves them, or TiDB did not record how they used it):\n")
		for _, nc := range r.NotCounted {
			t.printf("\n  - %s: %s executions, %s\n", nc.Title, workload.Count(nc.Executions), plural(nc.Digests, "statement", "statements"))
			t.printf("    e.g. %s\n", clipStmt(nc.Example))
			t.printf("    %s\n", nc.Meaning)
			t.printf("    Check: %s\n", nc.Check)
		}
	}
	if len(r.Reasons) > 0 {
		t.printf("\nTop reasons statements cannot use the cache:\n")
		for i, rc := range r.Reasons {
			t.printf("\n  %d. %s: %s of executions (%s), %s\n", i+1, rc.Title, workload.Pct(rc.Share), workload.Count(rc.Unqualified),
				plural(rc.Digests, "statement", "statements"))
			t.printf("     TiDB says: %s\n", strings.Join(rc.Texts, "; "))
			t.printf("     e.g. %s\n", rc.Example)
			t.printf("     Meaning: %s\n", rc.Meaning)
			t.printf("     Fix: %s\n", rc.Fix)
			t.printf("     See %s\n", rc.Link)
		}
	} else if !r.Reduced && r.All.Unqualified == 0 {
		t.printf("\nEvery execution could use the cache (PLAN_CACHE_UNQUALIFIED is 0).\n")
	}
	if len(r.Gains) > 0 {
		t.printf("\nStatements that would gain most (compile time spent on their misses):\n")
		for i, g := range r.Gains {
			t.printf("  %d. %s  %s  %s\n", i+1, workload.Ms(g.MissCompileTime), kindText(g.Prepared), clipStmt(g.Text))
			line := fmt.Sprintf("%s executions, %s hit, avg %s", workload.Count(g.Executions),
				workload.Pct(float64(g.Hits)/float64(max(g.Executions, 1))), workload.Ms(g.AvgLatency))
			if g.Blocker.Key != "" {
				line += "; cannot use the cache: " + g.Blocker.Title
			}
			t.printf("     %s\n", line)
		}
	}
	t.adviceText(r.Advice)
	t.settingsText(r.Settings)
	t.notesText(append(append([]string(nil), r.Notes...), h.Incomplete...))
	return t.err
}

func (t *textWriter) adviceText(a workload.Advice) {
	t.printf("\nRecommendation (%s): %s.\n", a.Verdict, a.Summary)
	for _, e := range a.Evidence {
		t.printf("  - %s\n", e)
	}
	for _, s := range a.Changes {
		t.printf("  %s: %s → %s (%s)\n", s.Variable, orDash(s.Current), s.Suggested, s.Why)
	}
	for _, c := range a.Caveats {
		t.printf("  Note: %s\n", c)
	}
}

func (t *textWriter) settingsText(settings map[string]string) {
	if len(settings) == 0 {
		return
	}
	t.printf("\nSettings read:\n")
	for _, name := range sortedKeys(settings) {
		t.printf("  %s = %s\n", name, settings[name])
	}
}

func (t *textWriter) notesText(notes []string) {
	if len(notes) == 0 {
		return
	}
	t.printf("\nWhat the read could not see:\n")
	for _, n := range notes {
		t.printf("  - %s\n", n)
	}
}

// table writes aligned columns (first row is the header).
func (t *textWriter) table(ind string, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if n := len([]rune(c)); n > widths[i] {
				widths[i] = n
			}
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		t.printf("%s%s\n", ind, strings.TrimRight(b.String(), " "))
	}
}

// MVCCText writes `tiform check mvcc` as text.
func MVCCText(w io.Writer, h CheckHeader, v MVCCView) error {
	h, v = diag.PrintableCopy(h), diag.PrintableCopy(v)
	t := &textWriter{w: w}
	r := v.Report
	t.printf("tiform check mvcc: %s%s\n\n", h.nameText(), h.Cluster)
	t.printf("Read: %s.\n", readLine(r.Read))
	t.printf("Threshold: %s versions scanned per key kept (%s).\n", workload.Amp(r.Threshold), r.ThresholdSource)
	if r.GCLifeTime != "" {
		t.printf("tidb_gc_life_time = %s (older versions are kept that long).\n", r.GCLifeTime)
	}
	if len(r.Tables) == 0 && r.Verdict != workload.MVCCCannotJudge {
		t.printf("\nNo statement scans %sx more MVCC versions than it keeps.\n", workload.Amp(r.Threshold))
	}
	for _, tb := range r.Tables {
		t.printf("\n%s: %s\n", tb.Table, tb.Verdict)
		t.printf("  %s\n", tb.Why)
		t.printf("  %s executions, %s stale versions stepped over\n", workload.Count(tb.Executions), workload.Count(int64(tb.StaleVersions)))
		for _, s := range tb.Statements {
			t.printf("  - %s\n", clipStmt(s.Text))
			line := fmt.Sprintf("%s executions, %s versions scanned for %s keys kept per execution (%sx), avg %s",
				workload.Count(s.Executions), workload.Count(int64(s.AvgTotalKeys+0.5)), workload.Amp(s.AvgProcessedKeys),
				workload.Amp(s.Amplification), workload.Ms(s.AvgLatency))
			if r.RocksDB && s.AvgDeleteSkipped > 0 {
				line += fmt.Sprintf(", %s RocksDB tombstones skipped", workload.Count(int64(s.AvgDeleteSkipped+0.5)))
			}
			t.printf("    %s\n", line)
		}
	}
	t.printf("\nVerdict (%s): %s.\n", r.Verdict, r.Summary)
	t.imeText(v)
	t.printf("\nAfter enabling, watch:\n")
	for _, w := range r.Watch {
		t.printf("  - %s\n", w)
	}
	t.notesText(append(append([]string(nil), r.Notes...), h.Incomplete...))
	return t.err
}

func (t *textWriter) imeText(v MVCCView) {
	state := v.IMEEnabled
	if state == "" {
		state = "unknown"
	}
	t.printf("\nIn-Memory Engine on this cluster: in-memory-engine.enable = %s.\n", state)
	if len(v.IMEFindings) == 0 {
		t.printf("  The guards report no prerequisite or known problem for enabling it on these versions.\n")
		return
	}
	t.printf("  What the guards say about enabling it here:\n")
	for _, f := range v.IMEFindings {
		t.printf("\n  %s\n", guard.Header(f))
		for _, l := range strings.SplitAfter(guard.Body(f), "\n") {
			if l != "" {
				t.printf("  %s", l)
			}
		}
	}
}

func kindText(prepared bool) string {
	if prepared {
		return "prepared"
	}
	return "not prepared"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stmtMax is how much of a statement text a report shows.
const stmtMax = 110

// clipStmt shortens a normalized statement for a report line.
func clipStmt(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= stmtMax {
		return string(r)
	}
	return string(r[:stmtMax-3]) + "..."
}

// PlanCacheMarkdown writes `tiform check plan-cache` as Markdown.
func PlanCacheMarkdown(w io.Writer, h CheckHeader, r workload.PlanCacheReport) error {
	h, r = diag.PrintableCopy(h), diag.PrintableCopy(r)
	m := &textWriter{w: w}
	m.printf("## tiform check plan-cache%s\n\n%s\n\n", h.markdownName(), mdText(h.Cluster))
	m.printf("Read: %s.\n", mdText(readLine(r.Read)))
	m.printf("\n**Recommendation (%s):** %s.\n", mdText(string(r.Advice.Verdict)), mdText(r.Advice.Summary))
	if r.Reduced {
		m.printf("\n> **Reduced report.** What it cannot see:\n")
		for _, g := range r.CannotSee {
			m.printf("> - %s\n", mdText(g))
		}
	}
	m.printf("\n| statements | %s |\n|---|%s\n", strings.Join(ratioHeader, " | "), strings.Repeat("---:|", len(ratioHeader)))
	for _, row := range []struct {
		name string
		r    workload.Ratio
	}{{"all", r.All}, {"prepared", r.Prepared}, {"not prepared", r.NonPrepared}} {
		m.printf("| %s | %s |\n", row.name, strings.Join(ratioRow(row.r, r.Reduced), " | "))
	}
	if len(r.NotCounted) > 0 {
		m.printf("\n### Not counted as misses\n\n| executions | statements | what | why | check |\n|---:|---:|---|---|---|\n")
		for _, nc := range r.NotCounted {
			m.printf("| %s | %d | %s | %s | %s |\n", workload.Count(nc.Executions), nc.Digests, mdText(nc.Title), mdText(nc.Meaning), mdText(nc.Check))
		}
	}
	if len(r.Reasons) > 0 {
		m.printf("\n### Top reasons statements cannot use the cache\n\n| reason | executions | share | TiDB says | fix |\n|---|---:|---:|---|---|\n")
		for _, rc := range r.Reasons {
			m.printf("| %s | %s | %s | %s | %s |\n", mdLink(rc.Title, rc.Link), workload.Count(rc.Unqualified),
				workload.Pct(rc.Share), mdCode(strings.Join(rc.Texts, "; ")), mdText(rc.Fix))
		}
	}
	if len(r.Gains) > 0 {
		m.printf("\n### Statements that would gain most\n\n| compile time of misses | kind | statement | executions | cannot use the cache |\n|---:|---|---|---:|---|\n")
		for _, g := range r.Gains {
			m.printf("| %s | %s | %s | %s | %s |\n", workload.Ms(g.MissCompileTime), kindText(g.Prepared), mdCode(clipStmt(g.Text)),
				workload.Count(g.Executions), mdText(g.Blocker.Title))
		}
	}
	markdownAdvice(m, r.Advice)
	markdownNotes(m, append(append([]string(nil), r.Notes...), h.Incomplete...))
	return m.err
}

func markdownAdvice(m *textWriter, a workload.Advice) {
	if len(a.Evidence)+len(a.Changes)+len(a.Caveats) == 0 {
		return
	}
	m.printf("\n### Evidence\n\n")
	for _, e := range a.Evidence {
		m.printf("- %s\n", mdText(e))
	}
	for _, s := range a.Changes {
		m.printf("- %s: %s → **%s** (%s)\n", mdCode(s.Variable), mdText(orDash(s.Current)), mdText(s.Suggested), mdText(s.Why))
	}
	for _, c := range a.Caveats {
		m.printf("- Note: %s\n", mdText(c))
	}
}

func markdownNotes(m *textWriter, notes []string) {
	if len(notes) == 0 {
		return
	}
	m.printf("\n> What the read could not see:\n")
	for _, n := range notes {
		m.printf("> - %s\n", mdText(n))
	}
}

// MVCCMarkdown writes `tiform check mvcc` as Markdown.
func MVCCMarkdown(w io.Writer, h CheckHeader, v MVCCView) error {
	h, v = diag.PrintableCopy(h), diag.PrintableCopy(v)
	m := &textWriter{w: w}
	r := v.Report
	m.printf("## tiform check mvcc%s\n\n%s\n\n", h.markdownName(), mdText(h.Cluster))
	m.printf("Read: %s. Threshold: %s versions scanned per key kept (%s).\n",
		mdText(readLine(r.Read)), workload.Amp(r.Threshold), mdText(r.ThresholdSource))
	m.printf("\n**Verdict (%s):** %s.\n", mdText(string(r.Verdict)), mdText(r.Summary))
	if len(r.Tables) > 0 {
		m.printf("\n| table | verdict | versions per key kept | stale versions | statement | versions scanned / kept per execution | tombstones skipped |\n|---|---|---:|---:|---|---:|---:|\n")
		for _, tb := range r.Tables {
			for i, s := range tb.Statements {
				name, verdict, amp, stale := "", "", "", ""
				if i == 0 {
					name, verdict, amp, stale = mdCode(tb.Table), mdText(string(tb.Verdict)), workload.Amp(tb.Amplification), workload.Count(int64(tb.StaleVersions))
				}
				m.printf("| %s | %s | %s | %s | %s | %s / %s | %s |\n", name, verdict, amp, stale, mdCode(clipStmt(s.Text)),
					workload.Count(int64(s.AvgTotalKeys+0.5)), workload.Amp(s.AvgProcessedKeys), workload.Count(int64(s.AvgDeleteSkipped+0.5)))
			}
		}
	}
	state := v.IMEEnabled
	if state == "" {
		state = "unknown"
	}
	m.printf("\n### In-Memory Engine on this cluster\n\n`in-memory-engine.enable` = %s.\n", mdText(state))
	if len(v.IMEFindings) > 0 {
		m.printf("\nWhat the guards say about enabling it here:\n\n")
	}
	for _, f := range v.IMEFindings {
		m.printf("- **%s[%s]** %s (%s)\n", mdText(f.Severity.String()), mdText(f.Code), mdText(f.Summary), mdLink("link", f.Link))
	}
	m.printf("\n### After enabling, watch\n\n")
	for _, w := range r.Watch {
		m.printf("- %s\n", mdText(w))
	}
	markdownNotes(m, append(append([]string(nil), r.Notes...), h.Incomplete...))
	return m.err
}

// evidence writes a plan cluster's evidence: the figures behind a planned
// plan-cache or In-Memory Engine change, or why there are none.
func (t *textWriter) evidence(ev *workload.Evidence) {
	if ev == nil {
		return
	}
	t.printf("\nEvidence from the cluster's statement statistics:\n")
	if ev.PlanCache == nil && ev.MVCC == nil {
		t.printf("  %s\n", t.color(ansiYellow, "none: "+ev.Unavailable+"; run `tiform check plan-cache` / `tiform check mvcc` against the cluster before applying"))
		return
	}
	if r := ev.PlanCache; r != nil {
		t.printf("  Plan cache (%s): %s\n", r.Source, r.Headline())
		for _, rc := range r.Reasons {
			t.printf("    - %s of executions: %s (TiDB: %s)\n", workload.Pct(rc.Share), rc.Title, strings.Join(rc.Texts, "; "))
		}
		for _, g := range append(append([]string(nil), r.CannotSee...), r.Notes...) {
			t.printf("    - not visible: %s\n", g)
		}
		t.printf("    Recommendation (%s): %s.\n", r.Advice.Verdict, r.Advice.Summary)
		for _, s := range r.Advice.Changes {
			t.printf("      %s: %s -> %s\n", s.Variable, orDash(s.Current), s.Suggested)
		}
	}
	if r := ev.MVCC; r != nil {
		t.printf("  MVCC versions (%s): %s\n", r.Source, r.Headline())
		for _, tb := range r.Tables {
			t.printf("    - %s (%s): %s\n", tb.Table, tb.Verdict, tb.Why)
		}
		for _, n := range r.Notes {
			t.printf("    - not visible: %s\n", n)
		}
		t.printf("    Verdict (%s): %s.\n", r.Verdict, r.Summary)
	}
	if ev.Unavailable != "" {
		t.printf("  Not read: %s\n", ev.Unavailable)
	}
	t.printf("  (`tiform check plan-cache` and `tiform check mvcc` give the full reports.)\n")
}

// markdownEvidence is a cluster's evidence in a comment, "" for none. When
// there are no figures and a finding of the cluster already gives the reason
// (TF125 and its kin cite it), the comment says it there only: each fact once.
func markdownEvidence(ev *workload.Evidence, findings []guard.Finding) string {
	if ev == nil {
		return ""
	}
	m := &textWriter{w: &strings.Builder{}}
	if ev.PlanCache == nil && ev.MVCC == nil {
		for _, f := range findings {
			if strings.Contains(f.Summary, ev.Unavailable) || strings.Contains(f.Detail, ev.Unavailable) {
				return ""
			}
		}
		m.printf("#### Evidence from the cluster's statement statistics\n\n")
		m.printf("> **None:** %s. Run `tiform check plan-cache` / `tiform check mvcc` against the cluster before applying.\n", mdText(ev.Unavailable))
		return m.w.(*strings.Builder).String()
	}
	m.printf("#### Evidence from the cluster's statement statistics\n\n")
	if r := ev.PlanCache; r != nil {
		m.printf("**Plan cache** (%s): %s.\n\n", mdCode(r.Source), mdText(r.Headline()))
		m.printf("| statements | %s |\n|---|%s\n", strings.Join(ratioHeader, " | "), strings.Repeat("---:|", len(ratioHeader)))
		m.printf("| all | %s |\n| prepared | %s |\n| not prepared | %s |\n\n", strings.Join(ratioRow(r.All, r.Reduced), " | "),
			strings.Join(ratioRow(r.Prepared, r.Reduced), " | "), strings.Join(ratioRow(r.NonPrepared, r.Reduced), " | "))
		for _, rc := range r.Reasons {
			m.printf("- %s of executions: %s: %s\n", workload.Pct(rc.Share), mdLink(rc.Title, rc.Link), mdText(rc.Fix))
		}
		for _, g := range append(append([]string(nil), r.CannotSee...), r.Notes...) {
			m.printf("- Not visible: %s\n", mdText(g))
		}
		m.printf("\n**Recommendation (%s):** %s.\n", mdText(string(r.Advice.Verdict)), mdText(r.Advice.Summary))
	}
	if r := ev.MVCC; r != nil {
		m.printf("\n**MVCC versions** (%s): %s.\n\n", mdCode(r.Source), mdText(r.Headline()))
		for _, tb := range r.Tables {
			m.printf("- %s (%s): %s\n", mdCode(tb.Table), mdText(string(tb.Verdict)), mdText(tb.Why))
		}
		for _, n := range r.Notes {
			m.printf("- Not visible: %s\n", mdText(n))
		}
		m.printf("\n**Verdict (%s):** %s.\n", mdText(string(r.Verdict)), mdText(r.Summary))
	}
	if ev.Unavailable != "" {
		m.printf("\n> Not read: %s\n", mdText(ev.Unavailable))
	}
	return m.w.(*strings.Builder).String()
}

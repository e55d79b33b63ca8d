package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// budgetCluster is a v8.5.1 cluster as a pull request finds it: five
// resource groups (the guards' TF110 concerns each of those with MEDIUM or
// LOW priority, unmanaged ones included), TiKV and PD settings declared and
// in sync.
func budgetCluster(name, prefix string) (*state.DesiredCluster, *state.Live) {
	l := liveCluster("8.5.1", prefix)
	l.Variables["max_execution_time"] = "0"
	medium, low, high := "MEDIUM", "LOW", "HIGH"
	for _, g := range []struct{ name, prio string }{{"oltp", high}, {"batch", low}, {"report", medium}, {"etl", low}} {
		l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: g.name, RUPerSec: i64(1000), Priority: str(g.prio), Burstable: str(state.BurstOff)})
	}
	dc := &state.DesiredCluster{Name: name, Range: at(1),
		Config: []state.ConfigSetting{
			cfg(state.TiKV, "storage.block-cache.capacity", "8GiB", 3),
			cfg(state.PD, "schedule.max-merge-region-size", "20", 6),
		},
		Variables: []state.VariableSetting{variable("max_execution_time", "0", 10)},
		ResourceGroups: []state.ResourceGroup{
			{Name: "oltp", RUPerSec: i64(1000), Priority: &high, Range: at(14)},
			{Name: "batch", RUPerSec: i64(1000), Priority: &low, Range: at(18)},
			{Name: "report", RUPerSec: i64(1000), Priority: &medium, Range: at(22)},
		},
	}
	return dc, l
}

// budgetPlan plans clusters with the real guards (the budget is about what a
// reviewer really gets).
func budgetPlan(t *testing.T, dcs []*state.DesiredCluster, lives []*state.Live) *planner.Plan {
	t.Helper()
	d := &state.Desired{Clusters: dcs, ConfigHash: "sha256:budget"}
	m := map[string]*state.Live{}
	for i, dc := range dcs {
		m[dc.Name] = lives[i]
	}
	p, err := planner.Build(d, m, planner.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mdLines(md []byte) int { return strings.Count(string(md), "\n") }

// checkStructure checks what the budget must never break, on the lines of
// md and on goldmark's reading of it: every code fence is closed by a fence
// at least as long, every <details> is closed outside a fence and never
// nested, and every table delimiter row gives a table.
func checkStructure(t *testing.T, md []byte) {
	t.Helper()
	checkMarkdown(t, md)
	fence, details, delimiters := "", 0, 0
	for i, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "```") {
			ticks := line[:len(line)-len(strings.TrimLeft(line, "`"))]
			switch {
			case fence == "":
				fence = ticks
			case strings.TrimLeft(line, "`") == "" && len(ticks) >= len(fence):
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "<details>"):
			if details > 0 {
				t.Errorf("line %d: <details> inside <details>", i+1)
			}
			details++
		case line == "</details>":
			details--
			if details < 0 {
				t.Errorf("line %d: </details> without <details>", i+1)
			}
		case strings.HasPrefix(line, "|---"):
			delimiters++
		}
	}
	if fence != "" {
		t.Errorf("a code fence %q is never closed", fence)
	}
	if details != 0 {
		t.Errorf("%d <details> never closed", details)
	}
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(md))
	tables := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && n.Kind() == east.KindTable {
			tables++
		}
		return ast.WalkContinue, nil
	})
	if tables != delimiters {
		t.Errorf("goldmark reads %d tables, the comment has %d table delimiter rows", tables, delimiters)
	}
}

// The pull-request comment's budget: a one-variable change on one cluster
// is at most 40 lines of Markdown, its standing findings (TF110 on groups
// the change does not touch) one line; a fleet with no changes is a headline
// and that line.
func TestMarkdownBudget(t *testing.T) {
	dc, l := budgetCluster("prod", "10.0.1")
	dc.Variables[0] = variable("max_execution_time", "60000", 10)
	one := render(t, func(b *bytes.Buffer) error {
		return Markdown(b, budgetPlan(t, []*state.DesiredCluster{dc}, []*state.Live{l}), MarkdownOptions{})
	})
	golden(t, "budget-one-variable.md", one)
	checkStructure(t, one)
	if n := mdLines(one); n > 40 {
		t.Errorf("a one-variable change takes %d lines of Markdown, the budget is 40:\n%s", n, one)
	}
	if !strings.Contains(string(one), "Standing findings, not about this change: 1 warning (`TF110`). `tiform plan` lists them") {
		t.Errorf("the standing TF110 warning is not folded into one line:\n%s", one)
	}
	if strings.Contains(strings.SplitN(string(one), "\n", 4)[2], "TF110") {
		t.Errorf("the headline names a standing finding:\n%s", one)
	}

	var dcs []*state.DesiredCluster
	var lives []*state.Live
	for i, name := range []string{"tokyo", "osaka", "nagoya", "sapporo", "kobe"} {
		dc, l := budgetCluster(name, "10.0."+string(rune('1'+i)))
		l.ResourceGroups = l.ResourceGroups[:2] // default and oltp: nothing to warn about but default
		dc.ResourceGroups = dc.ResourceGroups[:1]
		dcs, lives = append(dcs, dc), append(lives, l)
	}
	fleet := render(t, func(b *bytes.Buffer) error { return Markdown(b, budgetPlan(t, dcs, lives), MarkdownOptions{}) })
	golden(t, "budget-fleet-in-sync.md", fleet)
	checkStructure(t, fleet)
	if n := mdLines(fleet); n > len(dcs) {
		t.Errorf("a fleet of %d clusters with no changes takes %d lines of Markdown, the budget is one per cluster:\n%s", len(dcs), n, fleet)
	}
}

// budgetFleet is n clusters (names from a fixed list, then cNN) as
// budgetCluster makes them: each with standing TF110 warnings and an
// unmanaged group.
func budgetFleet(n int) ([]*state.DesiredCluster, []*state.Live) {
	names := []string{"tokyo", "osaka", "nagoya", "sapporo", "kobe", "fukuoka", "sendai", "hiroshima"}
	var dcs []*state.DesiredCluster
	var lives []*state.Live
	for i := range n {
		name := fmt.Sprintf("c%02d", i)
		if i < len(names) {
			name = names[i]
		}
		dc, l := budgetCluster(name, fmt.Sprintf("10.%d.%d", i/200, i%200))
		dcs, lives = append(dcs, dc), append(lives, l)
	}
	return dcs, lives
}

// A one-variable change on one cluster of a fleet whose clusters all have
// standing findings is at most 30 lines: the change, its cluster's plan
// hash, the other clusters on one line, the standing findings on one line.
func TestMarkdownOneChangeInFleet(t *testing.T) {
	dcs, lives := budgetFleet(3)
	dcs[0].Variables[0] = variable("max_execution_time", "60000", 10)
	md := render(t, func(b *bytes.Buffer) error {
		return Markdown(b, budgetPlan(t, dcs, lives), MarkdownOptions{Dir: "clusters"})
	})
	golden(t, "budget-one-change-in-fleet.md", md)
	checkStructure(t, md)
	if n := mdLines(md); n > 30 {
		t.Errorf("a one-variable change on one cluster of three takes %d lines, the budget is 30:\n%s", n, md)
	}
	for _, want := range []string{
		"<!-- tiform:plan dir=clusters -->\n",
		"In sync (2): `osaka`, `nagoya`.",
		"Standing findings, not about this change: 1 warning (`TF110`) on 3 clusters. `tiform plan --chdir clusters` lists them",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the comment lacks %q:\n%s", want, md)
		}
	}
	if c := strings.Count(string(md), "resource_group."); c != 0 {
		t.Errorf("standing findings name their addresses %d times; they are one line:\n%s", c, md)
	}
}

// One baseline variable changed on 40 clusters (issue 25: 78,342 characters
// before) is one row naming the 40 clusters, within the budget.
func TestMarkdownFleetBaselineChange(t *testing.T) {
	dcs, lives := budgetFleet(40)
	for _, dc := range dcs {
		dc.Variables[0] = variable("max_execution_time", "60000", 10)
	}
	md := render(t, func(b *bytes.Buffer) error {
		return Markdown(b, budgetPlan(t, dcs, lives), MarkdownOptions{Dir: "clusters", PlanFile: "plan.tfplan"})
	})
	golden(t, "budget-fleet-baseline.md", md)
	checkStructure(t, md)
	if len(md) > MarkdownBudget {
		t.Errorf("the 40-cluster baseline change takes %d characters, the budget is %d", len(md), MarkdownBudget)
	}
	var rows []string
	for _, line := range strings.Split(string(md), "\n") {
		if strings.Contains(line, "`variable.max_execution_time`") && strings.HasPrefix(line, "| ") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 1 || !strings.Contains(rows[0], "| 40 clusters: tokyo, osaka, nagoya,") {
		t.Errorf("the shared change is %d rows, want one naming the 40 clusters: %q", len(rows), rows)
	}
	if c := strings.Count(string(md), "sha256:"); c != 40 {
		t.Errorf("the comment shows %d plan hashes, want one per cluster (40)", c)
	}
	if strings.Contains(string(md), "Shortened") {
		t.Errorf("the baseline change was shortened; it fits whole")
	}
}

// A plan whose statement-statistics read failed says so once (issue 25: the
// reason was in the evidence quote, the finding and the details heading).
func TestMarkdownEvidenceFailureOnce(t *testing.T) {
	dc, l := budgetCluster("prod", "10.0.1")
	dc.Variables = append(dc.Variables, variable("tidb_enable_non_prepared_plan_cache", "ON", 11))
	l.Variables["tidb_enable_non_prepared_plan_cache"] = "OFF"
	const why = "reading the statement statistics failed: Error 1227 (42000): Access denied"
	d := &state.Desired{Clusters: []*state.DesiredCluster{dc}, ConfigHash: "sha256:budget"}
	p, err := planner.Build(d, map[string]*state.Live{"prod": l}, planner.Options{Now: now,
		Evidence: map[string]*workload.Evidence{"prod": {Unavailable: why}}})
	if err != nil {
		t.Fatal(err)
	}
	md := render(t, func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) })
	golden(t, "budget-evidence-failed.md", md)
	checkStructure(t, md)
	if c := strings.Count(string(md), "Access denied"); c != 1 {
		t.Errorf("the failed read is told %d times, want once:\n%s", c, md)
	}
}

// A finding that concerns several addresses is one bullet naming each once,
// with its detail (TF141's topology edit of every key) folded once.
func TestMarkdownFindingOncePerCode(t *testing.T) {
	dc, l := budgetCluster("prod", "10.0.1")
	for _, a := range l.InstancesOf(state.TiKV) {
		setRow(l, state.TiKV, a, "gc.ratio-threshold", "1.1")
		setRow(l, state.TiKV, a, "raftstore.store-pool-size", "2")
	}
	dc.Config = append(dc.Config, cfg(state.TiKV, "gc.ratio-threshold", "1.3", 4), cfg(state.TiKV, "raftstore.store-pool-size", "4", 5),
		cfg(state.TiKV, "storage.block-cache.capacity", "10GiB", 3))
	dc.Config = dc.Config[1:] // the declaration at line 3 is replaced
	md := string(render(t, func(b *bytes.Buffer) error {
		return Markdown(b, budgetPlan(t, []*state.DesiredCluster{dc}, []*state.Live{l}), MarkdownOptions{})
	}))
	golden(t, "budget-three-keys.md", []byte(md))
	_, findings, ok := strings.Cut(md, "#### Guard findings about this change")
	if !ok {
		t.Fatalf("no findings section:\n%s", md)
	}
	for code, want := range map[string]int{"- **info** `TF141`": 1, "**TF141**": 1, "tiup cluster edit-config": 1, "`TF110`": 1, "- **warning** `TF110`": 0} {
		if c := strings.Count(findings, code); c != want {
			t.Errorf("%q appears %d times in the findings, want %d:\n%s", code, c, want, findings)
		}
	}
	for _, key := range []string{"gc.ratio-threshold", "raftstore.store-pool-size", "storage.block-cache.capacity"} {
		if c := strings.Count(findings, "`tikv."+key+"`"); c != 1 {
			t.Errorf("tikv.%s is named %d times in the findings, want once", key, c)
		}
	}
}

// Past the budget the comment degrades in the documented order — the folded
// details, then the per-cluster sections, then rows from the end — stays
// valid Markdown at each step, and says what it left out and where the full
// plan is.
func TestMarkdownDegrades(t *testing.T) {
	dcs, lives := budgetFleet(40)
	for i, dc := range dcs {
		dc.Variables[0] = variable("max_execution_time", fmt.Sprint(60000+i), 10)
		for k := range 8 {
			name := fmt.Sprintf("tidb_opt_factor_%d", k)
			lives[i].Variables[name] = "1"
			dc.Variables = append(dc.Variables, variable(name, fmt.Sprintf("%d.%s", 2+i, strings.Repeat("5", 60)), 20+k))
		}
		lives[i].ResourceGroups = append(lives[i].ResourceGroups, state.ResourceGroup{Name: "etl_" + dc.Name, RUPerSec: i64(10), Priority: str("HIGH")})
	}
	p := budgetPlan(t, dcs, lives)
	o := MarkdownOptions{Dir: "clusters", PlanFile: "plan.tfplan", Budget: 1 << 30}
	full := render(t, func(b *bytes.Buffer) error { return Markdown(b, p, o) })
	checkStructure(t, full)
	if len(full) <= MarkdownBudget || strings.Contains(string(full), "Shortened") {
		t.Fatalf("the whole comment takes %d characters: the test needs more than %d, unshortened", len(full), MarkdownBudget)
	}
	rows := strings.Count(string(full), "\n| ")

	step := func(budget int) string {
		t.Helper()
		o.Budget = budget
		md := render(t, func(b *bytes.Buffer) error { return Markdown(b, p, o) })
		checkStructure(t, md)
		if len(md) > budget {
			t.Errorf("budget %d: the comment takes %d", budget, len(md))
		}
		if !strings.Contains(string(md), "Shortened to fit a pull-request comment") ||
			!strings.Contains(string(md), "The full plan is the saved plan `plan.tfplan` (the workflow keeps it as an artifact): `tiform show plan.tfplan`") {
			t.Errorf("budget %d: the comment does not say it was shortened and where the full plan is:\n%s", budget, md)
		}
		return string(md)
	}
	noDetails := step(len(full) - 1)
	if strings.Contains(noDetails, "<details>") || !strings.Contains(noDetails, "\n### ") || strings.Count(noDetails, "\n| ") != rows ||
		!strings.Contains(noDetails, "Left out: the folded details") {
		t.Errorf("first the details go, and only they:\n%.3000s", noDetails)
	}
	noSections := step(len(noDetails) - 10) // the note may shrink by a digit or two
	if strings.Contains(noSections, "\n### ") || strings.Count(noSections, "\n| ") != rows || !strings.Contains(noSections, "per-cluster sections") {
		t.Errorf("then the per-cluster sections go, and only they:\n%.3000s", noSections)
	}
	if len(noSections) <= MarkdownBudget {
		t.Fatalf("the comment without details and sections takes %d characters: the test needs more than %d", len(noSections), MarkdownBudget)
	}
	fitted := step(MarkdownBudget)
	kept := strings.Count(fitted, "\n| ")
	if kept >= rows || kept < rows/3 || !strings.Contains(fitted, "of 360 change rows") || !strings.Contains(fitted, "more left out to fit the comment") {
		t.Errorf("then rows go from the end (%d of %d kept):\n%.3000s", kept, rows, fitted)
	}
	tiny := step(2000)
	if !strings.HasPrefix(tiny, "<!-- tiform:plan dir=clusters -->\n## tiform plan\n") {
		t.Errorf("a tiny budget loses the marker or title:\n%s", tiny)
	}
}

package render

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
)

// changeRow is one row of the comment's changes table: a change that is the
// same on every cluster it lists (same address, action, before and after
// values, how it is applied, source and guards), so that a baseline change
// on 40 clusters is one row naming them, not 40 sections.
type changeRow struct {
	change   *plans.Change // the first cluster's
	cells    []string      // the row's cells but the number and the clusters: the identity
	clusters []string
	// sql and why are the statements and reasons, each distinct one once
	// with the clusters it belongs to (they can differ where the row's cells
	// do not: a per-instance statement names the instance).
	sql []clusterText
	why []clusterText
}

// clusterText is a text and the clusters it is about.
type clusterText struct {
	text     string
	clusters []string
}

// addClusterText adds cluster to the entry of text in ts, or a new entry.
func addClusterText(ts []clusterText, text, cluster string) []clusterText {
	for i := range ts {
		if ts[i].text == text {
			ts[i].clusters = append(ts[i].clusters, cluster)
			return ts
		}
	}
	return append(ts, clusterText{text: text, clusters: []string{cluster}})
}

// changeRows merges the changes of every cluster plan into rows, in the
// order of each row's first appearance (for one cluster: apply order).
func changeRows(p *planner.Plan) []*changeRow {
	var rows []*changeRow
	idx := map[string]*changeRow{}
	for _, cp := range p.Clusters {
		for _, c := range cp.Changes {
			cells := changeCells(cp, c)
			key := strings.Join(cells, " | ")
			r, ok := idx[key]
			if !ok {
				r = &changeRow{change: c, cells: cells}
				idx[key] = r
				rows = append(rows, r)
			}
			r.clusters = append(r.clusters, cp.Name)
			var sql strings.Builder
			for _, s := range c.Statements {
				sql.WriteString(s.SQL + ";\n")
			}
			r.sql = addClusterText(r.sql, sql.String(), cp.Name)
			r.why = addClusterText(r.why, c.Reason, cp.Name)
		}
	}
	return rows
}

// changeCells are a change's cells after its number: symbol, address, the
// before values grouped by value, the after value, both in full, how it is
// applied, the HCL source and guards.
func changeCells(cp *planner.ClusterPlan, c *plans.Change) []string {
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
	return []string{"`" + string(rune(c.Action)) + "`", mdCode(c.Addr.String()), before,
		mdValue(c.After), applied, mdCode(c.Range.FileLine()), strings.Join(guards, " ")}
}

// clusterNames names clusters in a cell or a sentence: "tokyo", or "3
// clusters: tokyo, osaka, kobe".
func clusterNames(names []string) string {
	esc := make([]string, len(names))
	for i, n := range names {
		esc[i] = mdText(n)
	}
	if len(names) == 1 {
		return esc[0]
	}
	return fmt.Sprintf("%d clusters: %s", len(names), strings.Join(esc, ", "))
}

// markdownChanges adds the changes table (rows), then the SQL and, when
// there are several rows, the reasons for their order, each folded. In a
// fleet a row names its clusters; each cluster runs its own rows in the
// table's order.
func markdownChanges(d *mdDoc, rows []*changeRow, fleet bool) {
	head := "| # | | Address | Before | After | Applied as | Source | Guards |\n|---:|:---:|---|---|---|---|---|---|\n"
	if fleet {
		head = "| # | | Address | Before | After | Clusters | Applied as | Source | Guards |\n|---:|:---:|---|---|---|---|---|---|---|\n"
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		cells := r.cells
		if fleet {
			// The clusters go after the after value.
			cells = append(append(append([]string(nil), cells[:4]...), mdCell(clusterNames(r.clusters))), cells[4:]...)
		}
		lines[i] = fmt.Sprintf("| %d | %s |", i+1, strings.Join(cells, " | "))
	}
	d.addRows(head, lines, "change rows")

	var sql strings.Builder
	n := 0
	for i, r := range rows {
		for _, s := range r.sql {
			n += strings.Count(s.text, ";\n") * len(s.clusters)
			switch {
			case fleet:
				fmt.Fprintf(&sql, "-- %d. %s %s on %s\n", i+1, string(rune(r.change.Action)), r.change.Addr, clusterNames(s.clusters))
			case len(rows) > 1:
				fmt.Fprintf(&sql, "-- %d. %s %s\n", i+1, string(rune(r.change.Action)), r.change.Addr)
			}
			sql.WriteString(s.text)
		}
	}
	order := "in apply order"
	if fleet {
		order = "each cluster in the order of its rows"
	}
	d.add(mdDetails, fmt.Sprintf("<details><summary>SQL (%s, %s)</summary>\n\n%s\n</details>\n",
		plural(n, "statement", "statements"), order, mdFence("sql", sql.String())))
	if len(rows) > 1 {
		var why strings.Builder
		for i, r := range rows {
			var parts []string
			for _, w := range r.why {
				text := mdText(w.text)
				if len(r.why) > 1 {
					text = "on " + clusterNames(w.clusters) + ": " + text
				}
				parts = append(parts, text)
			}
			fmt.Fprintf(&why, "%d. %s: %s\n", i+1, mdCode(r.change.Addr.String()), strings.Join(parts, "; "))
		}
		d.add(mdDetails, "<details><summary>Why this order</summary>\n\n"+why.String()+"\n</details>\n")
	}
}

// mdFence is body in a fenced code block whose fence is longer than any run
// of backticks in it, so that nothing in body can close it.
func mdFence(info, body string) string {
	longest, run := 0, 0
	for _, r := range body {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + info + "\n" + strings.TrimRight(body, "\n") + "\n" + fence + "\n"
}

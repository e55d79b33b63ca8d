package render

import (
	"fmt"
	"io"

	"github.com/tiform/tiform/planner"
)

// ClusterLine is one cluster's entry in a fleet's per-cluster summary: the
// same shape in every command's report (plan, apply, check, state pull), so
// that a reader finds each cluster's status and why in one place.
type ClusterLine struct {
	Name   string
	Status planner.Status
	// Detail is one line: the counts, the finding codes, or why the cluster
	// could not be read.
	Detail string
}

// PlanLines are a plan's per-cluster lines (StatusDetail).
func PlanLines(p *planner.Plan) []ClusterLine {
	out := make([]ClusterLine, len(p.Clusters))
	for i, cp := range p.Clusters {
		out[i] = ClusterLine{Name: cp.Name, Status: cp.Status(), Detail: StatusDetail(cp)}
	}
	return out
}

// StatusLines writes lines as an aligned list, one cluster a line:
// "  tokyo    changes      0 to create, 1 to change, 0 to delete".
func StatusLines(w io.Writer, lines []ClusterLine, color bool) error {
	t := &textWriter{w: w, o: TextOptions{Color: color}}
	t.statusLines(lines)
	return t.err
}

func (t *textWriter) statusLines(lines []ClusterLine) {
	width := 0
	for _, l := range lines {
		width = max(width, len(l.Name))
	}
	for _, l := range lines {
		t.printf("  %-*s  %s  %s\n", width, l.Name, t.color(statusColor(l.Status), fmt.Sprintf("%-11s", l.Status)), l.Detail)
	}
}

func statusColor(s planner.Status) string {
	switch s {
	case planner.StatusInSync, planner.StatusOK:
		return ansiGreen
	case planner.StatusChanges:
		return ansiYellow
	}
	return ansiRed
}

// markdownStatusTable writes lines as a GFM table.
func markdownStatusTable(m *textWriter, lines []ClusterLine) {
	m.printf("| cluster | status | |\n|---|---|---|\n")
	for _, l := range lines {
		m.printf("| `%s` | %s | %s |\n", l.Name, l.Status, mdCell(l.Detail))
	}
}

package render

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/views"
)

// persistedJSON is a cluster plan's persisted-layer report as the views
// show it (plan and drift, JSON, text and Markdown render from it); nil
// when there is none.
func persistedJSON(cp *planner.ClusterPlan) *views.Persisted {
	l := cp.Layers
	if l == nil || cp.Failure != nil {
		return nil
	}
	out := &views.Persisted{Tool: string(l.Tool), Files: views.Strings(l.Files), Flagged: l.Flagged(), Reverted: l.Reverted(),
		Settings: []views.PersistedSetting{}}
	for _, s := range l.Settings {
		v := views.PersistedSetting{Address: s.Addr.String(), Status: string(s.Status), Desired: s.Desired, Running: []views.Value{},
			Persisted: []views.PersistedValue{}, Planned: s.Planned, Reason: s.Reason, Fix: s.Fix, Range: views.NewRange(s.Range)}
		for _, r := range s.Running {
			v.Running = append(v.Running, views.Value{Instance: r.Instance, Value: r.Value})
		}
		for _, p := range s.Persisted {
			v.Persisted = append(v.Persisted, views.PersistedValue{Where: p.Where, Value: p.Value, Present: p.Present})
		}
		out.Settings = append(out.Settings, v)
	}
	return out
}

// persistedHead is the one-line summary of a report.
func persistedHead(p *views.Persisted) string {
	src := "no persisted layer named"
	switch p.Tool {
	case "tiup":
		src = "TiUP topology " + strings.Join(p.Files, ", ")
	case "operator":
		src = "TiDB Operator manifests " + strings.Join(p.Files, ", ")
	}
	if p.Flagged == 0 {
		return fmt.Sprintf("Persisted layer (%s): %s in step.", src, plural(len(p.Settings), "setting", "settings"))
	}
	return fmt.Sprintf("Persisted layer (%s): %s of %d will not survive the next start:", src, plural(p.Flagged, "setting", "settings"), len(p.Settings))
}

// flaggedSettings are the settings a reader must act on.
func flaggedSettings(p *views.Persisted) []views.PersistedSetting {
	var out []views.PersistedSetting
	for _, s := range p.Settings {
		if s.Status == "reverted" || s.Status == "not_persisted" {
			out = append(out, s)
		}
	}
	return out
}

// runningText is the running value, per instance when they differ.
func runningText(vs []views.Value) string {
	if len(vs) == 0 {
		return "(not read)"
	}
	var parts []string
	for _, v := range vs {
		if v.Instance == "" {
			parts = append(parts, shownValue(v.Value))
			continue
		}
		parts = append(parts, v.Instance+": "+shownValue(v.Value))
	}
	return strings.Join(parts, ", ")
}

// persistedText is what the layer holds, per place.
func persistedText(vs []views.PersistedValue) string {
	if len(vs) == 0 {
		return "(nothing)"
	}
	var parts []string
	for _, v := range vs {
		val := "(absent)"
		if v.Present {
			val = shownValue(v.Value)
		}
		parts = append(parts, val+" in "+v.Where)
	}
	return strings.Join(parts, "; ")
}

// persisted writes the report under a cluster (plan and drift text): the
// summary, then each flagged setting with its three layers, why, and the
// fix.
func (t *textWriter) persisted(p *views.Persisted) {
	if p == nil {
		return
	}
	head := persistedHead(p)
	if p.Flagged == 0 {
		t.printf("\n%s\n", t.color(ansiDim, head))
		return
	}
	t.printf("\n%s\n", t.color(ansiYellow+ansiBold, head))
	for _, s := range flaggedSettings(p) {
		t.printf("  %s %s%s\n", t.color(ansiYellow, strings.ReplaceAll(s.Status, "_", " ")+":"), s.Address, t.color(ansiDim, sourceText(s.Range)))
		t.printf("      desired %s, running %s, persisted %s\n", shownValue(s.Desired), runningText(s.Running), persistedText(s.Persisted))
		t.printf("      %s\n", s.Reason)
		if s.Fix != "" {
			t.printf("      fix: %s\n", s.Fix)
		}
	}
}

// persistedMarkdown is the report as a Markdown section; "" when nothing
// is flagged (a clean layer is one line in the text view only).
func persistedMarkdown(p *views.Persisted) string {
	if p == nil || p.Flagged == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(mdText(persistedHead(p)) + "\n\n| Status | Address | Desired | Running | Persisted | Why, and the fix |\n|---|---|---|---|---|---|\n")
	for _, s := range flaggedSettings(p) {
		why := mdText(s.Reason)
		if s.Fix != "" {
			why += "<br>" + mdText("Fix: "+s.Fix)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdCode(s.Status), mdCode(s.Address), mdCode(shownValue(s.Desired)),
			mdCode(runningText(s.Running)), mdText(persistedText(s.Persisted)), why)
	}
	return b.String()
}

// revertedCount counts the settings whose running value the next start
// reverts.
func revertedCount(p *views.Persisted) int {
	if p == nil {
		return 0
	}
	n := 0
	for _, s := range p.Settings {
		if s.Status == "reverted" {
			n++
		}
	}
	return n
}

func revertedText(n int) string {
	return plural(n, "setting", "settings") + " the next reload, restart or rolling update reverts"
}

package render

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/views"
)

// Unmanaged drift in the drift report (docs/decisions/0022-unmanaged-drift.md):
// the undeclared settings whose live value is not the default, each view
// showing them in a section of their own, never among the differences.

// unmanagedDrift is cp's unmanaged drift, compared with the previous
// report's result for the cluster (nil for none); nil when it was not read.
func unmanagedDrift(cp *planner.ClusterPlan, prev *views.DriftCluster) *views.UnmanagedDrift {
	u := cp.UnmanagedSettings
	if u == nil || cp.Failure != nil {
		return nil
	}
	out := &views.UnmanagedDrift{Settings: []views.UnmanagedSetting{}, Resolved: []views.UnmanagedSetting{},
		Ignored: []views.IgnoredUnmanaged{}, Undecided: u.Undecided}
	var before map[string]string // address → identity, in the previous report
	if prev != nil && prev.Unmanaged != nil {
		before = map[string]string{}
		for _, s := range prev.Unmanaged.Settings {
			before[s.Address] = unmanagedKey(s)
		}
	}
	now := map[string]bool{}
	for _, s := range u.Settings {
		v := unmanagedOf(s)
		if before != nil {
			isNew := before[v.Address] != unmanagedKey(v)
			v.New = &isNew
		}
		now[v.Address] = true
		out.Settings = append(out.Settings, v)
	}
	if before != nil {
		for _, s := range prev.Unmanaged.Settings {
			if !now[s.Address] {
				s.New = nil
				out.Resolved = append(out.Resolved, s)
			}
		}
	}
	for _, ig := range u.Ignored {
		v := views.IgnoredUnmanaged{UnmanagedSetting: unmanagedOf(ig.Setting),
			Ignore: views.IgnoreBlock{Pattern: string(ig.Pattern), Reason: ig.Reason, Range: views.NewRange(ig.Range)}}
		if !ig.Until.IsZero() {
			d := ig.Until.Format("2006-01-02")
			v.Ignore.Until = &d
		}
		out.Ignored = append(out.Ignored, v)
	}
	return out
}

func unmanagedOf(s planner.UnmanagedSetting) views.UnmanagedSetting {
	v := views.UnmanagedSetting{Address: s.Addr.String(), Kind: string(s.Addr.Kind), Component: string(s.Addr.Component),
		Key: s.Addr.Name(), Live: []views.Value{}}
	if !s.Computed {
		d := s.Default
		v.Default = &d
	}
	for _, x := range s.Live {
		v.Live = append(v.Live, views.Value{Instance: x.Instance, Value: x.Value})
	}
	return v
}

// unmanagedKey identifies a setting with its values: the same setting with
// other values is news.
func unmanagedKey(s views.UnmanagedSetting) string {
	var b strings.Builder
	b.WriteString(s.Address)
	for _, v := range s.Live {
		b.WriteString("\x00" + v.Instance + "=" + v.Value)
	}
	return b.String()
}

// addUnmanaged adds dc's unmanaged drift to the report's totals.
func addUnmanaged(doc *views.Drift, dc views.DriftCluster) {
	u := dc.Unmanaged
	if u == nil {
		return
	}
	if doc.Summary.Unmanaged == nil {
		doc.Summary.Unmanaged = &views.UnmanagedSummary{}
	}
	s := doc.Summary.Unmanaged
	s.Clusters++
	if len(u.Settings) > 0 {
		s.Drifted++
		doc.HasUnmanagedDrift = true
	}
	s.Settings += len(u.Settings)
	for _, x := range u.Settings {
		if x.New != nil && *x.New {
			s.New++
		}
	}
	s.Resolved += len(u.Resolved)
	s.Ignored += len(u.Ignored)
}

// unmanagedDetail is the cluster line's part about unmanaged drift: "2
// unmanaged settings (1 new)"; "" when it was not read.
func unmanagedDetail(u *views.UnmanagedDrift) string {
	if u == nil {
		return ""
	}
	s := plural(len(u.Settings), "unmanaged setting", "unmanaged settings")
	if len(u.Settings) == 0 {
		s = "no unmanaged drift"
	}
	known, k := false, 0
	for _, x := range u.Settings {
		if x.New != nil {
			known = true
			if *x.New {
				k++
			}
		}
	}
	if known {
		s += fmt.Sprintf(" (%d new)", k)
	}
	if n := len(u.Ignored); n > 0 {
		s += fmt.Sprintf(", %d ignored", n)
	}
	if n := len(u.Resolved); n > 0 {
		s += fmt.Sprintf(", %d resolved", n)
	}
	return s
}

// unmanagedHeadline is the headline's sentence about unmanaged drift; ""
// when no cluster's was read.
func unmanagedHeadline(doc views.Drift) string {
	s := doc.Summary.Unmanaged
	if s == nil {
		return ""
	}
	if s.Settings == 0 {
		return "No unmanaged drift: no undeclared setting differs from its default."
	}
	return fmt.Sprintf("Unmanaged drift: %s not declared and not at the default on %d of %s.",
		plural(s.Settings, "setting", "settings"), s.Drifted, plural(s.Clusters, "cluster", "clusters"))
}

// unmanagedValues is an unmanaged setting's live side in one line.
func unmanagedValues(s views.UnmanagedSetting) string {
	return liveText(views.Difference{Live: s.Live})
}

// defaultText is an unmanaged setting's default as the views show it.
func defaultText(s views.UnmanagedSetting) string {
	switch {
	case s.Default == nil:
		return "computed from each host"
	case *s.Default == "":
		return `""`
	}
	return *s.Default
}

// unmanagedText writes a cluster's unmanaged drift for people.
func (t *textWriter) unmanagedText(u *views.UnmanagedDrift) {
	if !hasUnmanaged(u) {
		return
	}
	t.printf("  Unmanaged (not declared, not at the default):\n")
	for _, s := range u.Settings {
		mark := ""
		if s.New != nil && *s.New {
			mark = "  " + t.color(ansiYellow+ansiBold, "new")
		}
		t.printf("    %s%s\n", t.color(actionColor(plans.Drift), "? "+s.Address), mark)
		t.printf("        live %s, default %s\n", unmanagedValues(s), defaultText(s))
	}
	if len(u.Settings) > 0 {
		t.printf("    %s\n", t.color(ansiDim, acceptUnmanaged(func(s string) string { return "`" + s + "`" })))
	}
	for _, s := range u.Resolved {
		t.printf("    %s\n", t.color(ansiGreen, "resolved: "+s.Address))
	}
	for _, ig := range u.Ignored {
		t.printf("    ignored: %s: live %s, default %s\n", ig.Address, unmanagedValues(ig.UnmanagedSetting), defaultText(ig.UnmanagedSetting))
		t.printf("        %s\n", t.color(ansiDim, ignoreText(ig.Ignore)))
	}
}

// unmanagedMarkdown writes a cluster's unmanaged drift as a table.
func unmanagedMarkdown(m *textWriter, u *views.UnmanagedDrift) {
	if !hasUnmanaged(u) {
		return
	}
	m.printf("\n**Unmanaged** (not declared, not at the default)\n")
	if len(u.Settings) > 0 {
		m.printf("\n| Address | Live | Default | |\n|---|---|---|---|\n")
		for _, s := range u.Settings {
			mark := ""
			if s.New != nil && *s.New {
				mark = "**new**"
			}
			m.printf("| %s | %s | %s | %s |\n", mdCode(s.Address), mdCode(unmanagedValues(s)), mdCode(defaultText(s)), mark)
		}
		m.printf("\n%s\n", acceptUnmanaged(mdCode))
	}
	for _, s := range u.Resolved {
		m.printf("\n- resolved: %s", mdCode(s.Address))
	}
	for _, ig := range u.Ignored {
		m.printf("\n- ignored: %s: live %s, default %s; %s", mdCode(ig.Address), mdCode(unmanagedValues(ig.UnmanagedSetting)),
			mdCode(defaultText(ig.UnmanagedSetting)), mdText(ignoreText(ig.Ignore)))
	}
	if len(u.Resolved)+len(u.Ignored) > 0 {
		m.printf("\n")
	}
}

// acceptUnmanaged says how to accept unmanaged drift, under its list, with
// the command to run spelt by the view (quote).
func acceptUnmanaged(quote func(string) string) string {
	return "accept: " + quote("tiform import --update --unmanaged") + " declares them; an ignore block accepts one without declaring it"
}

// hasUnmanaged reports whether u has anything to show.
func hasUnmanaged(u *views.UnmanagedDrift) bool {
	return u != nil && len(u.Settings)+len(u.Ignored)+len(u.Resolved) > 0
}

package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views"
)

// The upgrade-impact report (`tiform plan --target-version V`): UpgradeReport
// builds the one structure; the JSON view serialises it and the text and
// Markdown views render it, so the three cannot disagree.

// UpgradeCluster is one cluster's part of the report: its impact, or why it
// has none (Failure).
type UpgradeCluster struct {
	Name    string
	Impact  *planner.Upgrade
	Failure *planner.Failure
}

// UpgradeReport is the report of an upgrade to to over clusters; pins is
// the HCL that keeps today's values and skipped what it leaves out
// (planner.Pins, written by importer.Pins).
func UpgradeReport(to version.Version, clusters []UpgradeCluster, pins string, skipped []string) views.Upgrade {
	doc := views.Upgrade{Header: views.NewHeader(), TargetVersion: to.Short(), Clusters: []views.UpgradeCluster{},
		Pins: pins, Skipped: append([]string{}, skipped...)}
	for _, c := range clusters {
		vc := views.UpgradeCluster{Name: c.Name, Status: "ok", Versions: map[string]string{}, Settings: []views.UpgradeSetting{},
			Findings: []views.Finding{}, Notes: []string{}}
		if c.Failure != nil {
			vc.Status, vc.Error = string(c.Failure.Status), c.Failure.Message
			doc.Clusters = append(doc.Clusters, vc)
			continue
		}
		u := c.Impact
		for comp, v := range u.From {
			vc.Versions[string(comp)] = v.Short()
		}
		for _, s := range u.Settings {
			vs := views.UpgradeSetting{Address: s.Addr.String(), DefaultBefore: s.Before.Value, DefaultAfter: s.After.Value,
				DefaultNote: s.After.Note, LiveMixed: s.LiveMixed, Pinned: s.Pinned, Declared: s.Declared,
				AfterUpgrade: s.Runs, Certain: s.Certain, Why: s.Why, PinNote: s.PinNote}
			if !s.After.Since.IsZero() {
				vs.DefaultSince = s.After.Since.Short()
			}
			if s.Live != "" {
				live := s.Live
				vs.Live = &live
			}
			if s.Pin != "" {
				pin := s.Pin
				vs.Pin = &pin
			}
			if !s.Pinned {
				doc.Unpinned++
			}
			vc.Settings = append(vc.Settings, vs)
		}
		for _, f := range u.Findings {
			vc.Findings = append(vc.Findings, f.View())
		}
		vc.Notes = append(vc.Notes, u.Notes...)
		doc.Clusters = append(doc.Clusters, vc)
	}
	return doc
}

// UpgradeJSON writes the report as one JSON document.
func UpgradeJSON(w io.Writer, doc views.Upgrade) error {
	if err := views.Write(w, doc); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

// shownValue is a value as the report shows it: "" as (empty).
func shownValue(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// versionsText is "tidb v8.1.2, pd v8.1.2, tikv v8.1.2" in component order.
func versionsText(vs map[string]string) string {
	var parts []string
	for _, c := range state.Components {
		if v, ok := vs[string(c)]; ok {
			parts = append(parts, string(c)+" "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// afterText is what the cluster runs after the upgrade, as the report says
// it: the value, and how sure that is.
func afterText(s views.UpgradeSetting) string {
	if s.Certain {
		return shownValue(s.AfterUpgrade)
	}
	return shownValue(s.AfterUpgrade) + " (not certain)"
}

// UpgradeText writes the report for a terminal: per cluster, the settings
// the configuration does not pin (each with its defaults, today's value,
// what it runs after the upgrade and why), the pinned ones (listed with
// verbose), the guards' findings at the target; then the HCL that pins
// today's values.
func UpgradeText(w io.Writer, doc views.Upgrade, verbose, color bool) error {
	pins := doc.Pins              // hclwrite wrote it: every value quoted and escaped, lines are lines
	doc = diag.PrintableCopy(doc) // control characters are escaped
	t := &textWriter{w: w, o: TextOptions{Color: color, Verbose: verbose}}
	t.printf("%s\n", t.color(ansiBold, fmt.Sprintf("Upgrade to %s: the settings whose default changes, per cluster", doc.TargetVersion)))
	for _, c := range doc.Clusters {
		t.printf("\nCluster %q", c.Name)
		if c.Status != "ok" {
			t.printf(": not compared (%s)\n  %s\n", c.Status, strings.ReplaceAll(strings.TrimRight(c.Error, "\n"), "\n", "\n  "))
			continue
		}
		t.printf(": %s -> %s\n", versionsText(c.Versions), doc.TargetVersion)
		var unpinned, pinned []views.UpgradeSetting
		for _, s := range c.Settings {
			if s.Pinned {
				pinned = append(pinned, s)
			} else {
				unpinned = append(unpinned, s)
			}
		}
		if len(unpinned) == 0 {
			t.printf("\n  No setting whose default changes is left unpinned.\n")
		} else {
			t.printf("\n  Not pinned by the configuration (%d):\n", len(unpinned))
		}
		for _, s := range unpinned {
			t.upgradeSetting(s)
		}
		if len(pinned) > 0 && !verbose {
			t.printf("\n  %s\n", t.color(ansiDim, fmt.Sprintf("Pinned by the configuration: %s (--verbose lists them).", plural(len(pinned), "setting", "settings"))))
		}
		if len(pinned) > 0 && verbose {
			t.printf("\n  Pinned by the configuration (%d):\n", len(pinned))
			for _, s := range pinned {
				t.upgradeSetting(s)
			}
		}
		var shown []views.Finding
		infos := 0
		for _, f := range c.Findings {
			if f.Severity == "info" && !verbose {
				infos++
				continue
			}
			shown = append(shown, f)
		}
		if len(shown) > 0 {
			t.printf("\n  Guard findings at %s:\n", doc.TargetVersion)
		}
		for _, f := range shown {
			t.printf("\n    %s\n", t.color(ansiBold, fmt.Sprintf("%s[%s]: %s", f.Severity, f.Code, f.Summary)))
			if f.Address != "" {
				t.printf("      --> %s\n", f.Address)
			}
			if f.Detail != "" {
				t.printf("      %s\n", strings.ReplaceAll(f.Detail, "\n", "\n      "))
			}
			if f.Link != "" {
				t.printf("      see %s\n", f.Link)
			}
		}
		if infos > 0 {
			t.printf("\n  %s\n", t.color(ansiDim, fmt.Sprintf("(%s at %s; --verbose shows them)", plural(infos, "info finding", "info findings"), doc.TargetVersion)))
		}
		for _, n := range c.Notes {
			t.printf("\n  note: %s\n", n)
		}
	}
	if pins != "" {
		t.printf("\nTo keep today's values across the upgrade, declare (--pins-out FILE writes it):\n\n")
		for _, l := range strings.SplitAfter(pins, "\n") {
			if l != "" {
				t.printf("  %s", l)
			}
		}
	}
	if len(doc.Skipped) > 0 {
		t.printf("\nLeft out of the HCL:\n")
		for _, s := range doc.Skipped {
			t.printf("  - %s\n", s)
		}
	}
	return t.err
}

func (t *textWriter) upgradeSetting(s views.UpgradeSetting) {
	since := ""
	if s.DefaultSince != "" {
		since = " (since " + s.DefaultSince + ")"
	}
	t.printf("\n    %s\n", t.color(ansiBold, s.Address))
	t.printf("        default %s -> %s%s\n", shownValue(s.DefaultBefore), shownValue(s.DefaultAfter), since)
	today := "(not read)"
	if s.Live != nil {
		today = shownValue(*s.Live)
		if s.LiveMixed {
			today += " on some instances, other values on others"
		}
	}
	t.printf("        today %s", today)
	if s.Pinned {
		t.printf(", declared %s", shownValue(s.Declared))
	}
	t.printf("\n        after the upgrade: %s\n", afterText(s))
	t.printf("        why: %s\n", s.Why)
}

// UpgradeMarkdown writes the report as a pull-request comment: a table per
// cluster of the settings the configuration does not pin, the pinned ones
// counted, the guards' findings at the target, and the HCL that pins
// today's values.
func UpgradeMarkdown(w io.Writer, doc views.Upgrade) error {
	pins := doc.Pins              // hclwrite wrote it: every value quoted and escaped
	doc = diag.PrintableCopy(doc) // control characters are escaped
	m := &textWriter{w: w}
	names := make([]string, len(doc.Clusters))
	for i, c := range doc.Clusters {
		names[i] = c.Name
	}
	sort.Strings(names)
	m.printf("<!-- tiform:upgrade cluster=%s target=%s -->\n## tiform upgrade impact: %s\n\n", strings.Join(names, ","), doc.TargetVersion, mdText(doc.TargetVersion))
	m.printf("%d setting(s) whose default changes are not pinned by the configuration.\n", doc.Unpinned)
	for _, c := range doc.Clusters {
		if c.Status != "ok" {
			m.printf("\n### `%s`: not compared (%s)\n\n%s\n", c.Name, c.Status, mdText(c.Error))
			continue
		}
		m.printf("\n### `%s`: %s → %s\n\n", c.Name, mdText(versionsText(c.Versions)), doc.TargetVersion)
		pinned := 0
		rows := 0
		for _, s := range c.Settings {
			if s.Pinned {
				pinned++
				continue
			}
			if rows == 0 {
				m.printf("| setting | default before → after | today | after the upgrade | why |\n|---|---|---|---|---|\n")
			}
			rows++
			today := "(not read)"
			if s.Live != nil {
				today = shownValue(*s.Live)
			}
			m.printf("| %s | %s → %s | %s | %s | %s |\n", mdCode(s.Address), mdCode(shownValue(s.DefaultBefore)), mdCode(shownValue(s.DefaultAfter)),
				mdCode(today), mdCell(mdText(afterText(s))), mdCell(mdText(s.Why)))
		}
		if rows == 0 {
			m.printf("No setting whose default changes is left unpinned.\n")
		}
		if pinned > 0 {
			m.printf("\n%d more setting(s) whose default changes are pinned by the configuration.\n", pinned)
		}
		for _, f := range c.Findings {
			m.printf("\n- **%s** `%s` %s", f.Severity, f.Code, mdText(f.Summary))
			if f.Link != "" {
				m.printf(" ([%s](%s))", mdText(f.Code), f.Link)
			}
			m.printf("\n")
		}
		for _, n := range c.Notes {
			m.printf("\n> note: %s\n", mdText(n))
		}
	}
	if pins != "" {
		m.printf("\n<details><summary>HCL that keeps today's values</summary>\n\n```hcl\n%s```\n\n</details>\n", strings.ReplaceAll(pins, "```", "'''"))
	}
	return m.err
}

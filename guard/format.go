package guard

import (
	"fmt"
	"io"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/views"
)

// Location renders where a finding points: "main.hcl:11:5", or "" when it
// has no source range.
func (f Finding) Location() string { return f.Range.String() }

// WriteText prints findings the way `tiform check` and the plan's text view
// show them:
//
//	warning[TF101]: <summary>
//	  --> main.hcl:11:5 (tikv.coprocessor.region-split-size)
//	  <detail, indented>
//	  see https://github.com/tikv/tikv/issues/18503
//
// An acknowledged finding says so, with its reason, and never counts as
// blocking.
func WriteText(w io.Writer, fs []Finding) error {
	for i, f := range fs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, FormatText(f)); err != nil {
			return err
		}
	}
	return nil
}

// FormatText renders one finding (see WriteText), ending with a newline.
func FormatText(f Finding) string {
	return Header(f) + "\n" + Body(f)
}

// Header is a finding's first line without a newline: "warning[TF101]: <summary>",
// with " (acknowledged)" after the code when an acknowledgement suppresses it.
func Header(f Finding) string {
	f = diag.PrintableCopy(f) // values quoted from the cluster or the files
	code := f.Code
	if f.Acknowledged {
		code += ", acknowledged"
	}
	return fmt.Sprintf("%s[%s]: %s", f.Severity, code, f.Summary)
}

// Body is everything after the header, each line indented by two spaces and
// ending with a newline: where the finding points, the acknowledgement, the
// detail wrapped at textWidth (snippets and SQL keep their layout), the link.
// The plan's text view and `tiform check` both print findings with it.
func Body(f Finding) string {
	f = diag.PrintableCopy(f)
	var b strings.Builder
	where := f.Location()
	switch {
	case where != "" && f.Address != "":
		fmt.Fprintf(&b, "  --> %s (%s)\n", where, f.Address)
	case where != "":
		fmt.Fprintf(&b, "  --> %s\n", where)
	case f.Address != "":
		fmt.Fprintf(&b, "  --> %s\n", f.Address)
	}
	if f.Acknowledged {
		fmt.Fprintf(&b, "  acknowledged: %s\n", f.AckReason)
	}
	if f.Detail != "" {
		for _, line := range strings.Split(strings.TrimRight(f.Detail, "\n"), "\n") {
			switch {
			case line == "":
				b.WriteString("\n")
			case strings.HasPrefix(line, " "):
				b.WriteString("  " + line + "\n") // snippets and SQL keep their layout
			case strings.HasPrefix(line, "- "):
				wrap(&b, line, "  ", "    ")
			default:
				wrap(&b, line, "  ", "  ")
			}
		}
	}
	if f.Link != "" {
		fmt.Fprintf(&b, "  see %s\n", f.Link)
	}
	return b.String()
}

// Summary counts findings per severity, e.g. "1 error, 2 warnings, 3 infos"
// ("no findings" when empty); acknowledged findings are counted apart.
func Summary(fs []Finding) string {
	var n [3]int
	acked := 0
	for _, f := range fs {
		if f.Acknowledged {
			acked++
			continue
		}
		if f.Severity >= diag.Info && f.Severity <= diag.Error {
			n[f.Severity]++
		}
	}
	var parts []string
	plural := func(k int, word string) {
		if k == 0 {
			return
		}
		if k > 1 {
			word += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", k, word))
	}
	plural(n[diag.Error], "error")
	plural(n[diag.Warning], "warning")
	plural(n[diag.Info], "info")
	plural(acked, "acknowledged")
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// textWidth is the column findings are wrapped at.
const textWidth = 100

// wrap writes text word-wrapped at textWidth, the first line after first and
// the others after rest. A word longer than the width gets its own line.
func wrap(b *strings.Builder, text, first, rest string) {
	b.WriteString(first)
	n, empty := len(first), true // n: bytes on the line so far
	for _, w := range strings.Fields(text) {
		if !empty && n+1+len(w) > textWidth {
			b.WriteString("\n")
			b.WriteString(rest)
			n, empty = len(rest), true
		}
		if !empty {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
		empty = false
	}
	b.WriteString("\n")
}

// View is f's JSON view (the one shape of a finding in every output), with
// its rule's title.
func (f Finding) View() views.Finding {
	r, _ := Lookup(f.Code)
	return views.Finding{Code: f.Code, Severity: f.Severity.String(), Title: r.Title, Address: f.Address, Summary: f.Summary,
		Detail: f.Detail, Link: f.Link, Range: views.NewRange(f.Range), Acknowledged: f.Acknowledged, AckReason: f.AckReason}
}

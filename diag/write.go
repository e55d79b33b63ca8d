package diag

import (
	"fmt"
	"io"
	"strings"
)

// Write prints diagnostics in the compiler style editors understand:
//
//	main.hcl:3:5: error: unknown TiKV config key "coprocessor.region-split-sise"
//	  3 |     region-split-sise = "256MiB"
//	    |     ^^^^^^^^^^^^^^^^^
//	  Detail text.
//	  hint: did you mean `region-split-size`?
//
// Snippets come from the diagnostics themselves (Sources.Attach fills them),
// so no source file is read here. color adds ANSI colours for terminals.
func Write(w io.Writer, diags Diagnostics, color bool) error {
	var sb strings.Builder
	for i, d := range diags {
		if i > 0 {
			sb.WriteByte('\n')
		}
		writeOne(&sb, d, color)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func writeOne(sb *strings.Builder, d Diagnostic, color bool) {
	// Values from the configuration or a server may be quoted in any text
	// of a diagnostic: control characters are shown escaped (printable.go).
	d.Summary, d.Detail, d.Hint = Printable(d.Summary), PrintableText(d.Detail), Printable(d.Hint)
	sev, summary, hint := d.Severity.String(), d.Summary, "hint:"
	if color {
		code := "31"
		if d.Severity != Error {
			code = "33"
		}
		sev = "\x1b[1;" + code + "m" + sev + "\x1b[0m"
		summary = "\x1b[1m" + summary + "\x1b[0m"
		hint = "\x1b[36mhint:\x1b[0m"
	}
	fmt.Fprintf(sb, "%s%s: %s\n", Printable(location(d.Range)), sev, summary)
	writeSnippet(sb, d.Range, d.Snippet)
	for _, line := range lines(d.Detail) {
		fmt.Fprintf(sb, "  %s\n", line)
	}
	for _, rel := range d.Related {
		at := ""
		if !rel.Range.IsZero() {
			at = " at " + rel.Range.String()
		}
		fmt.Fprintf(sb, "  %s%s\n", Printable(rel.Message), at)
		writeSnippet(sb, rel.Range, rel.Snippet)
	}
	if d.Hint != "" {
		fmt.Fprintf(sb, "  %s %s\n", hint, d.Hint)
	}
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// writeSnippet prints the line and a caret run under the range (to the end
// of the line when the range spans lines).
func writeSnippet(sb *strings.Builder, r SourceRange, text string) {
	if r.IsZero() || text == "" {
		return
	}
	num := fmt.Sprintf("%d", r.Start.Line)
	pad := strings.Repeat(" ", len(num))
	text = Printable(strings.ReplaceAll(text, "\t", " "))
	fmt.Fprintf(sb, "  %s | %s\n", num, text)
	runes := []rune(text)
	start := min(max(r.Start.Column-1, 0), len(runes))
	end := len(runes)
	if r.End.Line == r.Start.Line && r.End.Column-1 > start && r.End.Column-1 <= len(runes) {
		end = r.End.Column - 1
	}
	fmt.Fprintf(sb, "  %s | %s%s\n", pad, strings.Repeat(" ", start), strings.Repeat("^", max(end-start, 1)))
}

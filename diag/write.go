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
	// of a diagnostic: control characters are shown escaped (printable.go),
	// and each text is bounded.
	d.Summary, d.Detail, d.Hint = Printable(Bounded(d.Summary)), PrintableText(Bounded(d.Detail)), Printable(Bounded(d.Hint))
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
		fmt.Fprintf(sb, "  %s%s\n", Printable(Bounded(rel.Message)), at)
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

// writeSnippet prints the line (a window of it: Excerpt) and a caret run
// under the range (to the end of the line when the range spans lines).
func writeSnippet(sb *strings.Builder, r SourceRange, text string) {
	if r.IsZero() || text == "" {
		return
	}
	num := fmt.Sprintf("%d", r.Start.Line)
	pad := strings.Repeat(" ", len(num))
	text, start, end := Excerpt(Printable(strings.ReplaceAll(text, "\t", " ")), r)
	fmt.Fprintf(sb, "  %s | %s\n", num, text)
	fmt.Fprintf(sb, "  %s | %s%s\n", pad, strings.Repeat(" ", start), strings.Repeat("^", max(end-start, 1)))
}

// MaxExcerpt is the most characters of a source line a diagnostic shows.
const MaxExcerpt = 160

// Excerpt is the part of line a diagnostic at r shows, and the characters
// [start, end) of it under the range: the whole line when it is at most
// MaxExcerpt characters, else a window of MaxExcerpt around the range's
// start, each cut end marked "…". A hostile file's 10 MB line is shown as
// the few characters around the error.
func Excerpt(line string, r SourceRange) (text string, start, end int) {
	runes := []rune(line)
	start = min(max(r.Start.Column-1, 0), len(runes))
	end = len(runes)
	if r.End.Line == r.Start.Line && r.End.Column-1 > start && r.End.Column-1 <= len(runes) {
		end = r.End.Column - 1
	}
	if len(runes) <= MaxExcerpt {
		return line, start, end
	}
	from := max(0, min(start-MaxExcerpt/4, len(runes)-MaxExcerpt))
	to := from + MaxExcerpt
	text = string(runes[from:to])
	start, end = start-from, min(end, to)-from
	if from > 0 {
		text, start, end = "…"+text, start+1, end+1
	}
	if to < len(runes) {
		text += "…"
	}
	return text, start, max(end, start)
}

// MaxText is the most characters of a diagnostic's summary, detail, hint or
// related message that are shown.
const MaxText = 2000

// Bounded is s, or, longer than MaxText characters (a 3 MB name quoted in
// a message), its start and end around a marker saying how much was cut.
func Bounded(s string) string {
	if len(s) <= MaxText {
		return s
	}
	runes := []rune(s)
	if len(runes) <= MaxText {
		return s
	}
	head, tail := MaxText*3/4, MaxText/4
	return fmt.Sprintf("%s … (%d characters cut) … %s", string(runes[:head]), len(runes)-head-tail, string(runes[len(runes)-tail:]))
}

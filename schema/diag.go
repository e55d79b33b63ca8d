package schema

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tiform/tiform/state"
)

// Severity of a diagnostic. An error makes the configuration unusable; a
// warning is printed and loading goes on.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "unknown"
}

// Diagnostic is one problem found in the configuration. It is our own type (a
// copy of what hcl.Diagnostic says) so that planner and render never import hcl.
//
// No field ever contains a DSN: diagnostics about a DSN name the attribute,
// and passwords found in DSN literals are masked in every Snippet.
type Diagnostic struct {
	Severity Severity
	// Summary is one line: what is wrong.
	Summary string
	// Detail explains why, and what is expected (with an example).
	Detail string
	// Suggestion is the fix in one line ("did you mean `region-split-size`?"); may be empty.
	Suggestion string
	// Range is the source the diagnostic is about; zero when it has none (a
	// -var flag, a missing directory).
	Range state.SourceRange
	// Snippet is the source line Range starts on, with DSN passwords masked.
	Snippet string
	// Related points at other places involved (the first definition of a
	// duplicated key), each with its own snippet.
	Related []Related
}

// Related is a secondary source location of a diagnostic.
type Related struct {
	Message string
	Range   state.SourceRange
	Snippet string
}

// Diagnostics is a list of diagnostics in the order they were found.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Errors returns only the errors.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// Warnings returns only the warnings.
func (ds Diagnostics) Warnings() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == SeverityWarning {
			out = append(out, d)
		}
	}
	return out
}

// Err returns nil when there is no error, else an error whose text is the
// first error's "file:line:col: summary" and a count of the others.
func (ds Diagnostics) Err() error {
	errs := ds.Errors()
	if len(errs) == 0 {
		return nil
	}
	msg := "schema: " + errs[0].location() + errs[0].Summary
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", len(errs)-1)
	}
	return fmt.Errorf("%s", msg)
}

func (d Diagnostic) location() string {
	if d.Range.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d: ", d.Range.Filename, d.Range.Start.Line, d.Range.Start.Column)
}

// sortDiagnostics orders diagnostics by file, line, column; diagnostics
// without a range come first. The order is stable for equal positions.
func sortDiagnostics(ds Diagnostics) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Range, ds[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Line != b.Start.Line {
			return a.Start.Line < b.Start.Line
		}
		return a.Start.Column < b.Start.Column
	})
}

// dedupe drops exact repeats (the same problem reported once per cluster).
func dedupe(ds Diagnostics) Diagnostics {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%v", d.Severity, d.Summary, d.Detail, d.Suggestion, d.Range)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

// rangeOf copies an hcl.Range into our own type.
func rangeOf(r hcl.Range) state.SourceRange {
	return state.SourceRange{
		Filename: r.Filename,
		Start:    state.Pos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:      state.Pos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}

// fromHCL converts HCL's diagnostics (parse and evaluation errors).
func fromHCL(hd hcl.Diagnostics) Diagnostics {
	var out Diagnostics
	for i, d := range hd {
		if d == nil {
			continue
		}
		// 'ON' gives "Invalid character" (single quotes) and then "Invalid
		// expression" at the same place: the second adds nothing.
		if i > 0 && hd[i-1] != nil && d.Summary == "Invalid expression" && hd[i-1].Summary == "Invalid character" &&
			d.Subject != nil && hd[i-1].Subject != nil && d.Subject.Start == hd[i-1].Subject.Start {
			continue
		}
		sev := SeverityError
		if d.Severity == hcl.DiagWarning {
			sev = SeverityWarning
		}
		nd := Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Suggestion: hclSuggestion(d.Summary, d.Detail)}
		if d.Subject != nil {
			nd.Range = rangeOf(*d.Subject)
		} else if d.Context != nil {
			nd.Range = rangeOf(*d.Context)
		}
		out = append(out, nd)
	}
	return out
}

// hclDidYouMean finds HCL's own suggestion in a detail (`Did you mean "upper"?`).
var hclDidYouMean = regexp.MustCompile(`Did you mean "([^"]+)"\?`)

// hclArgName finds the nested block's name in HCL's "Argument definition
// required" detail (`define argument "coprocessor"`).
var hclArgName = regexp.MustCompile(`define argument "([^"]+)"`)

// hclSuggestion is the hint for one of HCL's own diagnostics (syntax errors,
// function calls), which carry none: the fix in one line, in the user's terms.
// Unknown summaries get none rather than a guess.
func hclSuggestion(summary, detail string) string {
	if m := hclDidYouMean.FindStringSubmatch(detail); m != nil {
		return fmt.Sprintf("did you mean `%s`?", m[1])
	}
	switch summary {
	case "Unclosed configuration block":
		return "add the missing } (every { needs one; the brace may be missing in a block above this one)"
	case "Argument or block definition required":
		if strings.Contains(detail, "equals sign") {
			return `write name = value (for example region-split-size = "256MiB"), or name { … } for a block`
		}
		return "remove the stray text (an extra { or }?): each line is name = value, name { … } or a closing }"
	case "Argument definition required":
		// tikv { coprocessor { … } } on one line: HCL allows one argument, not a block, on a one-line block.
		if m := hclArgName.FindStringSubmatch(detail); m != nil {
			return fmt.Sprintf("write the outer block on several lines, with %s { … } on a line of its own", m[1])
		}
		return "write the outer block on several lines, with the nested block on a line of its own"
	case "Invalid single-argument block definition":
		return "put each name = value on its own line, and the closing } on a line of its own"
	case "Attribute redefined":
		return "remove one of the two definitions"
	case "Invalid expression":
		return `write a value after =: a string "…", a number, true/false, a list [ … ] or a map { … }`
	case "Missing newline after argument":
		return "put each name = value on its own line"
	case "Unexpected comma after argument":
		return "remove the comma: name = value lines are separated by newlines"
	case "Invalid character":
		if strings.Contains(detail, "Single quotes") {
			return `write strings in double quotes: "…"`
		}
	case "Invalid multi-line string", "Unterminated template string":
		return `close the string with " on the same line`
	case "Unclosed template interpolation sequence":
		return "close the ${ with }"
	case "Invalid argument name":
		return `remove the quotes around the name; for a dotted config key use settings = { "storage.block-cache.capacity" = … }`
	case "Missing item separator":
		return "separate the items of a list or map with commas"
	case "Error in function call":
		if strings.Contains(detail, `function "env"`) {
			return `write env("NAME") or env("NAME", "default")`
		}
	}
	return ""
}

// diagBuilder collects diagnostics while loading.
type diagBuilder struct {
	diags Diagnostics
}

func (b *diagBuilder) add(d Diagnostic) { b.diags = append(b.diags, d) }

func (b *diagBuilder) errorf(r hcl.Range, summary, detail, suggestion string) {
	if suggestion == "" {
		detail, suggestion = defaultSuggestion(summary, detail)
	}
	b.add(Diagnostic{Severity: SeverityError, Summary: summary, Detail: detail, Suggestion: suggestion, Range: rangeOf(r)})
}

// defaultSuggestion gives an error that was written without a hint the one
// its wording implies: a detail that is an instruction ("Write x = …")
// becomes the hint; an unexpected block, a null or a label that is not
// allowed gets the obvious fix. Every error has a hint (TestInvalid).
func defaultSuggestion(summary, detail string) (string, string) {
	switch {
	case strings.HasPrefix(detail, "Write "):
		return "", "write " + strings.TrimSuffix(strings.TrimPrefix(detail, "Write "), ".")
	case strings.HasPrefix(summary, "unexpected block"):
		return detail, "remove the block"
	case strings.HasSuffix(summary, " is null"):
		return detail, "give it a value, or remove the line"
	case strings.HasSuffix(summary, "takes no label"):
		return detail, "remove the label"
	}
	return detail, ""
}

func (b *diagBuilder) warnf(r hcl.Range, summary, detail, suggestion string) {
	b.add(Diagnostic{Severity: SeverityWarning, Summary: summary, Detail: detail, Suggestion: suggestion, Range: rangeOf(r)})
}

// duplicate reports a second definition, pointing at both.
func (b *diagBuilder) duplicate(r, first hcl.Range, summary, detail string) {
	b.add(Diagnostic{
		Severity: SeverityError, Summary: summary, Detail: detail,
		Suggestion: "remove one of the two definitions",
		Range:      rangeOf(r),
		Related:    []Related{{Message: "first defined here", Range: rangeOf(first)}},
	})
}

func (b *diagBuilder) hcl(hd hcl.Diagnostics) { b.diags = append(b.diags, fromHCL(hd)...) }

func (b *diagBuilder) hasErrors() bool { return b.diags.HasErrors() }

// attachSnippets fills Snippet (and Related snippets) from the sources,
// masking every secret in secrets.
func attachSnippets(ds Diagnostics, files map[string][]byte, secrets []string) {
	for i := range ds {
		ds[i].Snippet = snippet(files, ds[i].Range, secrets)
		for j := range ds[i].Related {
			ds[i].Related[j].Snippet = snippet(files, ds[i].Related[j].Range, secrets)
		}
	}
}

func snippet(files map[string][]byte, r state.SourceRange, secrets []string) string {
	if r.IsZero() || r.Start.Line < 1 {
		return ""
	}
	src, ok := files[r.Filename]
	if !ok {
		return ""
	}
	lines := strings.Split(string(src), "\n")
	if r.Start.Line > len(lines) {
		return ""
	}
	return mask(strings.TrimRight(lines[r.Start.Line-1], "\r"), secrets)
}

// mask replaces each secret in s with asterisks of the same length, so that
// carets still line up.
func mask(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, strings.Repeat("*", len([]rune(sec))))
	}
	return s
}

// WriteDiagnostics prints diagnostics in the compiler style editors
// understand:
//
//	main.hcl:3:5: error: unknown TiKV config key "coprocessor.region-split-sise"
//	    3 |     region-split-sise = "256MiB"
//	      |     ^^^^^^^^^^^^^^^^^
//	  Detail text.
//	  hint: did you mean `region-split-size`?
//
// Snippets come from the diagnostics themselves (Load fills them), so no
// source files are needed here. color adds ANSI colours for terminals.
func WriteDiagnostics(w io.Writer, diags Diagnostics, color bool) error {
	var sb strings.Builder
	for i, d := range diags {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sev := d.Severity.String()
		if color {
			code := "31"
			if d.Severity == SeverityWarning {
				code = "33"
			}
			sev = "\x1b[1;" + code + "m" + sev + "\x1b[0m"
		}
		loc := d.location()
		summary := d.Summary
		if color {
			summary = "\x1b[1m" + summary + "\x1b[0m"
		}
		fmt.Fprintf(&sb, "%s%s: %s\n", loc, sev, summary)
		writeSnippet(&sb, d.Range, d.Snippet)
		for _, line := range wrapLines(d.Detail) {
			fmt.Fprintf(&sb, "  %s\n", line)
		}
		for _, rel := range d.Related {
			fmt.Fprintf(&sb, "  %s%s\n", rel.Message, locSuffix(rel.Range))
			writeSnippet(&sb, rel.Range, rel.Snippet)
		}
		if d.Suggestion != "" {
			hint := "hint:"
			if color {
				hint = "\x1b[36mhint:\x1b[0m"
			}
			fmt.Fprintf(&sb, "  %s %s\n", hint, d.Suggestion)
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func locSuffix(r state.SourceRange) string {
	if r.IsZero() {
		return ""
	}
	return fmt.Sprintf(" at %s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

func wrapLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// writeSnippet prints the line and a caret run under the range (to the end
// of the line when the range spans lines).
func writeSnippet(sb *strings.Builder, r state.SourceRange, text string) {
	if r.IsZero() || text == "" {
		return
	}
	num := fmt.Sprintf("%d", r.Start.Line)
	pad := strings.Repeat(" ", len(num))
	text = strings.ReplaceAll(text, "\t", " ")
	fmt.Fprintf(sb, "  %s | %s\n", num, text)
	runes := []rune(text)
	start := r.Start.Column - 1
	if start < 0 {
		start = 0
	}
	if start > len(runes) {
		start = len(runes)
	}
	end := len(runes)
	if r.End.Line == r.Start.Line && r.End.Column-1 > start && r.End.Column-1 <= len(runes) {
		end = r.End.Column - 1
	}
	n := end - start
	if n < 1 {
		n = 1
	}
	fmt.Fprintf(sb, "  %s | %s%s\n", pad, strings.Repeat(" ", start), strings.Repeat("^", n))
}

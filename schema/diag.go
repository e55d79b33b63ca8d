package schema

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/tiform/tiform/diag"
)

// rangeOf copies an hcl.Range into our own type.
func rangeOf(r hcl.Range) diag.SourceRange {
	return diag.SourceRange{
		Filename: r.Filename,
		Start:    diag.Pos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:      diag.Pos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}

// fromHCL converts HCL's diagnostics (parse and evaluation errors).
func fromHCL(hd hcl.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
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
		sev := diag.Error
		if d.Severity == hcl.DiagWarning {
			sev = diag.Warning
		}
		nd := diag.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Hint: hclSuggestion(d.Summary, d.Detail)}
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
	diags diag.Diagnostics
}

func (b *diagBuilder) add(d diag.Diagnostic) { b.diags = append(b.diags, d) }

func (b *diagBuilder) errorf(r hcl.Range, summary, detail, suggestion string) {
	if suggestion == "" {
		detail, suggestion = defaultSuggestion(summary, detail)
	}
	b.add(diag.Diagnostic{Severity: diag.Error, Summary: summary, Detail: detail, Hint: suggestion, Range: rangeOf(r)})
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
	b.add(diag.Diagnostic{Severity: diag.Warning, Summary: summary, Detail: detail, Hint: suggestion, Range: rangeOf(r)})
}

// duplicate reports a second definition, pointing at both.
func (b *diagBuilder) duplicate(r, first hcl.Range, summary, detail string) {
	b.add(diag.Diagnostic{
		Severity: diag.Error, Summary: summary, Detail: detail,
		Hint:    "remove one of the two definitions",
		Range:   rangeOf(r),
		Related: []diag.Related{{Message: "first defined here", Range: rangeOf(first)}},
	})
}

func (b *diagBuilder) hcl(hd hcl.Diagnostics) { b.diags = append(b.diags, fromHCL(hd)...) }

func (b *diagBuilder) hasErrors() bool { return b.diags.HasErrors() }

package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tiform/tiform/diag"
)

// MarkdownFailure writes the plan comment of a command that ended before it
// had a plan to show — the configuration has errors, a flag is wrong — so
// that the workflow posts why instead of an empty comment: the same marker as
// the plan's (it replaces the previous plan comment), the title, summary in
// bold, and detail (the diagnostics as the terminal shows them, without
// colour) in a text block. Within o's budget, the block keeps its first
// lines and says how many it left out; it is never cut inside.
func MarkdownFailure(w io.Writer, o MarkdownOptions, summary, detail string) error {
	budget := o.Budget
	if budget <= 0 {
		budget = MarkdownBudget
	}
	summary, detail = diag.Printable(summary), diag.PrintableText(detail)
	top := fmt.Sprintf("%s\n## tiform plan\n**No plan: %s**\n", Marker(o.Dir), mdText(strings.TrimSuffix(summary, ".")+"."))
	lines := strings.Split(strings.TrimRight(detail, "\n"), "\n")
	if strings.TrimSpace(detail) == "" {
		lines = nil
	}
	for kept := len(lines); ; kept-- {
		out := top
		if kept > 0 {
			out += "\n" + mdFence("text", strings.Join(lines[:kept], "\n"))
		}
		if left := len(lines) - kept; left > 0 {
			out += fmt.Sprintf("\n_… and %s left out to fit the comment: %s shows them all._\n",
				plural(left, "more line", "more lines"), mdCode(validateCommand(o)))
		}
		if len(out) <= budget || kept == 0 {
			_, err := io.WriteString(w, out)
			return err
		}
	}
}

// validateCommand checks the configuration of o.Dir.
func validateCommand(o MarkdownOptions) string {
	if o.dir() == "." {
		return "tiform validate"
	}
	return "tiform validate --chdir " + shellWord(o.dir())
}

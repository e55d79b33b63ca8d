package render

import (
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
)

// printable returns a copy of p with every string escaped for a terminal or
// a Markdown comment (diag.Printable: control characters, newlines in values
// and bidirectional controls shown as \x1b, \n, \u202e), so that no value,
// statement, server message or finding can rewrite or fake a line of the text
// and Markdown views. Prose fields that legitimately span lines (a finding's
// Detail, a failure's Message) keep their newlines. The JSON view needs no
// such copy: JSON escapes control characters itself.
func printable(p *planner.Plan) *planner.Plan { return diag.PrintableCopy(p) }

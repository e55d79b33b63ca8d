package render

import (
	"fmt"
	"strings"
)

// MarkdownBudget is the most bytes (so also characters) a pull-request
// comment takes: GitHub refuses a comment body over 65,536 characters, and
// the workflows add nothing to tiform's text. A plan whose full comment is
// larger is shortened in a fixed order (mdKind) and says what it left out.
const MarkdownBudget = 60000

// mdKind says when a part of a comment is left out to fit the budget. The
// order is documented (docs/plan-format.md, "The Markdown view"): first every
// folded <details> part, then the per-cluster sections, then rows of tables
// and lists, from the end. Essential parts stay.
type mdKind int

const (
	mdEssential mdKind = iota // never left out
	mdDetails                 // a whole <details> block: left out first
	mdSection                 // a per-cluster section: left out second
	mdRows                    // a table or list: its rows are left out last, from the end
)

// mdPart is one block of a comment: whole (text), or a header and rows. A
// part is valid Markdown on its own and is never cut: leaving it out, or
// leaving out whole rows of it, keeps the comment valid (no <details> or code
// fence is ever opened without being closed).
type mdPart struct {
	kind mdKind
	text string // the block, ending in a newline (not mdRows)
	// mdRows: head is the lead-in (a heading, a table's two header lines),
	// rows one line each; noun names a row in the note ("change rows").
	head string
	rows []string
	noun string
}

// mdDoc is a comment before it is fitted to the budget: top (the marker,
// title and headline) always stays; parts follow in order, separated by a
// blank line.
type mdDoc struct {
	top   string
	parts []mdPart
	// full says where the full plan is, for the note of a shortened comment.
	full string
	// budget is the most bytes the comment takes (fit's argument).
	budget int
}

func (d *mdDoc) add(kind mdKind, text string) {
	if text != "" {
		d.parts = append(d.parts, mdPart{kind: kind, text: text})
	}
}

func (d *mdDoc) addRows(head string, rows []string, noun string) {
	if len(rows) > 0 {
		d.parts = append(d.parts, mdPart{kind: mdRows, head: head, rows: rows, noun: noun})
	}
}

// fit renders the comment in at most budget bytes: whole if it fits, else
// without the details, then also without the per-cluster sections, then
// with as many rows as fit, each step saying what it left out and where the
// full plan is. If even the top does not fit, only the marker, title and
// note remain.
func (d *mdDoc) fit(budget int) string {
	d.budget = budget
	all := make([]int, len(d.parts))
	for i, p := range d.parts {
		all[i] = len(p.rows)
	}
	for _, drop := range []mdKind{mdEssential, mdDetails, mdSection} {
		if s := d.render(drop, all); len(s) <= budget {
			return s
		}
	}
	// Keep rows in order while they fit; the note's length depends on the
	// counts, so re-check the result and give up one more row until it fits.
	keep := make([]int, len(d.parts))
	size := len(d.render(mdSection, keep))
	for i, p := range d.parts {
		for _, r := range p.rows {
			extra := len(r) + 1
			if keep[i] == 0 {
				extra += len(p.head) + 1
			}
			if size+extra > budget {
				goto fitted
			}
			size += extra
			keep[i]++
		}
	}
fitted:
	for {
		s := d.render(mdSection, keep)
		if len(s) <= budget {
			return s
		}
		last := -1
		for i := range keep {
			if keep[i] > 0 {
				last = i
			}
		}
		if last < 0 {
			break
		}
		keep[last]--
	}
	marker, _, _ := strings.Cut(d.top, "\n")
	return marker + "\n## tiform plan\n\n" + d.note(mdSection, keep, true)
}

// render writes the comment leaving out every part of a kind up to drop
// (mdEssential: nothing) and keeping keep[i] rows of part i.
func (d *mdDoc) render(drop mdKind, keep []int) string {
	var b strings.Builder
	b.WriteString(d.top)
	if n := d.note(drop, keep, false); n != "" {
		b.WriteString("\n" + n)
	}
	for i, p := range d.parts {
		switch {
		case p.kind == mdRows:
			if keep[i] == 0 {
				continue
			}
			b.WriteString("\n" + p.head)
			for _, r := range p.rows[:keep[i]] {
				b.WriteString(r + "\n")
			}
			if left := len(p.rows) - keep[i]; left > 0 {
				fmt.Fprintf(&b, "\n_… and %s left out to fit the comment._\n", plural(left, "more", "more"))
			}
		case p.kind != mdEssential && p.kind <= drop:
			continue
		default:
			b.WriteString("\n" + p.text)
		}
	}
	return b.String()
}

// note is the quote a shortened comment starts with: what was left out and
// where the full plan is; "" when nothing was. top says the headline was
// left out too.
func (d *mdDoc) note(drop mdKind, keep []int, top bool) string {
	var out []string
	if top {
		out = append(out, "the summary")
	}
	count := func(k mdKind) int {
		n := 0
		for _, p := range d.parts {
			if p.kind == k {
				n++
			}
		}
		return n
	}
	if drop >= mdDetails {
		if n := count(mdDetails); n > 0 {
			out = append(out, fmt.Sprintf("the folded details (%d: statements, order, finding details)", n))
		}
	}
	if drop >= mdSection {
		if n := count(mdSection); n > 0 {
			out = append(out, plural(n, "per-cluster section", "per-cluster sections"))
		}
	}
	for i, p := range d.parts {
		if p.kind == mdRows && keep[i] < len(p.rows) {
			out = append(out, fmt.Sprintf("%d of %d %s", len(p.rows)-keep[i], len(p.rows), p.noun))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprintf("> **Shortened to fit a pull-request comment (at most %s characters).** Left out: %s. %s\n",
		groupDigits(d.budget), strings.Join(out, "; "), d.full)
}

// groupDigits writes n with thousands separators: 60,000.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

package render

import (
	"regexp"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffToken is one word of a value: a run of name/number/quoted characters,
// or a single separator.
var diffToken = regexp.MustCompile(`'[^']*'|[A-Za-z0-9_.%:@-]+|[^A-Za-z0-9_.%:@'-]`)

// inlineDiff shows how after differs from before, word by word: deletions as
// [-…-] and insertions as {+…+} (git's word-diff markers), or red/green when
// colour is on. Each word becomes one "line" for diffmatchpatch's line mode
// (DiffLinesToChars), run without a deadline so the result is deterministic.
func inlineDiff(before, after string, color bool) string {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	a, b, lines := dmp.DiffLinesToChars(wordLines(before), wordLines(after))
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	diffs = dmp.DiffCleanupSemantic(diffs)
	var out strings.Builder
	for _, d := range diffs {
		text := strings.ReplaceAll(d.Text, "\n", "")
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			out.WriteString(text)
		case diffmatchpatch.DiffDelete:
			if color {
				out.WriteString(ansiRed + text + ansiReset)
			} else {
				out.WriteString("[-" + text + "-]")
			}
		case diffmatchpatch.DiffInsert:
			if color {
				out.WriteString(ansiGreen + text + ansiReset)
			} else {
				out.WriteString("{+" + text + "+}")
			}
		}
	}
	return out.String()
}

// wordLines puts every word of s on its own line.
func wordLines(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	var b strings.Builder
	for _, w := range diffToken.FindAllString(s, -1) {
		b.WriteString(w)
		b.WriteByte('\n')
	}
	return b.String()
}

package render

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// inlineDiff shows how after differs from before, character runs grouped to
// words: deletions as [-…-] and insertions as {+…+} (git's word-diff
// markers), or red/green when colour is on. Deterministic: diffmatchpatch is
// run without a deadline.
func inlineDiff(before, after string, color bool) string {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffMain(before, after, false)
	diffs = dmp.DiffCleanupSemantic(diffs)
	var b strings.Builder
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			b.WriteString(d.Text)
		case diffmatchpatch.DiffDelete:
			if color {
				b.WriteString(ansiRed + d.Text + ansiReset)
			} else {
				b.WriteString("[-" + d.Text + "-]")
			}
		case diffmatchpatch.DiffInsert:
			if color {
				b.WriteString(ansiGreen + d.Text + ansiReset)
			} else {
				b.WriteString("{+" + d.Text + "+}")
			}
		}
	}
	return b.String()
}

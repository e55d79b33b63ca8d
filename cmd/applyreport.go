package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
)

// The report a person reads after `tiform apply`: each cluster's outcome and,
// for a fleet, the totals per outcome; in Markdown (--format markdown) one
// valid document whose first line is its own marker, with the outcome first,
// the progress and reports in one text block, and the plan after them.

// Apply outcomes per cluster, in the order the totals list them.
const (
	applyApplied      = "applied"
	applyNoChanges    = "no_changes"
	applyRefused      = "refused" // nothing sent: stale plan, lock held, blocking findings, checks that could not run
	applyFailed       = "failed"
	applyInterrupted  = "interrupted"
	applyNotAttempted = "not_attempted" // an earlier cluster stopped the apply
)

var applyOutcomes = []string{applyApplied, applyRefused, applyFailed, applyInterrupted, applyNotAttempted, applyNoChanges}

// applyTally records each cluster's outcome as applyPlan goes.
type applyTally struct {
	names   []string
	outcome map[string]string
	detail  map[string]string
}

// newApplyTally starts with every cluster of p: those without changes have
// nothing to do, the others are not attempted until they are.
func newApplyTally(p *planner.Plan) *applyTally {
	t := &applyTally{outcome: map[string]string{}, detail: map[string]string{}}
	for _, cp := range p.Clusters {
		t.names = append(t.names, cp.Name)
		t.outcome[cp.Name] = applyNotAttempted
		t.detail[cp.Name] = "an earlier cluster stopped the apply"
		if len(cp.Changes) == 0 {
			t.outcome[cp.Name], t.detail[cp.Name] = applyNoChanges, "matches the configuration"
		}
	}
	return t
}

// record is cluster's outcome: its report (nil when apply could not start
// on it) and the error applier.Apply or the connection returned.
func (t *applyTally) record(cluster string, rep *applier.Report, err error) {
	switch {
	case rep != nil && rep.Complete():
		created, changed, deleted := rep.Counts()
		t.outcome[cluster], t.detail[cluster] = applyApplied, fmt.Sprintf("%d created, %d changed, %d deleted", created, changed, deleted)
	case rep != nil && rep.Interrupted || errors.Is(err, applier.ErrInterrupted):
		t.outcome[cluster], t.detail[cluster] = applyInterrupted, "the running statement finished, nothing more was sent"
	case rep != nil && rep.Refused != "":
		t.outcome[cluster], t.detail[cluster] = applyRefused, rep.Refused
	case rep != nil && rep.Aborted != "":
		t.outcome[cluster], t.detail[cluster] = applyRefused, rep.Aborted
	case rep != nil:
		created, changed, deleted := rep.Counts()
		t.outcome[cluster], t.detail[cluster] = applyFailed, fmt.Sprintf("%d created, %d changed, %d deleted before the failure", created, changed, deleted)
	case err != nil:
		line, _, _ := strings.Cut(err.Error(), "\n")
		t.outcome[cluster], t.detail[cluster] = applyFailed, line
	}
}

// totals is "2 applied, 1 refused, 1 not_attempted".
func (t *applyTally) totals() string {
	n := map[string]int{}
	for _, name := range t.names {
		n[t.outcome[name]]++
	}
	var parts []string
	for _, o := range applyOutcomes {
		if n[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[o], o))
		}
	}
	return strings.Join(parts, ", ")
}

func (t *applyTally) lines() []render.ClusterLine {
	out := make([]render.ClusterLine, len(t.names))
	for i, name := range t.names {
		out[i] = render.ClusterLine{Name: name, Status: planner.Status(t.outcome[name]), Detail: t.detail[name]}
	}
	return out
}

// writeText ends a fleet's text report: the totals, then a line per cluster.
func (t *applyTally) writeText(w io.Writer, color bool) {
	if len(t.names) < 2 {
		return
	}
	fmt.Fprintf(w, "\nFleet: %s: %s.\n", plural(len(t.names), "cluster"), t.totals())
	_ = render.StatusLines(w, t.lines(), color)
}

// markdownApply gathers `apply --format markdown`: the plan comment (when it
// is shown) and the text people read (progress, reports, the refusal), which
// are written as one document when the command ends (flush): a stream of
// progress lines is not Markdown, and a refusal belongs first.
type markdownApply struct {
	stdout io.Writer
	dir    string
	plan   bytes.Buffer // the plan comment
	text   bytes.Buffer // what the text view prints, in order
	tally  *applyTally  // nil until apply starts on a cluster
}

// flush writes the document: the marker and title, the outcome (err is what
// the command returns), the fleet's totals, the text in one block, then the
// plan.
func (m *markdownApply) flush(err error) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n## tiform apply\n", render.ApplyMarker(m.dir))
	code, msg := exitStatus(err)
	switch {
	case code == ExitOK && m.tally != nil:
		fmt.Fprintf(&b, "**Applied.** %s.\n", render.MarkdownText(m.tally.totals()))
	case code == ExitOK:
		b.WriteString("**Nothing to apply.**\n")
	case code == ExitInterrupted:
		b.WriteString("**Interrupted.**\n")
	default:
		what := "Apply did not complete"
		if msg != nil {
			what += ": " + msg.Error()
		}
		fmt.Fprintf(&b, "**%s**\n", render.MarkdownText(what))
	}
	if m.tally != nil && len(m.tally.names) > 1 {
		fmt.Fprintf(&b, "\n| cluster | outcome | |\n|---|---|---|\n")
		for _, l := range m.tally.lines() {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", render.MarkdownText(l.Name), l.Status, render.MarkdownText(l.Detail))
		}
	}
	if text := strings.TrimSpace(m.text.String()); text != "" {
		b.WriteString("\n" + render.MarkdownFence("text", text))
	}
	if m.plan.Len() > 0 {
		b.WriteString("\n" + m.plan.String())
	}
	_, werr := io.WriteString(m.stdout, b.String())
	return werr
}

// startTally begins the outcome tally of applying p; end writes the fleet's
// totals to the text people read (Markdown writes them as a table when it
// flushes).
func (o applyOutput) startTally(p *planner.Plan, noColor bool) *tallyWriter {
	t := newApplyTally(p)
	if o.md != nil {
		o.md.tally = t
		return &tallyWriter{applyTally: t}
	}
	return &tallyWriter{applyTally: t, w: o.human, color: useColor(o.human, noColor)}
}

// tallyWriter is a tally and where its text goes (nil: nowhere).
type tallyWriter struct {
	*applyTally
	w     io.Writer
	color bool
}

func (t *tallyWriter) end() {
	if t.w != nil {
		t.writeText(t.w, t.color)
	}
}

// showSavedPlan shows the saved plan apply is about to run: the whole plan
// only with --verbose (it was reviewed; a refusal must not follow pages of
// it), else one line of its counts and hashes.
func showSavedPlan(out applyOutput, p *planner.Plan, path string, v viewFlags) error {
	if v.verbose {
		if out.md != nil {
			return render.Markdown(&out.md.plan, p, render.MarkdownOptions{Dir: out.md.dir, PlanFile: path})
		}
		return render.Text(out.human, p, render.TextOptions{Color: useColor(out.human, v.noColor), Verbose: true})
	}
	create, update, del, changed := p.Counts()
	var hashes []string
	for _, cp := range p.Clusters {
		if len(cp.Changes) > 0 {
			hashes = append(hashes, cp.Name+" "+cp.Hash())
		}
	}
	line := fmt.Sprintf("Saved plan %s: %d to create, %d to change, %d to delete on %s of %d (--verbose shows the plan).", path, create, update, del, plural(changed, "cluster"), len(p.Clusters))
	if len(hashes) > 0 {
		line += " Plan hashes: " + strings.Join(hashes, ", ") + "."
	}
	_, err := fmt.Fprintln(out.human, line)
	return err
}

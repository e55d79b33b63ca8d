package rollout

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/diag"
)

// EventKind names what happened in an operation. Every kind but
// EventCluster is also an event of the audit log and of apply --format json
// (views.ApplyEvent, the same name).
type EventKind string

const (
	EventStart          EventKind = "rollout_start"
	EventWindowOverride EventKind = "window_override"
	EventStageStart     EventKind = "stage_start"
	// EventCluster: a cluster's apply starts (people only: its own events
	// follow in the audit log).
	EventCluster     EventKind = "cluster"
	EventClusterDone EventKind = "rollout_cluster"
	EventStageEnd    EventKind = "stage_end"
	EventGate        EventKind = "gate"
	EventEnd         EventKind = "rollout_end"
)

// Event is one step of an operation, as progress views and the audit log
// see it.
type Event struct {
	Kind EventKind
	// Stage is the stage concerned; Index and Of its place (1-based).
	Stage     string
	Index, Of int
	// Stages are the rollout's stages (rollout_start).
	Stages   []StagePlan
	Clusters []string
	Cluster  string
	PlanHash string
	Result   string
	Check    string
	// Detail says what happened, as a sentence.
	Detail string
	// Reason is --ignore-windows' reason.
	Reason string
	State  string
	// Applied counts the changes a cluster's apply applied; Reported is set
	// when its report was written.
	Applied  int
	Reported bool
	// Resumed: the rollout continues a state file (rollout_start).
	Resumed      bool
	Done, Remain []string
}

// StagePlan is one stage and its clusters, as a rollout starts it.
type StagePlan struct {
	Name     string
	Clusters []string
	Done     []string
}

// Progress receives an operation's events, in order, for people.
type Progress interface {
	Event(Event)
}

// record writes e to the audit log and the event stream (every kind but
// EventCluster), then to the progress view. An audit log that cannot be
// written stops the operation: what tiform cannot record it must not do.
func (op *Operation) record(e Event) error {
	if e.Kind != EventCluster {
		r := applier.AuditRecord{Event: string(e.Kind), Stage: e.Stage, Clusters: e.Clusters, Cluster: e.Cluster,
			PlanHash: e.PlanHash, Result: e.Result, Check: e.Check, Reason: e.Reason, State: e.State, Changes: e.Applied}
		switch e.Kind {
		case EventClusterDone, EventEnd:
			r.Error = e.Detail
		case EventGate:
			r.Summary = e.Detail
			if e.Result == "failed" {
				r.Error = e.Detail
			}
		case EventStart:
			r.Summary = e.Detail
			if r.Clusters == nil {
				for _, s := range e.Stages {
					r.Clusters = append(r.Clusters, s.Clusters...)
				}
			}
		default:
			r.Summary = e.Detail
		}
		if err := applier.Record(op.Audit, r); err != nil {
			return fmt.Errorf("rollout: %w; stopping (tiform changes nothing it cannot record)", err)
		}
	}
	op.progress(e)
	return nil
}

// progress shows e to people.
func (op *Operation) progress(e Event) {
	if op.Progress != nil {
		op.Progress.Event(e)
	}
}

func (r *run) record(e Event) error { return r.op.record(e) }

// startEvent is the rollout_start event of a run starting at stage first.
func (r *run) startEvent(first int) Event {
	e := Event{Kind: EventStart, Stage: r.runs[first].stage.Name, State: r.op.StatePath, Resumed: r.op.Resume != nil}
	var parts []string
	for _, sr := range r.runs {
		sp := StagePlan{Name: sr.stage.Name, Clusters: names(sr.clusters)}
		for _, n := range sp.Clusters {
			if r.st.cluster(n).Status.Done() {
				sp.Done = append(sp.Done, n)
			}
		}
		e.Stages = append(e.Stages, sp)
		parts = append(parts, fmt.Sprintf("%s: %s", sp.Name, strings.Join(sp.Clusters, ", ")))
	}
	for i := first; i < len(r.runs); i++ {
		e.Clusters = append(e.Clusters, names(r.notDone(i))...)
	}
	e.Detail = strings.Join(parts, "; ")
	e.Done, e.Remain = r.st.done(), r.st.remaining()
	return e
}

// TextProgress writes an operation's progress as text lines.
type TextProgress struct {
	W  io.Writer
	mu sync.Mutex
}

// Event writes e.
func (p *TextProgress) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.W
	pr := diag.Printable
	switch e.Kind {
	case EventStart:
		total := 0
		for _, s := range e.Stages {
			total += len(s.Clusters)
		}
		if e.Resumed {
			fmt.Fprintf(w, "\nResuming the rollout of %s in %s from %s: %d done, next stage %q.\n",
				plural(total, "cluster"), plural(len(e.Stages), "stage"), e.State, len(e.Done), e.Stage)
		} else {
			fmt.Fprintf(w, "\nRollout of %s in %s (state: %s):\n", plural(total, "cluster"), plural(len(e.Stages), "stage"), e.State)
		}
		width := 0
		for _, s := range e.Stages {
			width = max(width, len(s.Name))
		}
		for i, s := range e.Stages {
			line := fmt.Sprintf("  %d. %-*s  %s", i+1, width, pr(s.Name), pr(strings.Join(s.Clusters, ", ")))
			if len(s.Done) > 0 {
				line += fmt.Sprintf("  (done: %s)", pr(strings.Join(s.Done, ", ")))
			}
			fmt.Fprintln(w, line)
		}
	case EventWindowOverride:
		fmt.Fprintf(w, "\nChange windows ignored (--ignore-windows %q; recorded in the audit log): %s.\n", pr(e.Reason), pr(e.Detail))
	case EventStageStart:
		fmt.Fprintf(w, "\nStage %d/%d %q: %s\n", e.Index, e.Of, pr(e.Stage), pr(strings.Join(e.Clusters, ", ")))
	case EventCluster:
		fmt.Fprintf(w, "\nApplying to cluster %q:\n", pr(e.Cluster))
	case EventClusterDone:
		if !e.Reported && e.Result != string(ClusterNothing) && e.Result != string(ClusterApplied) {
			fmt.Fprintf(w, "Cluster %q: %s: %s\n", pr(e.Cluster), e.Result, pr(e.Detail))
		}
		if e.Result == string(ClusterNothing) {
			fmt.Fprintf(w, "Cluster %q: nothing to change.\n", pr(e.Cluster))
		}
	case EventStageEnd:
		detail := ""
		if e.Detail != "" {
			detail = ": " + pr(e.Detail)
		}
		fmt.Fprintf(w, "\nStage %d/%d %q: %s%s.\n", e.Index, e.Of, pr(e.Stage), e.Result, detail)
	case EventGate:
		fmt.Fprintf(w, "Gate after %q: %s: %s%s\n", pr(e.Stage), e.Check, e.Result, colonDetail(e.Detail))
	case EventEnd:
		p.end(e)
	}
}

func (p *TextProgress) end(e Event) {
	w, pr := p.W, diag.Printable
	switch Outcome(e.Result) {
	case Complete:
		fmt.Fprintf(w, "\nRollout complete: %s applied or already as declared.\n", plural(len(e.Done), "cluster"))
	case Refused:
		return // the command's error says why; nothing was done
	default:
		what := map[Outcome]string{Stopped: "stopped", Paused: "paused", Interrupted: "interrupted"}[Outcome(e.Result)]
		where := ""
		if e.Stage != "" {
			where = fmt.Sprintf(" at stage %q", pr(e.Stage))
		}
		fmt.Fprintf(w, "\nRollout %s%s.\n", what, where)
		fmt.Fprintf(w, "  done:      %s\n", pr(orNone(e.Done)))
		fmt.Fprintf(w, "  remaining: %s\n", pr(orNone(e.Remain)))
		if e.State != "" {
			fmt.Fprintf(w, "The state is in %s; continue with: tiform apply --resume %s\n", pr(e.State), pr(e.State))
		}
	}
}

func colonDetail(d string) string {
	if d == "" {
		return ""
	}
	return ": " + diag.Printable(d)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// MarkdownProgress writes an operation's progress as Markdown: a heading per
// stage with a table of its clusters, the gate as a list, and the outcome
// (a pull request or chat comment).
type MarkdownProgress struct {
	W     io.Writer
	mu    sync.Mutex
	stage []Event // the clusters of the current stage
}

// Event writes e.
func (p *MarkdownProgress) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.W
	switch e.Kind {
	case EventStart:
		verb := "Rollout"
		if e.Resumed {
			verb = "Resumed rollout"
		}
		fmt.Fprintf(w, "\n## %s: %s in %s\n\n| # | stage | clusters | done |\n|---|---|---|---|\n", verb, plural(len(e.Done)+len(e.Remain), "cluster"), plural(len(e.Stages), "stage"))
		for i, s := range e.Stages {
			fmt.Fprintf(w, "| %d | `%s` | %s | %s |\n", i+1, mdCell(s.Name), mdCell(strings.Join(s.Clusters, ", ")), mdCell(strings.Join(s.Done, ", ")))
		}
		fmt.Fprintf(w, "\nState file: `%s`\n", mdCell(e.State))
	case EventWindowOverride:
		fmt.Fprintf(w, "\n> **Change windows ignored** (`--ignore-windows`, recorded in the audit log): %s. Reason: %s\n", mdCell(e.Detail), mdCell(e.Reason))
	case EventStageStart:
		p.stage = nil
		fmt.Fprintf(w, "\n### Stage %d/%d `%s`\n", e.Index, e.Of, mdCell(e.Stage))
	case EventClusterDone:
		p.stage = append(p.stage, e)
	case EventStageEnd:
		fmt.Fprintf(w, "\n| cluster | result | changes applied | plan hash |\n|---|---|---|---|\n")
		for _, c := range p.stage {
			res := c.Result
			if c.Detail != "" {
				res += ": " + c.Detail
			}
			fmt.Fprintf(w, "| `%s` | %s | %d | `%s` |\n", mdCell(c.Cluster), mdCell(res), c.Applied, mdCell(c.PlanHash))
		}
		fmt.Fprintf(w, "\nStage **%s**%s\n", e.Result, mdCell(colonDetail(e.Detail)))
		p.stage = nil
	case EventGate:
		fmt.Fprintf(w, "- gate `%s`: **%s**%s\n", e.Check, e.Result, mdCell(colonDetail(e.Detail)))
	case EventEnd:
		if Outcome(e.Result) == Refused {
			return
		}
		fmt.Fprintf(w, "\n**Rollout %s**", e.Result)
		if e.Stage != "" && Outcome(e.Result) != Complete {
			fmt.Fprintf(w, " at stage `%s`", mdCell(e.Stage))
		}
		fmt.Fprintf(w, ". Done: %s. Remaining: %s.\n", mdCell(orNone(e.Done)), mdCell(orNone(e.Remain)))
		if e.Detail != "" {
			fmt.Fprintf(w, "\n> %s\n", mdCell(e.Detail))
		}
		if Outcome(e.Result) != Complete && e.State != "" {
			fmt.Fprintf(w, "\nContinue with `tiform apply --resume %s`.\n", mdCell(e.State))
		}
	}
}

// mdCell makes text safe in a Markdown table cell or line: control
// characters escaped, pipes and newlines neutralised.
func mdCell(s string) string {
	s = diag.Printable(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "`", "'")
	return strings.ReplaceAll(s, "\n", " ")
}

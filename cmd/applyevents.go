package cmd

import (
	"fmt"
	"io"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/views"
)

// applyOutput says where apply writes. People read human: the plan, the
// question, the progress and the report. With --format json, programs read
// events: one JSON line per event on stdout (views.ApplyEvent, the audit
// log's events and a last summary), and nothing else is written there: the
// text people read goes to stderr.
//
// With --format markdown, programs read one Markdown document (markdownApply):
// human is gathered and written, fenced, when the command ends.
type applyOutput struct {
	human  io.Writer
	events *eventStream   // nil unless --format json
	md     *markdownApply // nil unless --format markdown
}

func newApplyOutput(env *Env, format, chdir string) applyOutput {
	switch format {
	case "json":
		return applyOutput{human: env.Stderr, events: &eventStream{w: env.Stdout}}
	case "markdown":
		md := &markdownApply{stdout: env.Stdout, dir: commentDir(chdir)}
		return applyOutput{human: &md.text, md: md}
	}
	return applyOutput{human: env.Stdout}
}

// reporter is what the applier reports to: nil (no interface holding a nil
// pointer) without --format json.
func (o applyOutput) reporter() applier.Reporter {
	if o.events == nil {
		return nil
	}
	return o.events
}

// eventStream writes the events of `apply --format json`, one JSON line each
// (views.WriteLine, as the audit log writes them), and remembers what the
// summary needs.
type eventStream struct {
	w          io.Writer
	statements int // statements sent, in every cluster
	applied    int // changes applied
	err        error
}

// Report writes e (applier.Reporter).
func (s *eventStream) Report(e views.ApplyEvent) {
	switch {
	case e.Event == "statement":
		s.statements++
	case e.Event == "change" && e.Result == "applied":
		s.applied++
	}
	if err := views.WriteLine(s.w, e); err != nil && s.err == nil {
		s.err = err
	}
}

// summary writes the last event: how the command ends (err is what it
// returns) — complete, nothing to do, refused (nothing was sent), failed or
// interrupted — with its message and exit code.
func (s *eventStream) summary(err error) {
	code, msg := exitStatus(err)
	e := views.ApplyEvent{FormatVersion: views.Format, Time: time.Now().UTC(), Event: "summary", Changes: s.applied, ExitCode: &code}
	switch {
	case code == ExitOK && s.applied > 0:
		e.Result = "complete"
	case code == ExitOK:
		e.Result = "nothing"
	case code == ExitInterrupted:
		e.Result = "interrupted"
	case code == ExitPaused:
		e.Result = "paused"
	case s.statements == 0:
		e.Result = "refused"
	default:
		e.Result = "failed"
	}
	if msg != nil {
		e.Error = msg.Error()
	}
	e.Summary = fmt.Sprintf("%s applied, %s sent", plural(s.applied, "change"), plural(s.statements, "statement"))
	s.Report(e)
}

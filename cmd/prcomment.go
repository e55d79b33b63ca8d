package cmd

import (
	"errors"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/render"
)

// configError is loadFleet's error for a configuration with errors: its
// message, and the diagnostics the terminal got on standard error, which a
// Markdown comment says on standard output (planFailureComment).
type configError struct {
	msg   string
	diags diag.Diagnostics
}

func (e *configError) Error() string { return e.msg }

// planFailureComment writes, for `plan --format markdown` that ended with err
// before writing a plan, the comment saying why (render.MarkdownFailure,
// named by chdir like the plan comment it replaces), so that the workflow
// posts the failure, not an empty comment. err is returned as it is: the
// exit status and the message on standard error do not change.
func planFailureComment(env *Env, chdir string, err error) error {
	code, msg := exitStatus(err)
	if code == ExitOK || msg == nil {
		return err
	}
	var detail strings.Builder
	var ce *configError
	if errors.As(err, &ce) {
		_ = diag.Write(&detail, ce.diags, false)
	}
	if werr := render.MarkdownFailure(env.Stdout, render.MarkdownOptions{Dir: commentDir(chdir)}, msg.Error(), detail.String()); werr != nil {
		return exitCode(ExitError, werr)
	}
	return err
}

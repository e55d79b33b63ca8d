package cmd

import (
	"errors"
	"fmt"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/rollout"
)

// Exit codes: the one table of every tiform command. Libraries return typed
// results and errors; only this package turns them into a process status.
// exitTable documents them, and docs/workflows.md prints exitTable (checked
// by TestExitCodesDoc).
const (
	ExitOK          = 0
	ExitError       = 1
	ExitChanges     = 2   // plan --detailed-exitcode: changes, and no error (with --drift also a running value the persisted layer would revert); export tiup --check: differences
	ExitUnformatted = 3   // fmt --check: a file is not formatted
	ExitPaused      = 4   // apply with a rollout: paused before a stage (an approval, a closed window); nothing failed
	ExitInterrupted = 130 // apply stopped by SIGINT/SIGTERM (128 + SIGINT, as shells report it)
)

// exitTable is the documentation of every exit code, in docs/workflows.md.
var exitTable = []struct {
	Code    int
	Meaning string
}{
	{ExitOK, "nothing to do: every selected cluster was read and matches (or was applied, or the advice/snapshot was written); the configuration is valid; every file is formatted"},
	{ExitChanges, "`plan --detailed-exitcode`: changes (drift) and no error; with `--drift` also a running value the persisted layer (`tiup_topology`, `operator_manifests`) does not hold, which the next reload, restart or rolling update reverts, and, with `--unmanaged` (or `unmanaged_settings = \"report\"`), an undeclared setting not at its default that no ignore block accepts; `export tiup --check`: the TiUP topology lacks or contradicts a declared value"},
	{ExitError, "any selected cluster could not be read or planned (unreachable, incomplete, error), any unacknowledged finding at `--fail-on` (default `error`), a configuration error, an invalid configuration (`validate`), a file `fmt` could not parse or write, or apply failed or refused (outside a change window included); with a rollout: it stopped (a stop condition, a failed check, or clusters left unapplied), and its state file says what was done; the report still lists every other cluster's result"},
	{ExitUnformatted, "`fmt --check` only: a file is not formatted (listed)"},
	{ExitPaused, "`apply` with a rollout: it paused before a stage (an approval nobody could give here, or the stage's change window is closed) and nothing failed; the state file says where, and `tiform apply --resume FILE` continues"},
	{ExitInterrupted, "apply interrupted (Ctrl-C, SIGTERM): the running statement finished, the report says what was applied"},
}

// exitError carries an exit code through cobra without printing twice.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitCode wraps err so Main exits with code; a nil err exits silently.
func exitCode(code int, err error) error { return &exitError{code: code, err: err} }

// exitStatus is Main's verdict on a command's error: the code, and the
// message to print (nil: print nothing, the command already said why).
func exitStatus(err error) (int, error) {
	if err == nil {
		return ExitOK, nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code, ee.err
	}
	return ExitError, err
}

// operationExitCode maps how an apply operation ended (rollout.Run) to the
// process status: complete or nothing to do 0, paused ExitPaused,
// interrupted ExitInterrupted, anything else ExitError.
func operationExitCode(o rollout.Outcome) int {
	switch o {
	case rollout.Complete, rollout.NothingToDo:
		return ExitOK
	case rollout.Paused:
		return ExitPaused
	case rollout.Interrupted:
		return ExitInterrupted
	}
	return ExitError
}

// applyExitCode maps applier.Apply's error: interrupted (the context was
// cancelled by a signal) is ExitInterrupted, any other failure ExitError.
func applyExitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, applier.ErrInterrupted):
		return ExitInterrupted
	}
	return ExitError
}

package cmd

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Exit codes, shared by every command (docs/commands.md).
const (
	ExitOK      = 0
	ExitError   = 1
	ExitChanges = 2 // plan --detailed-exitcode: changes present
)

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

// Version is set at build time with -ldflags "-X github.com/tiform/tiform/cmd.Version=…".
var Version = ""

func versionString() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version // go install github.com/tiform/tiform@vX.Y.Z
	}
	// A build from a checkout: name the commit it was built from.
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "dev"
	}
	return "dev (commit " + rev + modified + ")"
}

// Main runs tiform with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "Error:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "Error:", err)
	return ExitError
}

// Env is what every subcommand gets: the process's streams.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// subcommands is filled by each command file's init function, so that each
// command lives in its own file: func init() { register(newFooCmd) }.
var subcommands []func(*Env) *cobra.Command

func register(f func(*Env) *cobra.Command) { subcommands = append(subcommands, f) }

// exitCode wraps err so Main exits with code; a nil err exits silently.
func exitCode(code int, err error) error { return &exitError{code: code, err: err} }

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "tiform",
		Short: "Manage TiDB cluster settings as code",
		Long: `tiform manages TiDB cluster settings as code.

HCL files declare TiKV/PD/TiFlash config, TiDB system variables and resource
groups. 'tiform plan' reads the live cluster and shows exactly what would
change; 'tiform apply' changes it, guarded by version-aware rules.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(&cobra.Command{
		Use:     "version",
		Short:   "Print tiform's version",
		Args:    cobra.NoArgs,
		Example: `  tiform version`,
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintf(c.OutOrStdout(), "tiform %s\n", versionString())
			return nil
		},
	})
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	for _, f := range subcommands {
		root.AddCommand(f(env))
	}
	return root
}

package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/secret"
)

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
//
// Everything tiform prints passes through a secret.Writer: the password of
// every DSN in use ($TIFORM_DSN, --dsn, each cluster's dsn once the
// configuration is loaded) and of any argument that looks like a DSN given by
// mistake (a positional argument, another flag's value) is masked, whatever
// printed it (tiform's own messages, cobra's usage errors, a library's error).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	secrets := &secret.Set{}
	secrets.AddDSN(os.Getenv(dsnEnv))
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			_, a, _ = strings.Cut(a, "=")
		}
		secrets.AddDSN(a)
	}
	out, errOut := secrets.Writer(stdout), secrets.Writer(stderr)
	defer out.Flush()
	defer errOut.Flush()
	root := newRoot(&Env{Stdin: stdin, Stdout: out, Stderr: errOut, Secrets: secrets})
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	code, msg := exitStatus(err)
	if msg != nil {
		// A server's message or a value may be quoted: control characters
		// are shown escaped.
		fmt.Fprintln(errOut, "Error:", diag.PrintableText(fmt.Sprint(msg)))
	}
	return code
}

// dsnEnv is the environment variable holding the default DSN.
const dsnEnv = "TIFORM_DSN"

// Env is what every subcommand gets: the process's streams and the secrets
// in use.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Secrets masks what Stdout and Stderr print; commands add every DSN
	// they learn (AddDSN) before printing anything that could hold it, and
	// refuse to write a file holding one of them.
	Secrets *secret.Set
}

// subcommands is filled by each command file's init function, so that each
// command lives in its own file: func init() { register(newFooCmd) }.
var subcommands []func(*Env) *cobra.Command

func register(f func(*Env) *cobra.Command) { subcommands = append(subcommands, f) }

func newRoot(env *Env) *cobra.Command {
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
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
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
	for _, f := range subcommands {
		root.AddCommand(f(env))
	}
	return root
}

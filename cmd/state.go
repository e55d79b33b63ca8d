package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/state"
)

func init() { register(newStateCmd) }

// stateFlags are the flags of `tiform state pull`.
type stateFlags struct {
	out             string
	dsn             string
	chdir           string
	cluster         string
	caFile          string
	tlsMode         string
	connectTimeout  time.Duration
	timeout         time.Duration
	allowIncomplete bool
}

func newStateCmd(env *Env) *cobra.Command {
	st := &cobra.Command{
		Use:   "state",
		Short: "Read and save what the cluster holds",
		Long: `Commands that read a cluster's state without planning anything.

'tiform state pull' saves what inspection sees into a snapshot file, so that
'tiform plan --from-snapshot FILE' can plan with no connection (for example in
a CI job that cannot reach production).`,
		Args: cobra.NoArgs,
	}
	var f stateFlags
	pull := &cobra.Command{
		Use:   "pull --out FILE",
		Short: "Save the cluster's state into a snapshot file",
		Long: `Read the cluster (versions, instances, component config, system variables,
resource groups and user bindings) and write it to a snapshot file: versioned
JSON with a content hash (docs/snapshot.md). The snapshot never contains the
DSN or any credential.

The cluster is the one given by --dsn, else TIFORM_DSN. Everything tiform can
manage is read: all components' config, all global variables, resource
groups and user bindings.

If some of the cluster could not be read (an instance down, a hidden table),
the snapshot records it, the reasons are printed, and the command exits 1
unless --allow-incomplete is given.`,
		Example: `  # save the state of the cluster in TIFORM_DSN
  tiform state pull --out prod.snapshot.json

  # with an explicit DSN and a private CA
  tiform state pull --dsn 'tiform:pw@tcp(tidb.internal:4000)/?tls=custom' \
    --ca-file ca.pem --out prod.snapshot.json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runStatePull(c.Context(), env, f)
		},
	}
	fl := pull.Flags()
	fl.StringVar(&f.out, "out", "", "snapshot file to write (required; - for standard output)")
	fl.StringVar(&f.dsn, "dsn", "", "cluster DSN (go-sql-driver form); default $TIFORM_DSN")
	fl.StringVar(&f.chdir, "chdir", ".", "configuration directory")
	fl.StringVar(&f.cluster, "cluster", "", "cluster name recorded in the snapshot (default \"default\")")
	fl.StringVar(&f.caFile, "ca-file", "", "PEM CA file to verify the server certificate (implies TLS)")
	fl.StringVar(&f.tlsMode, "tls", "", "TLS mode overriding the DSN: true, skip-verify, preferred or false")
	fl.DurationVar(&f.connectTimeout, "connect-timeout", live.DefaultConnectTimeout, "time allowed to connect")
	fl.DurationVar(&f.timeout, "timeout", 2*time.Minute, "time allowed for the whole read")
	fl.BoolVar(&f.allowIncomplete, "allow-incomplete", false, "exit 0 even when part of the cluster could not be read")
	st.AddCommand(pull)
	return st
}

func runStatePull(ctx context.Context, env *Env, f stateFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.out == "" {
		return exitCode(ExitError, errors.New("state pull: --out FILE is required (use --out - for standard output)"))
	}
	dsn := f.dsn
	if dsn == "" {
		dsn = os.Getenv("TIFORM_DSN")
	}
	if dsn == "" {
		return exitCode(ExitError, errors.New("state pull: no cluster to read: pass --dsn or set TIFORM_DSN (go-sql-driver form, e.g. user:password@tcp(host:4000)/)"))
	}
	cluster := f.cluster
	if cluster == "" {
		cluster = "default"
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	db, err := live.Open(ctx, dsn, live.ConnOptions{ConnectTimeout: f.connectTimeout, TLS: f.tlsMode, CAFile: f.caFile})
	if err != nil {
		return exitCode(ExitError, err)
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, live.Everything())
	if err != nil {
		return exitCode(ExitError, err) // Inspect never sees the DSN: no password to hide
	}
	live.ToolVersion = versionString()
	if err := writeSnapshotFile(env, f.out, l, cluster); err != nil {
		return exitCode(ExitError, err)
	}
	if f.out != "-" {
		fmt.Fprintln(env.Stdout, summarizeLive(l, cluster, f.out))
	}
	if len(l.Incomplete) > 0 {
		fmt.Fprintf(env.Stderr, "The read is incomplete (%d):\n", len(l.Incomplete))
		for _, r := range l.Incomplete {
			fmt.Fprintf(env.Stderr, "  - %s\n", r)
		}
		if !f.allowIncomplete {
			return exitCode(ExitError, errors.New("state pull: the snapshot was written but records an incomplete read; a plan from it will not report \"no changes\". Fix the cause above, or pass --allow-incomplete to accept it"))
		}
	}
	return nil
}

// writeSnapshotFile writes atomically (temp file + rename) so that a failed
// write never leaves a truncated snapshot behind.
func writeSnapshotFile(env *Env, out string, l *state.Live, cluster string) error {
	if out == "-" {
		return live.WriteSnapshot(env.Stdout, l, cluster)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".tiform-snapshot-*")
	if err != nil {
		return fmt.Errorf("state pull: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := live.WriteSnapshot(tmp, l, cluster); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("state pull: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("state pull: %w", err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("state pull: %w", err)
	}
	return nil
}

// summarizeLive is the one line state pull prints.
func summarizeLive(l *state.Live, cluster, out string) string {
	counts := map[state.Component]int{}
	for _, in := range l.Instances {
		counts[in.Component]++
	}
	var comps []string
	for c := range counts {
		comps = append(comps, string(c))
	}
	sort.Strings(comps)
	var parts []string
	for _, c := range comps {
		parts = append(parts, fmt.Sprintf("%s %d", c, counts[state.Component(c)]))
	}
	tidb := l.ServerVersionParsed.String()
	return fmt.Sprintf("Wrote %s: cluster %q, TiDB %s, %d instances (%s), %d config rows, %d variables, %d resource groups, %d users.",
		out, cluster, tidb, len(l.Instances), strings.Join(parts, ", "), len(l.Config), len(l.Variables), len(l.ResourceGroups), len(l.Users))
}

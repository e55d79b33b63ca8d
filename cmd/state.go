package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

func init() { register(newStateCmd) }

// stateFlags are the flags of `tiform state pull`.
type stateFlags struct {
	connFlags
	allowEnv        allowEnvFlag
	out             string
	chdir           string
	cluster         string
	allowIncomplete bool
	vars            []string
	varFiles        []string
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

The cluster is the one declared in the configuration directory (--chdir,
every *.hcl file; choose with --cluster NAME when there are several), with
--dsn or TIFORM_DSN overriding its dsn; without any *.hcl file, the one given
by --dsn or TIFORM_DSN. Everything tiform can manage is read: all components'
config, all global variables, resource groups and user bindings; the
configuration's managed keys are also checked for completeness.

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
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form); default $TIFORM_DSN")
	fl.StringVar(&f.chdir, "chdir", ".", "configuration directory")
	fl.StringVar(&f.cluster, "cluster", "", "cluster to read (from the configuration); without a configuration, the name recorded (default \"default\")")
	fl.StringArrayVar(&f.vars, "var", nil, "set an input variable of the configuration: NAME=VALUE (repeatable)")
	f.allowEnv.bind(fl)
	fl.StringArrayVar(&f.varFiles, "var-file", nil, "read input variables from an HCL file of NAME = VALUE lines (repeatable)")
	fl.BoolVar(&f.allowIncomplete, "allow-incomplete", false, "exit 0 even when part of the cluster could not be read")
	// plan and apply call the same acceptance --allow-partial: accept it here
	// too rather than fail a DBRE on the spelling (hidden: one documented name).
	fl.BoolVar(&f.allowIncomplete, "allow-partial", false, "same as --allow-incomplete")
	_ = fl.MarkHidden("allow-partial")
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
	target, err := pullTarget(env, f, f.flagDSN())
	if err != nil {
		return err
	}
	l, err := f.inspect(ctx, target.dsn, target.req)
	if err != nil {
		return exitCode(ExitError, err) // live redacts: no password to hide
	}
	if err := writeSnapshotFile(env, f.out, l, target.cluster); err != nil {
		return exitCode(ExitError, err)
	}
	if f.out != "-" {
		fmt.Fprintln(env.Stdout, summarizeLive(l, target.cluster, f.out))
	}
	if reasons := l.Incomplete(); len(reasons) > 0 {
		fmt.Fprintf(env.Stderr, "The read is incomplete (%d):\n", len(reasons))
		for _, r := range reasons {
			fmt.Fprintf(env.Stderr, "  - %s\n", r)
		}
		if !f.allowIncomplete {
			return exitCode(ExitError, errors.New("state pull: the snapshot was written but records an incomplete read; a plan from it will not report \"no changes\". Fix the cause above, or pass --allow-incomplete to accept it"))
		}
	}
	return nil
}

// pullSpec is the cluster state pull reads and what it reads.
type pullSpec struct {
	cluster string
	dsn     string // secret
	req     live.Request
}

// pullTarget resolves the cluster: from the configuration in --chdir when it
// has *.hcl files (the cluster block's dsn; --dsn / TIFORM_DSN win), else
// from --dsn / TIFORM_DSN alone. It always reads everything a snapshot can
// hold (live.Everything), plus the configuration's managed keys and
// variables, so that completeness is checked for them at pull time too.
func pullTarget(env *Env, f stateFlags, flagDSN string) (pullSpec, error) {
	spec := pullSpec{cluster: f.cluster, dsn: flagDSN, req: live.Everything()}
	hcl, _ := filepath.Glob(filepath.Join(f.chdir, "*.hcl"))
	if len(hcl) == 0 {
		if spec.dsn == "" {
			return spec, exitCode(ExitError, fmt.Errorf("state pull: no cluster to read: no *.hcl file in %s; pass --dsn or set TIFORM_DSN (go-sql-driver form, e.g. user:password@tcp(host:4000)/)", f.chdir))
		}
		if spec.cluster == "" {
			spec.cluster = "default"
		}
		return spec, nil
	}
	vars, err := parseVarFlags(f.vars)
	if err != nil {
		return spec, exitCode(ExitError, fmt.Errorf("state pull: %w", err))
	}
	var only []string
	if f.cluster != "" {
		only = []string{f.cluster} // only that cluster's secrets are needed
	}
	d, diags := schema.Load(f.chdir, schema.Options{Vars: vars, VarFiles: f.varFiles, DefaultDSN: flagDSN, Clusters: only, AllowEnv: f.allowEnv.list()})
	learnSecrets(env, d)
	if diags.HasErrors() {
		_ = diag.Write(env.Stderr, diags, false)
		return spec, exitCode(ExitError, fmt.Errorf("state pull: the configuration in %s is invalid (run 'tiform validate --chdir %s')", f.chdir, f.chdir))
	}
	var dc *state.DesiredCluster
	switch {
	case f.cluster != "":
		if dc, err = findCluster(d, f.cluster, "--cluster"); err != nil {
			return spec, exitCode(ExitError, fmt.Errorf("state pull: %w", err))
		}
	case len(d.Clusters) == 1:
		dc = d.Clusters[0]
	default:
		var names []string
		for _, c := range d.Clusters {
			names = append(names, c.Name)
		}
		return spec, exitCode(ExitError, fmt.Errorf("state pull: the configuration declares %d clusters (%s): choose one with --cluster NAME", len(names), strings.Join(names, ", ")))
	}
	spec.cluster = dc.Name
	if spec.dsn == "" {
		spec.dsn = dc.DSN
	}
	if spec.dsn == "" {
		return spec, exitCode(ExitError, fmt.Errorf("state pull: cluster %q has no DSN: set dsn in its cluster block, pass --dsn or set TIFORM_DSN", dc.Name))
	}
	spec.req = mergeRequests(live.Everything(), live.RequestFor(dc))
	return spec, nil
}

// mergeRequests adds want's managed keys and variables to all (which reads
// everything), so Check reports gaps for them.
func mergeRequests(all, want live.Request) live.Request {
	for _, w := range want.Config {
		found := false
		for i := range all.Config {
			if all.Config[i].Component == w.Component {
				all.Config[i].Keys = append(all.Config[i].Keys, w.Keys...)
				found = true
			}
		}
		if !found {
			all.Config = append(all.Config, w)
		}
	}
	all.Variables = append(all.Variables, want.Variables...)
	return all
}

// writeSnapshotFile writes the snapshot atomically and private (it holds the
// cluster's settings), so that a failed write never leaves a truncated
// snapshot behind.
func writeSnapshotFile(env *Env, out string, l *state.Live, cluster string) error {
	origin := live.Origin{Cluster: cluster, ToolVersion: versionString()}
	if out == "-" {
		return live.WriteSnapshot(env.Stdout, l, origin)
	}
	if err := files.Write(out, files.Private, func(w io.Writer) error { return live.WriteSnapshot(w, l, origin) }); err != nil {
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
	return fmt.Sprintf("Wrote %s: cluster %q, TiDB %s, %s (%s), %s, %s, %s, %s.",
		out, cluster, tidb, plural(len(l.Instances), "instance"), strings.Join(parts, ", "), plural(len(l.Config), "config row"),
		plural(len(l.Variables), "variable"), plural(len(l.ResourceGroups), "resource group"), plural(len(l.Users), "user"))
}

package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/state"
)

func init() { register(newStateCmd) }

// stateFlags are the flags of `tiform state pull`.
type stateFlags struct {
	connFlags
	fleetFlags
	out             string
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
		Use:   "pull --out FILE|DIR",
		Short: "Save each cluster's state into a snapshot file",
		Long: `Read the cluster (versions, instances, component config, system variables,
resource groups and user bindings) and write it to a snapshot file: versioned
JSON with a content hash (docs/snapshot.md). The snapshot never contains the
DSN or any credential.

The clusters are those declared in the configuration directory (--chdir,
every *.hcl file), chosen with --cluster and --label as plan chooses them
and read --parallelism at a time, with --dsn overriding the one selected
cluster's dsn; without any *.hcl file, the one given by --dsn or TIFORM_DSN
(recorded under the name --cluster gives, default "default"). Everything
tiform can manage is read: all components' config, all global variables,
resource groups and user bindings; the configuration's managed keys are also
checked for completeness.

One cluster is written to --out FILE (- for standard output); several to
the directory --out DIR, one CLUSTER.snapshot.json each. Each cluster gets a
status (ok, incomplete, unreachable, error). A cluster that could not be read
is not written; the others are. If some of a cluster could not be read (an
instance down, a hidden table), its snapshot records it, the reasons are
printed, and the command exits 1 unless --allow-incomplete is given.
`,
		Example: `  # save the state of the cluster in TIFORM_DSN
  tiform state pull --out prod.snapshot.json

  # every production cluster of the configuration, one file each
  tiform state pull --chdir clusters --label env=prod --out snapshots/

  # with an explicit DSN and a private CA
  tiform state pull --dsn 'tiform:pw@tcp(tidb.internal:4000)/?tls=custom' \
    --ca-file ca.pem --out prod.snapshot.json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runStatePull(c.Context(), env, f)
		},
	}
	fl := pull.Flags()
	fl.StringVar(&f.out, "out", "", "snapshot file to write (required; - for standard output), or the directory for several clusters")
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form); default $TIFORM_DSN")
	f.fleetFlags.bind(fl)
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
	if err := checkOutPath(env, "state pull --out", f.out); err != nil {
		return exitCode(ExitError, err)
	}
	targets, err := pullTargets(env, &f)
	if err != nil {
		return err
	}
	paths, err := snapshotPaths(f.out, targets)
	if err != nil {
		return exitCode(ExitError, err)
	}
	lines := make([]render.ClusterLine, len(targets))
	var failed []render.ClusterLine
	for i, r := range readFleet(ctx, f.parallelism, targets, pullRead(&f.connFlags)) {
		l := pulled(env, targets[i].Name, paths[i], r)
		lines[i] = l
		if l.Status != planner.StatusOK && (l.Status != planner.StatusIncomplete || !f.allowIncomplete) {
			failed = append(failed, l)
		}
	}
	if len(targets) > 1 {
		fmt.Fprintf(env.Stdout, "\nFleet: %s read.\n", plural(len(targets), "cluster"))
		_ = render.StatusLines(env.Stdout, lines, false)
	}
	if len(failed) == 0 {
		return nil
	}
	if len(targets) == 1 && lines[0].Status == planner.StatusIncomplete {
		return exitCode(ExitError, errors.New("state pull: the snapshot was written but records an incomplete read; a plan from it will not report \"no changes\". Fix the cause above, or pass --allow-incomplete to accept it"))
	}
	if len(targets) == 1 {
		return exitCode(ExitError, fmt.Errorf("state pull: %s", lines[0].Detail))
	}
	err = fleetFailure("read", failed)
	for _, l := range failed {
		if l.Status == planner.StatusIncomplete {
			err = fmt.Errorf("%w; an incomplete read was written: pass --allow-incomplete to accept it", err)
			break
		}
	}
	return exitCode(ExitError, fmt.Errorf("state pull: %w", err))
}

// pulled writes one cluster's snapshot and says how it went: the line of
// the per-cluster summary. What could not be read goes to stderr.
func pulled(env *Env, name, path string, r clusterRead) render.ClusterLine {
	if r.err != nil {
		fl := failureOf(r.err, diag.Sources{}) // a read error: no configuration source
		return render.ClusterLine{Name: name, Status: fl.Status, Detail: fl.Message}
	}
	if err := writeSnapshotFile(env, path, r.live, name); err != nil {
		return render.ClusterLine{Name: name, Status: planner.StatusError, Detail: err.Error()}
	}
	line := render.ClusterLine{Name: name, Status: planner.StatusOK, Detail: "wrote " + path}
	if path != "-" {
		fmt.Fprintln(env.Stdout, summarizeLive(r.live, name, path))
	}
	if reasons := r.live.Incomplete(); len(reasons) > 0 {
		n := len(reasons)
		line.Status = planner.StatusIncomplete
		line.Detail += fmt.Sprintf("; %s not read (listed on stderr)", plural(n, "part"))
		fmt.Fprintf(env.Stderr, "The read of cluster %q is incomplete (%d):\n", name, n)
		for _, reason := range reasons {
			fmt.Fprintf(env.Stderr, "  - %s\n", reason)
		}
	}
	return line
}

// snapshotPaths is where each cluster's snapshot goes: --out itself for one
// cluster, DIR/CLUSTER.snapshot.json for several (DIR is created).
func snapshotPaths(out string, targets []*state.DesiredCluster) ([]string, error) {
	if len(targets) == 1 {
		return []string{out}, nil
	}
	if out == "-" {
		return nil, fmt.Errorf("state pull: --out - writes one snapshot, and %s are selected (%s): give a directory, or choose one with --cluster",
			plural(len(targets), "cluster"), strings.Join(clusterNames(targets), ", "))
	}
	st, err := os.Stat(out)
	switch {
	case err == nil && !st.IsDir():
		return nil, fmt.Errorf("state pull: %s is a file, and %s are selected (%s): --out names a directory for several clusters (one CLUSTER.snapshot.json each), or choose one with --cluster",
			out, plural(len(targets), "cluster"), strings.Join(clusterNames(targets), ", "))
	case err != nil && !strings.HasSuffix(out, string(filepath.Separator)):
		// A new name without a trailing slash looks like a file: say so
		// rather than create a directory the user did not mean.
		return nil, fmt.Errorf("state pull: %s are selected (%s) and --out %s does not exist: write --out %s%c to create a directory (one CLUSTER.snapshot.json each), or choose one with --cluster NAME",
			plural(len(targets), "cluster"), strings.Join(clusterNames(targets), ", "), out, out, filepath.Separator)
	}
	if err := files.MkdirPrivate(out); err != nil { // snapshots hold the clusters' settings
		return nil, fmt.Errorf("state pull: %w", err)
	}
	paths := make([]string, len(targets))
	for i, dc := range targets {
		paths[i] = filepath.Join(out, dc.Name+".snapshot.json")
	}
	return paths, nil
}

// pullRead reads everything a snapshot can hold (live.Everything), plus the
// configuration's managed keys and variables, so that completeness is
// checked for them at pull time too.
func pullRead(f *connFlags) readFunc {
	return func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, error) {
		if dc.DSN == "" {
			return nil, fmt.Errorf("cluster %q has no DSN: set dsn in its cluster block, pass --dsn or set TIFORM_DSN", dc.Name)
		}
		l, err := f.inspect(ctx, dc.DSN, mergeRequests(live.Everything(), live.RequestFor(dc)))
		if err != nil {
			return nil, fmt.Errorf("cluster %q: %w", dc.Name, err) // live redacts: no password to hide
		}
		return l, nil
	}
}

// pullTargets resolves the clusters: from the configuration in --chdir when
// it has *.hcl files (selected by --cluster and --label; --dsn overrides the
// one selected cluster's dsn, TIFORM_DSN stands for a configuration without
// cluster blocks), else the one cluster of --dsn / TIFORM_DSN.
func pullTargets(env *Env, f *stateFlags) ([]*state.DesiredCluster, error) {
	if f.hasConfig() {
		d, err := loadFleet(env, &f.fleetFlags, &f.connFlags, false)
		if err != nil {
			return nil, err
		}
		return d.Clusters, nil
	}
	dsn := f.flagDSN()
	switch {
	case dsn == "":
		return nil, exitCode(ExitError, fmt.Errorf("state pull: no cluster to read: no *.hcl file in %s; pass --dsn or set TIFORM_DSN (go-sql-driver form, e.g. user:password@tcp(host:4000)/)", f.chdir))
	case len(f.labels) > 0 || len(f.clusters) > 1:
		return nil, exitCode(ExitError, fmt.Errorf("state pull: --label and several --cluster choose among the clusters of a configuration, and %s has no *.hcl file", f.chdir))
	}
	name := "default"
	if len(f.clusters) == 1 {
		name = f.clusters[0]
	}
	return []*state.DesiredCluster{{Name: name, DSN: dsn}}, nil
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
	var b bytes.Buffer
	if err := live.WriteSnapshot(&b, l, origin); err != nil {
		return fmt.Errorf("state pull: %w", err)
	}
	if err := env.Secrets.Refuse(b.Bytes()); err != nil {
		return fmt.Errorf("state pull: snapshot %s: %w", out, err)
	}
	if err := files.WriteBytes(out, b.Bytes(), files.Private); err != nil {
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

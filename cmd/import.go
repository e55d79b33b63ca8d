package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/importer"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

func init() { register(newImportCmd) }

type importFlags struct {
	configFlags
	snapshots []string
	out       string
	all       bool
	force     bool
	update    bool
	unmanaged bool
}

func newImportCmd(env *Env) *cobra.Command {
	var f importFlags
	c := &cobra.Command{
		Use:   "import [--out DIR] [--cluster NAME|--label KEY=VALUE] [--all] [--from-snapshot FILE]",
		Short: "Write the configuration of running clusters (adopt a fleet)",
		Long: `Read running clusters and write the tiform configuration that declares what
they hold: every TiKV, PD and TiFlash config value and every global variable
that differs from the default of the version the cluster runs, resource groups
with all their options, and the accounts bound to them. Each value carries a
comment with the version's default; a value equal to an older version's default
(a cluster upgraded from before the default changed) says so. --all imports
values at their default too.

Config is declared for every instance of a component where all instances
agree, and per instance where they do not. For a fleet, baseline.hcl holds
what every selected cluster has in common and cluster-NAME.hcl each cluster's
differences; a single cluster without a name is written to main.hcl.

The clusters are those of the configuration in --chdir (selected with
--cluster and --label), or the one --dsn or TIFORM_DSN reaches when there is no
configuration (--cluster then names it), or the snapshots given with
--from-snapshot (tiform state pull). Import never writes a secret: a cluster
block keeps the env("NAME") the configuration reads its DSN from, else reads
env("TIFORM_DSN_<NAME>").

What a component prints but is not a setting (each instance's addresses,
names and paths, values computed at start, read-only items) is never
written, nor a value at the default TiKV computes from its host (read from
CLUSTER_HARDWARE). The summary names what was left out, grouped by why.

The files are written into --out (default: the current directory), which must
not hold other *.hcl files; an existing file is replaced only with --force.
Before writing, import checks that the configuration is valid and that a plan
over what it read shows no changes.

With --update, import rewrites instead the values of the configuration in
--chdir that drifted on the cluster, in place, keeping every comment and the
layout (like 'terraform apply -refresh-only', as a diff to review). With
--update --unmanaged (or unmanaged_settings = "report" in the configuration),
it also declares the unmanaged drift 'tiform plan --drift --unmanaged' reports:
the undeclared settings whose live value is not the default.`,
		Example: `  # one cluster, from TIFORM_DSN, into a new directory
  tiform import --cluster prod --out prod/

  # the production clusters of a fleet (cluster blocks with dsn and labels in --chdir)
  tiform import --chdir fleet/ --label env=prod --out adopted/

  # offline, from a snapshot
  tiform import --from-snapshot prod.snapshot.json --out prod/

  # accept the values that drifted into the configuration
  tiform import --update --chdir prod/ && git diff prod/`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if f.update {
				return runImportUpdate(ctx, env, f)
			}
			return runImport(ctx, env, f)
		},
	}
	fl := c.Flags()
	f.fleetFlags.bind(fl)
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form) when there is no configuration (--cluster then names the cluster), or overriding the one selected cluster's dsn; default $TIFORM_DSN")
	fl.StringArrayVar(&f.snapshots, "from-snapshot", nil, "import from a snapshot file (tiform state pull) instead of connecting (repeatable: one cluster each)")
	fl.StringVar(&f.out, "out", ".", "directory to write the configuration into")
	fl.BoolVar(&f.all, "all", false, "import values at their default too")
	fl.BoolVar(&f.force, "force", false, "replace files of the same name in --out")
	fl.BoolVar(&f.update, "update", false, "rewrite the values of the configuration in --chdir that drifted on the cluster, keeping comments and layout")
	fl.BoolVar(&f.unmanaged, "unmanaged", false, "with --update: also declare the settings the configuration does not declare whose live value is not the default (the unmanaged drift of plan --drift --unmanaged)")
	fl.BoolVar(&f.allowPartial, "allow-partial", false, "import even when part of a cluster could not be read (an instance down); what was not read is not imported")
	return c
}

func runImport(ctx context.Context, env *Env, f importFlags) error {
	if err := checkOutPath(env, "import --out", f.out); err != nil {
		return exitCode(ExitError, err)
	}
	if err := checkOutDir(f.out, f.force); err != nil {
		return exitCode(ExitError, err)
	}
	clusters, err := importSources(ctx, env, &f)
	if err != nil {
		return err
	}
	res, err := importer.Generate(clusters, importer.Options{All: f.all})
	if err != nil {
		return exitCode(ExitError, err)
	}
	if err := verifyImport(env, f.out, res, clusters, f.allowPartial); err != nil {
		return exitCode(ExitError, err)
	}
	if err := writeImport(f.out, res, f.force); err != nil {
		return exitCode(ExitError, err)
	}
	reportImport(env, f.out, res)
	return nil
}

// importSources reads the clusters to import: from snapshots, from the
// configuration in --chdir, or from --dsn / TIFORM_DSN.
func importSources(ctx context.Context, env *Env, f *importFlags) ([]importer.Cluster, error) {
	if len(f.snapshots) > 0 {
		return snapshotSources(f)
	}
	if f.hasConfig() {
		return configSources(ctx, env, f)
	}
	dsn := f.flagDSN()
	env.Secrets.AddDSN(dsn)
	if dsn == "" {
		return nil, exitCode(ExitError, fmt.Errorf("import: no cluster to read: %s holds no configuration (*.hcl) and neither --dsn nor TIFORM_DSN is set; pass --dsn (go-sql-driver form, e.g. user:password@tcp(host:4000)/), or write cluster blocks with dsn and labels and pass --chdir", f.chdir))
	}
	if len(f.clusters) > 1 || len(f.labels) > 0 {
		return nil, exitCode(ExitError, errors.New("import: without a configuration there is one cluster, the one --dsn reaches: --cluster names it, and --label selects nothing"))
	}
	name := ""
	if len(f.clusters) == 1 {
		name = f.clusters[0]
		if err := checkClusterName(name); err != nil {
			return nil, exitCode(ExitError, err)
		}
	}
	l, err := f.inspect(ctx, dsn, live.Everything())
	if err != nil {
		return nil, exitCode(ExitError, fmt.Errorf("import: %w", err))
	}
	if err := checkComplete(name, l, f.allowPartial); err != nil {
		return nil, err
	}
	return []importer.Cluster{{Name: name, Live: l}}, nil
}

// checkClusterName refuses a --cluster name the language cannot hold.
func checkClusterName(name string) error {
	if _, diags := schema.LoadFiles(".", map[string][]byte{"name.hcl": []byte(fmt.Sprintf("cluster %q {}\n", name))}, schema.Options{Offline: true}); diags.HasErrors() {
		return fmt.Errorf("import: --cluster %q: a cluster name starts with a letter or digit and holds letters, digits, '.', '_' and '-'", name)
	}
	return nil
}

// configSources reads the clusters the configuration declares (--cluster and
// --label select), concurrently, as plan does.
func configSources(ctx context.Context, env *Env, f *importFlags) ([]importer.Cluster, error) {
	d, err := loadConfig(env, &f.configFlags, false)
	if err != nil {
		return nil, err
	}
	// Everything each cluster holds, as state pull reads it.
	reads := readFleet(ctx, f.parallelism, d.Clusters, pullRead(&f.connFlags))
	var out []importer.Cluster
	var failed []string
	for i, dc := range d.Clusters {
		if reads[i].err != nil {
			fmt.Fprintf(env.Stderr, "Error: %v\n", reads[i].err)
			failed = append(failed, dc.Name)
			continue
		}
		name := dc.Name
		if dc.Range == (diag.SourceRange{}) {
			name = "" // the implicit default cluster: no cluster block
		}
		if err := checkComplete(dc.Name, reads[i].live, f.allowPartial); err != nil {
			return nil, err
		}
		out = append(out, importer.Cluster{Name: name, Labels: dc.Labels, TiUPCluster: dc.TiUPCluster, DSNEnv: dc.DSNEnv, Live: reads[i].live})
	}
	if len(failed) > 0 {
		return nil, exitCode(ExitError, fmt.Errorf("import: %s could not be read (%s); nothing was written", plural(len(failed), "cluster"), strings.Join(failed, ", ")))
	}
	return out, nil
}

// snapshotSources reads snapshot files; each names its cluster. Labels come
// (and the TiUP name) from the configuration in --chdir when it declares the
// cluster.
func snapshotSources(f *importFlags) ([]importer.Cluster, error) {
	named := map[string]*state.DesiredCluster{}
	if f.hasConfig() {
		vars, _ := parseVarFlags(f.vars)
		if d, diags := schema.Load(f.chdir, schema.Options{Vars: vars, VarFiles: f.varFiles, Offline: true, AllowEnv: f.allowEnv.list()}); !diags.HasErrors() {
			for _, dc := range d.Clusters {
				named[dc.Name] = dc
			}
		}
	}
	var out []importer.Cluster
	seen := map[string]bool{}
	for _, p := range f.snapshots {
		l, err := live.ReadSnapshot(p)
		if err != nil {
			return nil, exitCode(ExitError, fmt.Errorf("import: %w", err))
		}
		name := l.Offline.Cluster
		if len(f.clusters) > 0 && !slices.Contains(f.clusters, name) {
			continue
		}
		if seen[name] {
			return nil, exitCode(ExitError, fmt.Errorf("import: two snapshots of cluster %q; give one per cluster", name))
		}
		seen[name] = true
		if err := checkComplete(name, l, f.allowPartial); err != nil {
			return nil, err
		}
		c := importer.Cluster{Name: name, Live: l}
		if dc := named[name]; dc != nil {
			c.Labels, c.TiUPCluster, c.DSNEnv = dc.Labels, dc.TiUPCluster, dc.DSNEnv
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, exitCode(ExitError, fmt.Errorf("import: no snapshot is of the clusters --cluster names (%s)", strings.Join(f.clusters, ", ")))
	}
	if len(out) == 1 && out[0].Name == "default" && len(f.clusters) == 0 {
		out[0].Name = "" // state pull's name for a cluster without a cluster block
	}
	return out, nil
}

// checkComplete refuses a partial read unless --allow-partial: what was not
// read would silently be missing from the configuration.
func checkComplete(name string, l *state.Live, allow bool) error {
	if len(l.Incomplete()) == 0 || allow {
		return nil
	}
	if name == "" {
		name = "default"
	}
	return exitCode(ExitError, fmt.Errorf("import: cluster %q could not be read completely, so its configuration would miss what was not read:\n  - %s\nFix it and import again, or pass --allow-partial to import what could be read",
		name, strings.Join(l.Incomplete(), "\n  - ")))
}

// checkOutDir refuses a directory that holds other configuration files (the
// generated files would be loaded with them, declaring clusters twice) and,
// without force, files of the names import writes.
func checkOutDir(out string, force bool) error {
	st, err := os.Stat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("import: --out %s: %w", out, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("import: --out %s is not a directory", out)
	}
	hcl, _ := filepath.Glob(filepath.Join(out, "*.hcl"))
	var others []string
	for _, p := range hcl {
		b := filepath.Base(p)
		if !force || !importer.Generated(b) {
			others = append(others, b)
		}
	}
	if len(others) > 0 {
		sort.Strings(others)
		return fmt.Errorf("import: %s already holds a configuration (%s); import into a new directory with --out DIR, replace earlier import output with --force, or refresh drifted values of it with 'tiform import --update --chdir %s'",
			out, strings.Join(others, ", "), out)
	}
	return nil
}

// verifyImport loads the generated files as tiform would and plans each
// cluster against what was read: the configuration must be valid and the
// plan empty. A failure is a bug in import; nothing is written.
func verifyImport(env *Env, out string, res *importer.Result, clusters []importer.Cluster, allowPartial bool) error {
	m := map[string][]byte{}
	for _, f := range res.Files {
		m[f.Name] = f.Content
	}
	d, diags := schema.LoadFiles(out, m, schema.Options{Offline: true})
	if diags.HasErrors() {
		_ = diag.Write(env.Stderr, diags, false)
		return errors.New("import: the generated configuration is not valid (a bug in tiform import; please report it with the messages above); nothing was written")
	}
	for _, c := range clusters {
		name := c.Name
		if name == "" {
			name = "default"
		}
		dc, err := findCluster(d, name, "import")
		if err != nil {
			return err
		}
		cp, err := planner.BuildCluster(dc, c.Live, planner.Options{Now: time.Now(), AllowPartial: allowPartial})
		if err != nil {
			return fmt.Errorf("import: plan cluster %q over what was read: %w", name, err)
		}
		if len(cp.Changes) > 0 {
			var addrs []string
			for _, ch := range cp.Changes {
				addrs = append(addrs, ch.Addr.String())
			}
			return fmt.Errorf("import: a plan of cluster %q over what was read would change %s (a bug in tiform import; please report it); nothing was written",
				name, strings.Join(addrs, ", "))
		}
	}
	return nil
}

// writeImport creates --out and writes every file, or none of them
// (files.WriteAll): a file that cannot be written leaves no other behind,
// and a directory import created for them is removed again.
func writeImport(out string, res *importer.Result, force bool) error {
	_, statErr := os.Stat(out)
	created := errors.Is(statErr, os.ErrNotExist)
	if err := files.Mkdir(out, 0o755); err != nil { // a configuration directory, readable like any source
		return fmt.Errorf("import: %w", err)
	}
	all := make([]files.File, 0, len(res.Files))
	for _, f := range res.Files {
		p := filepath.Join(out, f.Name)
		if _, err := os.Lstat(p); err == nil && !force {
			return fmt.Errorf("import: %s exists; pass --force to replace it", p)
		}
		all = append(all, files.File{Name: f.Name, Content: f.Content})
	}
	// Configuration holds no secret: readable like any source file.
	if err := files.WriteAll(out, all, 0o644); err != nil {
		if created {
			os.Remove(out) // empty again: nothing was written
		}
		return fmt.Errorf("import: %w; nothing was written", err)
	}
	return nil
}

// reportImport says what was written, what was left out, and what to do next.
func reportImport(env *Env, out string, res *importer.Result) {
	var names []string
	for _, f := range res.Files {
		names = append(names, f.Name)
	}
	fmt.Fprintf(env.Stdout, "Imported %s into %s: %s.\n", plural(len(res.Clusters), "cluster"), out, strings.Join(names, ", "))
	var envs []string
	for _, r := range res.Clusters {
		name := r.Name
		if name == "" {
			name = "the cluster"
		}
		if r.Version != "" {
			name += " (TiDB " + r.Version + ")"
		}
		fmt.Fprintf(env.Stdout, "  %s: %s, %s, %s, %s, %s.\n", name,
			plural(r.Config, "config value"), plural(r.Instance, "per-instance value"), plural(r.Variables, "variable"),
			plural(r.Groups, "resource group"), plural(r.Users, "bound account"))
		reportLeftOut(env, r)
		if r.DSNEnv != "" {
			envs = append(envs, r.DSNEnv)
		}
	}
	if len(envs) > 0 {
		fmt.Fprintf(env.Stdout, "Before planning, set %s to the DSN of each cluster (import writes no secret).\n", strings.Join(envs, ", "))
	}
	fmt.Fprintf(env.Stdout, "Next: review the files, then 'tiform plan --chdir %s' shows no changes.\n", out)
}

// reportLeftOut says what import left out and why, one line per reason
// (each naming its keys once, however many instances show them), and what
// it imported that a reviewer should look at.
func reportLeftOut(env *Env, r importer.Report) {
	fmt.Fprintf(env.Stdout, "    left out: %d at their default (the version's, or computed from the host)", r.AtDefault)
	all := false
	for _, g := range r.LeftOut {
		all = all || g.All
	}
	if all {
		fmt.Fprint(env.Stdout, "; --all imports those and the ones marked [--all]")
	}
	fmt.Fprintln(env.Stdout, ".")
	for _, g := range r.LeftOut {
		mark := ""
		if g.All {
			mark = " [--all]"
		}
		fmt.Fprintf(env.Stdout, "    left out%s, %s: %s\n", mark, g.Why, namedKeys(g.Keys))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(env.Stdout, "    note: %s\n", n)
	}
	for _, g := range r.Imported {
		fmt.Fprintf(env.Stdout, "    imported, %s: %s\n", g.Why, namedKeys(g.Keys))
	}
}

// namedKeys lists keys for the summary: every one up to a bound, then a
// count.
func namedKeys(keys []string) string {
	const show = 12
	if len(keys) <= show {
		return strings.Join(keys, ", ") + "."
	}
	return strings.Join(keys[:show], ", ") + fmt.Sprintf(" and %d more.", len(keys)-show)
}

// runImportUpdate rewrites, in the configuration in --chdir, the values
// that drifted on the selected clusters, and prints the diff.
func runImportUpdate(ctx context.Context, env *Env, f importFlags) error {
	if f.unmanaged && !f.update {
		return exitCode(ExitError, errors.New("import: --unmanaged declares the unmanaged drift of an existing configuration: add --update"))
	}
	if len(f.snapshots) > 0 || f.all || f.force || f.out != "." {
		return exitCode(ExitError, errors.New("import --update rewrites the configuration in --chdir from its clusters: --out, --all, --force and --from-snapshot do not apply"))
	}
	cf := &f.configFlags
	d, err := loadConfig(env, cf, false)
	if err != nil {
		return err
	}
	in, err := updateInput(ctx, cf, d, f.unmanaged)
	if err != nil {
		return err
	}
	res, err := importer.Update(*in)
	if err != nil {
		return exitCode(ExitError, err)
	}
	names := make([]string, 0, len(res.Files))
	for n := range res.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprint(env.Stdout, labelledDiff(n, "updated", string(in.Sources[n]), string(res.Files[n])))
		if err := rewrite(n, res.Files[n]); err != nil { // never through a link, as fmt
			return exitCode(ExitError, fmt.Errorf("import --update: %w (files listed above were written)", err))
		}
	}
	for _, a := range res.Accepted {
		fmt.Fprintf(env.Stdout, "  accepted %s\n", a)
	}
	for _, r := range res.Refused {
		fmt.Fprintf(env.Stderr, "Warning: not accepted: %s\n", r)
	}
	switch {
	case len(res.Refused) > 0:
		return exitCode(ExitError, fmt.Errorf("import --update: %s accepted, %s not (listed above): change those by hand", plural(len(res.Accepted), "value"), plural(len(res.Refused), "value")))
	case len(res.Accepted) == 0 && !readsUnmanaged(d, f.unmanaged):
		fmt.Fprintln(env.Stdout, "No drift: every declared value matches the clusters; nothing was changed.")
		fmt.Fprintln(env.Stdout, "Settings the configuration does not declare were not read: --unmanaged declares those not at their default.")
	case len(res.Accepted) == 0:
		fmt.Fprintln(env.Stdout, "No drift: every declared value matches the clusters, and no undeclared setting differs from its default; nothing was changed.")
	default:
		fmt.Fprintf(env.Stdout, "Updated %s (%s); review with git diff, then 'tiform plan' shows no changes.\n", plural(len(names), "file"), plural(len(res.Accepted), "value"))
	}
	return nil
}

// updateInput reads and plans every selected cluster, and reads the
// configuration's files.
func updateInput(ctx context.Context, cf *configFlags, d *state.Desired, unmanaged bool) (*importer.UpdateInput, error) {
	in := &importer.UpdateInput{Sources: map[string][]byte{}}
	// What the configuration declares, as plan reads it: what can drift;
	// and the whole surface where the unmanaged drift is accepted too, as
	// plan --drift reads it.
	o := planner.Options{Now: time.Now(), AllowPartial: cf.allowPartial, Drift: true, Unmanaged: unmanaged}
	reads := readFleet(ctx, cf.parallelism, d.Clusters, func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, error) {
		l, db, err := readRequest(ctx, cf, dc, planRequest(dc, o))
		if db != nil {
			db.Close()
		}
		return l, err
	})
	for i, dc := range d.Clusters {
		if reads[i].err != nil {
			return nil, exitCode(ExitError, fmt.Errorf("import --update: %w; nothing was changed", reads[i].err))
		}
		if err := checkComplete(dc.Name, reads[i].live, cf.allowPartial); err != nil {
			return nil, err
		}
		cp, err := planner.BuildCluster(dc, reads[i].live, o)
		if err != nil {
			return nil, exitCode(ExitError, fmt.Errorf("import --update: cluster %q: %w", dc.Name, err))
		}
		dr := importer.Drifted{Desired: dc, Live: reads[i].live, Changes: cp.Changes}
		if u := cp.UnmanagedSettings; u != nil {
			dr.Unmanaged = u.Settings
		}
		in.Clusters = append(in.Clusters, dr)
		if !dc.Range.IsZero() {
			in.Fleet = true
		}
	}
	all, diags := schema.Load(cf.chdir, schema.Options{Offline: true, AllowEnv: cf.allowEnv.list(), Vars: mustVars(cf.vars), VarFiles: cf.varFiles})
	in.Everyone = !diags.HasErrors() && len(all.Clusters) == len(d.Clusters)
	// The files as the loader read them: through the directory's root.
	cd, err := input.OpenDir(cf.chdir, "the configuration directory")
	if err != nil {
		return nil, exitCode(ExitError, fmt.Errorf("import --update: %w", err))
	}
	defer cd.Close()
	names, err := cd.Names(".hcl")
	if err != nil {
		return nil, exitCode(ExitError, fmt.Errorf("import --update: %w", err))
	}
	for _, name := range names {
		b, err := cd.ReadFile(name, input.Config)
		if err != nil {
			return nil, exitCode(ExitError, fmt.Errorf("import --update: %s: %w", schema.DisplayPath(cf.chdir, name), err))
		}
		in.Sources[schema.DisplayPath(cf.chdir, name)] = b
	}
	return in, nil
}

func mustVars(flags []string) map[string]string {
	v, _ := parseVarFlags(flags)
	return v
}

// readsUnmanaged reports whether import --update read every cluster of d for
// its unmanaged drift too (--unmanaged, or unmanaged_settings = "report").
func readsUnmanaged(d *state.Desired, flag bool) bool {
	o := planner.Options{Drift: true, Unmanaged: flag}
	for _, dc := range d.Clusters {
		if !planner.ReportsUnmanaged(dc, o) {
			return false
		}
	}
	return true
}

package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
)

func init() { register(newExportCmd) }

type exportFlags struct {
	allowEnv allowEnvFlag
	chdir    string
	cluster  string
	vars     []string
	varFiles []string
	check    string
}

func newExportCmd(env *Env) *cobra.Command {
	ex := &cobra.Command{
		Use:   "export",
		Short: "Write the configuration in another tool's format",
		Long: `Write what the configuration declares in the format of another tool, so that
both say the same thing. 'tiform export tiup' writes the TiUP topology sections.`,
		Args: cobra.NoArgs,
	}
	var f exportFlags
	c := &cobra.Command{
		Use:   "tiup [--cluster NAME] [--check FILE]",
		Short: "Print the TiUP topology sections for the declared TiKV, PD and TiFlash settings",
		Long: `Print the declared TiKV, PD and TiFlash settings of one cluster as the
sections of a TiUP topology, ready to merge with 'tiup cluster edit-config
NAME' (NAME is the cluster block's tiup_cluster): server_configs for values
of every instance, and the host's config (learner_config for TiFlash proxy
items) for per-instance values.

Why: TiKV writes an online change into its config file, but 'tiup cluster
reload' and 'upgrade' regenerate that file from the topology and overwrite it
(https://docs.pingcap.com/tidb/stable/dynamic-config). PD keeps online changes
in etcd, so its values are printed for the record only.

When the cluster block names its topology (tiup_topology = "FILE"), only
what that topology lacks or holds differently is printed — exactly what to
merge — followed by the reload each role needs: 'tiup cluster reload NAME -R
ROLE --skip-restart' when the values already run (applied online), a rolling
restart ('tiup cluster reload NAME -R ROLE') when one is restart-only
(docs/persisted.md).

--check FILE compares a topology ('tiup cluster show-config NAME' output, or
the cluster's meta.yaml) with the configuration instead, and lists each
declared value the topology lacks or contradicts: those the next reload would
revert, and PD values it contradicts. Exit codes: 0 in step, 2 differences,
1 error.

No cluster is contacted and no secret is needed.`,
		Example: `  # print the sections, then merge them
  tiform export tiup --cluster tokyo
  tiup cluster edit-config tidb-prod-01

  # CI: fail when the topology would revert a declared value
  tiup cluster show-config tidb-prod-01 > topology.yaml
  tiform export tiup --cluster tokyo --check topology.yaml`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return runExportTiUP(env, f)
		},
	}
	fl := c.Flags()
	f.bind(fl)
	fl.StringVar(&f.check, "check", "", "compare this topology file (tiup cluster show-config output, or meta.yaml) with the configuration; exit 2 on differences")
	ex.AddCommand(c, newExportOperatorCmd(env))
	return ex
}

// bind adds the flags every export command takes: where the configuration
// is, its inputs, and which cluster.
func (f *exportFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.chdir, "chdir", ".", "configuration directory")
	f.allowEnv.bind(fl)
	fl.StringVar(&f.cluster, "cluster", "", "the cluster to export (needed when the configuration declares several)")
	fl.StringArrayVar(&f.vars, "var", nil, "set an input variable: NAME=VALUE (repeatable)")
	fl.StringArrayVar(&f.varFiles, "var-file", nil, "read input variables from an HCL file of NAME = VALUE lines (repeatable)")
}

func runExportTiUP(env *Env, f exportFlags) error {
	dc, err := exportCluster(env, f)
	if err != nil {
		return err
	}
	var settings []state.ConfigSetting
	for _, s := range dc.Config {
		switch s.Component {
		case state.TiKV, state.PD, state.TiFlash:
			settings = append(settings, s)
		}
	}
	if f.check != "" {
		return checkTopology(env, f.check, dc, settings)
	}
	name := dc.TiUPCluster
	if name == "" {
		name = tiup.Placeholder
	}
	if p := dc.Persisted; p != nil && p.Tool == state.PersistTiUP {
		return exportTopologyDiff(env, f, dc, settings)
	}
	out, skipped := tiup.Render(name, settings)
	for _, s := range skipped {
		fmt.Fprintf(env.Stderr, "Warning: %s has no place in a TiUP topology; it is left out.\n", s)
	}
	if len(out) == 0 || len(settings) == len(skipped) {
		fmt.Fprintf(env.Stderr, "cluster %q declares no TiKV, PD or TiFlash setting: nothing to put in the topology.\n", dc.Name)
		return nil
	}
	if dc.TiUPCluster == "" {
		fmt.Fprintf(env.Stderr, "Note: cluster %q has no tiup_cluster; %s stands for the name `tiup cluster list` shows (declare it in the cluster block).\n", dc.Name, tiup.Placeholder)
	}
	_, err = env.Stdout.Write(out)
	return err
}

// exportCluster loads the configuration offline (no secret is needed) and
// returns the cluster --cluster names, or the only one.
func exportCluster(env *Env, f exportFlags) (*state.DesiredCluster, error) {
	vars, err := parseVarFlags(f.vars)
	if err != nil {
		return nil, exitCode(ExitError, err)
	}
	d, diags := schema.Load(f.chdir, schema.Options{Vars: vars, VarFiles: f.varFiles, Offline: true, AllowEnv: f.allowEnv.list()})
	if diags.HasErrors() {
		_ = diag.Write(env.Stderr, diags, useColor(env.Stderr, false))
		return nil, exitCode(ExitError, fmt.Errorf("export: the configuration in %s has %s", f.chdir, plural(len(diags.Errors()), "error")))
	}
	if f.cluster != "" {
		dc, err := findCluster(d, f.cluster, "--cluster")
		if err != nil {
			return nil, exitCode(ExitError, fmt.Errorf("export: %w", err))
		}
		return dc, nil
	}
	if len(d.Clusters) != 1 {
		var names []string
		for _, c := range d.Clusters {
			names = append(names, c.Name)
		}
		return nil, exitCode(ExitError, fmt.Errorf("export: the configuration declares %d clusters (%s): choose one with --cluster NAME", len(names), strings.Join(names, ", ")))
	}
	return d.Clusters[0], nil
}

// checkTopology compares a topology file with the declared settings: exit 2
// and one line per difference, 0 when the topology holds every value.
func checkTopology(env *Env, path string, dc *state.DesiredCluster, settings []state.ConfigSetting) error {
	b, err := input.ReadFile(path, input.Topology)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("export tiup --check: %w", err))
	}
	top, err := tiup.Parse(b)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("export tiup --check %s: %w", path, err))
	}
	diffs := tiup.Check(top, settings)
	if len(diffs) == 0 {
		fmt.Fprintf(env.Stdout, "%s holds every TiKV, PD and TiFlash value cluster %q declares (%s): a reload keeps them.\n", path, dc.Name, plural(len(settings), "setting"))
		return nil
	}
	reverted := 0
	var fix []state.ConfigSetting
	for _, d := range diffs {
		fmt.Fprintf(env.Stdout, "  - %s\n", d.Message())
		if d.Reverted {
			reverted++
		}
		fix = append(fix, d.Setting)
	}
	name := dc.TiUPCluster
	if name == "" {
		name = tiup.Placeholder
	}
	y, _ := tiup.Render(name, fix)
	fmt.Fprintf(env.Stdout, "\n%s: %s, %d of which the next `tiup cluster reload` or `upgrade` would revert. To fix, merge:\n\n%s",
		path, plural(len(diffs), "difference"), reverted, y)
	return exitCode(ExitChanges, nil)
}

// exportTopologyDiff is export tiup for a cluster whose block names its
// topology (tiup_topology): only what the topology lacks or holds
// differently, and the reload of each role that brings the instances' files
// in step.
func exportTopologyDiff(env *Env, f exportFlags, dc *state.DesiredCluster, settings []state.ConfigSetting) error {
	file := dc.Persisted.Files[0]
	b, err := readConfigDirFile(f.chdir, file, input.Topology)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("export tiup: tiup_topology %s: %w", file, err))
	}
	top, err := tiup.Parse(b)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("export tiup: tiup_topology %s: %w", file, err))
	}
	var fix []state.ConfigSetting
	seen := map[string]bool{}
	for _, d := range tiup.Check(top, settings) {
		k := d.Setting.Range.String() + "\x00" + state.ConfigAddress(d.Setting.Component, d.Setting.Instance, d.Setting.Key).String()
		if !seen[k] {
			seen[k] = true
			fix = append(fix, d.Setting)
		}
	}
	if len(fix) == 0 {
		fmt.Fprintf(env.Stderr, "%s holds every TiKV, PD and TiFlash value cluster %q declares: nothing to merge.\n", file, dc.Name)
		return nil
	}
	out, skipped := tiup.Render(dc.TiUPCluster, fix)
	for _, s := range skipped {
		fmt.Fprintf(env.Stderr, "Warning: %s has no place in a TiUP topology; it is left out.\n", s)
	}
	if _, err := env.Stdout.Write(out); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "# Then bring the instances' config files in step with the topology:\n")
	for _, r := range tiupRollout(dc.TiUPCluster, fix) {
		fmt.Fprintf(env.Stdout, "#   %s\n", r)
	}
	return nil
}

// tiupRollout is the reload each role of settings needs: a restart only
// when one of its values is restart-only (the others already run, applied
// online).
func tiupRollout(cluster string, settings []state.ConfigSetting) []string {
	restart := map[state.Component]bool{}
	var order []state.Component
	for _, s := range settings {
		if _, ok := restart[s.Component]; !ok {
			order = append(order, s.Component)
			restart[s.Component] = false
		}
		if e, ok := catalog.Config(string(s.Component), s.Key); ok && !e.Online {
			restart[s.Component] = true
		}
	}
	var out []string
	for _, c := range order {
		cmd, effect := tiup.ReloadCommand(cluster, c, restart[c])
		out = append(out, cmd+" ("+effect+")")
	}
	return out
}

// readConfigDirFile reads name inside the configuration directory dir,
// confined to it as the configuration's own files are.
func readConfigDirFile(dir, name string, k input.Kind) ([]byte, error) {
	d, err := input.OpenDir(dir, "the configuration directory")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadFile(name, k)
}

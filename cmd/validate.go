package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
)

func init() { register(newValidateCmd) }

type validateFlags struct {
	allowEnv allowEnvFlag
	chdir    string
	vars     []string
	varFiles []string
	show     string
	format   string
	noColor  bool
}

func newValidateCmd(env *Env) *cobra.Command {
	var f validateFlags
	c := &cobra.Command{
		Use:   "validate",
		Short: "Check the configuration without contacting any cluster",
		Long: `Check the *.hcl files of the configuration directory: syntax, references,
variables, every setting against tiform's catalog (known keys, value kinds,
documented ranges), resource groups, and the fleet's cluster blocks.

validate is offline: it needs no cluster and no credentials. env("X") of an
unset variable is accepted here (the value is only needed by plan and apply).

Problems are printed as file:line:col with the source line and a hint.
Warnings (for example a key tiform's catalog does not know) do not fail
validation. Exit status: 0 when valid, 1 when there is any error.

A directory with no *.hcl file of its own but subdirectories that have some
(such as examples/) is a directory of configurations: each subdirectory is
validated as its own configuration.

--show NAME prints the resolved desired state of one cluster (the baseline
merged with that cluster's overrides), every setting with its value and the
file:line it comes from. Use "default" when there is no cluster block.`,
		Example: `  # check the configuration in the current directory
  tiform validate

  # check another directory, with values for its input variables
  tiform validate --chdir infra/tidb --var env=prod --var-file prod.tfvars

  # show what cluster "osaka" of the fleet example will be managed to
  tiform validate --chdir examples/fleet --show osaka

  # machine-readable diagnostics for CI annotations
  tiform validate --format json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runValidate(env, f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.chdir, "chdir", ".", "configuration directory (every *.hcl file in it is read)")
	fl.StringArrayVar(&f.vars, "var", nil, "set an input variable: --var NAME=VALUE (repeatable)")
	fl.StringArrayVar(&f.varFiles, "var-file", nil, "read input variables from an HCL file of NAME = VALUE lines (repeatable)")
	f.allowEnv.bind(fl)
	fl.StringVar(&f.show, "show", "", "print the resolved desired state of cluster NAME")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.BoolVar(&f.noColor, "no-color", false, "never colour the output")
	return c
}

// parseVarFlags turns --var NAME=VALUE flags into a map (later flags win).
func parseVarFlags(vars []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vars {
		name, value, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--var %q: expected NAME=VALUE", v)
		}
		out[name] = value
	}
	return out, nil
}

// useColor reports whether w is a terminal that wants colour.
func useColor(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap() // the masking writer around stdout/stderr
	}
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

func runValidate(env *Env, f validateFlags) error {
	if f.format != "text" && f.format != "json" {
		return exitCode(ExitError, fmt.Errorf("validate: --format must be text or json, not %q", f.format))
	}
	vars, err := parseVarFlags(f.vars)
	if err != nil {
		return exitCode(ExitError, fmt.Errorf("validate: %w", err))
	}
	subs := configSubdirs(f.chdir)
	if len(subs) > 0 && (f.show != "" || f.format != "text") {
		opt := "--show"
		if f.show == "" {
			opt = "--format " + f.format
		}
		return exitCode(ExitError, fmt.Errorf("validate: %s holds %d configurations (%s); %s takes one: pass --chdir %s",
			f.chdir, len(subs), strings.Join(subs, ", "), opt, subs[0]))
	}
	if len(subs) > 0 {
		// A directory of configurations (examples/): validate each one.
		invalid := 0
		for _, sub := range subs {
			fmt.Fprintf(env.Stdout, "%s: ", sub)
			g := f
			g.chdir = sub
			if err := runValidate(env, g); err != nil {
				invalid++
			}
		}
		if invalid > 0 {
			return exitCode(ExitError, fmt.Errorf("validate: %d of %d configurations in %s are invalid", invalid, len(subs), f.chdir))
		}
		return nil
	}
	d, diags := schema.Load(f.chdir, schema.Options{Vars: vars, VarFiles: f.varFiles, Offline: true, AllowEnv: f.allowEnv.list()})
	learnSecrets(env, d)

	var shown *state.DesiredCluster
	if f.show != "" && d != nil {
		var err error
		if shown, err = findCluster(d, f.show, "--show"); err != nil {
			return exitCode(ExitError, fmt.Errorf("validate: %w", err))
		}
	}

	if f.format == "json" {
		if err := writeValidateJSON(env.Stdout, d, diags, shown); err != nil {
			return exitCode(ExitError, err)
		}
		if diags.HasErrors() {
			return exitCode(ExitError, nil)
		}
		return nil
	}

	if len(diags) > 0 {
		_ = diag.Write(env.Stderr, diags, useColor(env.Stderr, f.noColor))
		fmt.Fprintln(env.Stderr)
	}
	if diags.HasErrors() {
		errs, warns := len(diags.Errors()), len(diags.Warnings())
		fmt.Fprintf(env.Stderr, "The configuration is invalid: %s, %s.\n", plural(errs, "error"), plural(warns, "warning"))
		return exitCode(ExitError, nil)
	}
	if shown != nil {
		return schema.WriteCluster(env.Stdout, shown)
	}
	var names []string
	for _, c := range d.Clusters {
		names = append(names, c.Name)
	}
	msg := fmt.Sprintf("The configuration is valid: %s (%s)", plural(len(d.Clusters), "cluster"), strings.Join(names, ", "))
	if w := len(diags.Warnings()); w > 0 {
		msg += ", " + plural(w, "warning")
	}
	fmt.Fprintln(env.Stdout, msg+".")
	return nil
}

// configSubdirs returns the subdirectories of dir that hold *.hcl files, when
// dir itself holds none: a directory of configurations such as examples/.
func configSubdirs(dir string) []string {
	if own, _ := filepath.Glob(filepath.Join(dir, "*.hcl")); len(own) > 0 {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if hcl, _ := filepath.Glob(filepath.Join(sub, "*.hcl")); len(hcl) > 0 {
			out = append(out, sub)
		}
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeValidateJSON writes views.Validate: the diagnostics, the declared
// clusters and, with --show, the shown cluster's resolved settings.
func writeValidateJSON(w io.Writer, d *state.Desired, diags diag.Diagnostics, shown *state.DesiredCluster) error {
	out := views.Validate{
		Header:       views.NewHeader(),
		Valid:        !diags.HasErrors(),
		ErrorCount:   len(diags.Errors()),
		WarningCount: len(diags.Warnings()),
		Diagnostics:  views.NewDiagnostics(diags),
		Clusters:     []string{},
	}
	if d != nil {
		for _, c := range d.Clusters {
			out.Clusters = append(out.Clusters, c.Name)
		}
	}
	if shown != nil {
		out.Cluster = desiredClusterView(shown)
	}
	return views.Write(w, out)
}

// desiredClusterView lists every setting of c with its address, value and
// range, as `validate --show` prints them. Never the DSN.
func desiredClusterView(c *state.DesiredCluster) *views.DesiredCluster {
	labels := c.Labels
	if labels == nil {
		labels = map[string]string{}
	}
	cj := &views.DesiredCluster{Name: c.Name, DSNSet: c.DSN != "", Labels: labels, TiUPCluster: c.TiUPCluster,
		DropUnmanagedGroups: c.DropUnmanagedGroups, AllowInstanceVariables: c.AllowInstanceVariables,
		Settings: []views.Setting{}}
	for _, s := range c.Config {
		addr := state.ConfigAddress(s.Component, s.Instance, s.Key).String()
		cj.Settings = append(cj.Settings, views.Setting{Address: addr, Value: s.Value.Shown(), Range: views.NewRange(s.Range)})
	}
	for _, v := range c.Variables {
		cj.Settings = append(cj.Settings, views.Setting{Address: state.VariableAddress(v.Name).String(), Value: v.Value.Shown(), Range: views.NewRange(v.Range)})
	}
	for _, g := range c.ResourceGroups {
		for _, gf := range schema.GroupFields(g) {
			cj.Settings = append(cj.Settings, views.Setting{Address: state.GroupAddress(g.Name).String() + "." + gf.Name, Value: gf.Value, Range: views.NewRange(gf.Range)})
		}
	}
	return cj
}

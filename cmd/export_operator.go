package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/input"
	tidbop "github.com/tiform/tiform/operator"
	"github.com/tiform/tiform/state"
)

func newExportOperatorCmd(env *Env) *cobra.Command {
	var f exportFlags
	c := &cobra.Command{
		Use:   "operator [--cluster NAME]",
		Short: "Print the TiDB Operator patches that make the cluster's manifests hold the declared settings",
		Long: `Print, for each TiDB Operator resource the cluster block names in
operator_manifests, the merge patch that makes it hold the declared TiKV, PD
and TiFlash settings it lacks or holds differently, with the kubectl command
that applies it and the rollout it causes.

  - Operator v2 groups (TiKVGroup, PDGroup, TiFlashGroup): the whole TOML of
    spec.template.spec.config (spec.template.spec.proxyConfig for TiFlash),
    the group's config merged with the declared values: a merge patch
    replaces a string, it cannot merge into it.
  - Operator v1 TidbCluster: spec.<component>.config, only the declared
    values when the config is a map, the whole TOML when it is a string.

Why: the Operator renders each pod's config file from these fields, so an
online change they do not hold is reverted at the next rolling update or
pod restart (pingcap/tidb-operator#3558). Applying a patch rolls the
resource's pods one at a time.

No cluster is contacted and no secret is needed.`,
		Example: `  tiform export operator --cluster tokyo > patches.yaml
  # then, for each patch, the kubectl command its header names`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return runExportOperator(env, f)
		},
	}
	f.bind(c.Flags())
	return c
}

func runExportOperator(env *Env, f exportFlags) error {
	dc, err := exportCluster(env, f)
	if err != nil {
		return err
	}
	p := dc.Persisted
	if p == nil || p.Tool != state.PersistOperator {
		return exitCode(ExitError, fmt.Errorf("export operator: cluster %q names no operator_manifests: declare them in its cluster block (operator_manifests = [\"tikv-group.yaml\"])", dc.Name))
	}
	var settings []state.ConfigSetting
	for _, s := range dc.Config {
		switch {
		case s.Component != state.TiKV && s.Component != state.PD && s.Component != state.TiFlash:
		case s.Instance != "":
			fmt.Fprintf(env.Stderr, "Warning: %s is declared for one instance; an Operator resource configures every instance of its group alike, so it is left out.\n",
				state.ConfigAddress(s.Component, s.Instance, s.Key))
		default:
			settings = append(settings, s)
		}
	}
	held := map[state.Component]bool{}
	n := 0
	for _, file := range p.Files {
		b, err := readConfigDirFile(f.chdir, file, input.Manifest)
		if err != nil {
			return exitCode(ExitError, fmt.Errorf("export operator: %s: %w", file, err))
		}
		cs, err := tidbop.Parse(b)
		if err != nil {
			var oe *tidbop.Error
			if errors.As(err, &oe) && oe.Line > 0 {
				return exitCode(ExitError, fmt.Errorf("export operator: %s:%d:%d: %s", file, oe.Line, oe.Column, oe.Msg))
			}
			return exitCode(ExitError, fmt.Errorf("export operator: %s: %w", file, err))
		}
		for _, c := range cs {
			held[c.Component] = true
			lack := c.Lacks(settings)
			if len(lack) == 0 {
				continue
			}
			patch, err := tidbop.MakePatch(c, lack)
			if err != nil {
				return exitCode(ExitError, fmt.Errorf("export operator: %s %s: %w", file, c.Resource(), err))
			}
			if n > 0 {
				fmt.Fprintln(env.Stdout, "---")
			}
			n++
			var keys []string
			for _, s := range lack {
				keys = append(keys, state.ConfigAddress(s.Component, "", s.Key).String())
			}
			patchFile := strings.ToLower(c.Kind) + "-" + c.Name + ".patch.yaml"
			fmt.Fprintf(env.Stdout, "# %s (%s) lacks: %s\n# Apply: save this document as %s, then\n#   %s\n# Rollout: %s\n",
				c.Resource(), file, strings.Join(keys, ", "), patchFile, patch.Command(patchFile), patch.Rollout())
			if patch.Sensitive {
				fmt.Fprintf(env.Stderr, "Warning: %s: a value from a sensitive variable stands as %s; write the value in before applying.\n", c.Resource(), state.SensitiveText)
			}
			if _, err := env.Stdout.Write(patch.YAML); err != nil {
				return err
			}
		}
	}
	for _, s := range settings {
		if !held[s.Component] {
			fmt.Fprintf(env.Stderr, "Warning: no resource in operator_manifests configures %s, so %s is left out.\n", s.Component, state.ConfigAddress(s.Component, "", s.Key))
		}
	}
	if n == 0 {
		fmt.Fprintf(env.Stderr, "The manifests of cluster %q hold every declared TiKV, PD and TiFlash value: nothing to patch.\n", dc.Name)
	}
	return nil
}

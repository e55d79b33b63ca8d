package cmd

import (
	"github.com/spf13/cobra"
)

func init() { register(newShowCmd) }

func newShowCmd(env *Env) *cobra.Command {
	var v viewFlags
	c := &cobra.Command{
		Use:   "show PLANFILE",
		Short: "Render a saved plan again, in any format",
		Long: `Render a plan saved with 'tiform plan --out FILE'. The text is the same, byte
for byte, as the plan printed when it was saved; --format json and
--format markdown give the machine-readable and pull-request views.`,
		Example: `  tiform show plan.tfplan
  tiform show plan.tfplan --format markdown > comment.md
  tiform show plan.tfplan --format json | jq '.clusters[].changes[].address'`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := v.check(); err != nil {
				return err
			}
			p, err := readPlanFile(args[0])
			if err != nil {
				return exitCode(ExitError, err)
			}
			if err := renderPlan(env.Stdout, p, v); err != nil {
				return exitCode(ExitError, err)
			}
			return nil
		},
	}
	v.bind(c)
	return c
}

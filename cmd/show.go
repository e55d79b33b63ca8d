package cmd

import (
	"github.com/spf13/cobra"

	"github.com/tiform/tiform/render"
)

func init() { register(newShowCmd) }

func newShowCmd(env *Env) *cobra.Command {
	var v viewFlags
	var dir string
	c := &cobra.Command{
		Use:   "show PLANFILE",
		Short: "Render a saved plan again, in any format",
		Long: `Render a plan saved with 'tiform plan --out FILE'. The text is the same, byte
for byte, as the plan printed when it was saved; --format json and
--format markdown give the machine-readable and pull-request views.`,
		Example: `  tiform show plan.tfplan
  tiform show plan.tfplan --chdir clusters --format markdown > comment.md
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
			if err := renderPlan(env.Stdout, p, v, render.MarkdownOptions{Dir: commentDir(dir), PlanFile: args[0]}); err != nil {
				return exitCode(ExitError, err)
			}
			return nil
		},
	}
	v.bind(c)
	c.Flags().StringVar(&dir, "chdir", ".", "the configuration directory the plan was made from: it names the Markdown comment (its hidden marker), as 'tiform plan --chdir' does")
	return c
}

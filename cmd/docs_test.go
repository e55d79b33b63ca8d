package cmd

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCommandsDoc keeps docs/commands.md in step with the command tree: the
// page is generated from each command's Use, Long, Example and flags.
// Regenerate with: go test ./cmd -run TestCommandsDoc -update
func TestCommandsDoc(t *testing.T) {
	root := newRoot(&Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	var b bytes.Buffer
	b.WriteString("# tiform commands\n\n")
	b.WriteString("Generated from the command tree by `go test ./cmd -run TestCommandsDoc -update`; do not edit by hand.\n\n")
	b.WriteString("Exit codes, for every command: `0` success, `1` error (including invalid configuration, an\n")
	b.WriteString("unreachable or partially read cluster, a refused apply). `tiform plan --detailed-exitcode`: `0` no changes,\n")
	b.WriteString("`2` changes, `1` error. `tiform fmt --check`: `3` when a file is not formatted. `tiform apply`: `4` when a\n")
	b.WriteString("rollout paused before a stage (an approval, a closed change window), `130` when interrupted (Ctrl-C finishes\n")
	b.WriteString("the running statement, then stops and reports). The table of every code: docs/workflows.md.\n\n")
	b.WriteString("Connection: a `cluster \"NAME\" { dsn = env(\"…\") }` block, `--dsn`, or the `TIFORM_DSN` environment variable,\n")
	b.WriteString("in go-sql-driver form (`user:password@tcp(host:4000)/?tls=true`). Passwords never appear in any output.\n\n")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		if c.HasParent() && c.Runnable() {
			fmt.Fprintf(&b, "## %s\n\n", c.CommandPath())
			fmt.Fprintf(&b, "```\n%s\n```\n\n", c.UseLine())
			long := c.Long
			if long == "" {
				long = c.Short
			}
			fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(long))
			if c.Example != "" {
				fmt.Fprintf(&b, "Examples:\n\n```sh\n%s\n```\n\n", strings.TrimRight(c.Example, "\n"))
			}
			if fl := c.NonInheritedFlags().FlagUsages(); strings.TrimSpace(fl) != "" {
				fmt.Fprintf(&b, "Flags:\n\n```\n%s```\n\n", fl)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	got := b.Bytes()
	const path = "../docs/commands.md"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./cmd -run TestCommandsDoc -update)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("docs/commands.md is out of date (go test ./cmd -run TestCommandsDoc -update):\n%s", d)
	}
}

// TestEveryCommandHasExamples: --help of every runnable command shows examples.
func TestEveryCommandHasExamples(t *testing.T) {
	root := newRoot(&Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasParent() && c.Runnable() && c.Name() != "help" && c.Name() != "completion" && c.Example == "" {
			t.Errorf("%s has no Example in its --help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

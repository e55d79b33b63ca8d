package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
	"github.com/spf13/cobra"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/schema"
)

func init() { register(newFmtCmd) }

type fmtFlags struct {
	check bool
	diff  bool
	chdir string
}

func newFmtCmd(env *Env) *cobra.Command {
	var f fmtFlags
	c := &cobra.Command{
		Use:   "fmt [--check] [--diff] [--chdir DIR] [FILE|DIR…]",
		Short: "Rewrite configuration files in the canonical layout",
		Long: `Rewrite *.hcl files in the canonical layout: two-space indentation, aligned
equals signs, normalised spacing. Formatting changes layout only, never
meaning, and formatting a formatted file changes nothing.

Without arguments every *.hcl file of the configuration directory (--chdir,
default .) is formatted; arguments name files or directories, relative to
--chdir. The names of rewritten files are printed.

--check changes nothing: it lists the files that are not formatted and exits
3 if there is any (0 otherwise), for CI. --diff prints what would change as a
unified diff (with --check, nothing is written). A file with a syntax error is
reported and left alone; the exit status is then 1.`,
		Example: `  # format the configuration in the current directory
  tiform fmt

  # in CI: fail (exit 3) when a file is not formatted, and show why
  tiform fmt --check --diff

  # check one file of the fleet example
  tiform fmt --check --chdir examples/fleet clusters.hcl`,
		RunE: func(c *cobra.Command, args []string) error {
			return runFmt(env, f, args)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&f.check, "check", false, "do not write; exit 3 if any file is not formatted")
	fl.BoolVar(&f.diff, "diff", false, "print a unified diff of the changes")
	fl.StringVar(&f.chdir, "chdir", ".", "configuration directory")
	return c
}

// fmtTargets lists the files to format: every *.hcl of each directory
// argument (or of chdir), and the named files. Sorted, without repeats.
func fmtTargets(chdir string, args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, a := range args {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(chdir, a)
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("fmt: %s: %w", a, unwrapPath(err))
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("fmt: %s: %w", a, unwrapPath(err))
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".hcl") && !strings.HasPrefix(e.Name(), ".") {
				add(filepath.Join(p, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func runFmt(env *Env, f fmtFlags, args []string) error {
	files, err := fmtTargets(f.chdir, args)
	if err != nil {
		return exitCode(ExitError, err)
	}
	failed, changed := false, 0
	for _, path := range files {
		src, err := input.ReadFile(path, input.Config)
		if err != nil {
			fmt.Fprintf(env.Stderr, "Error: fmt: %v\n", err)
			failed = true
			continue
		}
		out, err := schema.FormatFile(path, src)
		if err != nil {
			if ds := schema.SyntaxDiagnostics(path, src); len(ds) > 0 {
				_ = diag.Write(env.Stderr, ds, useColor(env.Stderr, false))
				fmt.Fprintf(env.Stderr, "Error: fmt: %s has a syntax error; it was left unchanged.\n", path)
			} else {
				fmt.Fprintf(env.Stderr, "Error: %v\n", err)
			}
			failed = true
			continue
		}
		if bytes.Equal(src, out) {
			continue
		}
		changed++
		fmt.Fprintln(env.Stdout, path)
		if f.diff {
			fmt.Fprint(env.Stdout, unifiedDiff(path, string(src), string(out)))
		}
		if f.check {
			continue
		}
		if err := rewrite(path, out); err != nil {
			fmt.Fprintf(env.Stderr, "Error: fmt: %v\n", err)
			failed = true
		}
	}
	switch {
	case failed:
		return exitCode(ExitError, nil)
	case f.check && changed > 0:
		fmt.Fprintf(env.Stderr, "%s not formatted; run 'tiform fmt' to fix.\n", plural(changed, "file"))
		return exitCode(ExitUnformatted, nil)
	}
	return nil
}

// rewrite replaces the file at path with out, atomically, keeping its mode.
// It never writes through a symbolic link: a link (to a file outside the
// directory, or even inside it) is refused and left as it is, so that a
// pull request's link cannot make fmt rewrite a file elsewhere.
func rewrite(path string, out []byte) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link: fmt does not write through a link; format the file it points to, or replace the link with the file", path)
	}
	return files.WriteBytes(path, out, st.Mode().Perm())
}

// unifiedDiff renders the line changes from a to b as a unified diff with
// three lines of context; the new side is labelled "NAME (formatted)".
func unifiedDiff(name, a, b string) string { return labelledDiff(name, "formatted", a, b) }

// labelledDiff is unifiedDiff with the new side labelled "NAME (label)".
func labelledDiff(name, label, a, b string) string {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)

	type op struct {
		kind byte // ' ', '-', '+'
		text string
	}
	var ops []op
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		text := d.Text
		for text != "" {
			i := strings.IndexByte(text, '\n')
			var line string
			if i < 0 {
				line, text = text+"\n\\ No newline at end of file", ""
			} else {
				line, text = text[:i], text[i+1:]
			}
			ops = append(ops, op{kind, line})
		}
	}

	const ctx = 3
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s (%s)\n", name, name, label)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before this change to ctx lines after the
		// last change that is within 2*ctx lines of the previous one.
		start := i - ctx
		if start < 0 {
			start = 0
		}
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*ctx {
				break
			}
		}
		stop := end + ctx + 1
		if stop > len(ops) {
			stop = len(ops)
		}
		oldLine, newLine := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				oldLine++
			}
			if o.kind != '-' {
				newLine++
			}
		}
		oldN, newN := 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				oldN++
			}
			if o.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", oldLine, oldN, newLine, newN)
		for _, o := range ops[start:stop] {
			fmt.Fprintf(&sb, "%c%s\n", o.kind, o.text)
		}
		i = stop
	}
	return sb.String()
}

package cmd

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-shellwords"
)

// tiformCommandLines returns every shell line of a workflow or document that
// runs tiform ("tiform plan --chdir … > plan.md"), cut before any redirection
// or pipe, split into words (variables are kept as written).
func tiformCommandLines(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out [][]string
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "- ")
		if !strings.HasPrefix(line, "tiform ") {
			continue
		}
		for _, sep := range []string{" > ", " >> ", " | ", " && ", " || ", "; ", " 2>"} {
			if i := strings.Index(line, sep); i >= 0 {
				line = line[:i]
			}
		}
		line = strings.TrimSuffix(line, " \\")
		words, err := shellwords.Parse(line)
		if err != nil {
			t.Errorf("%s:%d: %v", path, n, err)
			continue
		}
		out = append(out, words[1:])
	}
	return out
}

// checkCommandLine parses args as tiform would, without running the command:
// the subcommand must exist, every flag must be one it takes, and the
// positional arguments must be accepted.
func checkCommandLine(args []string) error {
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	c, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if err := c.ParseFlags(rest); err != nil {
		return err
	}
	return c.ValidateArgs(c.Flags().Args())
}

// TestCIExamplesUseRealFlags: every tiform command in the CI examples and in
// docs/workflows.md is one this tiform accepts, so a renamed flag breaks this
// test instead of a user's pipeline.
func TestCIExamplesUseRealFlags(t *testing.T) {
	files, _ := filepath.Glob("../examples/ci/*/*.yml")
	if len(files) < 4 {
		t.Fatalf("found %d CI examples, want 4 (GitHub and GitLab, pull request and drift)", len(files))
	}
	if _, err := os.Stat("../docs/workflows.md"); err == nil {
		files = append(files, "../docs/workflows.md")
	}
	for _, f := range files {
		lines := tiformCommandLines(t, f)
		if len(lines) == 0 {
			t.Errorf("%s runs no tiform command", f)
		}
		for _, args := range lines {
			if err := checkCommandLine(args); err != nil {
				t.Errorf("%s: tiform %s: %v", f, strings.Join(args, " "), err)
			}
		}
	}
	if err := checkCommandLine([]string{"plan", "--no-such-flag"}); err == nil {
		t.Error("checkCommandLine accepted an unknown flag")
	}
}

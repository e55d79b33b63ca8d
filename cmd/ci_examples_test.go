package cmd

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mattn/go-shellwords"
)

// inlineCommand is a tiform command in a Markdown code span.
var inlineCommand = regexp.MustCompile("`(tiform [^`]+)`")

// shellLines returns the lines of path that are shell: every line of a
// workflow; in Markdown, the lines of ```sh blocks and the code spans that
// start with "tiform ".
func shellLines(t *testing.T, path string) []string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	md := strings.HasSuffix(path, ".md")
	var out []string
	inSh := false
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !md || inSh && !strings.HasPrefix(strings.TrimSpace(line), "```"):
			out = append(out, line)
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			inSh = !inSh && strings.TrimSpace(line) == "```sh"
		default:
			for _, m := range inlineCommand.FindAllStringSubmatch(line, -1) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// tiformCommandLines returns every shell line of a workflow or document that
// runs tiform ("tiform plan --chdir … > plan.md"), cut before any redirection
// or pipe, split into words (variables are kept as written).
func tiformCommandLines(t *testing.T, path string) [][]string {
	t.Helper()
	var out [][]string
	for n, line := range shellLines(t, path) {
		line = strings.TrimSpace(line)
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
			t.Errorf("%s: shell line %d: %v", path, n+1, err)
			continue
		}
		// "${extra[@]}" expands to zero or more words the caller gives: not
		// an argument of its own.
		words = slices.DeleteFunc(words, shellArray.MatchString)
		out = append(out, words[1:])
	}
	return out
}

// shellArray is a word that expands a bash array: "${extra[@]}".
var shellArray = regexp.MustCompile(`^\$\{\w+\[@\]\}$`)

// checkCommandLine parses args as tiform would, without running the command:
// the subcommand must exist, every flag must be one it takes, and the
// positional arguments must be accepted.
func checkCommandLine(args []string) error {
	root := newRoot(&Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
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
// docs/workflows.md and docs/import.md is one this tiform accepts, so a renamed flag breaks this
// test instead of a user's pipeline.
func TestCIExamplesUseRealFlags(t *testing.T) {
	files, _ := filepath.Glob("../examples/ci/*/*.yml")
	if len(files) < 4 {
		t.Fatalf("found %d CI examples, want 4 (GitHub and GitLab, pull request and drift)", len(files))
	}
	for _, doc := range []string{"../action.yml", "../docs/workflows.md", "../docs/import.md"} {
		if _, err := os.Stat(doc); err == nil {
			files = append(files, doc)
		}
	}
	for _, f := range files {
		lines := tiformCommandLines(t, f)
		if src, _ := os.ReadFile(f); len(lines) == 0 && !strings.Contains(string(src), "uses: tiform/tiform@") {
			t.Errorf("%s runs no tiform command and uses no tiform action", f)
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

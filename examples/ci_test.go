package examples

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v4"
)

// ciFiles returns the example CI files of one provider (examples/ci/PROVIDER),
// failing when there are fewer than the two workflows the docs promise.
func ciFiles(t *testing.T, provider string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("ci", provider, "*.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("examples/ci/%s has %d workflows, want the pull-request and the drift workflow", provider, len(files))
	}
	return files
}

// lintWorkflows runs actionlint (as a library) over files; shellcheck is used
// when it is installed, as the actionlint command does.
func lintWorkflows(t *testing.T, files []string) []*actionlint.Error {
	t.Helper()
	opts := &actionlint.LinterOptions{Color: actionlint.ColorOptionKindNever}
	if p, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = p
	} else {
		t.Log("shellcheck is not installed: actionlint checks the workflows without it")
	}
	l, err := actionlint.NewLinter(&bytes.Buffer{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// TestGitHubWorkflowsLint checks the GitHub Actions examples with actionlint:
// syntax, expressions, job permissions, action inputs, untrusted input in
// scripts.
func TestGitHubWorkflowsLint(t *testing.T) {
	for _, e := range lintWorkflows(t, ciFiles(t, "github")) {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
}

// TestActionlintCatchesErrors proves the lint above can fail: a workflow with
// an unknown event and an undefined step output is reported.
func TestActionlintCatchesErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yml")
	src := `on: pull_requests
jobs:
  plan:
    runs-on: ubuntu-latest
    steps:
      - run: echo "${{ steps.plan.outputs.exitcode }}"
`
	if err := os.WriteFile(bad, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	errs := lintWorkflows(t, []string{bad})
	if len(errs) < 2 {
		t.Fatalf("actionlint reported %d errors on a broken workflow, want at least 2: %v", len(errs), errs)
	}
}

// gitlabSchema compiles testdata/gitlab-ci.schema.json, the subset of the
// GitLab CI/CD YAML reference the examples use.
func gitlabSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	fh, err := os.Open(filepath.Join("testdata", "gitlab-ci.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	doc, err := jsonschema.UnmarshalJSON(fh)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("gitlab-ci.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("gitlab-ci.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlInstance parses YAML into the JSON value the schema validates.
func yamlInstance(t *testing.T, src []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatalf("YAML: %v", err)
	}
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("YAML to JSON: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestGitLabPipelinesSchema validates the GitLab CI examples against the
// checked-in schema.
func TestGitLabPipelinesSchema(t *testing.T) {
	s := gitlabSchema(t)
	for _, f := range ciFiles(t, "gitlab") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(yamlInstance(t, src)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestGitLabSchemaCatchesErrors proves the schema check can fail: a misspelt
// keyword, a job without a script and a wrong artifacts.when are rejected.
func TestGitLabSchemaCatchesErrors(t *testing.T) {
	s := gitlabSchema(t)
	for name, src := range map[string]string{
		"misspelt keyword": "plan:\n  scirpt: [tiform plan]\n",
		"no script":        "plan:\n  stage: test\n",
		"artifacts.when":   "plan:\n  script: [tiform plan]\n  artifacts:\n    when: sometimes\n",
		"rules.when":       "plan:\n  script: [tiform plan]\n  rules:\n    - if: $X\n      when: later\n",
	} {
		if err := s.Validate(yamlInstance(t, []byte(src))); err == nil {
			t.Errorf("%s: the schema accepted %q", name, strings.TrimSpace(src))
		}
	}
}

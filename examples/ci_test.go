package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// actionFile is ../action.yml, the composite action the GitHub examples use.
const actionFile = "../action.yml"

// actionMeta is the part of action.yml the tests read.
type actionMeta struct {
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string           `yaml:"using"`
		Steps []map[string]any `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) (actionMeta, []byte) {
	t.Helper()
	src, err := os.ReadFile(actionFile)
	if err != nil {
		t.Fatal(err)
	}
	var a actionMeta
	if err := yaml.Unmarshal(src, &a); err != nil {
		t.Fatalf("%s: %v", actionFile, err)
	}
	return a, src
}

// TestActionLint lints action.yml with actionlint: its steps as the job of
// a reusable workflow whose inputs are the action's (expressions, inputs,
// step outputs, the actions it uses and, with shellcheck, its scripts), and
// every output reads a step that exists.
func TestActionLint(t *testing.T) {
	a, _ := readAction(t)
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("%s: runs.using %q with %d steps, want a composite action", actionFile, a.Runs.Using, len(a.Runs.Steps))
	}
	inputs := map[string]any{}
	for name, in := range a.Inputs {
		inputs[name] = map[string]any{"description": in.Description, "type": "string", "required": in.Required, "default": in.Default}
	}
	wf := map[string]any{
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": a.Runs.Steps}},
	}
	b, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "action-as-workflow.yml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, e := range lintWorkflows(t, []string{path}) {
		t.Errorf("action.yml (as a workflow, line %d): %s [%s]\n%s", e.Line, e.Message, e.Kind, b)
	}
	ids := map[string]bool{}
	for _, st := range a.Runs.Steps {
		if id, ok := st["id"].(string); ok {
			ids[id] = true
		}
	}
	for name, out := range a.Outputs {
		m := regexp.MustCompile(`steps\.([\w-]+)\.outputs`).FindStringSubmatch(out.Value)
		if m == nil || !ids[m[1]] {
			t.Errorf("output %s reads %q, which is no step of the action", name, out.Value)
		}
	}
}

// actionUse matches the examples' use of the action, pinned to a commit.
var actionUse = regexp.MustCompile(`uses: tiform/tiform@([0-9a-f]{40})\b`)

// TestGitHubExamplesUseTheAction lints the GitHub examples with the action
// they use read from action.yml (a copy of the project with uses: ./), so
// that an input the action does not declare, or a required one left out, is
// an error; and checks that the commit they pin exists in this repository
// with this action.yml, so that the examples build exactly this action.
func TestGitHubExamplesUseTheAction(t *testing.T) {
	_, action := readAction(t)
	dir := t.TempDir()
	for _, d := range []string{".git", filepath.Join(".github", "workflows")} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o600); err != nil {
		t.Fatal(err)
	}
	var files []string
	pins := map[string]bool{}
	for _, f := range ciFiles(t, "github") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		uses := actionUse.FindAllStringSubmatch(string(src), -1)
		if len(uses) == 0 {
			t.Errorf("%s does not use the tiform action pinned to a commit", f)
		}
		for _, u := range uses {
			pins[u[1]] = true
		}
		local := filepath.Join(dir, ".github", "workflows", filepath.Base(f))
		if err := os.WriteFile(local, actionUse.ReplaceAll(src, []byte("uses: ./")), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, local)
	}
	for _, e := range lintWorkflows(t, files) {
		t.Errorf("%s:%d:%d: %s [%s]", filepath.Base(e.Filepath), e.Line, e.Column, e.Message, e.Kind)
	}
	if len(pins) != 1 {
		t.Errorf("the examples pin %d commits of the action, want one: %v", len(pins), pins)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the pinned commit was not checked")
	}
	if out, err := exec.Command(git, "rev-parse", "--is-shallow-repository").Output(); err != nil || strings.TrimSpace(string(out)) != "false" {
		t.Skipf("not a complete git clone (%v, shallow: %s): the pinned commit was not checked", err, out)
	}
	for pin := range pins {
		at, err := exec.Command(git, "show", pin+":action.yml").Output()
		if err != nil {
			t.Errorf("the examples pin %s, which is no commit of this repository with an action.yml: %v", pin, err)
			continue
		}
		if !bytes.Equal(at, action) {
			t.Errorf("the examples pin %s, whose action.yml is not this one: pin the commit that last changed action.yml (git log -1 --format=%%H -- action.yml)", pin)
		}
	}
}

// gitlabDefaultStages are GitLab's stages when a pipeline declares none
// (https://docs.gitlab.com/ci/yaml/#stages).
var gitlabDefaultStages = []string{".pre", "build", "test", "deploy", ".post"}

// TestGitLabFilesIncludeTogether includes both GitLab files in one pipeline
// as GitLab does (top-level keys merged, a key in both must say the same;
// variables merged by name) and checks the result: it validates against the
// schema, every job's stage exists, every extends names a template. And the
// merge request file's note lookup is the token user's own note only, and its
// apply passes the reviewed hashes.
func TestGitLabFilesIncludeTogether(t *testing.T) {
	merged := map[string]any{}
	from := map[string]string{}
	for _, f := range ciFiles(t, "gitlab") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k, v := range doc {
			prev, ok := merged[k]
			switch {
			case !ok:
				merged[k] = v
				from[k] = f
			case k == "variables":
				vars := prev.(map[string]any)
				for name, val := range v.(map[string]any) {
					if old, ok := vars[name]; ok && fmt.Sprint(old) != fmt.Sprint(val) {
						t.Errorf("variable %s is %v in %s and %v in %s: included together, one overrides the other", name, old, from[k], val, f)
					}
					vars[name] = val
				}
			default:
				a, _ := json.Marshal(prev)
				b, _ := json.Marshal(v)
				if !bytes.Equal(a, b) {
					t.Errorf("%s is in %s and %s and differs: included together, one overrides the other", k, from[k], f)
				}
			}
		}
	}
	js, err := json.Marshal(merged)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := gitlabSchema(t).Validate(inst); err != nil {
		t.Errorf("the files included together: %v", err)
	}
	stages := gitlabDefaultStages
	if s, ok := merged["stages"].([]any); ok {
		stages = nil
		for _, x := range s {
			stages = append(stages, fmt.Sprint(x))
		}
	}
	for name, v := range merged {
		job, ok := v.(map[string]any)
		if !ok || name == "variables" || name == "default" || name == "workflow" || strings.HasPrefix(name, ".") {
			continue
		}
		if st, ok := job["stage"].(string); ok && !slices.Contains(stages, st) {
			t.Errorf("job %s runs in stage %q, which the pipeline does not have (%v)", name, st, stages)
		}
		if ext, ok := job["extends"].(string); ok {
			if _, ok := merged[ext]; !ok {
				t.Errorf("job %s extends %s, which neither file defines", name, ext)
			}
		}
	}
	mr, err := os.ReadFile(filepath.Join("ci", "gitlab", "tiform-mr.gitlab-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"select(.author.username == $me and ((.body | split(\"\\n\")[0]) == $m))", "tiform apply plan.tfplan --chdir \"$TIFORM_DIR\" --plan-hash \"$hashes\""} {
		if c := strings.Count(string(mr), want); c == 0 {
			t.Errorf("the merge request file lacks %s", want)
		}
	}
}

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
)

// planJSON is a saved plan as generic JSON, to edit the way an attacker with
// write access to the file would.
type planJSON map[string]any

func (p planJSON) changes() []any {
	return p["clusters"].([]any)[0].(map[string]any)["changes"].([]any)
}

func (p planJSON) setChanges(cs []any) {
	p["clusters"].([]any)[0].(map[string]any)["changes"] = cs
}

func (p planJSON) change(i int) map[string]any { return p.changes()[i].(map[string]any) }

// TestTamperedPlanIsRefused: for each kind of edit of a saved plan between
// review and apply, apply refuses, names what was modified, and sends nothing
// (the emulator's query log). Then an edit that rewrites the integrity hash
// too (an attacker who can run tiform): re-derivation still refuses any SQL
// the changes do not derive.
func TestTamperedPlanIsRefused(t *testing.T) {
	c := tidbsimtest.Start(t, tidbsim.Options{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(cfg, "main.hcl"), `variables {
  tidb_enable_non_prepared_plan_cache = true
  tidb_enable_prepared_plan_cache     = false
}
resource_group "oltp" {
  ru_per_sec = 1000
}
`)
	t.Setenv("TIFORM_DSN", c.RootDSN())
	t.Setenv("TIFORM_AUDIT_LOG", filepath.Join(dir, "audit.log"))
	t.Setenv("NO_COLOR", "1")
	orig := filepath.Join(dir, "plan.tfplan")
	if code, out := tiform(t, "plan", "--chdir", cfg, "--out", orig); code != 0 {
		t.Fatalf("plan: exit %d\n%s", code, out)
	}
	raw, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	load := func() planJSON {
		var p planJSON
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if n := len(load().changes()); n < 3 {
		t.Fatalf("the plan has %d changes, want at least 3", n)
	}
	addr := func(p planJSON, i int) string { return p.change(i)["address"].(string) }
	for _, tc := range []struct {
		name string
		edit func(p planJSON)
		want []string // every one must be in the error
	}{
		{"a statement appended", func(p planJSON) {
			ch := p.change(0)
			ch["statements"] = append(ch["statements"].([]any), map[string]any{"sql": "GRANT ALL PRIVILEGES ON *.* TO 'app'@'%'"})
		}, []string{"change " + addr(load(), 0) + ": statements"}},
		{"a statement replaced", func(p planJSON) {
			p.change(1)["statements"].([]any)[0].(map[string]any)["sql"] = "CREATE USER 'evil'@'%' IDENTIFIED BY 'x'"
		}, []string{"change " + addr(load(), 1) + ": statements"}},
		{"the changes reordered", func(p planJSON) {
			cs := p.changes()
			cs[0], cs[1] = cs[1], cs[0]
		}, []string{"the changes were reordered"}},
		{"a value changed", func(p planJSON) {
			ch := p.change(0)
			ch["after"] = "OFF"
			ch["spec"].(map[string]any)["set"].([]any)[0].(map[string]any)["value"] = "false"
		}, []string{"change " + addr(load(), 0) + ": after, spec"}},
		{"a change removed", func(p planJSON) {
			p.setChanges(p.changes()[1:])
		}, []string{"change " + addr(load(), 0) + " was removed"}},
		{"a change added", func(p planJSON) {
			p.setChanges(append(p.changes(), map[string]any{
				"address": "resource_group.default", "action": "delete",
				"statements": []any{map[string]any{"sql": "DROP RESOURCE GROUP `default`"}},
				"spec":       map[string]any{"live": map[string]any{"name": "default"}, "version": "v8.5.1"},
			}))
		}, []string{"change resource_group.default was added"}},
		{"the hash removed", func(p planJSON) {
			delete(p, "integrity")
		}, []string{"its integrity hash was removed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := load()
			tc.edit(p)
			b, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "tampered.tfplan")
			writeTestFile(t, path, string(b))
			mark := c.Mark()
			code, out := tiform(t, "apply", path)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, out)
			}
			for _, w := range append(tc.want, "the plan file was modified after it was written") {
				if !strings.Contains(out, w) {
					t.Errorf("the refusal does not say %q:\n%s", w, out)
				}
			}
			if sent := c.Since(mark); len(sent) > 0 {
				t.Errorf("statements sent for a tampered plan: %q", sent)
			}
		})
	}

	// The attacker can also run tiform: the file is rewritten with a valid
	// integrity hash. Re-derivation refuses what the changes do not derive.
	for _, tc := range []struct {
		name string
		edit func(cp *planner.ClusterPlan)
		want string
	}{
		{"a GRANT appended, hash rewritten", func(cp *planner.ClusterPlan) {
			ch := cp.Changes[0]
			ch.Statements = append(ch.Statements, plans.Statement{SQL: "GRANT ALL PRIVILEGES ON *.* TO 'app'@'%'"})
		}, "GRANT ALL PRIVILEGES ON *.* TO 'app'@'%') is not one it derives"},
		{"a statement replaced, hash rewritten", func(cp *planner.ClusterPlan) {
			cp.Changes[1].Statements[0].SQL = "DROP RESOURCE GROUP `default`"
		}, "but its values derive"},
		{"a spec no statement derives from, hash rewritten", func(cp *planner.ClusterPlan) {
			cp.Changes[0].Spec.Set = nil
		}, "cannot be derived"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := planner.ReadPlanFile(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(p.Clusters[0])
			var b bytes.Buffer
			if err := planner.WritePlanFile(&b, p); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "resealed.tfplan")
			writeTestFile(t, path, b.String())
			mark := c.Mark()
			code, out := tiform(t, "apply", path)
			if code != 1 || !strings.Contains(out, tc.want) || !strings.Contains(out, "nothing was sent") {
				t.Errorf("exit %d, want 1 and %q:\n%s", code, tc.want, out)
			}
			if sent := c.Since(mark); len(sent) > 0 {
				t.Errorf("statements sent: %q", sent)
			}
		})
	}

	// The untouched plan applies.
	mark := c.Mark()
	if code, out := tiform(t, "apply", orig); code != 0 {
		t.Fatalf("the untouched plan: exit %d\n%s", code, out)
	}
	if c.Count("SET GLOBAL") == 0 || len(c.Since(mark)) == 0 {
		t.Error("the untouched plan sent nothing")
	}
}

// tiform runs tiform in-process and returns its exit code and output
// (stdout then stderr).
func tiform(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, out, errOut := runTiform(t, args...)
	return code, out + errOut
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/cmd"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/schema"
)

// TestExamplesValidate loads every example configuration (a directory with
// *.hcl files; ci/ holds CI workflows, checked by ci_test.go) offline: each
// must be free of errors and warnings (an example teaches; it must not warn).
func TestExamplesValidate(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if hcl, _ := filepath.Glob(filepath.Join(e.Name(), "*.hcl")); e.IsDir() && len(hcl) > 0 {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) < 3 {
		t.Fatalf("found %d example directories, want at least 3", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			_, diags := schema.Load(dir, schema.Options{Offline: true, DefaultDSN: "root@tcp(127.0.0.1:4000)/"})
			if len(diags) > 0 {
				var b bytes.Buffer
				_ = diag.Write(&b, diags, false)
				t.Fatalf("%s has diagnostics:\n%s", dir, b.String())
			}
		})
	}
}

// run executes tiform in-process and returns its exit code and output.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cmd.Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestQuickstartConverges is `make demo` as a test: plan shows the TiKV, PD,
// variable and resource-group changes with the region-size guard at the right
// line; apply applies them; the next plan has nothing to do.
func TestQuickstartConverges(t *testing.T) {
	s := tidbsimtest.StartSeed(t, "quickstart/cluster.seed.json", nil)
	t.Setenv("TIFORM_DSN", s.DSN("root", ""))
	t.Setenv("NO_COLOR", "1")
	audit := filepath.Join(t.TempDir(), "audit.log")

	code, out, errOut := run(t, "plan", "--chdir", "quickstart", "--detailed-exitcode")
	if code != 2 {
		t.Fatalf("first plan exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"~ tikv.coprocessor.region-split-size  (quickstart/main.hcl:11)",
		"~ pd.schedule.max-merge-region-size",
		"~ variable.tidb_enable_non_prepared_plan_cache",
		"+ resource_group.oltp",
		"warning[TF101]",
		"--> quickstart/main.hcl:11:5 (tikv.coprocessor.region-split-size)",
		"Plan: 1 to create, 7 to change, 0 to delete.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("first plan lacks %q\n%s", want, out)
		}
	}

	code, out, errOut = run(t, "apply", "--chdir", "quickstart", "--auto-approve", "--audit-log", audit)
	if code != 0 || !strings.Contains(out, "Apply complete! Resources: 7 changed, 1 created, 0 deleted.") {
		t.Fatalf("apply exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if b, err := os.ReadFile(audit); err != nil || bytes.Count(b, []byte("\n")) < 8 {
		t.Errorf("audit log %s: %d lines, err %v; want a line per statement", audit, bytes.Count(b, []byte("\n")), err)
	}

	code, out, errOut = run(t, "plan", "--chdir", "quickstart", "--detailed-exitcode")
	if code != 0 || !strings.Contains(out, "No changes.") {
		t.Fatalf("second plan exit %d, want 0 with No changes\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestFleetPlans plans the fleet example against three emulated clusters:
// only tokyo turns the plan cache on, only osaka has the per-instance block
// cache and the bigger batch group.
func TestFleetPlans(t *testing.T) {
	for _, name := range []string{"TOKYO", "OSAKA", "STAGING"} {
		s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", TiKV: 3})
		t.Setenv(name+"_DSN", s.DSN("root", ""))
	}
	t.Setenv("TIFORM_DSN", "")
	t.Setenv("NO_COLOR", "1")
	code, out, errOut := run(t, "plan", "--chdir", "fleet", "--format", "json")
	if code != 0 {
		t.Fatalf("plan exit %d\nstderr:\n%s", code, errOut)
	}
	for _, want := range []string{`"tokyo"`, `"osaka"`, `"staging"`, `tikv[\"127.0.0.1:20161\"].storage.block-cache.capacity`} {
		if !strings.Contains(out, want) {
			t.Errorf("fleet plan lacks %s", want)
		}
	}
	code, out, _ = run(t, "plan", "--chdir", "fleet", "--cluster", "staging")
	if code != 0 || strings.Contains(out, "tidb_enable_non_prepared_plan_cache") {
		t.Errorf("staging must keep the baseline's plan cache setting (no change on a default cluster); exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "plan", "--chdir", "fleet", "--cluster", "tokyo")
	if code != 0 || !strings.Contains(out, "~ variable.tidb_enable_non_prepared_plan_cache") {
		t.Errorf("tokyo must turn the non-prepared plan cache on; exit %d\n%s", code, out)
	}
}

// TestResourceGroupsExample applies the resource-groups example and converges.
func TestResourceGroupsExample(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", SQL: []string{
		"CREATE USER 'app'@'%'", "CREATE USER 'report'@'%'",
	}})
	t.Setenv("TIFORM_DSN", s.DSN("root", ""))
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	code, out, errOut := run(t, "apply", "--chdir", "resource-groups", "--auto-approve", "--audit-log", filepath.Join(dir, "audit.log"))
	if code != 0 {
		t.Fatalf("apply exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, errOut = run(t, "plan", "--chdir", "resource-groups", "--detailed-exitcode")
	if code != 0 {
		t.Fatalf("replan exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestPersistedExample runs examples/persisted: a value applied online that
// the topology lacks is flagged as reverted at the next reload, the INSTANCE
// variable as not persisted; `export tiup` prints the section to merge, and
// once merged the layers are in step.
func TestPersistedExample(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", Version: "v8.5.1", TiKV: 3})
	t.Setenv("TIFORM_DSN", s.DSN("root", ""))
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	for _, f := range []string{"main.hcl", "meta.yaml"} {
		b, err := os.ReadFile(filepath.Join("persisted", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := run(t, "apply", "--chdir", dir, "--auto-approve", "--audit-log", filepath.Join(t.TempDir(), "audit.log")); code != 0 {
		t.Fatalf("apply exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, _ := run(t, "plan", "--chdir", dir, "--drift", "--detailed-exitcode")
	for _, want := range []string{"reverted: tikv.gc.ratio-threshold", "not persisted: variable.tidb_slow_log_threshold"} {
		if !strings.Contains(out, want) {
			t.Errorf("drift lacks %q\n%s", want, out)
		}
	}
	if code != 2 {
		t.Errorf("drift exit %d, want 2 (a value will be reverted)", code)
	}
	code, out, errOut := run(t, "export", "tiup", "--chdir", dir)
	if code != 0 || !strings.Contains(out, "    gc.ratio-threshold: 1.5\n") || !strings.Contains(out, "tiup cluster reload tidb-demo -R tikv --skip-restart") {
		t.Fatalf("export tiup exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// Merge it, as `tiup cluster edit-config tidb-demo` would.
	meta := filepath.Join(dir, "meta.yaml")
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	merged := strings.Replace(string(b), "      split.qps-threshold: 3000\n", "      split.qps-threshold: 3000\n      gc.ratio-threshold: 1.5\n", 1)
	if err := os.WriteFile(meta, []byte(merged), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, "plan", "--chdir", dir, "--drift", "--detailed-exitcode")
	if code != 0 || strings.Contains(out, "reverted:") {
		t.Errorf("after the merge: exit %d\n%s", code, out)
	}
}

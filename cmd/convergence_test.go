package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// runIn runs tiform in-process with dir as --chdir and returns the exit code
// and both streams.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(append(args, "--chdir", dir), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func writeConfig(t *testing.T, hcl string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestConvergenceEverySpelling: for each way of writing the same value, apply
// then plan shows no changes (issue 3's bar). Sizes: "256MB" (TiKV reads MB as
// binary: tikv/tikv@v8.5.1:components/tikv_util/src/config.rs, FromStr for
// ReadableSize), "256MiB", 268435456; booleans: true, "ON", 1.
func TestConvergenceEverySpelling(t *testing.T) {
	sizes := []string{`"128MB"`, `"128MiB"`, `134217728`, `"0.125GiB"`}
	bools := []string{`true`, `"ON"`, `1`, `"on"`}
	for i := range sizes {
		size, b := sizes[i], bools[i]
		t.Run(fmt.Sprintf("size=%s,bool=%s", size, b), func(t *testing.T) {
			s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", TiKV: 3})
			t.Setenv("TIFORM_DSN", s.DSN("root", ""))
			t.Setenv("NO_COLOR", "1")
			dir := writeConfig(t, fmt.Sprintf(`
tikv {
  storage {
    block-cache {
      capacity = %s
    }
  }
}

variables {
  tidb_enable_non_prepared_plan_cache = %s
}
`, size, b))
			if code, out, errOut := runIn(t, dir, "apply", "--auto-approve", "--audit-log", filepath.Join(dir, "audit.log")); code != 0 {
				t.Fatalf("apply exit %d\n%s\n%s", code, out, errOut)
			}
			if code, out, errOut := runIn(t, dir, "plan", "--detailed-exitcode"); code != 0 || !strings.Contains(out, "No changes.") {
				t.Fatalf("plan after apply: exit %d, want 0 and no changes\n%s\n%s", code, out, errOut)
			}
		})
	}
}

// TestApplyRefusesErrorFinding: an error finding blocks apply before anything
// is sent (issue 7's bar): the instance plan cache does not exist on v8.1.2.
func TestApplyRefusesErrorFinding(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", Version: "v8.1.2"})
	t.Setenv("TIFORM_DSN", s.DSN("root", ""))
	t.Setenv("NO_COLOR", "1")
	dir := writeConfig(t, `
variables {
  tidb_enable_non_prepared_plan_cache = true
  tidb_enable_instance_plan_cache     = true
}
`)
	code, out, errOut := runIn(t, dir, "apply", "--auto-approve")
	if code != 1 {
		t.Fatalf("apply exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "refused before sending anything") || !strings.Contains(out, "error[TF") {
		t.Errorf("want the error finding in the plan and the refusal on stderr\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	for _, sent := range s.Since(0) {
		q := strings.ToUpper(sent)
		for _, verb := range []string{"SET GLOBAL", "SET CONFIG", "CREATE", "ALTER", "DROP", "SET @@"} {
			if strings.HasPrefix(q, verb) {
				t.Errorf("a change was sent despite the refusal: %s", sent)
			}
		}
	}
}

// TestExpiredAcknowledgementWarns: an acknowledgement past its date is itself a
// warning in the plan (issue 7's bar).
func TestExpiredAcknowledgementWarns(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0"})
	t.Setenv("TIFORM_DSN", s.DSN("root", ""))
	t.Setenv("NO_COLOR", "1")
	dir := writeConfig(t, `
resource_group "reporting" {
  ru_per_sec = 1000
  priority   = "MEDIUM"
}

acknowledge "TF110" {
  reason = "accepted until the TiKV upgrade"
  until  = "2020-01-31"
}
`)
	code, out, errOut := runIn(t, dir, "plan")
	if code != 0 {
		t.Fatalf("plan exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "warning[TF190]") || !strings.Contains(out, "2020-01-31") {
		t.Errorf("want an expired-acknowledgement warning naming the date\n%s", out)
	}
	if !strings.Contains(out, "warning[TF110]") || strings.Contains(out, "TF110, acknowledged") {
		t.Errorf("an expired acknowledgement must not suppress TF110\n%s", out)
	}
}

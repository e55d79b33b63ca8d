package cmd

// "SIGINT in the middle: the process exits 130 (ExitInterrupted) with a
// correct report", checked on a process of its own: tiform (Main, as
// main.go runs it) is run against the emulator and interrupted while a SET
// CONFIG is running.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

func TestSIGINTExits130(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on windows")
	}
	// One change after another, the signal lands in the first TiKV change;
	// with --concurrency 2, in the first two (sent together): each finishes
	// and the third is not attempted.
	for _, c := range []struct{ concurrency, inFlight int }{{1, 1}, {2, 2}} {
		t.Run(fmt.Sprint("concurrency=", c.concurrency), func(t *testing.T) { testSIGINT(t, c.concurrency, c.inFlight) })
	}
}

func testSIGINT(t *testing.T, concurrency, inFlight int) {
	dir := t.TempDir()
	// TestMain put a `tiform` on PATH: this test binary running Main, as
	// main.go does, in a process of its own that a signal can reach.
	bin, err := exec.LookPath("tiform")
	if err != nil {
		t.Fatalf("no tiform on PATH (TestMain sets it up): %v", err)
	}
	const simPassword = "Tif0rm-sigint-S3cret"
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3})
	dsn := s.AddUser(t, "tiform", simPassword)
	cfg := filepath.Join(dir, "cfg")
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	hcl := `tikv {
  gc {
    ratio-threshold = 1.3
  }
  pessimistic-txn {
    wait-for-lock-timeout = "2s"
  }
  raftstore {
    raft-log-gc-threshold = 100
  }
}

variables {
  tidb_session_plan_cache_size = 200
}
`
	if err := os.WriteFile(filepath.Join(cfg, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	// Every instance round trip takes 300ms, so a type-wide SET CONFIG to
	// three TiKVs runs for about a second: the signal lands inside it.
	s.Cluster.SetLatency(300 * time.Millisecond)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "apply", "--auto-approve", "--chdir", cfg, "--dsn", dsn, "--no-color",
		"--concurrency", fmt.Sprint(concurrency))
	cmd.Dir = dir
	auditPath := filepath.Join(dir, "audit.log")
	cmd.Env = append(os.Environ(), "TIFORM_AUDIT_LOG="+auditPath)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tidbsimtest.WaitFor(t, func() bool { return s.Count("SET CONFIG") >= inFlight })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	out := stdout.String() + stderr.String()
	if code != ExitInterrupted {
		t.Fatalf("exit %d (%v), want 130\n%s", code, err, out)
	}
	applied, notAttempted := fmt.Sprintf("Applied (%d):", 1+inFlight), fmt.Sprintf("Not attempted (%d):", 3-inFlight)
	for _, want := range []string{"Apply interrupted", applied, notAttempted, "Rollback plan written to"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, simPassword) {
		t.Errorf("output contains the DSN password")
	}
	// The statements that were running finished, and no other started.
	if n := s.Count("SET CONFIG"); n != inFlight {
		t.Errorf("%d SET CONFIG statements ran, want %d", n, inFlight)
	}
	rb := filepath.Join(cfg, applier.DefaultRollbackPath)
	b, err := os.ReadFile(rb)
	if err != nil {
		t.Fatalf("rollback plan: %v\n%s", err, out)
	}
	if bytes.Contains(b, []byte(simPassword)) {
		t.Errorf("rollback plan contains the password")
	}
	audit, err := os.ReadFile(auditPath)
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	if bytes.Contains(audit, []byte(simPassword)) {
		t.Errorf("audit log contains the password")
	}
	viewstest.ValidateLines(t, "apply-event.schema.json", audit)
	lines := bytes.Split(bytes.TrimSpace(audit), []byte("\n"))
	var last views.ApplyEvent
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil || last.Event != "apply_end" || last.Result != "interrupted" {
		t.Errorf("last audit line = %+v (%v)", last, err)
	}
}

package cmd

import (
	"bytes"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// runWithin runs Main with args and fails the test if it has not returned
// within a minute: nothing tiform reads or writes may block on a FIFO or a
// device.
func runWithin(t *testing.T, args ...string) (code int, out string) {
	t.Helper()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		c := Main(args, strings.NewReader(""), &stdout, &stderr)
		done <- result{c, stdout.String() + stderr.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(time.Minute):
		t.Fatalf("tiform %s did not return within a minute", strings.Join(args, " "))
	}
	return 0, ""
}

// `export tiup --check FIFO` and `apply --audit-log FIFO` end at once with a
// clear error; so does a FIFO where any input file is named.
func TestNothingBlocksOnAFIFO(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	cfg := filepath.Join(dir, "cfg")
	os.Mkdir(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, "main.hcl"), []byte("tikv {\n  gc {\n    ratio-threshold = 1.3\n  }\n}\nvariables {\n  tidb_gc_life_time = \"20m\"\n}\n"), 0o644)
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"export tiup --check", []string{"export", "tiup", "--chdir", cfg, "--check", fifo}, "not a regular file (a named pipe)"},
		{"apply --audit-log", []string{"apply", "--chdir", cfg, "--dsn", s.RootDSN(), "--auto-approve", "--audit-log", fifo}, "not a regular file"},
		{"--var-file", []string{"validate", "--chdir", cfg, "--var-file", fifo}, "not a regular file (a named pipe)"},
		{"a saved plan", []string{"show", fifo}, "not a regular file (a named pipe)"},
		{"--from-snapshot", []string{"plan", "--chdir", cfg, "--from-snapshot", fifo}, "not a regular file (a named pipe)"},
		{"--previous", []string{"plan", "--chdir", cfg, "--dsn", s.RootDSN(), "--drift", "--previous", fifo}, "not a regular file (a named pipe)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runWithin(t, tc.args...)
			if code != ExitError || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d, want 1 and %q:\n%s", code, tc.want, out)
			}
		})
	}
	if n := s.Count("SET GLOBAL"); n != 0 {
		t.Errorf("apply sent %d statements without its audit log", n)
	}
}

// An interrupt ends the process promptly even while apply waits for the
// lock another session holds (GET_LOCK can wait an hour): exit 130, nothing
// sent.
func TestSIGINTWhileWaitingForTheLock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on windows")
	}
	bin, err := exec.LookPath("tiform")
	if err != nil {
		t.Fatalf("no tiform on PATH (TestMain sets it up): %v", err)
	}
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1})
	holder, err := sql.Open("mysql", s.RootDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	holder.SetMaxOpenConns(1)
	var got int
	if err := holder.QueryRow("SELECT GET_LOCK('tiform.apply', 1)").Scan(&got); err != nil || got != 1 {
		t.Fatalf("GET_LOCK = %d, %v", got, err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.hcl"), []byte("variables {\n  tidb_gc_life_time = \"20m\"\n}\n"), 0o644)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "apply", "--auto-approve", "--chdir", dir, "--dsn", s.RootDSN(), "--lock-timeout", "1h", "--no-color")
	cmd.Env = append(os.Environ(), "TIFORM_AUDIT_LOG="+filepath.Join(dir, "audit.log"))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tidbsimtest.WaitFor(t, func() bool { return s.Count("GET_LOCK('tiform.apply', 3600)") >= 1 })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("apply waiting for the lock did not end within 30s of SIGINT\n%s%s", stdout.String(), stderr.String())
	}
	out := stdout.String() + stderr.String()
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted || !strings.Contains(out, "Apply interrupted") {
		t.Fatalf("exit %d, want 130 naming the lock:\n%s", code, out)
	}
	if n := s.Count("SET GLOBAL"); n != 0 {
		t.Errorf("%d statements were sent", n)
	}
}

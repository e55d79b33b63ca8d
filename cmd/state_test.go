package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
)

func runTiform(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestStatePull(t *testing.T) {
	const pw = "St4te-Pull-Secret"
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 2, SQL: []string{
		"CREATE USER 'tiform'@'%' IDENTIFIED BY '" + pw + "'",
		"GRANT ALL PRIVILEGES ON *.* TO 'tiform'@'%'",
	}})
	dsn := s.DSN("tiform", pw)
	dir := t.TempDir()
	t.Setenv("TIFORM_DSN", "")

	t.Run("complete read", func(t *testing.T) {
		out := filepath.Join(dir, "snap.json")
		code, stdout, stderr := runTiform(t, "state", "pull", "--dsn", dsn, "--out", out, "--cluster", "prod")
		if code != 0 {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
		if !strings.Contains(stdout, "Wrote "+out) || !strings.Contains(stdout, `cluster "prod"`) || !strings.Contains(stdout, "tikv 2") ||
			!strings.Contains(stdout, "1 resource group,") || !strings.Contains(stdout, " users.") {
			t.Errorf("stdout: %s", stdout)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(pw)) || strings.Contains(stdout+stderr, pw) {
			t.Fatal("the password leaked into the snapshot or the output")
		}
		l, err := live.ReadSnapshot(out)
		if err != nil {
			t.Fatal(err)
		}
		if l.Offline.Cluster != "prod" || len(l.Instances) != 4 || len(l.Incomplete()) != 0 || !l.VariablesRead || !l.ResourceGroupsRead || !l.UsersRead {
			t.Errorf("snapshot content: %+v", l)
		}
	})

	t.Run("to standard output", func(t *testing.T) {
		code, stdout, stderr := runTiform(t, "state", "pull", "--dsn", dsn, "--out", "-")
		if code != 0 || !strings.HasPrefix(stdout, "{\n  \"format_version\": 1,") || strings.Contains(stdout, "Wrote") {
			t.Errorf("exit %d, stdout %.80q, stderr %s", code, stdout, stderr)
		}
		if strings.Contains(stdout, pw) {
			t.Error("password in the snapshot")
		}
	})

	t.Run("instance down", func(t *testing.T) {
		down := s.Cluster.InstancesOf(tidbsim.TypeTiKV)[1].Address
		s.Cluster.SetInstanceDown(down, true)
		defer s.Cluster.SetInstanceDown(down, false)
		out := filepath.Join(dir, "partial.json")
		t.Setenv("TIFORM_DSN", dsn)
		code, _, stderr := runTiform(t, "state", "pull", "--out", out)
		if code != 1 || !strings.Contains(stderr, down) || !strings.Contains(stderr, "--allow-incomplete") {
			t.Errorf("exit %d, stderr: %s", code, stderr)
		}
		if _, err := live.ReadSnapshot(out); err != nil {
			t.Errorf("the partial snapshot was not written: %v", err)
		}
		code, _, stderr = runTiform(t, "state", "pull", "--out", out, "--allow-incomplete")
		if code != 0 || !strings.Contains(stderr, down) {
			t.Errorf("--allow-incomplete: exit %d, stderr: %s", code, stderr)
		}
		// plan's spelling of the same acceptance works too.
		code, _, stderr = runTiform(t, "state", "pull", "--out", out, "--allow-partial")
		if code != 0 || !strings.Contains(stderr, down) {
			t.Errorf("--allow-partial: exit %d, stderr: %s", code, stderr)
		}
	})

	t.Run("cluster from the configuration", func(t *testing.T) {
		cfg := t.TempDir()
		hcl := `tikv {
  coprocessor {
    region-split-size = "256MiB"
  }
}

variables {
  tidb_enable_prepared_plan_cache = true
}

cluster "a" {
  dsn = env("STATE_TEST_DSN_A")
}
cluster "b" {
  dsn = env("STATE_TEST_DSN_B")
}
`
		if err := os.WriteFile(filepath.Join(cfg, "main.hcl"), []byte(hcl), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("STATE_TEST_DSN_A", "nobody:x@tcp(127.0.0.1:1)/")
		t.Setenv("STATE_TEST_DSN_B", dsn)
		out := filepath.Join(dir, "b.json")
		code, _, stderr := runTiform(t, "state", "pull", "--chdir", cfg, "--out", out)
		if code != 1 || !strings.Contains(stderr, "--cluster NAME") || !strings.Contains(stderr, "a, b") {
			t.Errorf("two clusters without --cluster: exit %d, stderr: %s", code, stderr)
		}
		code, stdout, stderr := runTiform(t, "state", "pull", "--chdir", cfg, "--cluster", "b", "--out", out)
		if code != 0 {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
		l, err := live.ReadSnapshot(out)
		if err != nil {
			t.Fatal(err)
		}
		if l.Offline.Cluster != "b" || l.Variables["tidb_enable_prepared_plan_cache"] == "" {
			t.Errorf("snapshot of b: cluster %q, variables read %v", l.Offline.Cluster, l.VariablesRead)
		}
		code, _, stderr = runTiform(t, "state", "pull", "--chdir", cfg, "--cluster", "c", "--out", out)
		if code != 1 || !strings.Contains(stderr, "no such cluster") {
			t.Errorf("--cluster c: exit %d, stderr: %s", code, stderr)
		}
	})

	t.Run("wrong password", func(t *testing.T) {
		code, stdout, stderr := runTiform(t, "state", "pull", "--dsn", s.DSN("tiform", pw+"x"), "--out", filepath.Join(dir, "x.json"))
		if code != 1 || !strings.Contains(stderr, "1045") || strings.Contains(stdout+stderr, pw) {
			t.Errorf("exit %d, stderr: %s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
			t.Error("a snapshot was written after a failed connection")
		}
	})
}

func TestStatePullUsageErrors(t *testing.T) {
	t.Setenv("TIFORM_DSN", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"state", "pull"}, "--out FILE is required"},
		{[]string{"state", "pull", "--out", "x.json"}, "pass --dsn or set TIFORM_DSN"},
		{[]string{"state", "pull", "--out", "x.json", "--dsn", "u:pw123456@tcp(127.0.0.1:1)", "--tls", "sometimes"}, "not valid"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runTiform(t, tt.args...)
		if code != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tt.args, code, stderr, tt.want)
		}
		if strings.Contains(stdout+stderr, "pw123456") {
			t.Errorf("%q: password printed", tt.args)
		}
	}
}

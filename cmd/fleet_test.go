package cmd

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// silentHost accepts TCP connections and never answers (a hung proxy, a
// firewall that accepts): tiform's handshake waits on it.
func silentHost(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				<-done
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() { ln.Close(); close(done) })
	return ln.Addr().String()
}

// TestSilentHostsCostOneTimeout: three hosts that accept and never answer
// cost the fleet run about one --connect-timeout, not one each (they are read
// concurrently), and the healthy cluster's result is complete.
func TestSilentHostsCostOneTimeout(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0"})
	hcl := `variables {
  tidb_enable_non_prepared_plan_cache = true
}

cluster "healthy" {
  dsn = env("DSN_HEALTHY")
}
`
	t.Setenv("DSN_HEALTHY", s.DSN("root", ""))
	for i := 1; i <= 3; i++ {
		hcl += fmt.Sprintf("\ncluster \"silent%d\" {\n  dsn = env(\"DSN_SILENT%d\")\n}\n", i, i)
		t.Setenv(fmt.Sprintf("DSN_SILENT%d", i), "root@tcp("+silentHost(t)+")/")
	}
	dir := writeConfig(t, hcl)
	const timeout = time.Second
	start := time.Now()
	code, out, errOut := runIn(t, dir, "plan", "--format", "json", "--connect-timeout", timeout.String(), "--detailed-exitcode")
	elapsed := time.Since(start)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	var doc struct {
		Clusters []struct {
			Name, Status string
			Changes      []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range doc.Clusters {
		got[c.Name] = c.Status
		if c.Name == "healthy" && len(c.Changes) != 1 {
			t.Errorf("healthy cluster: %d changes, want 1", len(c.Changes))
		}
	}
	want := map[string]string{"healthy": "changes", "silent1": "unreachable", "silent2": "unreachable", "silent3": "unreachable"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	// Read one after another, the three would take at least 3 s.
	if elapsed > 2*timeout+timeout/2 {
		t.Errorf("the fleet run took %v with three silent hosts and --connect-timeout %v: they were not read concurrently", elapsed, timeout)
	}
	if !strings.Contains(out, "silent1") {
		t.Errorf("the report does not name the silent cluster:\n%s", out)
	}
}

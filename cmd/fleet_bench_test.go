package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/cpumeter"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// fleetConfig starts n emulated clusters with latency per contacted instance
// and writes a configuration declaring them (a TiKV key, a variable and a
// resource group each, so every kind of read is made). With network, the
// TiDB instance tiform talks to is contacted at that latency too: each
// exchange of the protocol waits it (tidbsim Faults.RoundTrip); without, only
// the instances TiDB contacts for a statement do (Faults.Latency).
func fleetConfig(b *testing.B, n int, latency time.Duration, network bool) string {
	b.Helper()
	dir := b.TempDir()
	var hcl strings.Builder
	hcl.WriteString("tikv {\n  gc {\n    ratio-threshold = 1.3\n  }\n}\n\nvariables {\n  tidb_enable_non_prepared_plan_cache = true\n}\n\nresource_group \"oltp\" {\n  ru_per_sec = 1000\n}\n")
	for i := 0; i < n; i++ {
		s := tidbsimtest.Start(b, tidbsim.Options{Addr: "127.0.0.1:0", TiKV: 3})
		s.Cluster.SetLatency(latency)
		if network {
			s.Cluster.SetRoundTrip(latency)
		}
		fmt.Fprintf(&hcl, "\ncluster \"c%02d\" {\n  dsn = %q\n}\n", i, s.DSN("root", ""))
	}
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkFleetPlan: `tiform plan` of 1 and of 16 clusters, each emulated
// with 2 ms (the bar: 16 clusters under 3× one cluster's time) and
// 20 ms of latency per contacted instance — the TiDB instance tiform talks to
// and the instances it contacts in turn — read 8 at a time, and of 50
// clusters at 2 ms read 16 at a time. The fanout-only cases put the latency
// on TiDB's own round trips alone, with none between tiform and TiDB: on
// loopback they measure the CPU of tiform and of the in-process emulators
// (BENCHMARKS.md, docs/decisions/0015).
func BenchmarkFleetPlan(b *testing.B) {
	for _, bc := range []struct {
		n, parallelism int
		latency        time.Duration
		fanoutOnly     bool
	}{{1, 8, 2 * time.Millisecond, false}, {16, 8, 2 * time.Millisecond, false},
		{1, 8, 20 * time.Millisecond, false}, {16, 8, 20 * time.Millisecond, false},
		{50, 16, 2 * time.Millisecond, false},
		{1, 8, 2 * time.Millisecond, true}, {16, 8, 2 * time.Millisecond, true}} {
		name := fmt.Sprintf("latency=%v", bc.latency)
		if bc.fanoutOnly {
			name += "/fanout-only"
		}
		name += fmt.Sprintf("/clusters=%d", bc.n)
		if bc.parallelism != 8 {
			name += fmt.Sprintf("/parallelism=%d", bc.parallelism)
		}
		b.Run(name, func(b *testing.B) {
			dir := fleetConfig(b, bc.n, bc.latency, !bc.fanoutOnly)
			args := []string{"plan", "--chdir", dir, "--parallelism", fmt.Sprint(bc.parallelism), "--detailed-exitcode"}
			b.ResetTimer()
			stop := cpumeter.Start(b)
			for i := 0; i < b.N; i++ {
				if code := Main(args, strings.NewReader(""), io.Discard, io.Discard); code != ExitChanges {
					b.Fatalf("plan exit %d, want 2", code)
				}
			}
			stop()
		})
	}
}

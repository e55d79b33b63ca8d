package guard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

// End to end: HCL → schema → live (emulated cluster) → planner → guards.

var e2eNow = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// planAgainst loads dir, reads an emulated cluster started with o, and plans
// it through the real planner (which calls guard.Evaluate).
func planAgainst(t *testing.T, dir string, o tidbsim.Options) *planner.ClusterPlan {
	t.Helper()
	s := tidbsimtest.Start(t, o)
	d, diags := schema.Load(dir, schema.Options{DefaultDSN: s.DSN("root", "")})
	if diags.HasErrors() {
		t.Fatalf("load %s: %v", dir, diags.Err())
	}
	dc := d.Clusters[0]
	// The emulator's INFORMATION_SCHEMA.RESOURCE_GROUPS is not guaranteed in
	// every build; resource-group rules have their own unit tests.
	dc.ResourceGroups = nil
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := live.Open(ctx, dc.DSN, live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, live.RequestFor(dc))
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	cp, err := planner.BuildCluster(dc, l, planner.Options{Now: e2eNow})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return cp
}

// lineOf returns the 1-based line of the first line in file containing text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line contains %q", file, text)
	return 0
}

func TestQuickstartOn851PointsTF101AtTheRegionSizeLine(t *testing.T) {
	dir := filepath.Join("..", "examples", "quickstart")
	cp := planAgainst(t, dir, tidbsim.Options{Version: "v8.5.1", BootstrappedFrom: "v8.1.2"})
	want := lineOf(t, filepath.Join(dir, "main.hcl"), "region-split-size")
	var tf101 *guard.Finding
	for i := range cp.Findings {
		if cp.Findings[i].Code == "TF101" {
			tf101 = &cp.Findings[i]
		}
	}
	if tf101 == nil {
		t.Fatalf("no TF101 in the plan's findings: %v", codes(cp.Findings))
	}
	if tf101.Severity != diag.Warning || !strings.HasSuffix(tf101.Range.Filename, "main.hcl") || tf101.Range.Start.Line != want {
		t.Errorf("TF101 at %s line %d (%s), want main.hcl line %d", tf101.Range.Filename, tf101.Range.Start.Line, tf101.Severity, want)
	}
	if tf101.Address != "tikv.coprocessor.region-split-size" {
		t.Errorf("address %q", tf101.Address)
	}
	// When that line also changes something, the change carries the code (on
	// this emulated upgrade the live value already is 256MiB: no change).
	for _, c := range cp.Changes {
		if c.Addr.String() == tf101.Address && !strings.Contains(strings.Join(c.Findings, " "), "TF101") {
			t.Errorf("the region-split-size change does not carry TF101: %v", c.Findings)
		}
	}
	// Every TiKV change carries the TiUP note; PD changes the etcd note.
	for _, c := range cp.Changes {
		want := map[state.Component]string{state.TiKV: "TF141", state.PD: "TF142"}[c.Addr.Component]
		if want == "" {
			continue
		}
		if !strings.Contains(strings.Join(c.Findings, " "), want) {
			t.Errorf("%s carries %v, want %s", c.Addr, c.Findings, want)
		}
	}
	if n := len(guard.Blocking(cp.Findings)); n != 0 {
		t.Errorf("the quickstart must not be blocked: %v", codes(guard.Blocking(cp.Findings)))
	}
}

func TestQuickstartOn853HasNoTF101(t *testing.T) {
	cp := planAgainst(t, filepath.Join("..", "examples", "quickstart"), tidbsim.Options{Version: "v8.5.3", BootstrappedFrom: "v8.1.2"})
	for _, f := range cp.Findings {
		if f.Code == "TF101" {
			t.Errorf("TF101 on v8.5.3: %s", f.Summary)
		}
	}
}

func TestExpiredAcknowledgementThroughThePlanner(t *testing.T) {
	dir := t.TempDir()
	hcl := `tikv {
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
    region-split-keys = 2560000
    region-max-keys   = 3840000
  }
}

acknowledge "TF101" {
  reason = "topology updated in CHG-42"
  until  = "2026-11-29"
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	cp := planAgainst(t, dir, tidbsim.Options{Version: "v8.5.1"})
	var got []string
	for _, f := range cp.Findings {
		if f.Code == "TF101" || f.Code == "TF190" {
			got = append(got, f.Code+" "+f.Severity.String())
			if f.Acknowledged {
				t.Errorf("%s acknowledged by an expired block", f.Code)
			}
		}
	}
	if strings.Join(got, ",") != "TF101 warning,TF190 warning" {
		t.Errorf("got %v", got)
	}
}

func codes(fs []guard.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

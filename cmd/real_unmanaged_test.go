package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/views"
)

// Unmanaged drift against every backend with a SQL layer (the emulator and
// the upstream tidb-server): a fresh cluster reports none — every value it
// starts with is the default of its own build (catalog.Judge; the probed
// DEFAULT_VALUE for the real server's build, store unistore) — and a SET
// GLOBAL of an undeclared variable is reported, with exit 2. The read is
// the whole surface in a constant number of statements: the same for one
// declared variable as for five.
func TestUnmanagedDriftBackends(t *testing.T) {
	tidbsimtest.Each(t, tidbsimtest.Needs{}, tidbsim.Options{}, func(t *testing.T, b tidbsimtest.Backend) {
		t.Setenv("TIFORM_DSN", b.RootDSN())
		one := writeConfig(t, "variables {\n  tidb_gc_life_time = \"10m0s\"\n}\n")
		five := writeConfig(t, "variables {\n  tidb_gc_life_time = \"10m0s\"\n  tidb_mem_quota_query = 1073741824\n"+
			"  tidb_enable_auto_analyze = true\n  tidb_auto_analyze_ratio = 0.5\n  tidb_txn_mode = \"pessimistic\"\n}\n")

		report := func(dir string) (int, views.Drift, int) {
			t.Helper()
			mark := b.Mark()
			code, out, errOut := runIn(t, dir, "plan", "--drift", "--unmanaged", "--detailed-exitcode", "--format", "json")
			sent := len(b.Since(mark))
			var doc views.Drift
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("exit %d, not a drift report: %v\n%s\n%s", code, err, out, errOut)
			}
			return code, doc, sent
		}
		code, doc, sentOne := report(one)
		if code != 0 || doc.HasUnmanagedDrift {
			t.Fatalf("a fresh %s: exit %d, unmanaged drift %+v", b.Name(), code, doc.Clusters[0].Unmanaged)
		}
		_, _, sentFive := report(five)
		if sentOne != sentFive {
			t.Errorf("plan --drift --unmanaged sent %d statements for one declared variable, %d for five: the read is not constant", sentOne, sentFive)
		}

		b.Exec(t, "SET GLOBAL tidb_mem_quota_query = 2147483648")
		code, doc, _ = report(one)
		u := doc.Clusters[0].Unmanaged
		if code != ExitChanges || u == nil || len(u.Settings) != 1 || u.Settings[0].Address != "variable.tidb_mem_quota_query" {
			t.Fatalf("after SET GLOBAL tidb_mem_quota_query: exit %d, unmanaged %+v", code, u)
		}
		if doc.HasDrift {
			t.Error("unmanaged drift counted as managed drift (has_drift)")
		}
		// Declared, the same value is managed and in sync: nothing unmanaged.
		code, doc, _ = report(five)
		if code != ExitChanges || len(doc.Clusters[0].Unmanaged.Settings) != 0 || !doc.HasDrift {
			t.Errorf("declared at 1073741824, live 2147483648: exit %d, want a managed difference and no unmanaged setting: %+v", code, doc.Clusters[0])
		}
		_, text, _ := runIn(t, one, "plan", "--drift", "--unmanaged")
		if !strings.Contains(text, "? variable.tidb_mem_quota_query") {
			t.Errorf("the text report lacks the unmanaged variable:\n%s", text)
		}
	})
}

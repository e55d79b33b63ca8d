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

// The bar for `tiform apply` as users run it (plan, then apply,
// from a fresh process), counted in the emulator's query log: N changed
// TiKV settings on 3 TiKV send at most 2N + 10 statements (the bar is 2N + 12), and the cluster
// is read once, under the lock: no statement before GET_LOCK, one version
// and topology read, one config read before the first SET CONFIG (the
// read-back after is the only other), no sql_mode read (no statement holds
// a backslash). A second read of the cluster, before or under the lock,
// fails it.
func TestApplyReadsOnce(t *testing.T) {
	for _, n := range []int{1, 10, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			items := make([]tidbsim.NewerConfigItem, n)
			var hcl strings.Builder
			hcl.WriteString("tikv {\n  settings = {\n")
			for i := range items {
				items[i] = tidbsim.NewerConfigItem{Type: "tikv", Name: fmt.Sprintf("newer-feature.limit-%d", i), Kind: "int", Default: "1"}
				fmt.Fprintf(&hcl, "    %q = 2\n", items[i].Name)
			}
			hcl.WriteString("  }\n}\n")
			c := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3, NewerConfig: items})
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl.String()), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("TIFORM_DSN", c.RootDSN())
			mark := c.Mark()
			var out, errOut bytes.Buffer
			code := Main([]string{"apply", "--chdir", dir, "--auto-approve", "--audit-log", filepath.Join(dir, "audit.log")},
				strings.NewReader(""), &out, &errOut)
			if code != 0 {
				t.Fatalf("apply exit %d\n%s\n%s", code, out.String(), errOut.String())
			}
			log := c.Since(mark)
			t.Logf("%d changes: %d statements", n, len(log))
			if len(log) > 2*n+10 {
				t.Errorf("apply of %d changes sent %d statements, want at most %d:\n%s", n, len(log), 2*n+10, strings.Join(log, "\n"))
			}
			// The lock connection names itself (its alias is what a
			// blocked apply reports as the holder), then takes the lock:
			// nothing reads the cluster before.
			first := 0
			for first < len(log) && strings.HasPrefix(log[first], "SET SESSION tidb_session_alias") {
				first++
			}
			if first == len(log) || !strings.HasPrefix(log[first], "SELECT GET_LOCK(") {
				t.Errorf("the first statement after naming the session is not GET_LOCK: the cluster was read before the lock was taken:\n%s", strings.Join(log, "\n"))
			}
			count := func(prefix string) int {
				k := 0
				for _, q := range log {
					if strings.HasPrefix(q, prefix) {
						k++
					}
				}
				return k
			}
			for prefix, want := range map[string]int{
				"SELECT GET_LOCK":                       1,
				"SELECT VERSION()":                      1,
				"SELECT TYPE, INSTANCE, STATUS_ADDRESS": 1, // the topology: one read
				"SELECT TYPE, INSTANCE, `KEY`, VALUE":   2, // the read, the read-back
				"SET CONFIG tikv":                       n,
				"SELECT @@SESSION.sql_mode":             0, // no statement holds a backslash
				"SELECT RELEASE_LOCK":                   1,
			} {
				if got := count(prefix); got != want {
					t.Errorf("%q sent %d times, want %d:\n%s", prefix, got, want, strings.Join(log, "\n"))
				}
			}
			// The one config read comes before the first statement, the
			// read-back after the last.
			firstSet, lastSet, reads := -1, -1, []int{}
			for i, q := range log {
				switch {
				case strings.HasPrefix(q, "SET CONFIG"):
					if firstSet < 0 {
						firstSet = i
					}
					lastSet = i
				case strings.HasPrefix(q, "SELECT TYPE, INSTANCE, `KEY`, VALUE"):
					reads = append(reads, i)
				}
			}
			if len(reads) == 2 && (reads[0] > firstSet || reads[1] < lastSet) {
				t.Errorf("config reads at %v, statements from %d to %d: want one read before and one read-back after", reads, firstSet, lastSet)
			}
		})
	}
}

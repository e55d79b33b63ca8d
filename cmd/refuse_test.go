package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// TestRefusedAtPlanTime: a restart-only key (TF140, with the TiUP step to
// use instead) and keys the cluster's version does not have (TF150, with the
// versions that have them) are refused by plan and by apply before anything
// is sent: the emulator's query log holds no change statement.
func TestRefusedAtPlanTime(t *testing.T) {
	c := tidbsimtest.Start(t, tidbsim.Options{Version: "v7.5.6"})
	t.Setenv("TIFORM_DSN", c.RootDSN())
	t.Setenv("TIFORM_AUDIT_LOG", filepath.Join(t.TempDir(), "audit.log"))
	t.Setenv("NO_COLOR", "1")
	for _, tc := range []struct {
		name, hcl string
		want      []string
		not       string
	}{
		{"restart-only", "tikv {\n  server {\n    grpc-concurrency = 8\n  }\n}\n",
			// #[online_config(skip)]: tikv/tikv@v7.5.6:src/server/config.rs
			[]string{"error[TF140]: tikv server.grpc-concurrency is restart-only: an online apply cannot change it",
				"tiup cluster edit-config", "server.grpc-concurrency: 8"}, ""},
		{"a TiKV key of a later version", "tikv {\n  raftstore {\n    periodic-full-compact-start-max-cpu = 0.2\n  }\n}\n",
			// first in tikv/tikv@v7.6.0:components/raftstore/src/store/config.rs
			[]string{"error[TF150]: tikv raftstore.periodic-full-compact-start-max-cpu does not exist in tikv v7.5.6: it exists in v7.6.0+"},
			"TF140"},
		{"a variable of a later version", "variables {\n  tidb_enable_fast_create_table = true\n}\n",
			// pingcap/docs-cn@release-8.1:system-variables.md (从 v8.0.0 版本开始引入)
			[]string{"error[TF150]: tidb_enable_fast_create_table does not exist in TiDB v7.5.6: it exists in v8.0.0+"}, ""},
	} {
		dir := t.TempDir()
		writeTestFile(t, filepath.Join(dir, "main.hcl"), tc.hcl)
		for _, args := range [][]string{{"plan"}, {"apply", "--auto-approve"}} {
			t.Run(tc.name+" "+args[0], func(t *testing.T) {
				mark := c.Mark()
				code, out := tiform(t, append(args, "--chdir", dir)...)
				if code != 1 {
					t.Errorf("exit %d, want 1", code)
				}
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("the output does not say %q:\n%s", w, out)
					}
				}
				if tc.not != "" && strings.Contains(out, tc.not) {
					t.Errorf("the output says %s:\n%s", tc.not, out)
				}
				sent := c.Since(mark)
				if len(sent) == 0 {
					t.Fatal("the query log is empty: the cluster was not read")
				}
				for _, q := range sent {
					if isChange(q) {
						t.Errorf("sent %q", q)
					}
				}
			})
		}
	}
}

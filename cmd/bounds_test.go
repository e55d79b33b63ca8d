package cmd

import (
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
)

// Text a hostile server returns is bounded in every report: a 30 MB
// statement text and a 5 MB variable value make reports of a few hundred
// KiB, each text cut with a note of its size.
func TestReportsBoundClusterText(t *testing.T) {
	huge := "select " + strings.Repeat("x", 30<<20)
	srv := tidbsimtest.Start(t, tidbsim.Options{
		NewerVariables: []tidbsim.NewerVariable{{Name: "x_note", Type: "string", Default: ""}},
		StatementsSummary: []tidbsim.StatementStat{{Columns: map[string]any{
			"DIGEST_TEXT": huge, "SCHEMA_NAME": "shop", "TABLE_NAMES": "shop.orders", "SAMPLE_USER": "app",
			"EXEC_COUNT": 8000, "SUM_LATENCY": 16000000000, "AVG_COMPILE_LATENCY": 450000, "PREPARED": 1,
		}}},
	})
	srv.Exec(t, "SET GLOBAL x_note = '"+strings.Repeat("v", 5<<20)+"'")
	dir := t.TempDir()
	writeTestFile(t, dir+"/main.hcl", "variables {\n  x_note = \"tidied\"\n}\n")
	t.Setenv("TIFORM_DSN", srv.RootDSN())
	for _, args := range [][]string{
		{"check", "plan-cache", "--format", "json"},
		{"check", "mvcc", "--format", "json"},
		{"plan", "--chdir", dir, "--format", "json"},
		{"plan", "--chdir", dir, "--drift", "--format", "json"},
		{"plan", "--chdir", dir, "--format", "markdown"},
	} {
		code, out := tiform(t, args...)
		if len(out) > 1<<20 {
			t.Errorf("%v: %d bytes of output (exit %d)", args, len(out), code)
		}
		switch {
		case strings.Contains(args[0], "check"):
		case args[len(args)-1] == "markdown":
			// a comment's budget (60,000 characters) is smaller than one
			// clipped value: the row goes, and the comment says so
			if len(out) > 60000 || !strings.Contains(out, "Shortened to fit a pull-request comment") {
				t.Errorf("%v: %d characters, the shortening not said (exit %d):\n%.2000s", args, len(out), code, out)
			}
		case !strings.Contains(out, live.ClippedSuffix):
			t.Errorf("%v: the cut is not said (exit %d):\n%.2000s", args, code, out)
		}
	}
	code, out := tiform(t, "check", "plan-cache", "--format", "json")
	if !strings.Contains(out, live.ClippedSuffix+"30.0 MiB)") {
		i := strings.Index(out, "cut by")
		t.Errorf("check plan-cache: the statement text's cut does not say 30.0 MiB (exit %d): …%s…", code, out[max(0, i-100):min(len(out), i+200)])
	}
}

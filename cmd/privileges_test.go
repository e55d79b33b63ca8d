package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// accountSQL returns the SQL blocks of docs/workflows.md that start with
// "-- account: NAME", by NAME, split into statements.
func accountSQL(t *testing.T) map[string][]string {
	t.Helper()
	doc, err := os.ReadFile("../docs/workflows.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sql\n-- account: (\\w+)\n(.*?)```").FindAllSubmatch(doc, -1)
	out := map[string][]string{}
	for _, b := range blocks {
		for _, st := range strings.Split(string(b[2]), ";\n") {
			if st = strings.TrimSpace(st); st != "" {
				out[string(b[1])] = append(out[string(b[1])], st)
			}
		}
	}
	return out
}

var identifiedBy = regexp.MustCompile(`CREATE USER '([^']+)'@'%' IDENTIFIED BY '([^']+)'`)

// TestLeastPrivileges runs the plan and apply accounts of docs/workflows.md
// against the emulator, which enforces TiDB's privileges: the plan account
// plans, drift-checks, checks and pulls state; its apply is refused naming
// the privilege it lacks; the apply account applies.
func TestLeastPrivileges(t *testing.T) {
	accounts := accountSQL(t)
	if len(accounts["plan"]) == 0 || len(accounts["apply"]) == 0 {
		t.Fatalf("docs/workflows.md has no plan or apply account block: %v", accounts)
	}
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", TiKV: 3, SQL: []string{"CREATE USER 'app'@'%'"}})
	dsn := map[string]string{}
	root := s.NewSession("root")
	for name, stmts := range accounts {
		for _, st := range stmts {
			if _, err := root.Exec(st); err != nil {
				t.Fatalf("account %s: %s: %v", name, st, err)
			}
			if m := identifiedBy.FindStringSubmatch(st); m != nil {
				dsn[name] = s.DSN(m[1], m[2])
			}
		}
	}
	t.Setenv("NO_COLOR", "1")
	t.Setenv(auditLogEnv, filepath.Join(t.TempDir(), "audit.log"))
	dir := writeConfig(t, `
tikv {
  gc {
    ratio-threshold = 1.3
  }
}

variables {
  tidb_enable_non_prepared_plan_cache = true
}

resource_group "oltp" {
  ru_per_sec = 1000
  users      = ["app@%"]
}
`)
	as := func(account string, want int, args ...string) string {
		t.Helper()
		t.Setenv("TIFORM_DSN", dsn[account])
		code, out, errOut := runIn(t, dir, args...)
		if code != want {
			t.Fatalf("%s account: tiform %s: exit %d, want %d\n%s\n%s", account, strings.Join(args, " "), code, want, out, errOut)
		}
		return out + errOut
	}
	as("plan", 2, "plan", "--detailed-exitcode")
	as("plan", 2, "plan", "--detailed-exitcode", "--format", "json")
	as("plan", 0, "state", "pull", "--out", filepath.Join(t.TempDir(), "snap.json"))
	t.Setenv("TIFORM_DSN", dsn["plan"])
	if out, errOut, code := runCheckCmd(t, "check"); code != 0 {
		t.Fatalf("plan account: check: exit %d\n%s\n%s", code, out, errOut)
	}
	out := as("plan", 1, "apply", "--auto-approve")
	if !strings.Contains(out, "you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s)") || !strings.Contains(out, "Nothing took effect") {
		t.Errorf("the plan account's apply does not name the missing privilege:\n%s", out)
	}
	as("apply", 0, "apply", "--auto-approve")
	as("plan", 0, "plan", "--detailed-exitcode")
}

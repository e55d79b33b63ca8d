package cmd

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// docAccount is an account of docs/workflows.md ("-- account: NAME" blocks):
// its user, password and grants, one privilege on one object each.
type docAccount struct {
	user, password string
	grants         []docGrant
}

type docGrant struct{ priv, on string }

func (g docGrant) String() string { return g.priv + " ON " + g.on }

var (
	identifiedBy = regexp.MustCompile(`^CREATE USER '([^']+)'@'%' IDENTIFIED BY '([^']+)'$`)
	grantStmt    = regexp.MustCompile(`^GRANT (.+) ON (\S+) TO '([^']+)'@'%'$`)
)

// docAccounts reads the SQL blocks of docs/workflows.md that start with
// "-- account: NAME". Each is a CREATE USER and GRANT statements; a grant of
// several privileges is split into one per privilege.
func docAccounts(t *testing.T) map[string]docAccount {
	t.Helper()
	doc, err := os.ReadFile("../docs/workflows.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]docAccount{}
	for _, b := range regexp.MustCompile("(?s)```sql\n-- account: (\\w+)\n(.*?)```").FindAllSubmatch(doc, -1) {
		var a docAccount
		for _, st := range strings.Split(string(b[2]), ";\n") {
			st = strings.TrimSpace(st)
			switch m, g := identifiedBy.FindStringSubmatch(st), grantStmt.FindStringSubmatch(st); {
			case st == "":
			case m != nil:
				a.user, a.password = m[1], m[2]
			case g != nil:
				for _, p := range strings.Split(g[1], ",") {
					a.grants = append(a.grants, docGrant{strings.TrimSpace(p), g[2]})
				}
			default:
				t.Fatalf("account %s: a statement the test does not know: %q", b[1], st)
			}
		}
		out[string(b[1])] = a
	}
	if out["plan"].user == "" || out["apply"].user == "" {
		t.Fatalf("docs/workflows.md has no plan or apply account block: %v", out)
	}
	return out
}

// create makes the account on s with every documented grant but skip (-1:
// all of them), and returns its DSN.
func (a docAccount) create(t *testing.T, s *tidbsimtest.Cluster, skip int) string {
	t.Helper()
	stmts := []string{fmt.Sprintf("CREATE USER '%s'@'%%' IDENTIFIED BY '%s'", a.user, a.password)}
	for i, g := range a.grants {
		if i != skip {
			stmts = append(stmts, fmt.Sprintf("GRANT %s ON %s TO '%s'@'%%'", g.priv, g.on, a.user))
		}
	}
	s.Exec(t, stmts...)
	return s.DSN(a.user, a.password)
}

// names reports whether out names g as missing, as TiDB's errors and
// tiform's notes word it.
func (g docGrant) namedIn(out string) bool {
	if g.on != "*.*" {
		// SELECT ON mysql.user: TiDB's 1142 names the command and the table.
		db, table, _ := strings.Cut(g.on, ".")
		return regexp.MustCompile(fmt.Sprintf(`%s command denied to user '[^']+'@'[^']+' for table '%s'`, g.priv, regexp.QuoteMeta(table))).MatchString(out) && db != ""
	}
	return regexp.MustCompile(`(the|of\)) (\S+ or )?` + regexp.QuoteMeta(g.priv) + `( or \S+)? privilege`).MatchString(out)
}

// privilegeConfig needs every privilege of both accounts: a TiKV key
// (CONFIG), a plan-cache variable (its evidence reads the statement summary:
// PROCESS), a resource group (RESOURCE_GROUP_ADMIN) binding a user (mysql.user,
// CREATE USER).
const privilegeConfig = `
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
`

// privilegeCluster is an emulated cluster (which enforces TiDB's privileges)
// whose statement summary holds the application's statements and one of
// the plan account's own: TiDB records every user's statements, and an
// account without PROCESS sees only its own rows (pingcap/tidb
// pkg/util/stmtsummary, stmtSummaryReader.isAuthed).
func privilegeCluster(t *testing.T, planUser string) *tidbsimtest.Cluster {
	t.Helper()
	return tidbsimtest.StartSeed(t, workloadSeed("plancache-unqualified"), func(o *tidbsim.Options) {
		o.SQL = append(o.SQL, "CREATE USER 'app'@'%'")
		o.StatementsSummary = append(o.StatementsSummary, tidbsim.StatementStat{Columns: map[string]any{
			"SCHEMA_NAME": "", "DIGEST_TEXT": "select version ( )", "SAMPLE_USER": planUser, "EXEC_COUNT": 3, "SUM_LATENCY": 3000000,
		}})
	})
}

// run runs tiform with dsn in $TIFORM_DSN in dir and returns both streams,
// failing unless it exits want (-1: any).
func runAs(t *testing.T, dsn, dir string, want int, args ...string) string {
	t.Helper()
	t.Setenv("TIFORM_DSN", dsn)
	code, out, errOut := runIn(t, dir, args...)
	if want >= 0 && code != want {
		t.Fatalf("tiform %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errOut)
	}
	return out + errOut
}

// planCommands are what the plan account runs, with their exit codes when
// it has every documented grant: plan (pull request, drift, Markdown),
// check, check plan-cache and mvcc, state pull.
func planCommands(t *testing.T, dsn, dir string, exact bool) string {
	t.Helper()
	want := func(code int) int {
		if exact {
			return code
		}
		return -1
	}
	var b strings.Builder
	for _, c := range []struct {
		code int
		args []string
	}{
		{2, []string{"plan", "--detailed-exitcode", "--out", filepath.Join(t.TempDir(), "plan.tfplan")}},
		{2, []string{"plan", "--drift", "--detailed-exitcode"}},
		{0, []string{"plan", "--format", "markdown"}},
		{0, []string{"check"}},
		{0, []string{"check", "plan-cache"}},
		{0, []string{"check", "mvcc"}},
		{0, []string{"state", "pull", "--out", filepath.Join(t.TempDir(), "snap.json")}},
	} {
		b.WriteString(runAs(t, dsn, dir, want(c.code), c.args...))
	}
	return b.String()
}

// applyCommands apply the configuration as CI does (a saved plan made by
// the plan account, planDSN) and from the configuration, each on its own
// new cluster; exact: every apply must succeed and leave nothing to do.
func applyCommands(t *testing.T, acc map[string]docAccount, skip int, dir string, exact bool) string {
	t.Helper()
	want := func(code int) int {
		if exact {
			return code
		}
		return -1
	}
	var b strings.Builder
	saved := privilegeCluster(t, acc["plan"].user)
	planDSN, applyDSN := acc["plan"].create(t, saved, -1), acc["apply"].create(t, saved, skip)
	plan := filepath.Join(t.TempDir(), "plan.tfplan")
	runAs(t, planDSN, dir, 0, "plan", "--out", plan)
	b.WriteString(runAs(t, applyDSN, dir, want(0), "apply", plan))
	b.WriteString(runAs(t, applyDSN, dir, want(0), "plan", "--detailed-exitcode"))
	fresh := privilegeCluster(t, acc["plan"].user)
	applyDSN = acc["apply"].create(t, fresh, skip)
	b.WriteString(runAs(t, applyDSN, dir, want(0), "apply", "--auto-approve"))
	b.WriteString(squattedApply(t, fresh, applyDSN, dir))
	return b.String()
}

// squattedApply runs an apply while a login with no privilege holds the
// apply lock (GET_LOCK needs none): apply refuses, and says who holds it
// when the account may see every session (PROCESS), else that it cannot
// tell without PROCESS (decision 0017).
func squattedApply(t *testing.T, s *tidbsimtest.Cluster, applyDSN, dir string) string {
	t.Helper()
	s.Exec(t, "CREATE USER 'squatter'@'%' IDENTIFIED BY 'Sq-1'")
	db, err := sql.Open("mysql", s.DSN("squatter", "Sq-1"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var got int
	if err := conn.QueryRowContext(t.Context(), "SELECT GET_LOCK('tiform.apply', 1)").Scan(&got); err != nil || got != 1 {
		t.Fatalf("the squatter's GET_LOCK: %d, %v", got, err)
	}
	writeTestFile(t, filepath.Join(dir, "squat.hcl"), "variables {\n  tidb_session_plan_cache_size = 77\n}\n")
	defer os.Remove(filepath.Join(dir, "squat.hcl"))
	return runAs(t, applyDSN, dir, 1, "apply", "--auto-approve", "--lock-timeout", "1s")
}

// TestLeastPrivileges runs every command with exactly the grants of the
// accounts in docs/workflows.md on the emulator, which enforces TiDB's
// privileges: with all of them, the plan account plans (pull request, drift,
// Markdown), checks (guards, plan cache, MVCC) and pulls state, and the apply
// account applies a saved plan and the configuration, and nothing says a
// privilege is missing; without any one of them, tiform names the missing
// privilege. So the documented grants are enough, and only just.
func TestLeastPrivileges(t *testing.T) {
	acc := docAccounts(t)
	t.Setenv("NO_COLOR", "1")
	t.Setenv(auditLogEnv, filepath.Join(t.TempDir(), "audit.log"))
	dir := writeConfig(t, privilegeConfig)
	missing := regexp.MustCompile(`Access denied|command denied|without the \w+ privilege|could not be read`)

	s := privilegeCluster(t, acc["plan"].user)
	planDSN := acc["plan"].create(t, s, -1)
	if out := planCommands(t, planDSN, dir, true); missing.MatchString(out) {
		t.Errorf("the plan account with every documented grant is told of a missing privilege: %q", around(out, missing))
	}
	if out := runAs(t, planDSN, dir, 1, "apply", "--auto-approve"); !strings.Contains(out, "SUPER or SYSTEM_VARIABLES_ADMIN privilege") {
		t.Errorf("the plan account's apply does not name the privilege it lacks:\n%s", out)
	}
	if out := applyCommands(t, acc, -1, dir, true); missing.MatchString(out) {
		t.Errorf("the apply account with every documented grant is told of a missing privilege: %q", around(out, missing))
	}

	for name, a := range acc {
		for i, g := range a.grants {
			t.Run(name+" without "+g.String(), func(t *testing.T) {
				var out string
				if name == "plan" {
					s := privilegeCluster(t, a.user)
					out = planCommands(t, a.create(t, s, i), dir, false)
				} else {
					out = applyCommands(t, acc, i, dir, false)
				}
				if !g.namedIn(out) {
					t.Errorf("without %s, nothing names it:\n%s", g, out)
				}
				if g.priv == "PROCESS" {
					// The pull-request comment's evidence says it too.
					s := privilegeCluster(t, a.user)
					md := runAs(t, a.create(t, s, i), dir, 0, "plan", "--format", "markdown")
					if !strings.Contains(md, "lacks the PROCESS privilege, without which it sees only its own statements") {
						t.Errorf("without PROCESS, the plan comment's evidence does not say it:\n%s", md)
					}
				}
			})
		}
	}
}

// around is the text around re's first match in out, to show in a failure.
func around(out string, re *regexp.Regexp) string {
	loc := re.FindStringIndex(out)
	if loc == nil {
		return ""
	}
	return out[max(0, loc[0]-1500):min(len(out), loc[1]+200)]
}

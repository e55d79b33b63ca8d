package realcluster

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsimtest"
)

// The commands as users run them (cmd.Main in process), on the real
// server: each test starts its own tidb-server.

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func realEnv(t *testing.T) (*tidbsimtest.Real, string) {
	t.Helper()
	r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{})
	t.Setenv("TIFORM_DSN", r.RootDSN())
	t.Setenv("HOME", t.TempDir())
	return r, t.TempDir()
}

// TestImportThenPlan: import of the real server, every variable at its
// value too (--all), then a plan of what was written shows no changes; a
// plan --drift of it reports none; one change behind tiform's back is
// drift, and import --update accepts exactly it.
func TestImportThenPlan(t *testing.T) {
	r, dir := realEnv(t)
	r.Exec(t, "CREATE RESOURCE GROUP rg_oltp RU_PER_SEC = 1000, PRIORITY = HIGH",
		"SET GLOBAL tidb_enable_non_prepared_plan_cache = ON")
	out := filepath.Join(dir, "adopted")
	if code, stdout, stderr := run(t, dir, "import", "--all", "--out", out); code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "main.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`resource_group "rg_oltp"`, "tidb_enable_non_prepared_plan_cache"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the import lacks %s", want)
		}
	}
	for _, readOnly := range []string{"disconnect_on_expired_password", "tidb_stmt_summary_enable_persistent", "performance_schema_session_connect_attrs_size"} {
		if strings.Contains(string(b), readOnly+" ") {
			t.Errorf("the import declares the read-only variable %s", readOnly)
		}
	}
	if code, stdout, stderr := run(t, out, "plan", "--detailed-exitcode"); code != 0 {
		t.Fatalf("plan of the import: exit %d, want 0\n%s\n%s", code, tailLines(stdout, 40), stderr)
	}
	if code, stdout, stderr := run(t, out, "plan", "--drift", "--detailed-exitcode"); code != 0 {
		t.Fatalf("plan --drift of the import: exit %d, want 0\n%s\n%s", code, tailLines(stdout, 40), stderr)
	}
	r.Exec(t, "SET GLOBAL tidb_session_plan_cache_size = 77")
	code, stdout, _ := run(t, out, "plan", "--drift", "--detailed-exitcode")
	if code != 2 || !strings.Contains(stdout, "tidb_session_plan_cache_size") {
		t.Fatalf("drift behind tiform's back: exit %d, want 2 naming the variable\n%s", code, tailLines(stdout, 30))
	}
	if code, stdout, stderr := run(t, out, "import", "--update"); code != 0 {
		t.Fatalf("import --update: exit %d\n%s\n%s", code, stdout, stderr)
	}
	b2, _ := os.ReadFile(filepath.Join(out, "main.hcl"))
	if !strings.Contains(string(b2), "77") || strings.Count(string(b2), "\n") != strings.Count(string(b), "\n") {
		t.Errorf("import --update should rewrite exactly the drifted value:\n%s", diffLines(string(b), string(b2)))
	}
	if code, stdout, stderr := run(t, out, "plan", "--detailed-exitcode"); code != 0 {
		t.Fatalf("plan after import --update: exit %d\n%s\n%s", code, tailLines(stdout, 30), stderr)
	}
}

// diffLines lists the lines of b not in a, for a failure message.
func diffLines(a, b string) string {
	in := map[string]bool{}
	for _, l := range strings.Split(a, "\n") {
		in[l] = true
	}
	var out []string
	for _, l := range strings.Split(b, "\n") {
		if !in[l] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestSavedPlanStaleAndLock: a saved plan applies exactly once the cluster
// is as it was planned; after a change behind tiform's back it is refused
// as stale with nothing sent; while another session holds the apply lock,
// apply waits and then gives up, having sent nothing.
func TestSavedPlanStaleAndLock(t *testing.T) {
	r, dir := realEnv(t)
	writeFile(t, dir, "main.hcl", "variables {\n  tidb_session_plan_cache_size = 120\n}\n")
	plan := filepath.Join(dir, "plan.tfplan")
	if code, stdout, stderr := run(t, dir, "plan", "--out", plan); code != 0 {
		t.Fatalf("plan --out: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// stale: the planned variable changed since
	r.Exec(t, "SET GLOBAL tidb_session_plan_cache_size = 90")
	mark := r.Mark()
	code, stdout, stderr := run(t, dir, "apply", plan)
	if code == 0 || !strings.Contains(stdout+stderr, "stale") {
		t.Fatalf("apply of a stale plan: exit %d, want a refusal naming it stale\n%s\n%s", code, tailLines(stdout, 20), stderr)
	}
	for _, q := range r.Since(mark) {
		if strings.HasPrefix(strings.ToUpper(q), "SET GLOBAL") {
			t.Errorf("a stale plan sent %q", q)
		}
	}

	// the lock: another session holds tiform.apply
	if code, stdout, stderr := run(t, dir, "plan", "--out", plan); code != 0 {
		t.Fatalf("plan --out: exit %d\n%s\n%s", code, stdout, stderr)
	}
	holder, err := sql.Open("mysql", r.RootDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var got int
	if err := conn.QueryRowContext(t.Context(), "SELECT GET_LOCK('tiform.apply', 1)").Scan(&got); err != nil || got != 1 {
		t.Fatalf("GET_LOCK: %d, %v", got, err)
	}
	mark = r.Mark()
	start := time.Now()
	code, stdout, stderr = run(t, dir, "apply", "--lock-timeout", "2s", plan)
	if code == 0 || !strings.Contains(stdout+stderr, "lock") {
		t.Fatalf("apply while the lock is held: exit %d, want a refusal naming the lock\n%s\n%s", code, tailLines(stdout, 20), stderr)
	}
	if time.Since(start) < 2*time.Second {
		t.Errorf("apply gave up before --lock-timeout")
	}
	for _, q := range r.Since(mark) {
		if strings.HasPrefix(strings.ToUpper(q), "SET GLOBAL") {
			t.Errorf("apply sent %q without the lock", q)
		}
	}
	if _, err := conn.ExecContext(t.Context(), "DO RELEASE_LOCK('tiform.apply')"); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := run(t, dir, "apply", plan); code != 0 {
		t.Fatalf("apply once the lock is free: exit %d\n%s\n%s", code, tailLines(stdout, 20), stderr)
	}
	if code, _, _ := run(t, dir, "plan", "--detailed-exitcode"); code != 0 {
		t.Errorf("plan after the apply: exit %d, want 0", code)
	}
}

// TestHostileValuesInEverySQLMode: string values full of quoting
// characters, declared in HCL, applied and read back equal, whatever
// sql_mode the server's sessions start with (tiform's sessions check and
// pin what quoting depends on: decision 0005): ANSI_QUOTES,
// NO_BACKSLASH_ESCAPES, PIPES_AS_CONCAT, and the server's default, through
// the real parser.
func TestHostileValuesInEverySQLMode(t *testing.T) {
	r, dir := realEnv(t)
	values := []string{
		`it's`, `back\slash`, `"double"`, "back`tick", `%_%`, `' OR '1'='1`, `\'; DROP TABLE x; --`,
		"ünïcødé ✓", `${x} %{y}`, `a\nb`,
	}
	modes := []string{"", "ANSI_QUOTES", "NO_BACKSLASH_ESCAPES", "ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT", "ANSI"}
	for _, mode := range modes {
		r.Exec(t, "SET GLOBAL sql_mode = '"+mode+"'")
		for _, v := range values {
			hcl := "variables {\n  authentication_ldap_simple_bind_base_dn = " + hclString(v) + "\n}\n"
			writeFile(t, dir, "main.hcl", hcl)
			if code, stdout, stderr := run(t, dir, "apply", "--auto-approve"); code != 0 {
				t.Fatalf("sql_mode %q, value %q: apply exit %d\n%s\n%s", mode, v, code, tailLines(stdout, 20), stderr)
			}
			var got string
			if err := r.DB().QueryRow("SELECT @@GLOBAL.authentication_ldap_simple_bind_base_dn").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != v {
				t.Errorf("sql_mode %q: declared %q, the server holds %q", mode, v, got)
			}
			if code, stdout, _ := run(t, dir, "plan", "--detailed-exitcode"); code != 0 {
				t.Errorf("sql_mode %q, value %q: re-plan exit %d\n%s", mode, v, code, tailLines(stdout, 20))
			}
		}
	}
}

// hclString is v as an HCL quoted string (escapes and template sequences).
func hclString(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "${", "$${", "%{", "%%{")
	return `"` + r.Replace(v) + `"`
}

// TestDottedVariables: the password policy variables have a dot in their
// names (https://docs.pingcap.com/tidb/stable/password-management); they
// are declared as a block in variables, applied, read back and re-planned
// with no changes.
func TestDottedVariables(t *testing.T) {
	r, dir := realEnv(t)
	writeFile(t, dir, "main.hcl", "variables {\n  validate_password {\n    enable = true\n    length = 12\n  }\n}\n")
	mark := r.Mark()
	if code, stdout, stderr := run(t, dir, "apply", "--auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, tailLines(stdout, 20), stderr)
	}
	if n := countPrefix(r.Since(mark), "SET GLOBAL validate_password."); n != 2 {
		t.Errorf("%d SET GLOBAL validate_password.* statements, want 2: %q", n, r.Since(mark))
	}
	var enable, length string
	if err := r.DB().QueryRow("SELECT @@GLOBAL.validate_password.enable, @@GLOBAL.validate_password.length").Scan(&enable, &length); err != nil {
		t.Fatal(err)
	}
	if enable != "1" || length != "12" {
		t.Errorf("the server holds enable=%s length=%s", enable, length)
	}
	if code, stdout, _ := run(t, dir, "plan", "--detailed-exitcode"); code != 0 {
		t.Errorf("re-plan: exit %d\n%s", code, tailLines(stdout, 20))
	}
}

func countPrefix(stmts []string, prefix string) int {
	n := 0
	for _, q := range stmts {
		if strings.HasPrefix(q, prefix) {
			n++
		}
	}
	return n
}

// TestSecureOnlyValue: require_secure_transport = ON is refused at plan time
// over a plain connection (the server would refuse it half-way through an
// apply), and applied over TLS, where the server takes it.
func TestSecureOnlyValue(t *testing.T) {
	r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{TLS: true})
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", "variables {\n  require_secure_transport = true\n}\n")

	t.Setenv("TIFORM_DSN", r.RootDSN())
	code, stdout, stderr := run(t, dir, "plan")
	if code != 1 || !strings.Contains(stdout+stderr, "over a connection without TLS") {
		t.Fatalf("plan over a plain connection: exit %d, want the refusal\n%s\n%s", code, stdout, stderr)
	}

	t.Setenv("TIFORM_DSN", r.RootDSN()+"&tls=skip-verify")
	if code, stdout, stderr := run(t, dir, "apply", "--auto-approve"); code != 0 {
		t.Fatalf("apply over TLS: exit %d\n%s\n%s", code, tailLines(stdout, 20), stderr)
	}
	if code, stdout, _ := run(t, dir, "plan", "--detailed-exitcode"); code != 0 {
		t.Errorf("re-plan over TLS: exit %d\n%s", code, tailLines(stdout, 20))
	}
}

package cmd

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/schema"
)

// Resource groups and the accounts bound to them through `tiform plan`,
// `apply` and `import` (Main, in-process: the commands' own code path)
// against every backend with a SQL layer: the emulator and the upstream
// tidb-server (internal/tidbsimtest.Each). Every step re-plans with no
// changes and is checked by a direct read of INFORMATION_SCHEMA.

// groupBackend is one backend with a tiform working directory.
type groupBackend struct {
	b   tidbsimtest.Backend
	db  *sql.DB
	dir string
}

func startGroupBackend(t *testing.T, b tidbsimtest.Backend) *groupBackend {
	t.Helper()
	db, err := sql.Open("mysql", b.RootDSN())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	t.Setenv("TIFORM_DSN", b.RootDSN())
	t.Setenv("NO_COLOR", "1")
	return &groupBackend{b: b, db: db, dir: t.TempDir()}
}

// converge writes hcl, applies it and asserts that the next plan has no
// changes; it returns apply's output.
func (g *groupBackend) converge(t *testing.T, hcl string) string {
	t.Helper()
	g.write(t, hcl)
	code, out, errOut := runIn(t, g.dir, "apply", "--auto-approve", "--audit-log", filepath.Join(g.dir, "audit.log"))
	if code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errOut)
	}
	g.noChanges(t)
	return out
}

func (g *groupBackend) write(t *testing.T, hcl string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(g.dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (g *groupBackend) noChanges(t *testing.T) {
	t.Helper()
	if code, out, errOut := runIn(t, g.dir, "plan", "--detailed-exitcode"); code != 0 || !strings.Contains(out, "No changes.") {
		t.Fatalf("plan: exit %d, want 0 and no changes\n%s\n%s", code, out, errOut)
	}
}

// groups reads INFORMATION_SCHEMA.RESOURCE_GROUPS as the server prints it:
// name → "RU_PER_SEC|PRIORITY|BURSTABLE|QUERY_LIMIT|BACKGROUND".
func (g *groupBackend) groups(t *testing.T) map[string]string {
	t.Helper()
	rows, err := g.db.Query("SELECT NAME, RU_PER_SEC, PRIORITY, BURSTABLE, IFNULL(QUERY_LIMIT, 'NULL'), IFNULL(BACKGROUND, 'NULL') FROM INFORMATION_SCHEMA.RESOURCE_GROUPS")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, ru, prio, burst, ql, bg string
		if err := rows.Scan(&name, &ru, &prio, &burst, &ql, &bg); err != nil {
			t.Fatal(err)
		}
		out[name] = strings.Join([]string{ru, prio, burst, ql, bg}, "|")
	}
	return out
}

// bindings reads the group each account is bound to from mysql.user.
func (g *groupBackend) bindings(t *testing.T) map[string]string {
	t.Helper()
	rows, err := g.db.Query("SELECT User, Host, IFNULL(JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')), '') FROM mysql.user")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var u, h, rg string
		if err := rows.Scan(&u, &h, &rg); err != nil {
			t.Fatal(err)
		}
		out[u+"@"+h] = rg
	}
	return out
}

// burst is how the backend prints a burst: YES/NO on a TiDB without burst
// modes (tidb-server at e4e814fdc0af, the emulator at v8.5.1), else the mode,
// as its default group (burstable, unlimited) shows.
func (g *groupBackend) burst(t *testing.T, on bool) string {
	t.Helper()
	var def string
	if err := g.db.QueryRow("SELECT BURSTABLE FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = 'default'").Scan(&def); err != nil {
		t.Fatal(err)
	}
	switch {
	case def == "YES" && on:
		return "YES"
	case def == "YES":
		return "NO"
	case on:
		return "UNLIMITED"
	}
	return "OFF"
}

// TestRealGroupNames: names as TiDB accepts them (any quoted identifier of at
// most 32 bytes once lower-cased: dashes, dots, spaces, reserved words,
// non-ASCII, a trailing space that makes another group) plan, apply and
// re-plan clean; case folds as the server folds it; at the 32-byte boundary
// tiform refuses exactly what the server refuses.
func TestRealGroupNames(t *testing.T) {
	tidbsimtest.Each(t, tidbsimtest.Needs{}, tidbsim.Options{}, func(t *testing.T, b tidbsimtest.Backend) {
		g := startGroupBackend(t, b)
		// A group created behind tiform's back in another case is the
		// declared one: RG1 and rg1 are one group.
		b.Exec(t, "CREATE RESOURCE GROUP `Rg1` RU_PER_SEC = 100")
		out := g.converge(t, `
resource_group "rg-with-dash" { ru_per_sec = 100 }
resource_group "RG1"          { ru_per_sec = 100 }
resource_group "ÉTÉ"          { ru_per_sec = 100 }
resource_group "select"       { ru_per_sec = 100 }
resource_group "a.b c"        { ru_per_sec = 100 }
resource_group "trail"        { ru_per_sec = 100 }
resource_group "trail "       { ru_per_sec = 200 }
resource_group "ⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥ"   { ru_per_sec = 100 }
resource_group "a2345678901234567890123456789012" {
  ru_per_sec = 100
  query_limit {
    exec_elapsed = "1s"
    action       = "SWITCH_GROUP(rg-with-dash)"
  }
}
`)
		for _, want := range []string{"CREATE RESOURCE GROUP `rg-with-dash` RU_PER_SEC = 100", `resource_group."trail "`,
			"ACTION = SWITCH_GROUP(`rg-with-dash`)"} {
			if !strings.Contains(out, want) {
				t.Errorf("apply output lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "+ resource_group.rg1") {
			t.Errorf("rg1 existed as Rg1 and was planned again:\n%s", out)
		}
		got := g.groups(t)
		for _, name := range []string{"rg-with-dash", "rg1", "été", "select", "a.b c", "trail", "trail ", "ⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥ", "a2345678901234567890123456789012"} {
			if _, ok := got[name]; !ok {
				t.Errorf("RESOURCE_GROUPS has no %q: %v", name, got)
			}
		}
		if !strings.HasPrefix(got["trail "], "200|") || !strings.HasPrefix(got["trail"], "100|") {
			t.Errorf(`"trail" and "trail " are two groups: %q, %q`, got["trail"], got["trail "])
		}
		// Hostile names (cmd/hostile_test.go's values) short enough to be
		// names reach the server as exactly themselves, lower-cased, in
		// both sql_modes (tiform's sessions turn NO_BACKSLASH_ESCAPES off).
		for _, mode := range []string{"NO_BACKSLASH_ESCAPES", ""} {
			b.Exec(t, "SET GLOBAL sql_mode = '"+mode+"'")
			var src strings.Builder
			var names []string
			prefix := "d" // a group per mode
			if mode != "" {
				prefix = "n"
			}
			for _, v := range hostileValues {
				v = prefix + v
				if p, _ := schema.GroupNameProblem(v); p == "" && !slices.Contains(names, strings.ToLower(v)) {
					names = append(names, strings.ToLower(v))
					fmt.Fprintf(&src, "resource_group %s {\n  ru_per_sec = 10\n}\n", hclString(v))
				}
			}
			if len(names) < 10 {
				t.Fatalf("only %d hostile names", len(names))
			}
			g.converge(t, src.String())
			got := g.groups(t)
			for _, n := range names {
				if _, ok := got[n]; !ok {
					t.Errorf("sql_mode %q: no group named %q", mode, n)
				}
			}
		}
		if b.IsReal() {
			// The boundary, asked of the server itself: 32 bytes once
			// lower-cased is a name, 33 is not (Ⱥ is 2 bytes, ⱥ 3).
			for name, ok := range map[string]bool{strings.Repeat("ⱥ", 10) + "xx": true, strings.Repeat("Ⱥ", 11): false, strings.Repeat("x", 33): false} {
				_, err := g.db.Exec("CREATE RESOURCE GROUP `" + name + "` RU_PER_SEC = 1")
				if (err == nil) != ok || (err != nil && !strings.Contains(err.Error(), "resource group name too long")) {
					t.Errorf("server: CREATE %q: %v, want accepted=%v", name, err, ok)
				}
				g.write(t, fmt.Sprintf("resource_group %q {\n  ru_per_sec = 1\n}\n", name))
				code, _, errOut := runIn(t, g.dir, "validate")
				if (code == 0) != ok {
					t.Errorf("tiform validate %q: exit %d, want accepted=%v\n%s", name, code, ok, errOut)
				}
				if !ok && !strings.Contains(errOut, "main.hcl:1:16: error: invalid resource group name") {
					t.Errorf("tiform validate %q: no located diagnostic:\n%s", name, errOut)
				}
			}
		}
	})
}

// TestRealGroupOptions: every option the server supports, created, changed
// in place and dropped, each step re-planned with no changes and read back
// as the server prints it.
func TestRealGroupOptions(t *testing.T) {
	tidbsimtest.Each(t, tidbsimtest.Needs{}, tidbsim.Options{}, func(t *testing.T, b tidbsimtest.Backend) {
		g := startGroupBackend(t, b)
		yes, no := g.burst(t, true), g.burst(t, false)
		b.Exec(t, "CREATE RESOURCE GROUP bu RU_PER_SEC = 100, BURSTABLE = FALSE")
		g.converge(t, `
resource_group "oltp" {
  ru_per_sec = 500
  priority   = "high"
  burstable  = true
}
resource_group "batch" {
  ru_per_sec = 100
  priority   = "LOW"
  burstable  = false
  query_limit {
    exec_elapsed   = "60s"
    action         = "KILL"
    watch          = "SIMILAR"
    watch_duration = "10m"
  }
}
resource_group "q-switch" {
  ru_per_sec = 200
  query_limit {
    processed_keys = 1000
    ru             = 500
    action         = "SWITCH_GROUP"
    switch_group   = "batch"
    watch          = "PLAN"
  }
}
resource_group "dryrun" {
  ru_per_sec = 100
  query_limit {
    exec_elapsed = "1500ms"
    action       = "DRYRUN"
    watch        = "EXACT"
  }
}
resource_group "unl" {
  ru_per_sec = "UNLIMITED"
  burstable  = false
}
resource_group "bu" {
  ru_per_sec = 100
  burstable  = false
}
resource_group "default" {
  background {
    task_types        = ["br", "ddl", "lightning"]
    utilization_limit = 30
  }
}
`)
		want := map[string]string{
			"oltp":     "500|HIGH|" + yes + "|NULL|NULL",
			"batch":    "100|LOW|" + no + "|EXEC_ELAPSED='1m0s', ACTION=KILL, WATCH=SIMILAR DURATION='10m0s'|NULL",
			"q-switch": "200|MEDIUM|" + no + "|PROCESSED_KEYS=1000, RU=500, ACTION=SWITCH_GROUP(batch), WATCH=PLAN DURATION=UNLIMITED|NULL",
			"dryrun":   "100|MEDIUM|" + no + "|EXEC_ELAPSED='1.5s', ACTION=DRYRUN, WATCH=EXACT DURATION=UNLIMITED|NULL",
			"unl":      "UNLIMITED|MEDIUM|" + no + "|NULL|NULL",
			"bu":       "100|MEDIUM|" + no + "|NULL|NULL",
			"default":  "UNLIMITED|MEDIUM|" + yes + "|NULL|TASK_TYPES='br,ddl,lightning', UTILIZATION_LIMIT=30",
		}
		g.expectGroups(t, want)

		// Changed in place: RU_PER_SEC = UNLIMITED makes a group burstable on
		// the server, so the declared burstable = false is sent after it.
		out := g.converge(t, `
resource_group "oltp" {
  ru_per_sec = 800
  priority   = "MEDIUM"
  burstable  = false
}
resource_group "batch" {
  ru_per_sec = 100
  priority   = "LOW"
  burstable  = false
  query_limit {}
}
resource_group "q-switch" {
  ru_per_sec = 200
  query_limit {
    processed_keys = 1000
    action         = "COOLDOWN"
  }
}
resource_group "dryrun" {
  ru_per_sec = 100
  query_limit {
    exec_elapsed = "1500ms"
    action       = "DRYRUN"
    watch        = "EXACT"
  }
}
resource_group "unl" {
  ru_per_sec = 300
  burstable  = false
}
resource_group "bu" {
  ru_per_sec = "UNLIMITED"
  burstable  = false
}
resource_group "default" {
  background {
    utilization_limit = 50
  }
}
`)
		if !strings.Contains(out, "ALTER RESOURCE GROUP `bu` RU_PER_SEC = UNLIMITED, BURSTABLE") {
			t.Errorf("the burst is not restated after RU_PER_SEC = UNLIMITED:\n%s", out)
		}
		want["oltp"] = "800|MEDIUM|" + no + "|NULL|NULL"
		want["batch"] = "100|LOW|" + no + "|NULL|NULL"
		want["q-switch"] = "200|MEDIUM|" + no + "|PROCESSED_KEYS=1000, ACTION=COOLDOWN|NULL"
		want["unl"] = "300|MEDIUM|" + no + "|NULL|NULL"
		want["bu"] = "UNLIMITED|MEDIUM|" + no + "|NULL|NULL"
		want["default"] = "UNLIMITED|MEDIUM|" + yes + "|NULL|UTILIZATION_LIMIT=50"
		g.expectGroups(t, want)

		// Dropped: the groups no longer declared, with the policy that
		// drops them; the default group's background removed.
		g.converge(t, `
unmanaged_resource_groups = "drop"
resource_group "oltp" {
  ru_per_sec = 800
}
resource_group "default" {
  background {
    task_types = []
  }
}
`)
		g.expectGroups(t, map[string]string{
			"oltp":    "800|MEDIUM|" + no + "|NULL|NULL",
			"default": "UNLIMITED|MEDIUM|" + yes + "|NULL|NULL",
		})

		if b.IsReal() {
			// This server shows YES/NO: a burst mode is refused at plan time,
			// before anything is sent, with the reason.
			g.write(t, "resource_group \"oltp\" {\n  ru_per_sec = 800\n  burstable  = \"MODERATED\"\n}\n")
			code, out, errOut := runIn(t, g.dir, "plan")
			if code == 0 || !strings.Contains(out+errOut, "burstable = MODERATED needs a TiDB with burst modes") || !strings.Contains(out+errOut, "main.hcl:1:") {
				t.Errorf("plan of a burst mode on a YES/NO server: exit %d\n%s\n%s", code, out, errOut)
			}
		}
	})
}

// expectGroups compares RESOURCE_GROUPS with want (every row: the server's
// own groups are in want too).
func (g *groupBackend) expectGroups(t *testing.T, want map[string]string) {
	t.Helper()
	got := g.groups(t)
	var diffs []string
	for name, w := range want {
		if got[name] != w {
			diffs = append(diffs, fmt.Sprintf("%s: got %q, want %q", name, got[name], w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: unexpected %q", name, got[name]))
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 0 {
		t.Errorf("RESOURCE_GROUPS differs:\n%s", strings.Join(diffs, "\n"))
	}
}

// TestRealGroupUsers: accounts created with and bound by CREATE USER …
// RESOURCE GROUP and ALTER USER behind tiform's back, then bound, moved and
// unbound through tiform; a group dropped while accounts are bound to it
// (apply unbinds them first: TiDB refuses to drop a group in use).
func TestRealGroupUsers(t *testing.T) {
	tidbsimtest.Each(t, tidbsimtest.Needs{}, tidbsim.Options{}, func(t *testing.T, b tidbsimtest.Backend) {
		g := startGroupBackend(t, b)
		b.Exec(t,
			"CREATE RESOURCE GROUP `rg-with-dash` RU_PER_SEC = 100",
			"CREATE RESOURCE GROUP old RU_PER_SEC = 100",
			"CREATE USER app IDENTIFIED BY 'x'",
			"CREATE USER 'rep'@'10.0.%' RESOURCE GROUP `RG-WITH-DASH`",
			"CREATE USER api RESOURCE GROUP old",
			"CREATE USER spare")
		g.converge(t, `
resource_group "rg-with-dash" {
  ru_per_sec = 100
  users      = ["app@%", "rep@10.0.%"]
}
resource_group "batch" {
  ru_per_sec = 50
  users      = ["spare@%"]
}
`)
		want := map[string]string{"app@%": "rg-with-dash", "rep@10.0.%": "rg-with-dash", "spare@%": "batch", "api@%": "old"}
		g.expectBindings(t, want)

		// Moved and unbound; the group old dropped while api is bound to it.
		g.converge(t, `
unmanaged_resource_groups = "drop"
resource_group "rg-with-dash" {
  ru_per_sec = 100
  users      = ["rep@10.0.%"]
}
resource_group "batch" {
  ru_per_sec = 50
  users      = ["app@%", "spare@%"]
}
`)
		want = map[string]string{"app@%": "batch", "rep@10.0.%": "rg-with-dash", "spare@%": "batch", "api@%": "default"}
		g.expectBindings(t, want)
		if _, ok := g.groups(t)["old"]; ok {
			t.Error("group old was not dropped")
		}
	})
}

func (g *groupBackend) expectBindings(t *testing.T, want map[string]string) {
	t.Helper()
	got := g.bindings(t)
	for acct, w := range want {
		if got[acct] != w {
			t.Errorf("%s is bound to %q, want %q (all: %v)", acct, got[acct], w, got)
		}
	}
}

// TestRealImportGroups: a server's groups, every option, and its bound
// accounts, made behind tiform's back, imported by `tiform import`, then
// planned with no changes.
func TestRealImportGroups(t *testing.T) {
	tidbsimtest.Each(t, tidbsimtest.Needs{}, tidbsim.Options{}, func(t *testing.T, b tidbsimtest.Backend) {
		g := startGroupBackend(t, b)
		b.Exec(t,
			"CREATE RESOURCE GROUP `rg-with-dash` RU_PER_SEC = 500, PRIORITY = HIGH, BURSTABLE",
			"CREATE RESOURCE GROUP `Batch Jobs` RU_PER_SEC = 100, PRIORITY = LOW, QUERY_LIMIT = (EXEC_ELAPSED = '90s', ACTION = SWITCH_GROUP(`rg-with-dash`), WATCH = EXACT DURATION = '1h')",
			"CREATE RESOURCE GROUP `été` RU_PER_SEC = UNLIMITED, BURSTABLE = FALSE, QUERY_LIMIT = (PROCESSED_KEYS = 10, RU = 5, ACTION = COOLDOWN)",
			"ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'stats,br', UTILIZATION_LIMIT = 40)",
			"CREATE USER app RESOURCE GROUP `RG-With-Dash`",
			"CREATE USER 'etl'@'10.%' RESOURCE GROUP `Batch Jobs`")
		out := filepath.Join(g.dir, "imported")
		args := []string{"import", "--dsn", b.RootDSN(), "--out", out}
		if b.IsReal() {
			// unistore's TiKV has no status address, so its config cannot
			// be read; groups and users do not need it.
			args = append(args, "--allow-partial")
		}
		code, o, e := runIn(t, g.dir, args...)
		if code != 0 {
			t.Fatalf("import: exit %d\n%s\n%s", code, o, e)
		}
		code, o, e = runIn(t, out, "plan", "--detailed-exitcode")
		if code != 0 || !strings.Contains(o, "No changes.") {
			t.Fatalf("plan after import: exit %d, want 0 and no changes\n%s\n%s", code, o, e)
		}
		hcl, err := os.ReadFile(filepath.Join(out, "main.hcl"))
		if err != nil {
			entries, _ := os.ReadDir(out)
			t.Fatalf("%v (files: %v)", err, entries)
		}
		for _, want := range []string{`resource_group "rg-with-dash"`, `resource_group "batch jobs"`, `resource_group "été"`,
			`switch_group   = "rg-with-dash"`, `"app@%"`, `"etl@10.%"`, `utilization_limit = 40`} {
			if !strings.Contains(string(hcl), want) {
				t.Errorf("imported configuration lacks %s:\n%s", want, hcl)
			}
		}
	})
}

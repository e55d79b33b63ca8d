package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/schema"
)

// hostileValues are values crafted to end a string literal early, smuggle a
// second statement, or change how the server lexes the literal.
var hostileValues = []string{
	`it's`,
	`a\b`,
	`\`,
	`\'`,
	`'\`,
	`x'; DROP USER root; --`,
	`x' OR '1'='1`,
	`a\'; GRANT ALL PRIVILEGES ON *.* TO 'evil'@'%'; --`,
	`\\'\\'; SET GLOBAL tidb_gc_enable = OFF; #`,
	`say "hi"`,
	"`tick`; DROP RESOURCE GROUP `default`",
	"line one\nline two",
	"cr\rlf",
	"nul\x00byte",
	"esc\x1b[2J\x1b]0;title\x07",
	`100%_\%\_`,
	"日本語' \u202egnp.exe",
	"/* c */ */ /*",
	"-- c\n#c",
	`'''''`,
	`\\\\\\`,
	`\N`,
	`\Z\0\n`,
	`${x} and %{y}`,
	strings.Repeat(`'\`, 2000),
}

// hostileCase is one hostile configuration: either refused with a
// diagnostic before anything is changed, or applied as exactly `statements`
// change statements whose effect check confirms.
type hostileCase struct {
	name  string
	files map[string]string
	args  []string
	env   map[string]string
	// check reads the cluster back after apply; nil means the input must be
	// refused (exit 1, a diagnostic, no change statement sent).
	check      func(t *testing.T, c *tidbsimtest.Cluster)
	statements int // change statements expected (default 1)
	refusal    string
}

// hclString writes s as an HCL quoted string literal.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r)
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// readOne runs q in a session with the default sql_mode (the test's own
// literals hold no backslash, but the session is pinned anyway).
func readOne(t *testing.T, c *tidbsimtest.Cluster, q string) []string {
	t.Helper()
	s := c.NewSession("root")
	if _, err := s.Exec("SET SESSION sql_mode = ''"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Exec(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, r := range res.Rows {
		out = append(out, r[len(r)-1].S)
	}
	return out
}

func wantVariable(value string) func(*testing.T, *tidbsimtest.Cluster) {
	return func(t *testing.T, c *tidbsimtest.Cluster) {
		if got := readOne(t, c, "SELECT @@GLOBAL.x_hostile"); len(got) != 1 || got[0] != value {
			t.Errorf("x_hostile = %q, want %q", got, value)
		}
	}
}

func wantConfig(value string) func(*testing.T, *tidbsimtest.Cluster) {
	return func(t *testing.T, c *tidbsimtest.Cluster) {
		got := readOne(t, c, "SELECT VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'tikv' AND `KEY` = 'x.hostile'")
		if len(got) == 0 {
			t.Fatal("x.hostile not read back")
		}
		for _, g := range got {
			if g != value {
				t.Errorf("tikv x.hostile = %q, want %q", g, value)
			}
		}
	}
}

// wantGroup: a group of exactly this name exists (names are compared in Go,
// not by the server's PAD SPACE collation).
func wantGroup(name string) func(*testing.T, *tidbsimtest.Cluster) {
	return func(t *testing.T, c *tidbsimtest.Cluster) {
		if got := readOne(t, c, "SELECT NAME FROM INFORMATION_SCHEMA.RESOURCE_GROUPS"); !slices.Contains(got, name) {
			t.Errorf("no group named %q in %q", name, got)
		}
	}
}

func wantQueryLimit(group, want string) func(*testing.T, *tidbsimtest.Cluster) {
	return func(t *testing.T, c *tidbsimtest.Cluster) {
		if got := readOne(t, c, "SELECT QUERY_LIMIT FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = "+quote.String(group)); len(got) != 1 || got[0] != want {
			t.Errorf("%s QUERY_LIMIT = %q, want %q", group, got, want)
		}
	}
}

func wantBinding(user, group string) func(*testing.T, *tidbsimtest.Cluster) {
	return func(t *testing.T, c *tidbsimtest.Cluster) {
		got := readOne(t, c, "SELECT User, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user WHERE User = "+quote.String(user))
		if len(got) != 1 || got[0] != group {
			t.Errorf("%s is bound to %q, want %q", user, got, group)
		}
	}
}

func hostileCases() []hostileCase {
	var cases []hostileCase
	for i, v := range hostileValues {
		lit := hclString(v)
		value := strings.TrimSpace(v) // values are compared and sent trimmed
		config := hostileCase{name: fmt.Sprintf("config value %d", i), files: map[string]string{"main.hcl": "tikv {\n  x {\n    hostile = " + lit + "\n  }\n}\n"},
			check: wantConfig(value)}
		if strings.HasPrefix(value, `"`) || strings.HasSuffix(value, `"`) {
			// TiKV trims the quotes off (to_change_value): refused at plan time.
			config.check, config.refusal = nil, "double quote"
		}
		cases = append(cases,
			hostileCase{name: fmt.Sprintf("variable value %d", i), files: map[string]string{"main.hcl": "variables {\n  x_hostile = " + lit + "\n}\n"},
				check: wantVariable(value)},
			config,
		)
	}
	refused := func(name, src, why string) hostileCase {
		return hostileCase{name: name, files: map[string]string{"main.hcl": src}, refusal: why}
	}
	// Group names: TiDB accepts any quoted identifier of at most 32 bytes
	// once lower-cased, so each hostile value that short reaches the cluster
	// as exactly itself, lower-cased; a longer one is refused.
	for i, v := range hostileValues {
		src := "resource_group " + hclString(v) + " {\n  ru_per_sec = 10\n}\n"
		if problem, _ := schema.GroupNameProblem(v); problem != "" {
			cases = append(cases, refused(fmt.Sprintf("group name %d", i), src, "invalid resource group name"))
			continue
		}
		cases = append(cases, hostileCase{name: fmt.Sprintf("group name %d", i), files: map[string]string{"main.hcl": src},
			check: wantGroup(strings.ToLower(v))})
	}
	cases = append(cases,
		// Names and keys: never quoted into SQL unchecked.
		refused("variable name with a quote", "variables {\n  \"x'y\" = 1\n}\n", "error"),
		refused("variable name with a backtick", "variables {\n  \"x`y\" = 1\n}\n", "error"),
		refused("variable name with a statement", "variables {\n  \"x = 1; DROP USER root; --\" = 1\n}\n", "error"),
		refused("config key with a backtick", "tikv {\n  settings = { \"a`b\" = 1 }\n}\n", "error"),
		refused("config key with a quote", "tikv {\n  settings = { \"a'b.c\" = 1 }\n}\n", "error"),
		refused("config key with a space", "tikv {\n  settings = { \"a b\" = 1 }\n}\n", "error"),
		refused("instance address with a quote", "tikv \"127.0.0.1:20160' OR '1\" {\n  x {\n    hostile = \"v\"\n  }\n}\n", "error"),
		refused("cluster name with a quote", "cluster \"a'b\" {\n  dsn = env(\"PROD_DSN\")\n}\n", "error"),
		// Resource groups and their options.
		refused("exec_elapsed with a statement", "resource_group \"g\" {\n  ru_per_sec = 10\n  query_limit {\n    exec_elapsed = \"10s'; DROP USER root; --\"\n    action = \"KILL\"\n  }\n}\n", "error"),
		// A group name is any identifier TiDB accepts (schema.GroupNameProblem),
		// quoted by quote.Ident wherever it is sent.
		hostileCase{name: "switch_group with a quote and a backtick", files: map[string]string{"main.hcl": "resource_group \"g\" {\n  ru_per_sec = 10\n  query_limit {\n    exec_elapsed = \"10s\"\n    action = \"SWITCH_GROUP\"\n    switch_group = \"a'b`c\"\n  }\n}\n"},
			check: wantQueryLimit("g", "EXEC_ELAPSED='10s', ACTION=SWITCH_GROUP(a'b`c)")},
		refused("priority with a statement", "resource_group \"g\" {\n  ru_per_sec = 10\n  priority = \"HIGH; DROP USER root\"\n}\n", "error"),
		refused("ru_per_sec as text", "resource_group \"g\" {\n  ru_per_sec = \"100; DROP USER root\"\n}\n", "error"),
		refused("task_types with a quote", "resource_group \"default\" {\n  background {\n    task_types = [\"br', 'x\"]\n  }\n}\n", "error"),
		refused("a user with a quote", "resource_group \"g\" {\n  ru_per_sec = 10\n  users = [\"o'brien@%\"]\n}\n", "error"),
		refused("a user with a backtick", "resource_group \"g\" {\n  ru_per_sec = 10\n  users = [\"a`b@%\"]\n}\n", "error"),
		refused("a host with a space", "resource_group \"g\" {\n  ru_per_sec = 10\n  users = [\"app@10.0.0.% OR 1\"]\n}\n", "error"),
		// A user name with a backslash exists: bound with one ALTER USER.
		hostileCase{name: "a user with a backslash", files: map[string]string{"main.hcl": "resource_group \"rg_hostile\" {\n  ru_per_sec = 10\n  users = [" + hclString(`back\slash@%`) + "]\n}\n"},
			statements: 2, check: wantBinding(`back\slash`, "rg_hostile")},
		// --var, env() and file() deliver the same hostile text.
		hostileCase{name: "--var value", files: map[string]string{"main.hcl": "variable \"v\" {}\nvariables {\n  x_hostile = var.v\n}\n"},
			args: []string{"--var", `v=x\'; DROP USER root; --`}, check: wantVariable(`x\'; DROP USER root; --`)},
		refused("--var number with a statement", "variable \"v\" {\n  type = number\n}\nvariables {\n  tidb_auto_analyze_ratio = var.v\n}\n", "error"),
		hostileCase{name: "env() allowed", files: map[string]string{"main.hcl": "variables {\n  x_hostile = env(\"HOSTILE\")\n}\n"},
			args: []string{"--allow-env", "HOSTILE"}, env: map[string]string{"HOSTILE": `e\'; GRANT ALL ON *.* TO x; --`},
			check: wantVariable(`e\'; GRANT ALL ON *.* TO x; --`)},
		refused("env() not allowed", "variables {\n  x_hostile = env(\"HOSTILE\")\n}\n", "may not read environment variable HOSTILE"),
		hostileCase{name: "file() inside", files: map[string]string{"main.hcl": "variables {\n  x_hostile = file(\"v.txt\")\n}\n", "v.txt": "f\\'; DROP USER root; --\n"},
			check: wantVariable("f\\'; DROP USER root; --")},
		refused("file() outside", "variables {\n  x_hostile = file(\"../../etc/passwd\")\n}\n", `a path with ".."`),
		// sql_mode set by tiform itself: applied last; the value before it is
		// still written correctly.
		hostileCase{name: "sql_mode with NO_BACKSLASH_ESCAPES and a backslash value", files: map[string]string{"main.hcl": "variables {\n  sql_mode  = \"NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES\"\n  x_hostile = " + hclString(`after\'mode`) + "\n}\n"},
			statements: 2, check: wantVariable(`after\'mode`)},
	)
	return cases
}

// TestHostileInputs: every hostile input is either refused with a
// diagnostic, sending nothing, or reaches the cluster as exactly the expected
// change statements, whose effect reads back as exactly the input: so every
// literal was escaped correctly. The whole table runs twice: with the
// server's GLOBAL sql_mode at its default and with NO_BACKSLASH_ESCAPES (which
// tiform's sessions turn off for themselves).
func TestHostileInputs(t *testing.T) {
	cases := hostileCases()
	if len(cases) < 60 {
		t.Fatalf("%d hostile inputs, the bar is 60", len(cases))
	}
	for _, mode := range []string{"", "NO_BACKSLASH_ESCAPES"} {
		name := "default sql_mode"
		if mode != "" {
			name = mode
		}
		t.Run(name, func(t *testing.T) {
			c := tidbsimtest.Start(t, tidbsim.Options{
				NewerVariables: []tidbsim.NewerVariable{{Name: "x_hostile", Type: "string", Default: ""}},
				NewerConfig:    []tidbsim.NewerConfigItem{{Type: "tikv", Name: "x.hostile", Kind: "string", Default: ""}},
				SQL: []string{
					"CREATE USER " + quote.Account(`back\slash`, "%"),
					"SET GLOBAL sql_mode = '" + mode + "'",
				},
			})
			t.Setenv("TIFORM_DSN", c.RootDSN())
			t.Setenv("TIFORM_AUDIT_LOG", filepath.Join(t.TempDir(), "audit.log"))
			t.Setenv("NO_COLOR", "1")
			t.Setenv("PROD_DSN", c.RootDSN())
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) { runHostile(t, c, tc, mode) })
			}
		})
	}
}

// changeStatements are the statements that change a cluster.
var changeStatements = []string{"SET GLOBAL", "SET CONFIG", "CREATE", "ALTER", "DROP", "GRANT", "REVOKE", "SET PASSWORD", "RENAME"}

func isChange(q string) bool {
	u := strings.ToUpper(strings.TrimSpace(q))
	for _, p := range changeStatements {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

func runHostile(t *testing.T, c *tidbsimtest.Cluster, tc hostileCase, mode string) {
	dir := t.TempDir()
	for name, content := range tc.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range tc.env {
		t.Setenv(k, v)
	}
	// The server's mode for this run (a case managing sql_mode changes it).
	c.Exec(t, "SET GLOBAL sql_mode = '"+mode+"'")
	mark := c.Mark()
	code, out := tiform(t, append([]string{"apply", "--chdir", dir, "--auto-approve"}, tc.args...)...)
	var changes []string
	for _, q := range c.Since(mark) {
		if isChange(q) {
			changes = append(changes, q)
		}
	}
	if tc.check == nil {
		if code != 1 || !strings.Contains(out, tc.refusal) {
			t.Fatalf("want a refusal (%q), got exit %d:\n%s", tc.refusal, code, out)
		}
		if len(changes) > 0 {
			t.Fatalf("refused, yet sent %q", changes)
		}
		return
	}
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	want := tc.statements
	if want == 0 {
		want = 1
	}
	if len(changes) != want {
		t.Fatalf("%d change statements, want %d: %q", len(changes), want, changes)
	}
	for _, q := range changes {
		if !hasAnyPrefix(q, "SET GLOBAL ", "SET CONFIG ", "CREATE RESOURCE GROUP ", "ALTER RESOURCE GROUP ", "ALTER USER ") || !utf8.ValidString(q) {
			t.Errorf("a statement tiform does not build: %q", q)
		}
	}
	// The value read back is exactly the input: each literal was one
	// literal, escaped right, in this sql_mode.
	tc.check(t, c)
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// tuning is a hand-tuned cluster for the import round trip: config file
// values (type-wide and per instance) and SQL run after start (variables,
// resource groups, bound accounts), every value away from its default.
type tuning struct {
	config []tidbsim.ConfigOverride
	vars   map[string]string
	sql    []string
}

// tunedCluster is the issue-16 bar's cluster: at least 25 non-default values
// (some per instance), 3 resource groups with QUERY_LIMIT, the default
// group's BACKGROUND, and 4 bound accounts. TiKV instances listen on
// 127.0.0.1:20160–20162.
func tunedCluster(v version.Version) tuning {
	tikv := map[string]string{
		"coprocessor.region-split-size":             "128MiB",
		"coprocessor.region-max-size":               "192MiB",
		"coprocessor.region-split-keys":             "1280000",
		"coprocessor.region-max-keys":               "1920000",
		"coprocessor.batch-split-limit":             "20",
		"coprocessor.split-region-on-table":         "true",
		"raftstore.raft-log-gc-count-limit":         "100000",
		"raftstore.raft-log-gc-size-limit":          "100MiB",
		"raftstore.region-split-check-diff":         "10MiB",
		"split.qps-threshold":                       "5000",
		"split.byte-threshold":                      "52428800",
		"split.split-balance-score":                 "0.3",
		"split.split-contained-score":               "0.6",
		"split.region-cpu-overload-threshold-ratio": "0.4",
	}
	pd := map[string]string{
		"schedule.max-merge-region-size":    "24",
		"schedule.max-merge-region-keys":    "240000",
		"schedule.split-merge-interval":     "30m0s",
		"schedule.enable-cross-table-merge": "false",
	}
	var t tuning
	for k, val := range tikv {
		t.config = append(t.config, tidbsim.ConfigOverride{Type: "tikv", Name: k, Value: val})
	}
	for k, val := range pd {
		t.config = append(t.config, tidbsim.ConfigOverride{Type: "pd", Name: k, Value: val})
	}
	// Per instance: one TiKV with a lower QPS threshold, one back at the
	// default batch-split-limit (a per-instance value at the default, since
	// the type-wide value is tuned).
	t.config = append(t.config,
		tidbsim.ConfigOverride{Type: "tikv", Instance: "127.0.0.1:20161", Name: "split.qps-threshold", Value: "4000"},
		tidbsim.ConfigOverride{Type: "tikv", Instance: "127.0.0.1:20162", Name: "coprocessor.batch-split-limit", Value: "10"})
	vars := map[string]string{
		"tidb_session_plan_cache_size":                   "200",
		"tidb_enable_prepared_plan_cache":                "OFF",
		"tidb_prepared_plan_cache_memory_guard_ratio":    "0.2",
		"tidb_plan_cache_max_plan_size":                  "4194304",
		"tidb_enable_plan_cache_for_param_limit":         "OFF",
		"tidb_enable_plan_cache_for_subquery":            "OFF",
		"tidb_enable_non_prepared_plan_cache_for_dml":    "ON",
		"tidb_ignore_prepared_cache_close_stmt":          "ON",
		"tidb_enable_prepared_plan_cache_memory_monitor": "OFF",
	}
	t.vars = vars
	for n, val := range vars {
		t.sql = append(t.sql, fmt.Sprintf("SET GLOBAL %s = %s", n, val))
	}
	// Three groups with runaway rules, the default group's BACKGROUND, four
	// accounts bound (QUERY_LIMIT since v7.2, BACKGROUND since v7.4).
	t.sql = append(t.sql,
		"CREATE RESOURCE GROUP oltp RU_PER_SEC = 20000 PRIORITY = HIGH BURSTABLE QUERY_LIMIT = (EXEC_ELAPSED = '60s', ACTION = KILL)",
		"CREATE RESOURCE GROUP batch RU_PER_SEC = 2000 PRIORITY = LOW QUERY_LIMIT = (EXEC_ELAPSED = '10m', ACTION = COOLDOWN, WATCH = SIMILAR DURATION = '5m')",
		"CREATE RESOURCE GROUP report RU_PER_SEC = 500 QUERY_LIMIT = (EXEC_ELAPSED = '30s', ACTION = DRYRUN)",
		background(v),
		"CREATE USER 'app'@'%'", "CREATE USER 'api'@'10.0.%'", "CREATE USER 'etl'@'%'", "CREATE USER 'bi'@'%'",
		"ALTER USER 'app'@'%' RESOURCE GROUP oltp", "ALTER USER 'api'@'10.0.%' RESOURCE GROUP oltp",
		"ALTER USER 'etl'@'%' RESOURCE GROUP batch", "ALTER USER 'bi'@'%' RESOURCE GROUP report")
	return t
}

// background is the default group's BACKGROUND (UTILIZATION_LIMIT since v8.4).
func background(v version.Version) string {
	if v.AtLeast(8, 4, 0) {
		return "ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'br,ddl,stats', UTILIZATION_LIMIT = 30)"
	}
	return "ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'br,ddl,stats')"
}

// nonDefault fails the test when a seeded value is not a tuned value of v
// per the catalog: the round trip must import it.
func (tu tuning) nonDefault(t *testing.T, v version.Version) int {
	t.Helper()
	n := 0
	for _, c := range tu.config {
		e, ok := catalog.Config(c.Type, c.Name)
		if !ok {
			t.Fatalf("seed %s.%s: not in the catalog", c.Type, c.Name)
		}
		d, ok := e.DefaultIn(v)
		if !ok {
			t.Fatalf("seed %s: no default in %s", e.Address(), v)
		}
		cd, _ := e.Canonical(d)
		cv, _ := e.Canonical(c.Value)
		if cd != cv || c.Instance != "" {
			n++
		}
	}
	for name, val := range tu.vars {
		e, ok := catalog.Variable(name)
		if !ok || !e.Deprecated.IsZero() && v.Compare(e.Deprecated) >= 0 {
			t.Fatalf("seed variable %s: not in the catalog, or deprecated in %s", name, v)
		}
		d, ok := e.DefaultIn(v)
		cd, _ := e.Canonical(d)
		cv, _ := e.Canonical(val)
		if !ok || cd == cv {
			t.Fatalf("seed variable %s = %s: not a tuned value in %s (default %q)", name, val, v, d)
		}
		n++
	}
	return n
}

// importRun runs tiform with args in dir (no --chdir added) and returns the
// exit code and outputs.
func importRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// roundTrip imports the cluster behind dsn as cluster name into a new
// directory and checks the bar: validate passes, plan shows no changes,
// fmt --check passes. It returns the directory.
func roundTrip(t *testing.T, dsn, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "adopted")
	code, stdout, stderr := importRun(t, "import", "--dsn", dsn, "--cluster", name, "--out", out)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, stdout, stderr)
	}
	env := "TIFORM_DSN_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name))
	if !strings.Contains(stdout, env) {
		t.Errorf("import does not say which variable holds the DSN (%s):\n%s", env, stdout)
	}
	t.Setenv(env, dsn)
	if code, o, e := importRun(t, "validate", "--chdir", out); code != 0 {
		t.Fatalf("validate: exit %d\n%s\n%s", code, o, e)
	}
	if code, o, e := importRun(t, "plan", "--chdir", out, "--detailed-exitcode"); code != 0 || !strings.Contains(o, "No changes.") {
		t.Fatalf("plan after import: exit %d, want 0 and no changes\n%s\n%s", code, o, e)
	}
	if code, o, e := importRun(t, "fmt", "--check", "--chdir", out); code != 0 {
		t.Fatalf("fmt --check: exit %d\n%s\n%s", code, o, e)
	}
	for _, f := range []string{"baseline.hcl", "cluster-" + name + ".hcl"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), dsn) || strings.Contains(string(b), "root@") {
			t.Errorf("%s holds the DSN:\n%s", f, b)
		}
	}
	return out
}

// declared loads the imported configuration and returns the one cluster.
func declared(t *testing.T, dir string) *state.DesiredCluster {
	t.Helper()
	d, diags := schema.Load(dir, schema.Options{Offline: true})
	if diags.HasErrors() {
		t.Fatalf("load %s: %v", dir, diags.Errors())
	}
	if len(d.Clusters) != 1 {
		t.Fatalf("%d clusters, want 1", len(d.Clusters))
	}
	return d.Clusters[0]
}

// TestImportRoundTrip is issue 16's bar on emulators of v7.5, v8.1 and v8.5:
// a cluster with at least 25 non-default values (some per instance), 3
// resource groups with QUERY_LIMIT, the default group's BACKGROUND and 4
// bound accounts; import → validate → plan (no changes) → fmt --check.
func TestImportRoundTrip(t *testing.T) {
	for _, ver := range []string{"v7.5.0", "v8.1.2", "v8.5.1"} {
		t.Run(ver, func(t *testing.T) {
			v := version.MustParse(ver)
			tu := tunedCluster(v)
			if n := tu.nonDefault(t, v); n < 25 {
				t.Fatalf("the seed has %d non-default values, the bar wants at least 25", n)
			}
			s := startTuned(t, ver, tu)
			dc := declared(t, roundTrip(t, s.DSN("root", ""), "prod"))
			checkImported(t, dc, tu.nonDefault(t, v))
		})
	}
}

// checkImported checks the imported cluster declares every seeded value:
// at least want config values and variables, per-instance values, the 3
// groups plus default with their options, and the 4 accounts.
func checkImported(t *testing.T, dc *state.DesiredCluster, want int) {
	t.Helper()
	perInstance := 0
	for _, c := range dc.Config {
		if c.Instance != "" {
			perInstance++
		}
	}
	if got := len(dc.Config) + len(dc.Variables); got < want {
		t.Errorf("imported %d config values and variables, want at least %d", got, want)
	}
	if perInstance != 2 {
		t.Errorf("%d per-instance values, want 2: %+v", perInstance, dc.Config)
	}
	users, ql := 0, 0
	var bg *state.Background
	for _, g := range dc.ResourceGroups {
		users += len(g.Users)
		if g.QueryLimit != nil {
			ql++
		}
		if g.Name == "default" {
			bg = g.Background
		}
	}
	if len(dc.ResourceGroups) != 4 || ql != 3 || users != 4 {
		t.Errorf("%d groups (%d with query_limit), %d accounts; want 4 (3), 4", len(dc.ResourceGroups), ql, users)
	}
	if bg == nil || len(bg.TaskTypes) != 3 {
		t.Errorf("default group's background not imported: %+v", bg)
	}
}

// TestImportUpgraded: a cluster bootstrapped at v8.1 and running v8.5.3
// keeps the v8.1 region sizes it never declared (TiKV v8.5.3 inherits them
// from last_tikv.toml, tikv/tikv#18505): import shows them as tuned, with the
// default they match, and the round trip holds.
func TestImportUpgraded(t *testing.T) {
	v := version.MustParse("v8.5.3")
	tu := tunedCluster(v)
	var cfg []tidbsim.ConfigOverride
	for _, c := range tu.config {
		if !strings.HasPrefix(c.Name, "coprocessor.region-") {
			cfg = append(cfg, c)
		}
	}
	tu.config = cfg
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.5.3", BootstrappedFrom: "v8.1.2", TiKV: 3, Config: tu.config, SQL: tu.sql})
	dir := roundTrip(t, s.DSN("root", ""), "upgraded")
	dc := declared(t, dir)
	checkImported(t, dc, tu.nonDefault(t, v)+4)
	b, err := os.ReadFile(filepath.Join(dir, "baseline.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][3]string{
		{"region-split-size", `"96MiB"`, "# default 256MiB (v8.5.3); 96MiB is the default before v8.4.0"},
		{"region-max-size", `"144MiB"`, "# default 384MiB (v8.5.3); 144MiB is the default before v8.4.0"},
		{"region-split-keys", "960000", "# default 2560000 (v8.5.3); 960000 is the default before v8.4.0"},
		{"region-max-keys", "1440000", "# default 3840000 (v8.5.3); 1440000 is the default before v8.4.0"},
	} {
		if !hasAttr(string(b), want[0], want[1], want[2]) {
			t.Errorf("baseline.hcl lacks %s = %s %s\n%s", want[0], want[1], want[2], b)
		}
	}
}

// hasAttr reports whether src has a line `name = value # comment…` (any
// alignment; the comment starts with comment).
func hasAttr(src, name, value, comment string) bool {
	for _, l := range strings.Split(src, "\n") {
		lhs, rhs, ok := strings.Cut(l, "=")
		if !ok || strings.TrimSpace(lhs) != name {
			continue
		}
		val, com, _ := strings.Cut(rhs, "#")
		if strings.TrimSpace(val) == value && strings.HasPrefix("#"+com, comment) {
			return true
		}
	}
	return false
}

// startTuned starts an emulated cluster of version ver with tu applied.
func startTuned(t *testing.T, ver string, tu tuning) *tidbsimtest.Cluster {
	t.Helper()
	return tidbsimtest.Start(t, tidbsim.Options{Version: ver, TiKV: 3, Config: tu.config, SQL: tu.sql})
}

// without drops seeded config keys.
func (tu tuning) without(keys ...string) tuning {
	var cfg []tidbsim.ConfigOverride
	for _, c := range tu.config {
		if !slices.Contains(keys, c.Name) || c.Instance != "" {
			cfg = append(cfg, c)
		}
	}
	tu.config = cfg
	return tu
}

// TestImportFleet is issue 16's fleet bar: three clusters (two v8.5.1, one
// v8.1.2) import into a baseline of what they share and one file per
// cluster with its differences; a plan of each shows no changes.
func TestImportFleet(t *testing.T) {
	v85, v81 := version.MustParse("v8.5.1"), version.MustParse("v8.1.2")
	tokyo := startTuned(t, "v8.5.1", tunedCluster(v85))
	osakaTu := tunedCluster(v85)
	osakaTu.config = append(osakaTu.config, tidbsim.ConfigOverride{Type: "tikv", Name: "split.qps-threshold", Value: "6000"})
	osakaTu.sql = append(osakaTu.sql, "ALTER RESOURCE GROUP batch RU_PER_SEC = 3000")
	osaka := startTuned(t, "v8.5.1", osakaTu)
	staging := startTuned(t, "v8.1.2", tunedCluster(v81).without("split.byte-threshold"))

	skel := writeConfig(t, `cluster "tokyo" {
  dsn          = env("DSN_TOKYO")
  labels       = { env = "prod", region = "tokyo" }
  tiup_cluster = "tidb-tokyo"
}

cluster "osaka" {
  dsn    = env("DSN_OSAKA")
  labels = { env = "prod", region = "osaka" }
}

cluster "staging" {
  dsn    = env("DSN_STAGING")
  labels = { env = "staging" }
}
`)
	for n, s := range map[string]*tidbsimtest.Cluster{"TOKYO": tokyo, "OSAKA": osaka, "STAGING": staging} {
		t.Setenv("DSN_"+n, s.DSN("root", ""))
		t.Setenv("TIFORM_DSN_"+n, s.DSN("root", ""))
	}
	out := filepath.Join(t.TempDir(), "fleet")
	if code, o, e := importRun(t, "import", "--chdir", skel, "--out", out); code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, o, e)
	}
	read := func(f string) string {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	base, tok, osa, stg := read("baseline.hcl"), read("cluster-tokyo.hcl"), read("cluster-osaka.hcl"), read("cluster-staging.hcl")
	checks := []struct {
		file, src, name, value, comment string
		present                         bool
	}{
		// Shared by all three, whatever their version's default.
		{"baseline", base, "region-split-size", `"128MiB"`, "# default 256MiB (v8.5.1); default 96MiB (v8.1.2)", true},
		{"baseline", base, "tidb_session_plan_cache_size", "200", "# default 100 (v8.1.2, v8.5.1)", true},
		// osaka differs: each cluster keeps its own.
		{"baseline", base, "qps-threshold", "5000", "#", false},
		{"tokyo", tok, "qps-threshold", "5000", "# default 3000 (v8.5.1)", true},
		{"osaka", osa, "qps-threshold", "6000", "# default 3000 (v8.5.1)", true},
		{"staging", stg, "qps-threshold", "5000", "# default 3000 (v8.1.2)", true},
		// staging is at the default: only the two others declare it.
		{"baseline", base, "byte-threshold", "52428800", "#", false},
		{"tokyo", tok, "byte-threshold", "52428800", "# default 31457280 (v8.5.1)", true},
		{"staging", stg, "byte-threshold", "52428800", "#", false},
		{"osaka", osa, "ru_per_sec", "3000", "", true},
		{"tokyo", tok, "tiup_cluster", `"tidb-tokyo"`, "", true},
	}
	for _, c := range checks {
		if got := hasAttr(c.src, c.name, c.value, c.comment); got != c.present {
			t.Errorf("%s: %s = %s %s present %v, want %v\n%s", c.file, c.name, c.value, c.comment, got, c.present, c.src)
		}
	}
	if !strings.Contains(base, `resource_group "batch" {`) || hasAttr(base, "ru_per_sec", "2000", "") {
		t.Errorf("baseline: group batch should be shared without its ru_per_sec (osaka differs):\n%s", base)
	}
	code, o, e := importRun(t, "plan", "--chdir", out, "--detailed-exitcode")
	if code != 0 || !strings.Contains(o, "Fleet: 3 clusters, 0 with changes.") || strings.Count(o, "in_sync      matches the configuration") != 3 {
		t.Fatalf("plan of the fleet: exit %d, want 0 and 3 clusters in sync\n%s\n%s", code, o, e)
	}
	for _, name := range []string{"tokyo", "osaka", "staging"} {
		if code, o, e := importRun(t, "plan", "--chdir", out, "--cluster", name, "--detailed-exitcode"); code != 0 || !strings.Contains(o, "No changes.") {
			t.Errorf("plan --cluster %s: exit %d\n%s\n%s", name, code, o, e)
		}
	}
	if code, o, e := importRun(t, "fmt", "--check", "--chdir", out); code != 0 {
		t.Errorf("fmt --check: exit %d\n%s\n%s", code, o, e)
	}
	// --label selects: the two production clusters only.
	prod := filepath.Join(t.TempDir(), "prod")
	if code, o, e := importRun(t, "import", "--chdir", skel, "--label", "env=prod", "--out", prod); code != 0 || !strings.Contains(o, "Imported 2 clusters") {
		t.Fatalf("import --label env=prod: exit %d\n%s\n%s", code, o, e)
	}
	if _, err := os.Stat(filepath.Join(prod, "cluster-staging.hcl")); err == nil {
		t.Errorf("--label env=prod imported staging")
	}
}

// TestImportUpdateGolden is issue 16's --update bar: after a hand change on
// the cluster, import --update changes exactly that value in the imported
// configuration, keeps its comment and every other byte (golden diff), and
// the plan is clean again.
func TestImportUpdateGolden(t *testing.T) {
	v := version.MustParse("v8.5.1")
	s := startTuned(t, "v8.5.1", tunedCluster(v))
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	dsn := s.DSN("root", "")
	t.Setenv("TIFORM_DSN_PROD", dsn)
	if code, o, e := importRun(t, "import", "--dsn", dsn, "--cluster", "prod", "--out", "adopted"); code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, o, e)
	}
	before, err := os.ReadFile(filepath.Join("adopted", "baseline.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := os.ReadFile(filepath.Join("adopted", "cluster-prod.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	// The hand change, behind tiform's back.
	s.Exec(t, "SET CONFIG tikv `split.split-balance-score` = 0.55")
	code, out, errOut := importRun(t, "import", "--update", "--chdir", "adopted")
	if code != 0 {
		t.Fatalf("import --update: exit %d\n%s\n%s", code, out, errOut)
	}
	golden := filepath.Join(testdata, "import-update.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("import --update output differs from %s (go test ./cmd -run TestImportUpdateGolden -update):\n%s", golden, out)
	}
	after, err := os.ReadFile(filepath.Join("adopted", "baseline.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	// Exactly one line differs, and it is that value with its comment.
	bl, al := strings.Split(string(before), "\n"), strings.Split(string(after), "\n")
	if len(bl) != len(al) {
		t.Fatalf("line count changed: %d → %d", len(bl), len(al))
	}
	var changed []string
	for i := range bl {
		if bl[i] != al[i] {
			changed = append(changed, al[i])
		}
	}
	if len(changed) != 1 || !hasAttr(changed[0], "split-balance-score", "0.55", "# default 0.25 (v8.5.1)") {
		t.Errorf("changed lines %q, want only split-balance-score = 0.55 with its comment", changed)
	}
	if b, err := os.ReadFile(filepath.Join("adopted", "cluster-prod.hcl")); err != nil || string(b) != string(own) {
		t.Errorf("cluster-prod.hcl changed (%v):\n%s", err, b)
	}
	if code, o, e := importRun(t, "plan", "--chdir", "adopted", "--detailed-exitcode"); code != 0 || !strings.Contains(o, "No changes.") {
		t.Errorf("plan after import --update: exit %d\n%s\n%s", code, o, e)
	}
	if code, o, e := importRun(t, "fmt", "--check", "--chdir", "adopted"); code != 0 {
		t.Errorf("fmt --check after import --update: exit %d\n%s\n%s", code, o, e)
	}
	// Nothing drifted any more: nothing changes.
	if code, o, _ := importRun(t, "import", "--update", "--chdir", "adopted"); code != 0 || !strings.Contains(o, "No drift") {
		t.Errorf("second import --update: exit %d\n%s", code, o)
	}
}

// TestImportNeverLeaksDSN: the password of the DSN import reads with
// appears in no file and no output, whether the read works or fails.
func TestImportNeverLeaksDSN(t *testing.T) {
	const pw = "Sup3r-s3cret!pw"
	s := startTuned(t, "v8.5.1", tunedCluster(version.MustParse("v8.5.1")))
	dsn := s.AddUser(t, "adm", pw)
	dir := t.TempDir()
	out := filepath.Join(dir, "adopted")
	code, o, e := importRun(t, "import", "--dsn", dsn, "--cluster", "prod", "--out", out)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, o, e)
	}
	leaks := o + e
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range entries {
		b, err := os.ReadFile(filepath.Join(out, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		leaks += string(b)
	}
	// A wrong address, and a wrong password: the errors name neither.
	_, o, e = importRun(t, "import", "--dsn", "adm:"+pw+"@tcp(127.0.0.1:1)/", "--out", filepath.Join(dir, "x"), "--connect-timeout", "2s")
	leaks += o + e
	_, o, e = importRun(t, "import", "--dsn", s.DSN("adm", pw+"-wrong"), "--out", filepath.Join(dir, "y"))
	leaks += o + e
	if strings.Contains(leaks, pw) {
		t.Errorf("the password leaked:\n%s", leaks)
	}
}

// Import writes all its files or none: a cluster whose name is too long for
// a file name (300 characters) fails the import with nothing left behind —
// no baseline.hcl, no other cluster's file, no directory.
func TestImportWritesAllOrNothing(t *testing.T) {
	tokyo := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1})
	long := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1})
	dir := t.TempDir()
	name := "c" + strings.Repeat("a", 299)
	os.Mkdir(filepath.Join(dir, "cfg"), 0o755)
	writeTestFile(t, filepath.Join(dir, "cfg", "main.hcl"), fmt.Sprintf(
		"cluster \"tokyo\" {\n  dsn = env(\"TOKYO_DSN\")\n}\ncluster %q {\n  dsn = env(\"LONG_DSN\")\n}\n", name))
	t.Setenv("TOKYO_DSN", tokyo.RootDSN())
	t.Setenv("LONG_DSN", long.RootDSN())
	out := filepath.Join(dir, "adopted")
	code, text := tiform(t, "import", "--chdir", filepath.Join(dir, "cfg"), "--out", out)
	if code != ExitError || !strings.Contains(text, "nothing was written") {
		t.Fatalf("exit %d, want 1 saying nothing was written:\n%s", code, text)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		es, _ := os.ReadDir(out)
		t.Errorf("--out was left behind (%v), holding %v", err, es)
	}
	// Into an existing directory: it stays as it was.
	os.Mkdir(out, 0o755)
	if code, text := tiform(t, "import", "--chdir", filepath.Join(dir, "cfg"), "--out", out); code != ExitError {
		t.Fatalf("exit %d:\n%s", code, text)
	}
	if es, _ := os.ReadDir(out); len(es) != 0 {
		t.Errorf("files were left behind: %v", es)
	}
}

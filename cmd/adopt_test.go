package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Issue 24's bar: clusters shaped like production ones — three PD members
// and three TiKV instances printing the whole surface their config
// endpoints return (names, URLs, addresses, paths, defaults computed from
// each host), hand-tuned, upgraded from an older version — are adopted:
// import writes only settings, keeps every hand-tuned value, plans with no
// changes and no guard finding of its own making; export tiup carries no
// instance's identity and its topology checks clean; import --update
// after one hand change rewrites exactly that value.

// adoptCase is one production-shaped cluster.
type adoptCase struct {
	version, bootstrappedFrom string
}

// adoptTuning is the hand-tuned values: type-wide and per instance, keys
// whose default TiKV computes from the host among them (set by hand, they
// are tuned), PD schedule and member-local keys, a variable and a group.
func adoptTuning() (cfg []tidbsim.ConfigOverride, sql []string, tuned map[string]string) {
	tuned = map[string]string{
		"tikv.split.qps-threshold":                                  "5000",
		"tikv.storage.block-cache.capacity":                         "12GiB",
		"tikv.rocksdb.max-background-jobs":                          "6",
		"tikv.server.grpc-concurrency":                              "8",
		`tikv["127.0.0.1:20161"].readpool.unified.max-thread-count`: "10",
		"pd.schedule.leader-schedule-limit":                         "8",
		"pd.schedule.max-store-down-time":                           "1h0m0s",
		"variable.tidb_session_plan_cache_size":                     "200",
	}
	cfg = []tidbsim.ConfigOverride{
		{Type: "tikv", Name: "split.qps-threshold", Value: "5000"},
		{Type: "tikv", Name: "storage.block-cache.capacity", Value: "12GiB"},
		{Type: "tikv", Name: "rocksdb.max-background-jobs", Value: "6"},
		{Type: "tikv", Name: "server.grpc-concurrency", Value: "8"},
		{Type: "tikv", Instance: "127.0.0.1:20161", Name: "readpool.unified.max-thread-count", Value: "10"},
		{Type: "pd", Name: "schedule.leader-schedule-limit", Value: "8"},
		{Type: "pd", Name: "schedule.max-store-down-time", Value: "1h"},
	}
	sql = []string{"SET GLOBAL tidb_session_plan_cache_size = 200",
		"CREATE RESOURCE GROUP oltp RU_PER_SEC = 20000 PRIORITY = HIGH BURSTABLE"}
	return cfg, sql, tuned
}

// startProduction starts a production-shaped cluster: 3 PD, 3 TiKV, one
// TiKV on a bigger host (its computed defaults differ), hand-tuned.
func startProduction(t *testing.T, c adoptCase) *tidbsimtest.Cluster {
	t.Helper()
	cfg, sql, _ := adoptTuning()
	return tidbsimtest.Start(t, tidbsim.Options{Version: c.version, BootstrappedFrom: c.bootstrappedFrom, PD: 3, TiKV: 3,
		InstanceMachines: map[string]upstream.Machine{"tikv-2": {CPU: 16, Memory: 128 << 30}},
		Config:           cfg, SQL: sql})
}

func TestAdoptProductionClusters(t *testing.T) {
	for _, c := range []adoptCase{{"v7.5.4", "v7.1.6"}, {"v8.1.2", "v7.5.4"}, {"v8.5.5", "v8.1.2"}} {
		t.Run(c.version, func(t *testing.T) {
			s := startProduction(t, c)
			dir := filepath.Join(t.TempDir(), "adopted")
			code, stdout, stderr := importRun(t, "import", "--dsn", s.DSN("root", ""), "--cluster", "prod", "--out", dir)
			if code != 0 {
				t.Fatalf("import: exit %d\n%s\n%s", code, stdout, stderr)
			}
			t.Setenv("TIFORM_DSN_PROD", s.DSN("root", ""))
			t.Log(stdout)
			dc := declared(t, dir)
			checkOnlySettings(t, dc, version.MustParse(c.version))
			checkTunedKept(t, dc)
			checkPlanClean(t, dir)
			checkExportClean(t, dir)
			checkUpdateOneValue(t, s, dir)
		})
	}
}

// checkOnlySettings: every declared key is a setting, and no value is the
// default TiKV computed from its host: what the configuration declares
// beyond the hand-tuned values is the region-size family completed around
// a tuned member, values an upgraded cluster kept and the v8.2 upgrade
// default of tidb_resource_control_strict_mode.
func checkOnlySettings(t *testing.T, dc *state.DesiredCluster, v version.Version) {
	t.Helper()
	_, _, tuned := adoptTuning()
	for _, s := range dc.Config {
		e, ok := catalog.Config(string(s.Component), s.Key)
		if !ok {
			t.Errorf("%s: not in the catalog", s.Key)
			continue
		}
		addr := state.ConfigAddress(s.Component, s.Instance, s.Key).String()
		if cl := e.ClassIn(v); !cl.Setting() {
			t.Errorf("%s is declared, but it is not a setting (%s)", addr, cl)
		}
		if _, computed := e.ComputedIn(v); computed {
			if _, hand := tuned[addr]; !hand {
				t.Errorf("%s = %s is declared: a default TiKV computes, not set by hand", addr, s.Value.Text)
			}
		}
		if strings.Contains(s.Value.Text, "127.0.0.1") || strings.Contains(s.Value.Text, "/tidb-") {
			t.Errorf("%s = %s: an address or a path", addr, s.Value.Text)
		}
	}
}

// checkTunedKept: every hand-tuned value is declared with its value.
func checkTunedKept(t *testing.T, dc *state.DesiredCluster) {
	t.Helper()
	_, _, tuned := adoptTuning()
	got := map[string]string{}
	for _, s := range dc.Config {
		e, _ := catalog.Config(string(s.Component), s.Key)
		got[state.ConfigAddress(s.Component, s.Instance, s.Key).String()] = e.Render(s.Value.Text)
	}
	for _, v := range dc.Variables {
		got["variable."+v.Name] = v.Value.Text
	}
	for addr, want := range tuned {
		g, ok := got[addr]
		if !ok {
			t.Errorf("hand-tuned %s = %s was not imported", addr, want)
			continue
		}
		if e, ok := catalog.Config(strings.SplitN(addr, ".", 2)[0], addr[strings.Index(addr, ".")+1:]); ok && !strings.Contains(addr, "[") {
			if !catalog.SettingFor(catalog.TargetConfig, e.Component, e.Key).Equal(g, want) {
				t.Errorf("%s imported as %s, want %s", addr, g, want)
			}
		}
	}
	if len(dc.ResourceGroups) != 1 || dc.ResourceGroups[0].Burstable == nil || *dc.ResourceGroups[0].Burstable != state.BurstUnlimited {
		t.Errorf("resource group oltp: want burstable = \"UNLIMITED\", got %+v", dc.ResourceGroups)
	}
}

// checkPlanClean: the plan shows no changes, and no guard finding about
// how the configuration is written (TF102 a family in part, TF111 a
// boolean burstable).
func checkPlanClean(t *testing.T, dir string) {
	t.Helper()
	code, out, errOut := importRun(t, "plan", "--chdir", dir, "--detailed-exitcode")
	if code != 0 || !strings.Contains(out, "No changes.") {
		t.Fatalf("plan after import: exit %d, want 0 and no changes\n%s\n%s", code, out, errOut)
	}
	for _, own := range []string{"TF102", "TF111"} {
		if strings.Contains(out, own) {
			t.Errorf("plan raises %s, a finding the import made:\n%s", own, out)
		}
	}
	if code, o, e := importRun(t, "fmt", "--check", "--chdir", dir); code != 0 {
		t.Errorf("fmt --check: exit %d\n%s\n%s", code, o, e)
	}
}

// checkExportClean: export tiup writes only settings, and checking the
// topology it wrote finds nothing a reload would revert.
func checkExportClean(t *testing.T, dir string) {
	t.Helper()
	code, out, errOut := importRun(t, "export", "tiup", "--chdir", dir)
	if code != 0 {
		t.Fatalf("export tiup: exit %d\n%s", code, errOut)
	}
	var top struct {
		ServerConfigs map[string]map[string]any `yaml:"server_configs"`
	}
	if err := yaml.Unmarshal([]byte(out), &top); err != nil {
		t.Fatalf("export tiup output: %v\n%s", err, out)
	}
	for comp, keys := range top.ServerConfigs {
		for k := range keys {
			e, ok := catalog.Config(comp, k)
			if !ok || !e.Class.Setting() {
				t.Errorf("server_configs.%s.%s: not a setting", comp, k)
			}
		}
	}
	sc, _ := yaml.Marshal(top.ServerConfigs)
	if strings.Contains(string(sc), "127.0.0.1") || strings.Contains(string(sc), "/tidb-") {
		t.Errorf("export tiup puts an address or a path in server_configs:\n%s", out)
	}
	topo := filepath.Join(t.TempDir(), "topology.yaml")
	if err := os.WriteFile(topo, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, o, e := importRun(t, "export", "tiup", "--chdir", dir, "--check", topo); code != 0 {
		t.Errorf("export tiup --check on the exported topology: exit %d\n%s\n%s", code, o, e)
	}
}

// checkUpdateOneValue: after one hand change, import --update rewrites
// exactly that value's line.
func checkUpdateOneValue(t *testing.T, s *tidbsimtest.Cluster, dir string) {
	t.Helper()
	before := readAll(t, dir)
	s.Exec(t, "SET CONFIG tikv `split.qps-threshold` = 6000")
	code, out, errOut := importRun(t, "import", "--update", "--chdir", dir)
	if code != 0 {
		t.Fatalf("import --update: exit %d\n%s\n%s", code, out, errOut)
	}
	after := readAll(t, dir)
	var changed []string
	for f, b := range before {
		bl, al := strings.Split(b, "\n"), strings.Split(after[f], "\n")
		if len(bl) != len(al) {
			t.Errorf("%s: %d lines became %d", f, len(bl), len(al))
			continue
		}
		for i := range bl {
			if bl[i] != al[i] {
				changed = append(changed, f+": "+strings.TrimSpace(bl[i])+" → "+strings.TrimSpace(al[i]))
			}
		}
	}
	if len(changed) != 1 || !strings.Contains(changed[0], "qps-threshold = 6000") {
		t.Errorf("import --update after one change rewrote %d lines, want exactly qps-threshold:\n%s", len(changed), strings.Join(changed, "\n"))
	}
	if code, o, e := importRun(t, "plan", "--chdir", dir, "--detailed-exitcode"); code != 0 {
		t.Errorf("plan after import --update: exit %d\n%s\n%s", code, o, e)
	}
}

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// TestAdoptProductionFleet: a fleet of production-shaped clusters at two
// versions, named in a configuration with their own DSN variables, imports
// into a baseline and one file per cluster that keep those variables, and
// plans with no changes.
func TestAdoptProductionFleet(t *testing.T) {
	tokyo := startProduction(t, adoptCase{"v8.5.5", "v8.1.2"})
	osaka := startProduction(t, adoptCase{"v8.1.2", "v7.5.4"})
	fleet := t.TempDir()
	conf := `cluster "tokyo" {
  dsn    = env("TOKYO_DSN")
  labels = { env = "prod" }
}

cluster "osaka" {
  dsn    = env("OSAKA_DSN")
  labels = { env = "prod" }
}
`
	if err := os.WriteFile(filepath.Join(fleet, "clusters.hcl"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOKYO_DSN", tokyo.DSN("root", ""))
	t.Setenv("OSAKA_DSN", osaka.DSN("root", ""))
	out := filepath.Join(t.TempDir(), "adopted")
	code, stdout, stderr := importRun(t, "import", "--chdir", fleet, "--out", out)
	if code != 0 {
		t.Fatalf("import --chdir: exit %d\n%s\n%s", code, stdout, stderr)
	}
	files := readAll(t, out)
	for name, env := range map[string]string{"tokyo": "TOKYO_DSN", "osaka": "OSAKA_DSN"} {
		if !strings.Contains(strings.Join(strings.Fields(files["cluster-"+name+".hcl"]), " "), fmt.Sprintf(`dsn = env(%q)`, env)) {
			t.Errorf("cluster-%s.hcl does not keep env(%q):\n%s", name, env, files["cluster-"+name+".hcl"])
		}
	}
	if strings.Contains(stdout, "TIFORM_DSN_") {
		t.Errorf("the summary names a variable the configuration does not use:\n%s", stdout)
	}
	var plan struct {
		Clusters []struct {
			Name    string            `json:"name"`
			Changes []json.RawMessage `json:"changes"`
		} `json:"clusters"`
	}
	code, o, e := importRun(t, "plan", "--chdir", out, "--detailed-exitcode", "--format", "json")
	if code != 0 {
		t.Fatalf("plan of the adopted fleet: exit %d\n%s\n%s", code, o, e)
	}
	if err := json.Unmarshal([]byte(o), &plan); err != nil || len(plan.Clusters) != 2 {
		t.Fatalf("plan JSON: %v, %d clusters\n%s", err, len(plan.Clusters), o)
	}
	var names []string
	for _, c := range plan.Clusters {
		names = append(names, c.Name)
		if len(c.Changes) > 0 {
			t.Errorf("cluster %s: %d changes after import", c.Name, len(c.Changes))
		}
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "osaka,tokyo" {
		t.Errorf("planned clusters %v", names)
	}
}

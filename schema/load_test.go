package schema

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// env is a fixed environment for tests.
func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

var ignoreRanges = cmp.Options{
	cmpopts.IgnoreTypes(diag.SourceRange{}),
	cmpopts.IgnoreFields(state.ResourceGroup{}, "FieldRanges"),
	cmpopts.EquateEmpty(),
}

func p[T any](v T) *T { return &v }

func str(s string) state.Value { return state.Value{Text: s, Type: state.LiteralString} }
func num(s string) state.Value { return state.Value{Text: s, Type: state.LiteralNumber} }
func boolean(b bool) state.Value {
	if b {
		return state.Value{Text: "true", Type: state.LiteralBool}
	}
	return state.Value{Text: "false", Type: state.LiteralBool}
}

func mustLoad(t *testing.T, dir string, opts Options) *state.Desired {
	t.Helper()
	d, diags := Load(dir, opts)
	if diags.HasErrors() || len(diags) > 0 {
		var sb strings.Builder
		_ = diag.Write(&sb, diags, false)
		if diags.HasErrors() {
			t.Fatalf("Load(%s) failed:\n%s", dir, sb.String())
		}
		t.Fatalf("Load(%s) gave unexpected warnings:\n%s", dir, sb.String())
	}
	return d
}

func cluster(t *testing.T, d *state.Desired, name string) *state.DesiredCluster {
	t.Helper()
	for _, c := range d.Clusters {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no cluster %q", name)
	return nil
}

func TestFleet(t *testing.T) {
	d := mustLoad(t, "testdata/valid/fleet", Options{Env: env(map[string]string{
		"ALPHA_DSN": "app:pw1@tcp(10.0.0.1:4000)/",
		"BETA_DSN":  "app:pw2@tcp(10.0.0.2:4000)/",
	})})
	var names []string
	for _, c := range d.Clusters {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{"alpha", "beta", "gamma"}, names); diff != "" {
		t.Fatalf("clusters (-want +got):\n%s", diff)
	}

	baseConfig := []state.ConfigSetting{
		{Component: "pd", Key: "schedule.max-merge-region-keys", Value: num("200000")},
		{Component: "pd", Key: "schedule.max-merge-region-size", Value: num("20")},
		{Component: "tikv", Key: "coprocessor.region-max-keys", Value: num("1440000")},
		{Component: "tikv", Key: "coprocessor.region-max-size", Value: str("144MiB")},
		{Component: "tikv", Key: "coprocessor.region-split-keys", Value: num("960000")},
		{Component: "tikv", Key: "coprocessor.region-split-size", Value: str("96MiB")},
	}
	oltp := state.ResourceGroup{Name: "oltp", RUPerSec: p(int64(2000)), Priority: p("HIGH"), BurstableBool: p(true),
		Users: []state.UserRef{{User: "app", Host: "%"}}}
	batch := state.ResourceGroup{Name: "batch", RUPerSec: p(int64(500)), Priority: p("LOW"),
		QueryLimit: &state.QueryLimit{ExecElapsed: "1m0s", Action: "COOLDOWN"}}
	batchBeta := batch
	batchBeta.RUPerSec = p(int64(800))

	want := map[string]*state.DesiredCluster{
		"alpha": {
			Name: "alpha", DSN: "app:pw1@tcp(10.0.0.1:4000)/", DSNEnv: "ALPHA_DSN",
			Labels: map[string]string{"env": "prod", "region": "tokyo"},
			Config: baseConfig,
			Variables: []state.VariableSetting{
				{Name: "tidb_enable_non_prepared_plan_cache", Value: boolean(true)},
				{Name: "tidb_enable_prepared_plan_cache", Value: boolean(true)},
				{Name: "tidb_session_plan_cache_size", Value: num("200")},
			},
			ResourceGroups: []state.ResourceGroup{batch, oltp},
		},
		"beta": {
			Name: "beta", DSN: "app:pw2@tcp(10.0.0.2:4000)/", DSNEnv: "BETA_DSN",
			Labels: map[string]string{"env": "prod", "region": "osaka"},
			Config: append(append([]state.ConfigSetting{}, baseConfig...),
				state.ConfigSetting{Component: "tikv", Instance: "10.0.1.17:20160", Key: "coprocessor.region-max-keys", Value: num("3840000")},
				state.ConfigSetting{Component: "tikv", Instance: "10.0.1.17:20160", Key: "coprocessor.region-max-size", Value: str("384MiB")},
				state.ConfigSetting{Component: "tikv", Instance: "10.0.1.17:20160", Key: "coprocessor.region-split-keys", Value: num("2560000")},
				state.ConfigSetting{Component: "tikv", Instance: "10.0.1.17:20160", Key: "coprocessor.region-split-size", Value: str("256MiB")},
			),
			Variables: []state.VariableSetting{
				{Name: "tidb_enable_non_prepared_plan_cache", Value: boolean(false)},
				{Name: "tidb_enable_prepared_plan_cache", Value: boolean(true)},
			},
			ResourceGroups: []state.ResourceGroup{batchBeta, oltp},
		},
		"gamma": {
			Name: "gamma", DSN: "", DSNEnv: "GAMMA_DSN",
			Labels: map[string]string{"env": "staging"},
			Config: baseConfig,
			Variables: []state.VariableSetting{
				{Name: "tidb_enable_non_prepared_plan_cache", Value: boolean(false)},
				{Name: "tidb_enable_prepared_plan_cache", Value: boolean(true)},
			},
			ResourceGroups: []state.ResourceGroup{batch, oltp},
		},
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			got := cluster(t, d, name)
			if diff := cmp.Diff(w, got, ignoreRanges); diff != "" {
				t.Errorf("cluster %s (-want +got):\n%s", name, diff)
			}
		})
	}

	// Sources point at the line that set the winning value.
	alpha, beta := cluster(t, d, "alpha"), cluster(t, d, "beta")
	for _, tc := range []struct {
		what string
		got  diag.SourceRange
		file string
		line int
	}{
		{"alpha override", alpha.Variables[0].Range, "clusters.hcl", 9},
		{"alpha baseline", alpha.Variables[1].Range, "baseline.hcl", 23},
		{"beta instance", beta.Config[9].Range, "clusters.hcl", 21},
		{"beta ru override", beta.ResourceGroups[0].FieldRanges["ru_per_sec"], "clusters.hcl", 29},
		{"beta inherited limit", beta.ResourceGroups[0].FieldRanges["query_limit"], "baseline.hcl", 38},
	} {
		if !strings.HasSuffix(tc.got.Filename, tc.file) || tc.got.Start.Line != tc.line {
			t.Errorf("%s: source %s:%d, want %s:%d", tc.what, tc.got.Filename, tc.got.Start.Line, tc.file, tc.line)
		}
	}
	if d.ConfigHash == "" || len(d.ConfigHash) != 64 {
		t.Errorf("ConfigHash = %q, want a sha256 hex", d.ConfigHash)
	}
}

func TestDefaultCluster(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `variables { tidb_enable_prepared_plan_cache = "ON" }`)
	d := mustLoad(t, dir, Options{DefaultDSN: "root@tcp(127.0.0.1:4000)/"})
	want := []*state.DesiredCluster{{
		Name: "default", DSN: "root@tcp(127.0.0.1:4000)/",
		Variables: []state.VariableSetting{{Name: "tidb_enable_prepared_plan_cache", Value: str("ON")}},
	}}
	if diff := cmp.Diff(want, d.Clusters, ignoreRanges); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAcknowledgeAndPolicies(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
unmanaged_resource_groups = "drop"
instance_variables        = true

acknowledge "TF101" {
  reason = "region size reviewed"
  until  = "2027-03-31"
}

variables {
  max_connections = 2000
}

cluster "a" {
  unmanaged_resource_groups = "report"
}
cluster "b" {
  instance_variables = "deny"
  variables {
    max_connections = 1000
  }
}
`)
	d, diags := Load(dir, Options{})
	if !diags.HasErrors() {
		t.Fatalf("want an error for max_connections on cluster b (instance variables denied)")
	}
	var sb strings.Builder
	_ = diag.Write(&sb, diags, false)
	if !strings.Contains(sb.String(), "main.hcl:20:5: error: max_connections is an INSTANCE-scoped variable") {
		t.Errorf("diagnostics:\n%s", sb.String())
	}
	if d != nil {
		t.Errorf("Desired must be nil on error")
	}

	// Without cluster b, the policies resolve per cluster.
	writeFile(t, dir, "main.hcl", strings.Split(readFile(t, dir, "main.hcl"), `cluster "b"`)[0])
	d = mustLoad(t, dir, Options{})
	a := cluster(t, d, "a")
	want := &state.DesiredCluster{
		Name: "a", DropUnmanagedGroups: false, AllowInstanceVariables: true,
		Variables: []state.VariableSetting{{Name: "max_connections", Value: num("2000")}},
		Acknowledgements: []state.Acknowledgement{{Code: "TF101", Reason: "region size reviewed",
			Until: time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC)}},
	}
	if diff := cmp.Diff(want, a, ignoreRanges); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestShow compares `validate --show` output for each fleet cluster with a
// golden file (testdata/valid/fleet/show-NAME.golden; -update rewrites).
func TestShow(t *testing.T) {
	d := mustLoad(t, "testdata/valid/fleet", Options{Env: env(map[string]string{"ALPHA_DSN": "app:pw1@tcp(10.0.0.1:4000)/"}), Offline: true})
	for _, c := range d.Clusters {
		var sb strings.Builder
		if err := WriteCluster(&sb, c); err != nil {
			t.Fatal(err)
		}
		got := sb.String()
		if strings.Contains(got, "pw1") {
			t.Errorf("show prints the DSN:\n%s", got)
		}
		golden := "testdata/valid/fleet/show-" + c.Name + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./schema -update)", err)
		}
		if diff := cmp.Diff(string(want), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", golden, diff)
		}
	}
}

// TestSelectedClusters: with Options.Clusters, only the selected clusters
// need their environment (plan --cluster alpha needs ALPHA_DSN only); every
// cluster is still resolved, and without the option a missing variable is
// an error.
func TestSelectedClusters(t *testing.T) {
	e := env(map[string]string{"ALPHA_DSN": "app:pw1@tcp(10.0.0.1:4000)/"})
	d, diags := Load("testdata/valid/fleet", Options{Env: e, Clusters: []string{"alpha"}})
	if len(diags) > 0 {
		var sb strings.Builder
		_ = diag.Write(&sb, diags, false)
		t.Fatalf("want no diagnostics, got:\n%s", sb.String())
	}
	if got := cluster(t, d, "alpha").DSN; got != "app:pw1@tcp(10.0.0.1:4000)/" {
		t.Errorf("alpha DSN = %q", got)
	}
	if got := cluster(t, d, "beta"); got.DSN != "" || len(got.Config) != 10 {
		t.Errorf("beta: DSN %q (want unknown), %d config settings (want all 10)", got.DSN, len(got.Config))
	}
	_, diags = Load("testdata/valid/fleet", Options{Env: e, Clusters: []string{"beta"}})
	if len(diags.Errors()) != 1 || !strings.Contains(diags.Errors()[0].Summary, "environment variable BETA_DSN is not set") {
		t.Errorf("selected beta without BETA_DSN: want its error only, got %v", diags)
	}
	_, diags = Load("testdata/valid/fleet", Options{Env: e})
	if !diags.HasErrors() {
		t.Errorf("without Clusters, BETA_DSN unset must be an error")
	}
}

// Ignore blocks resolve per cluster like acknowledgements: the baseline's,
// with a cluster's block for the same pattern winning.
func TestIgnoreBlocks(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
ignore "tikv.raftstore.*" {
  reason = "INC-123"
  until  = "2027-03-31"
}

cluster "a" {}
cluster "b" {
  ignore "tikv.raftstore.*" {
    reason = "INC-456 on b"
  }
  ignore "variable.tidb_mem_quota_query" {
    reason = "set by the application team"
    until  = "2027-01-31"
  }
}
`)
	d := mustLoad(t, dir, Options{})
	type ig struct{ Pattern, Reason, Until string }
	got := func(name string) []ig {
		var out []ig
		for _, x := range cluster(t, d, name).Ignores {
			u := ""
			if !x.Until.IsZero() {
				u = x.Until.Format("2006-01-02")
			}
			if x.Range.IsZero() {
				t.Errorf("%s: ignore %s has no range", name, x.Pattern)
			}
			out = append(out, ig{string(x.Pattern), x.Reason, u})
		}
		return out
	}
	if diff := cmp.Diff([]ig{{"tikv.raftstore.*", "INC-123", "2027-03-31"}}, got("a")); diff != "" {
		t.Errorf("a (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]ig{{"tikv.raftstore.*", "INC-456 on b", ""}, {"variable.tidb_mem_quota_query", "set by the application team", "2027-01-31"}}, got("b")); diff != "" {
		t.Errorf("b (-want +got):\n%s", diff)
	}
}

// unmanaged_settings: on for the fleet at the top level, off again in one
// cluster block; a value that is neither is an error with a hint.
func TestUnmanagedSettingsPolicy(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
unmanaged_settings = "report"

cluster "a" {
  dsn = "root@tcp(127.0.0.1:4000)/"
}
cluster "b" {
  dsn                = "root@tcp(127.0.0.1:4001)/"
  unmanaged_settings = false
}
`)
	d := mustLoad(t, dir, Options{})
	if a, b := cluster(t, d, "a"), cluster(t, d, "b"); !a.ReportUnmanaged || b.ReportUnmanaged {
		t.Errorf("ReportUnmanaged: a %v (want true), b %v (want false)", a.ReportUnmanaged, b.ReportUnmanaged)
	}
	writeFile(t, dir, "main.hcl", "unmanaged_settings = \"everything\"\n")
	_, diags := Load(dir, Options{})
	var sb strings.Builder
	_ = diag.Write(&sb, diags, false)
	if !strings.Contains(sb.String(), "main.hcl:1:22: error: invalid value for unmanaged_settings") || !strings.Contains(sb.String(), `unmanaged_settings = "report"`) {
		t.Errorf("diagnostics:\n%s", sb.String())
	}
}

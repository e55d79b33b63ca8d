package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// TestFeatures loads small configurations, each exercising one construct,
// and compares the resolved "default" cluster.
func TestFeatures(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		extra map[string]string // more files in the directory
		opts  Options
		want  state.DesiredCluster
	}{
		{
			name: "nested blocks flatten with dots",
			src: `
tiflash {
  raftstore-proxy {
    server {
      snap-io-max-bytes-per-sec = "300MiB"
    }
  }
}
pd {
  schedule { max-merge-region-size = 54 }
}`,
			want: state.DesiredCluster{Config: []state.ConfigSetting{
				{Component: "pd", Key: "schedule.max-merge-region-size", Value: num("54")},
				{Component: "tiflash", Key: "raftstore-proxy.server.snap-io-max-bytes-per-sec", Value: str("300MiB")},
			}},
		},
		{
			name: "flat settings and nested blocks mix",
			src: `
tikv {
  settings = {
    "storage.block-cache.capacity" = "24GiB"
  }
  coprocessor {
    region-split-size = "256MiB"
  }
}`,
			want: state.DesiredCluster{Config: []state.ConfigSetting{
				{Component: "tikv", Key: "coprocessor.region-split-size", Value: str("256MiB")},
				{Component: "tikv", Key: "storage.block-cache.capacity", Value: str("24GiB")},
			}},
		},
		{
			name: "per-instance exception, instance lower-cased",
			src: `
tikv {
  coprocessor { region-split-size = "96MiB" }
}
tikv "TiKV-1.Example:20160" {
  coprocessor { region-split-size = "256MiB" }
}
tiflash "10.0.1.30:3930" {
  raftstore-proxy {
    server { snap-io-max-bytes-per-sec = "100MiB" }
  }
}`,
			want: state.DesiredCluster{Config: []state.ConfigSetting{
				{Component: "tikv", Key: "coprocessor.region-split-size", Value: str("96MiB")},
				{Component: "tikv", Instance: "tikv-1.example:20160", Key: "coprocessor.region-split-size", Value: str("256MiB")},
				{Component: "tiflash", Instance: "10.0.1.30:3930", Key: "raftstore-proxy.server.snap-io-max-bytes-per-sec", Value: str("100MiB")},
			}},
		},
		{
			name: "variables, locals and functions",
			src: `
variable "env" {
  type    = string
  default = "prod"
}
locals {
  sizes     = { prod = 200, staging = 50 }
  is_prod   = var.env == "prod"
  split     = format("%dMiB", max(96, 128))
  groups    = [for n in ["oltp", "batch"] : upper(n)]
}
tikv {
  coprocessor {
    region-split-size = local.split
  }
}
variables {
  tidb_session_plan_cache_size        = lookup(local.sizes, var.env, 100)
  tidb_enable_non_prepared_plan_cache = local.is_prod ? true : false
  tidb_slow_log_rules                 = join(",", local.groups)
}`,
			want: state.DesiredCluster{
				Config: []state.ConfigSetting{{Component: "tikv", Key: "coprocessor.region-split-size", Value: str("128MiB")}},
				Variables: []state.VariableSetting{
					{Name: "tidb_enable_non_prepared_plan_cache", Value: boolean(true)},
					{Name: "tidb_session_plan_cache_size", Value: num("200")},
					{Name: "tidb_slow_log_rules", Value: str("OLTP,BATCH")},
				},
			},
		},
		{
			name: "-var beats var file beats environment beats default",
			src: `
variable "a" { default = "default" }
variable "b" { default = "default" }
variable "c" { default = "default" }
variable "size" { type = number }
variables {
  x_a = var.a
  x_b = var.b
  x_c = var.c
  tidb_session_plan_cache_size = var.size
}`,
			extra: map[string]string{"vals.tfvars": "b = \"file\"\nc = \"file\"\nsize = 7\n"},
			opts: Options{
				Vars:     map[string]string{"c": "flag"},
				VarFiles: []string{"vals.tfvars"},
				Env:      env(map[string]string{"TIFORM_VAR_a": "env", "TIFORM_VAR_b": "env"}),
			},
			want: state.DesiredCluster{Variables: []state.VariableSetting{
				{Name: "tidb_session_plan_cache_size", Value: num("7")},
				{Name: "x_a", Value: str("env")},
				{Name: "x_b", Value: str("file")},
				{Name: "x_c", Value: str("flag")},
			}},
		},
		{
			name: "env with default, file relative to the directory",
			src: `
variables {
  tidb_slow_log_rules = trimspace(file("rules.txt"))
  x_region            = env("REGION", "tokyo")
  x_zone              = env("ZONE", "a")
}`,
			extra: map[string]string{"rules.txt": "  Query_time > 1  \n"},
			opts:  Options{Env: env(map[string]string{"ZONE": "b"}), AllowEnv: []string{"REGION", "ZONE"}},
			want: state.DesiredCluster{Variables: []state.VariableSetting{
				{Name: "tidb_slow_log_rules", Value: str("Query_time > 1")},
				{Name: "x_region", Value: str("tokyo")},
				{Name: "x_zone", Value: str("b")},
			}},
		},
		{
			name: "resource groups: every option",
			src: `
resource_group "default" {
  ru_per_sec = "unlimited"
  background {
    task_types        = ["BR", "ddl"]
    utilization_limit = 30
  }
}
resource_group "oltp" {
  ru_per_sec = 2000
  priority   = "medium"
  burstable  = "moderated"
  users      = ["'app'@'%'", "report@10.0.%"]
  query_limit {
    exec_elapsed   = "90s"
    processed_keys = 100000
    ru             = 5000
    action         = "switch_group(Batch)"
    watch          = "similar"
    watch_duration = "10m"
  }
  lifecycle {
    prevent_destroy = true
  }
}
resource_group "batch" {
  ru_per_sec = 500
  query_limit {}
  users      = []
}`,
			want: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{
				{Name: "batch", RUPerSec: p(int64(500)), QueryLimit: &state.QueryLimit{Empty: true}, Users: []state.UserRef{}},
				{Name: "default", RUPerSec: p(state.UnlimitedRU),
					Background: &state.Background{TaskTypes: []string{"br", "ddl"}, UtilizationLimit: p(int64(30))}},
				{Name: "oltp", RUPerSec: p(int64(2000)), Priority: p("MEDIUM"), Burstable: p("MODERATED"),
					Users: []state.UserRef{{User: "app", Host: "%"}, {User: "report", Host: "10.0.%"}},
					QueryLimit: &state.QueryLimit{ExecElapsed: "1m30s", ProcessedKeys: p(int64(100000)), RU: p(int64(5000)),
						Action: "SWITCH_GROUP", SwitchGroup: "batch", Watch: "SIMILAR", WatchDuration: "10m0s"},
					PreventDestroy: true},
			}},
		},
		{
			// Every name the real server accepted as a quoted identifier
			// (internal tests against tidb-server: cmd/real_groups_test.go);
			// case folds as Go's strings.ToLower, as TiDB's model.NewCIStr.
			name: "resource group names as TiDB accepts them",
			src: `
resource_group "rg-with-dash" { ru_per_sec = 1 }
resource_group "RG1" { ru_per_sec = 1 }
resource_group "ÉTÉ" { ru_per_sec = 1 }
resource_group "select" { ru_per_sec = 1 }
resource_group "a.b c" { ru_per_sec = 1 }
resource_group "trail " { ru_per_sec = 1 }
resource_group "a2345678901234567890123456789012" { ru_per_sec = 1 }
resource_group "ⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥ" {
  ru_per_sec = 1
  query_limit {
    exec_elapsed = "1s"
    action       = "SWITCH_GROUP(` + "`RG-With-Dash`" + `)"
  }
}`,
			want: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{
				{Name: "a.b c", RUPerSec: p(int64(1))},
				{Name: "a2345678901234567890123456789012", RUPerSec: p(int64(1))},
				{Name: "rg-with-dash", RUPerSec: p(int64(1))},
				{Name: "rg1", RUPerSec: p(int64(1))},
				{Name: "select", RUPerSec: p(int64(1))},
				{Name: "trail ", RUPerSec: p(int64(1))},
				{Name: "été", RUPerSec: p(int64(1))},
				{Name: "ⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥ", RUPerSec: p(int64(1)),
					QueryLimit: &state.QueryLimit{ExecElapsed: "1s", Action: "SWITCH_GROUP", SwitchGroup: "rg-with-dash"}},
			}},
		},
		{
			name: "unknown keys are kept, managed with a warning",
			src: `
tikv {
  made-up { thing = "x" }
}
variables { tidb_totally_new_variable = 1 }`,
			want: state.DesiredCluster{
				Config:    []state.ConfigSetting{{Component: "tikv", Key: "made-up.thing", Value: str("x")}},
				Variables: []state.VariableSetting{{Name: "tidb_totally_new_variable", Value: num("1")}},
			},
		},
		{
			name: "numbers keep their shortest form; lists join with commas",
			src: `
tikv {
  gc { ratio-threshold = 1.10 }
}
pd {
  replication { location-labels = ["zone", "host"] }
}`,
			want: state.DesiredCluster{Config: []state.ConfigSetting{
				{Component: "pd", Key: "replication.location-labels", Value: str("zone,host")},
				{Component: "tikv", Key: "gc.ratio-threshold", Value: num("1.1")},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "main.hcl", tc.src)
			for name, content := range tc.extra {
				writeFile(t, dir, name, content)
			}
			opts := tc.opts
			for i, f := range opts.VarFiles {
				opts.VarFiles[i] = filepath.Join(dir, f)
			}
			if opts.Env == nil {
				opts.Env = env(nil)
			}
			d, diags := Load(dir, opts)
			if diags.HasErrors() {
				var sb strings.Builder
				_ = diag.Write(&sb, diags, false)
				t.Fatalf("Load failed:\n%s", sb.String())
			}
			want := tc.want
			want.Name = "default"
			if diff := cmp.Diff(&want, d.Clusters[0], ignoreRanges); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnknownKeyWarning checks the rule for names the catalog does not know:
// far from any known name → a warning, and the setting is kept.
func TestUnknownKeyWarning(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", "tikv {\n  made-up { thing = \"x\" }\n}\n")
	_, diags := Load(dir, Options{})
	if diags.HasErrors() || len(diags.Warnings()) != 1 {
		t.Fatalf("want exactly one warning, got %v", diags)
	}
	w := diags.Warnings()[0]
	if w.Range.Start.Line != 2 || !strings.Contains(w.Summary, "tikv made-up.thing is not a TiKV setting in any version tiform knows (v6.5.0–") || !strings.Contains(w.Detail, "refuses it (TF150)") {
		t.Errorf("warning = %+v", w)
	}
}

func TestOffline(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
cluster "prod" {
  dsn = env("PROD_DSN")
}`)
	// Online: the unset variable is an error.
	if _, diags := Load(dir, Options{Env: env(nil)}); !diags.HasErrors() ||
		diags[0].Summary != "environment variable PROD_DSN is not set" ||
		diags[0].Hint != `export PROD_DSN=…, or give a default: env("PROD_DSN", "…")` {
		t.Errorf("unset env() without default must fail when not offline: %+v", diags)
	}
	// Offline (validate): accepted, DSN unknown → "".
	d, diags := Load(dir, Options{Env: env(nil), Offline: true})
	if diags.HasErrors() {
		t.Fatalf("offline: %v", diags)
	}
	if d.Clusters[0].DSN != "" {
		t.Errorf("offline DSN = %q, want empty", d.Clusters[0].DSN)
	}
	// With the variable set, the DSN is read.
	d, diags = Load(dir, Options{Env: env(map[string]string{"PROD_DSN": "u:p@tcp(h:4000)/"})})
	if diags.HasErrors() || d.Clusters[0].DSN != "u:p@tcp(h:4000)/" {
		t.Errorf("DSN = %q, diags %v", d.Clusters[0].DSN, diags)
	}
}

// TestDSNNeverPrinted: a bad DSN from the environment is reported without
// its text; a DSN built from an interpolated password is not a literal.
func TestDSNNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
variable "pw" {
  sensitive = true
}
cluster "a" {
  dsn = env("A_DSN")
}
cluster "b" {
  dsn = "app:${var.pw}@tcp(10.0.0.2:4000)/"
}`)
	_, diags := Load(dir, Options{
		Vars: map[string]string{"pw": "topsecret"},
		Env:  env(map[string]string{"A_DSN": "app:hunter2@oops"}),
	})
	var sb strings.Builder
	_ = diag.Write(&sb, diags, false)
	out := sb.String()
	if len(diags.Errors()) != 1 || !strings.Contains(out, "dsn is not a valid DSN") {
		t.Errorf("want exactly the invalid-DSN error for cluster a, got:\n%s", out)
	}
	for _, secret := range []string{"hunter2", "topsecret", "oops"} {
		if strings.Contains(out, secret) {
			t.Errorf("output contains %q:\n%s", secret, out)
		}
	}
}

func TestVarErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `variable "split_size" { default = "96MiB" }`)
	writeFile(t, dir, "v.tfvars", "split_sise = \"1\"\n")
	_, diags := Load(dir, Options{
		Vars:     map[string]string{"splitsize": "256MiB"},
		VarFiles: []string{filepath.Join(dir, "v.tfvars")},
	})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+" | "+d.Hint)
	}
	want := []string{
		`--var splitsize: no variable "splitsize" is declared | did you mean ` + "`--var split_size`?",
		`value for undeclared variable "split_sise" | did you mean ` + "`split_size`?",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestConfigHashChanges(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `variables { tidb_enable_prepared_plan_cache = true }`)
	d1 := mustLoad(t, dir, Options{})
	d2 := mustLoad(t, dir, Options{})
	writeFile(t, dir, "main.hcl", `variables { tidb_enable_prepared_plan_cache = false }`)
	d3 := mustLoad(t, dir, Options{})
	if d1.ConfigHash != d2.ConfigHash {
		t.Errorf("hash is not stable")
	}
	if d1.ConfigHash == d3.ConfigHash {
		t.Errorf("hash does not change with the content")
	}
}

func TestLoadDirectoryErrors(t *testing.T) {
	_, diags := Load(filepath.Join(t.TempDir(), "missing"), Options{})
	if !diags.HasErrors() || !strings.Contains(diags[0].Summary, "cannot read configuration directory") {
		t.Errorf("missing dir: %v", diags)
	}
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags = Load(empty, Options{})
	if !diags.HasErrors() || !strings.Contains(diags[0].Summary, "has no *.hcl files") {
		t.Errorf("empty dir: %v", diags)
	}
}

// TestFunctionNames: the functions the language promises (docs/language.md).
func TestFunctionNames(t *testing.T) {
	have := map[string]bool{}
	for _, n := range functionNames() {
		have[n] = true
	}
	for _, n := range []string{"env", "file", "lookup", "merge", "format", "upper", "lower", "max", "min", "concat",
		"contains", "join", "split", "replace", "coalesce", "tostring", "tonumber", "tobool", "length", "keys", "values"} {
		if !have[n] {
			t.Errorf("function %s is missing", n)
		}
	}
}

// TestHiddenValues: an error message that would quote a DSN or a sensitive
// value (here cty's conversion error quoting the string) never shows it.
func TestHiddenValues(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
variable "token" {
  type      = string
  sensitive = true
}
cluster "a" {
  dsn = env("A_DSN")
}
variables {
  x_dsn   = tonumber(env("A_DSN"))
  x_token = tonumber(var.token)
}`)
	_, diags := Load(dir, Options{
		Vars:     map[string]string{"token": "tok-123456"},
		Env:      env(map[string]string{"A_DSN": "app:pw@tcp(10.0.0.1:4000)/"}),
		AllowEnv: []string{"A_DSN"}, // read outside the dsn too: allowed here, hidden anyway
	})
	var sb strings.Builder
	_ = diag.Write(&sb, diags, false)
	out := sb.String()
	if !diags.HasErrors() {
		t.Fatalf("want errors, got:\n%s", out)
	}
	if strings.Count(out, "cannot convert \"(hidden)\" to number") != 2 {
		t.Errorf("want both conversion errors with the value hidden, got:\n%s", out)
	}
	for _, secret := range []string{"app:pw@tcp", "tok-123456"} {
		if strings.Contains(out, secret) {
			t.Errorf("diagnostics show %q:\n%s", secret, out)
		}
	}
}

// TestGroupMerge: a cluster's declaration of a group overlays the baseline's
// attribute by attribute; users, query_limit and lifecycle are replaced whole.
func TestGroupMerge(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
variable "hosts" {
  type = list(string)
}
resource_group "oltp" {
  ru_per_sec = 1000
  priority   = "HIGH"
  users      = [for h in var.hosts : "app@${h}"]
  query_limit {
    exec_elapsed = "10s"
    action       = "KILL"
  }
  lifecycle {
    prevent_destroy = true
  }
}
cluster "a" {}
cluster "b" {
  resource_group "oltp" {
    ru_per_sec = 3000
    burstable  = "UNLIMITED"
    users      = []
    query_limit {}
    lifecycle {
      prevent_destroy = false
    }
  }
  resource_group "extra" {
    ru_per_sec = 10
  }
}`)
	d, diags := Load(dir, Options{Vars: map[string]string{"hosts": `["%", "10.0.%"]`}})
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	base := state.ResourceGroup{Name: "oltp", RUPerSec: p(int64(1000)), Priority: p("HIGH"),
		Users:      []state.UserRef{{User: "app", Host: "%"}, {User: "app", Host: "10.0.%"}},
		QueryLimit: &state.QueryLimit{ExecElapsed: "10s", Action: "KILL"}, PreventDestroy: true}
	if diff := cmp.Diff([]state.ResourceGroup{base}, cluster(t, d, "a").ResourceGroups, ignoreRanges); diff != "" {
		t.Errorf("a (-want +got):\n%s", diff)
	}
	want := []state.ResourceGroup{
		{Name: "extra", RUPerSec: p(int64(10))},
		{Name: "oltp", RUPerSec: p(int64(3000)), Priority: p("HIGH"), Burstable: p("UNLIMITED"),
			Users: []state.UserRef{}, QueryLimit: &state.QueryLimit{Empty: true}},
	}
	b := cluster(t, d, "b")
	if diff := cmp.Diff(want, b.ResourceGroups, ignoreRanges); diff != "" {
		t.Errorf("b (-want +got):\n%s", diff)
	}
	if b.ResourceGroups[1].Users == nil {
		t.Errorf("users = [] must stay non-nil (no account may be bound)")
	}
	// Field sources: overridden from the cluster, inherited from the baseline.
	fr := b.ResourceGroups[1].FieldRanges
	if fr["ru_per_sec"].Start.Line != 20 || fr["priority"].Start.Line != 7 {
		t.Errorf("field ranges: ru_per_sec line %d (want 20), priority line %d (want 7)", fr["ru_per_sec"].Start.Line, fr["priority"].Start.Line)
	}
	// The baseline group of cluster a is not affected by b's overrides.
	if a := cluster(t, d, "a"); *a.ResourceGroups[0].RUPerSec != 1000 || len(a.ResourceGroups[0].Users) != 2 {
		t.Errorf("cluster a shares state with b: %+v", a.ResourceGroups[0])
	}
}

// TestOfflineSensitiveVariable: validate (offline) does not need the value of
// a sensitive variable; plan does.
func TestOfflineSensitiveVariable(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
variable "pw" {
  type      = string
  sensitive = true
}
variable "size" {
  type = number
}
cluster "a" {
  dsn = "app:${var.pw}@tcp(10.0.0.1:4000)/"
}`)
	_, diags := Load(dir, Options{Offline: true, Vars: map[string]string{"size": "1"}})
	if diags.HasErrors() {
		t.Errorf("offline: a missing sensitive variable must not fail: %v", diags)
	}
	_, diags = Load(dir, Options{Offline: true})
	if len(diags.Errors()) != 1 || !strings.Contains(diags[0].Summary, `required variable "size"`) {
		t.Errorf("offline: a missing non-sensitive variable is still an error: %v", diags)
	}
	_, diags = Load(dir, Options{Vars: map[string]string{"size": "1"}})
	if len(diags.Errors()) != 1 || !strings.Contains(diags[0].Summary, `required variable "pw"`) {
		t.Errorf("online: a missing sensitive variable is an error: %v", diags)
	}
}

func TestHugeNumberVar(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", "variable \"n\" {\n  type = number\n}\nvariables {\n  x = \"${var.n}\"\n}\n")
	_, diags := Load(dir, Options{Vars: map[string]string{"n": "1e100000000"}})
	if len(diags.Errors()) != 1 || !strings.Contains(diags[0].Detail, "out of range") {
		t.Errorf("diags = %+v", diags)
	}
}

func TestHugeNumberInTemplates(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", "variable \"l\" {\n  type = list(string)\n}\nvariable \"f\" {}\n")
	writeFile(t, dir, "v.tfvars", "f = \"${1e100000000}\"\n")
	_, diags := Load(dir, Options{Vars: map[string]string{"l": `["${1e100000000}"]`}, VarFiles: []string{filepath.Join(dir, "v.tfvars")}})
	if len(diags.Errors()) != 2 {
		t.Errorf("want two out-of-range errors, got %+v", diags)
	}
}

// TestDSNAssembledPassword: a password the files hold is refused however it
// is spelled (a local, a template, a function of literals, a variable's
// default spliced in); a password that comes from outside the files (env,
// a sensitive variable without default, file()) is fine.
func TestDSNAssembledPassword(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hcl     string
		refused bool
	}{
		{"local", `
locals { pw = "hunter22" }
cluster "a" { dsn = "app:${local.pw}@tcp(10.0.0.2:4000)/" }`, true},
		{"template of a literal", `
cluster "a" { dsn = "app:${"hunter22"}@tcp(10.0.0.2:4000)/" }`, true},
		{"join of literals", `
cluster "a" { dsn = join("", ["app:", "hunter22", "@tcp(10.0.0.2:4000)/"]) }`, true},
		{"env default assembled", `
locals { pw = "hunter22" }
cluster "a" { dsn = env("A_DSN", "app:${local.pw}@tcp(10.0.0.2:4000)/") }`, true},
		{"variable default spliced in", `
variable "pw" { default = "hunter22" }
cluster "a" { dsn = "app:${var.pw}@tcp(10.0.0.2:4000)/" }`, true},
		{"chain of locals", `
locals {
  a  = "hunter"
  b  = "${local.a}22"
  dsn = format("app:%s@tcp(10.0.0.2:4000)/", local.b)
}
cluster "a" { dsn = local.dsn }`, true},
		{"env", `
cluster "a" { dsn = env("A_DSN") }`, false},
		{"sensitive variable without default", `
variable "pw" { sensitive = true }
cluster "a" { dsn = "app:${var.pw}@tcp(10.0.0.2:4000)/" }`, false},
		{"password from env in a template", `
cluster "a" { dsn = "app:${env("A_PW")}@tcp(10.0.0.2:4000)/" }`, false},
		{"password from a mounted file", `
cluster "a" { dsn = "app:${trimspace(file("/run/secrets/pw"))}@tcp(10.0.0.2:4000)/" }`, false},
		{"no password", `
locals { host = "10.0.0.2" }
cluster "a" { dsn = "app@tcp(${local.host}:4000)/" }`, false},
		{"empty default, env otherwise", `
variable "pw" {
  default   = ""
  sensitive = true
}
cluster "a" { dsn = var.pw == "" ? env("A_DSN", "") : "app:${var.pw}@tcp(10.0.0.2:4000)/" }`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "main.hcl", tc.hcl)
			_, diags := Load(dir, Options{Env: env(nil), Offline: true})
			var sb strings.Builder
			_ = diag.Write(&sb, diags, false)
			out := sb.String()
			got := strings.Contains(out, "error: literal password in a DSN")
			if got != tc.refused {
				t.Errorf("refused = %v, want %v:\n%s", got, tc.refused, out)
			}
			if tc.refused && len(diags.Errors()) != 1 {
				t.Errorf("want exactly one error, got:\n%s", out)
			}
			if strings.Contains(out, "hunter22") {
				t.Errorf("the password is printed:\n%s", out)
			}
		})
	}
}

// TestOrderedPairs: a declared split value above the declared max value of
// the same instances, or IME thresholds out of order, is an error offline
// (TiKV refuses it), type-wide and per instance
// exception; consistent values, or a pair one side of which is not declared,
// pass.
func TestOrderedPairs(t *testing.T) {
	for _, tc := range []struct {
		name string
		hcl  string
		want []string // error summaries
	}{
		{"type-wide size", `
tikv {
  coprocessor {
    region-split-size = "512MiB"
    region-max-size   = "384MiB"
  }
}`, []string{"tikv: coprocessor.region-split-size 512MiB exceeds coprocessor.region-max-size 384MiB"}},
		{"spellings compared by value", `
tikv {
  coprocessor {
    region-split-size = 402653184
    region-max-size   = "384MB"
  }
}`, nil},
		{"instance split over type-wide max", `
tikv {
  coprocessor {
    region-split-keys = 960000
    region-max-keys   = 1440000
  }
}
tikv "10.0.1.17:20160" {
  coprocessor {
    region-split-keys = 2560000
  }
}`, []string{`tikv "10.0.1.17:20160": coprocessor.region-split-keys 2560000 exceeds coprocessor.region-max-keys 1440000`}},
		{"instance lowers max below type-wide split", `
tikv {
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
  }
}
tikv "10.0.1.17:20160" {
  coprocessor {
    region-max-size = "144MiB"
  }
}`, []string{`tikv "10.0.1.17:20160": coprocessor.region-split-size 256MiB exceeds coprocessor.region-max-size 144MiB`}},
		{"instance raises both", `
tikv {
  coprocessor {
    region-split-size = "96MiB"
    region-max-size   = "144MiB"
  }
}
tikv "10.0.1.17:20160" {
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
  }
}`, nil},
		{"IME evict-threshold not below capacity", `
tikv {
  in-memory-engine {
    capacity            = "5GiB"
    evict-threshold     = "5GiB"
    stop-load-threshold = "4GiB"
  }
}`, []string{"tikv: in-memory-engine.evict-threshold 5GiB is not below in-memory-engine.capacity 5GiB"}},
		{"IME stop-load above evict", `
tikv {
  in-memory-engine {
    capacity            = "5GiB"
    evict-threshold     = "4920MiB"
    stop-load-threshold = "5000MiB"
  }
}`, []string{"tikv: in-memory-engine.stop-load-threshold 5000MiB exceeds in-memory-engine.evict-threshold 4920MiB"}},
		{"IME in order (the docs' SHOW CONFIG example)", `
tikv {
  in-memory-engine {
    capacity            = "5GiB"
    evict-threshold     = "4920MiB"
    stop-load-threshold = "4208MiB"
  }
}`, nil},
		{"max not declared", `
tikv {
  coprocessor {
    region-split-size = "1GiB"
  }
}`, nil},
		{"cluster override breaks the baseline pair", `
tikv {
  coprocessor {
    region-split-size = "96MiB"
    region-max-size   = "144MiB"
  }
}
cluster "a" {
  dsn = env("A_DSN")
  tikv {
    coprocessor {
      region-split-size = "256MiB"
    }
  }
}`, []string{"tikv: coprocessor.region-split-size 256MiB exceeds coprocessor.region-max-size 144MiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "main.hcl", tc.hcl)
			_, diags := Load(dir, Options{Env: env(nil), Offline: true})
			var got []string
			for _, d := range diags.Errors() {
				got = append(got, d.Summary)
				if d.Hint == "" || len(d.Related) != 1 {
					t.Errorf("%q: want a suggestion and the other value's location", d.Summary)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBareSize: a size written as a small bare number is bytes, almost
// certainly not what was meant: a warning with the MiB/GiB spelling. Larger
// byte counts, 0, strings with units, and numbers for non-size settings pass.
func TestBareSize(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", `
tikv {
  coprocessor {
    region-split-size = 256
    region-max-size   = 402653184
    region-split-keys = 960000
    region-max-keys   = 1440000
  }
  storage {
    block-cache {
      capacity = "24GiB"
    }
  }
  gc {
    max-write-bytes-per-sec = 0
  }
}
pd {
  schedule {
    max-merge-region-size = 54
  }
}
variables {
  tidb_plan_cache_max_plan_size = 4
}`)
	_, diags := Load(dir, Options{Env: env(nil), Offline: true})
	var got []string
	for _, d := range diags {
		got = append(got, d.Severity.String()+": "+d.Summary+" | "+d.Hint)
	}
	want := []string{
		`warning: region-split-size = 256 is 256 bytes | if you meant MiB or GiB, write region-split-size = "256MiB" or "256GiB"`,
		`warning: tidb_plan_cache_max_plan_size = 4 is 4 bytes | if you meant MiB or GiB, write tidb_plan_cache_max_plan_size = "4MiB" or "4GiB"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

package importer

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

var update = flag.Bool("update", false, "rewrite golden files")

// synthetic is a read of a v8.5.1 cluster (1 PD, 2 TiKV) with rows, before
// the caller adds its own.
func synthetic() *state.Live {
	v := version.MustParse("v8.5.1")
	return &state.Live{
		ServerVersion: "8.0.11-TiDB-v8.5.1", ServerVersionParsed: v,
		Instances: []state.Instance{
			{Component: state.TiDB, Address: "10.0.0.1:4000", Version: v},
			{Component: state.PD, Address: "10.0.0.2:2379", Version: v},
			{Component: state.TiKV, Address: "10.0.0.3:20160", Version: v},
			{Component: state.TiKV, Address: "10.0.0.4:20160", Version: v},
		},
		ConfigRead:    []state.Component{state.TiDB, state.PD, state.TiKV},
		Variables:     map[string]string{},
		VariablesRead: true, ResourceGroupsRead: true, UsersRead: true,
	}
}

func row(l *state.Live, comp state.Component, inst, key, val string) {
	l.Config = append(l.Config, state.ConfigRow{Component: comp, Instance: inst, Key: key, Value: val})
}

// loadAndPlan checks files the way `tiform import` does before writing
// them: valid, and a plan over l shows no changes.
func loadAndPlan(t *testing.T, r *Result, l *state.Live) {
	t.Helper()
	m := map[string][]byte{}
	for _, f := range r.Files {
		m[f.Name] = f.Content
	}
	d, diags := schema.LoadFiles(".", m, schema.Options{Offline: true})
	if diags.HasErrors() {
		t.Fatalf("generated configuration is invalid: %v\n%s", diags.Errors(), m)
	}
	cp, err := planner.BuildCluster(d.Clusters[0], l, planner.Options{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) > 0 {
		t.Fatalf("plan over what was imported has %d changes: %s", len(cp.Changes), cp.Changes[0].Addr)
	}
}

// TestGenerateGolden: an unnamed cluster (main.hcl) with a per-instance
// value, a value kept from an older default, a list, and a group.
func TestGenerateGolden(t *testing.T) {
	l := synthetic()
	for _, in := range []string{"10.0.0.3:20160", "10.0.0.4:20160"} {
		row(l, state.TiKV, in, "coprocessor.region-split-size", "96MiB")
		row(l, state.TiKV, in, "coprocessor.batch-split-limit", "10")
	}
	row(l, state.TiKV, "10.0.0.3:20160", "split.qps-threshold", "3000")
	row(l, state.TiKV, "10.0.0.4:20160", "split.qps-threshold", "4000")
	row(l, state.PD, "10.0.0.2:2379", "schedule.max-merge-region-size", "20")
	l.Variables["tidb_session_plan_cache_size"] = "300"
	l.Variables["tidb_enable_prepared_plan_cache"] = "OFF"
	l.Variables["tidb_prepared_plan_cache_size"] = "300" // deprecated: never imported
	ru, p := int64(2000), "HIGH"
	l.ResourceGroups = []state.ResourceGroup{{Name: "oltp", RUPerSec: &ru, Priority: &p, Users: []state.UserRef{{User: "app", Host: "%"}}}}
	l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "app", Host: "%"}, ResourceGroup: "oltp"}}
	r, err := Generate([]Cluster{{Live: l}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 || r.Files[0].Name != MainFile {
		t.Fatalf("files %v", r.Files)
	}
	golden := filepath.Join("testdata", "main.hcl.golden")
	if *update {
		if err := os.WriteFile(golden, r.Files[0].Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(r.Files[0].Content)); diff != "" {
		t.Errorf("differs from %s (go test ./importer -update):\n%s", golden, diff)
	}
	loadAndPlan(t, r, l)
	if c := r.Clusters[0]; c.Config != 2 || c.Instance != 1 || c.Variables != 2 || c.Groups != 1 || c.Users != 1 {
		t.Errorf("report %+v", c)
	}
}

// TestGenerateHostile: names and values with quotes, control characters,
// template sequences and huge values give a valid configuration (what can be
// declared is, escaped), report what cannot, and never write a secret.
func TestGenerateHostile(t *testing.T) {
	l := synthetic()
	huge := strings.Repeat("x", maxValueBytes+1)
	for _, in := range []string{"10.0.0.3:20160", "10.0.0.4:20160"} {
		row(l, state.TiKV, in, "coprocessor.consistency-check-method", "mvcc\"${x}%{y}\n\x00\u2028")
		row(l, state.TiKV, in, "split.qps-threshold", "999999999999999999999999999999999999")
		row(l, state.TiKV, in, "coprocessor.batch-split-limit", huge)
		row(l, state.TiKV, in, "Weird Key\"", "1")
	}
	l.Variables["tidb_session_plan_cache_size"] = "not a number"
	l.Variables["tidb_plan_cache_max_plan_size"] = "4194304\x00"
	l.Variables["x\"y"] = "z"
	ru := int64(100)
	l.ResourceGroups = []state.ResourceGroup{
		// Names TiDB accepts (any quoted identifier) are written escaped;
		// the empty one and one longer than 32 bytes are refused.
		{Name: "bad\"name${x}", RUPerSec: &ru},
		{Name: "", RUPerSec: &ru},
		{Name: strings.Repeat("é", 17), RUPerSec: &ru},
		{Name: "ok", RUPerSec: &ru, Users: []state.UserRef{{User: "we'ird", Host: "%"}, {User: "new\nline", Host: "%"}, {User: "good", Host: "10.0.%"}}},
	}
	for _, u := range l.ResourceGroups[1].Users {
		l.Users = append(l.Users, state.UserBinding{UserRef: u, ResourceGroup: "ok"})
	}
	labels := map[string]string{"team name": "dba \"ops\"\n${x}", "env": "prod"}
	r, err := Generate([]Cluster{{Name: "prod-1.a", Labels: labels, Live: l}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	loadAndPlan(t, r, l)
	var all bytes.Buffer
	for _, f := range r.Files {
		all.Write(f.Content)
	}
	out := all.String()
	for _, bad := range []string{"\x00", "\u2028", huge[:1000]} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %q", bad[:min(len(bad), 20)])
		}
	}
	for _, want := range []string{`env("TIFORM_DSN_PROD_1_A")`, `"team name" = "dba \"ops\"\n$${x}"`, `resource_group "ok" {`, `resource_group "bad\"name$${x}" {`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	var lines []string
	for _, g := range r.Clusters[0].LeftOut {
		lines = append(lines, g.Why+": "+strings.Join(g.Keys, ", "))
	}
	skipped := strings.Join(lines, "\n")
	if strings.Contains(out, "qps-threshold") {
		t.Errorf("output declares a qps-threshold no 64-bit field holds:\n%s", out)
	}
	for _, want := range []string{"batch-split-limit", "bytes long", "qps-threshold", "does not fit in 64 bits", "tidb_session_plan_cache_size", `"": the name is empty`,
		"is 34 bytes long once lower-cased", `account "we'ird@%"`} {
		if !strings.Contains(skipped, want) {
			t.Errorf("skipped lacks %s:\n%s", want, skipped)
		}
	}
}

func TestDSNEnvNames(t *testing.T) {
	got := DSNEnvNames([]string{"prod", "prod-tokyo", "prod.tokyo", "prod_tokyo", "0db"})
	want := []string{"TIFORM_DSN_PROD", "TIFORM_DSN_PROD_TOKYO", "TIFORM_DSN_PROD_TOKYO_2", "TIFORM_DSN_PROD_TOKYO_3", "TIFORM_DSN_0DB"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestGenerateAll: Options.All imports values at their default too, with
// a comment saying so.
func TestGenerateAll(t *testing.T) {
	l := synthetic()
	for _, in := range []string{"10.0.0.3:20160", "10.0.0.4:20160"} {
		row(l, state.TiKV, in, "coprocessor.batch-split-limit", "10")
	}
	r, err := Generate([]Cluster{{Live: l}}, Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Files[0].Content), "batch-split-limit = 10 # default (v8.5.1)") {
		t.Errorf("--all:\n%s", r.Files[0].Content)
	}
	r, err = Generate([]Cluster{{Live: l}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(r.Files[0].Content), "batch-split-limit") || r.Clusters[0].AtDefault != 1 {
		t.Errorf("without --all: %+v\n%s", r.Clusters[0], r.Files[0].Content)
	}
}

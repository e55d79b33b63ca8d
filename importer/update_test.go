package importer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

// readSim starts an emulated v8.5.1 cluster (3 TiKV on
// 127.0.0.1:20160–20162) with sql run after start, and reads everything.
func readSim(t *testing.T, sql ...string) *state.Live {
	t.Helper()
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.5.1", TiKV: 3, SQL: sql})
	ctx := context.Background()
	db, err := live.Open(ctx, s.DSN("root", ""), live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, live.Everything())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// loadFiles loads a configuration of files (name → text).
func loadFiles(t *testing.T, files map[string]string) (map[string][]byte, *state.Desired) {
	t.Helper()
	src := map[string][]byte{}
	for n, s := range files {
		src[n] = []byte(s)
	}
	d, diags := schema.LoadFiles(".", src, schema.Options{Offline: true})
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags.Errors())
	}
	return src, d
}

// runUpdate loads files, plans every cluster against its live state (by
// name) and runs Update.
func runUpdate(t *testing.T, files map[string]string, lives map[string]*state.Live, everyone bool) *UpdateResult {
	t.Helper()
	src, d := loadFiles(t, files)
	in := UpdateInput{Sources: src, Everyone: everyone}
	for _, dc := range d.Clusters {
		l := lives[dc.Name]
		if l == nil {
			continue
		}
		cp, err := planner.BuildCluster(dc, l, planner.Options{Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		in.Clusters = append(in.Clusters, Drifted{Desired: dc, Live: l, Changes: cp.Changes})
		in.Fleet = in.Fleet || !dc.Range.IsZero()
	}
	res, err := Update(in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestUpdateInPlace(t *testing.T) {
	l := readSim(t,
		"SET GLOBAL tidb_session_plan_cache_size = 300",
		"SET GLOBAL tidb_enable_prepared_plan_cache = OFF",
		"SET CONFIG tikv `raftstore.raft-log-gc-size-limit` = '100MiB'",
		"SET CONFIG tikv `split.qps-threshold` = 6000",
		"CREATE RESOURCE GROUP oltp RU_PER_SEC = 3000 PRIORITY = HIGH QUERY_LIMIT = (EXEC_ELAPSED = '30s', ACTION = KILL)",
		"CREATE USER 'app'@'%'", "CREATE USER 'api'@'%'",
		"ALTER USER 'app'@'%' RESOURCE GROUP oltp", "ALTER USER 'api'@'%' RESOURCE GROUP oltp",
	)
	// Hand-written: not in the canonical layout, tabs, comments everywhere,
	// a size written as bytes, a boolean written "ON", the flat form.
	src := "# the prod cluster\n" +
		"tikv {\n" +
		"\tsettings = {\n" +
		"\t\t\"split.qps-threshold\" = 5000   # tuned in INC-1\n" +
		"\t}\n" +
		"\traftstore {\n" +
		"\t\traft-log-gc-size-limit = 201326592 // bytes\n" +
		"\t}\n" +
		"}\n\n" +
		"variables {\n" +
		"  tidb_session_plan_cache_size = 200 # was 100\n" +
		"  tidb_enable_prepared_plan_cache = \"ON\"\n" +
		"}\n\n" +
		"resource_group \"oltp\" {\n" +
		"  ru_per_sec = 2000  # peak\n" +
		"  priority = \"HIGH\"\n" +
		"  users = [\"app@%\"]\n" +
		"  query_limit {\n" +
		"    exec_elapsed = \"60s\"\n" +
		"    action = \"KILL\"\n" +
		"  }\n" +
		"}\n"
	want := "# the prod cluster\n" +
		"tikv {\n" +
		"\tsettings = {\n" +
		"\t\t\"split.qps-threshold\" = 6000   # tuned in INC-1\n" +
		"\t}\n" +
		"\traftstore {\n" +
		"\t\traft-log-gc-size-limit = 104857600 // bytes\n" +
		"\t}\n" +
		"}\n\n" +
		"variables {\n" +
		"  tidb_session_plan_cache_size = 300 # was 100\n" +
		"  tidb_enable_prepared_plan_cache = \"OFF\"\n" +
		"}\n\n" +
		"resource_group \"oltp\" {\n" +
		"  ru_per_sec = 3000  # peak\n" +
		"  priority = \"HIGH\"\n" +
		"  users = [\"api@%\", \"app@%\"]\n" +
		"  query_limit {\n" +
		"    exec_elapsed = \"30s\"\n" +
		"    action       = \"KILL\"\n" +
		"  }\n" +
		"}\n"
	res := runUpdate(t, map[string]string{"main.hcl": src}, map[string]*state.Live{"default": l}, true)
	if diff := cmp.Diff(want, string(res.Files["main.hcl"])); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if len(res.Refused) != 0 || len(res.Accepted) != 7 {
		t.Errorf("accepted %q, refused %q", res.Accepted, res.Refused)
	}
}

// TestUpdateComputedValue: a value computed from a local is the author's to
// change: reported, not rewritten.
func TestUpdateComputedValue(t *testing.T) {
	l := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 300")
	src := "locals {\n  size = 200\n}\n\nvariables {\n  tidb_session_plan_cache_size = local.size\n}\n"
	res := runUpdate(t, map[string]string{"main.hcl": src}, map[string]*state.Live{"default": l}, true)
	if len(res.Files) != 0 || len(res.Refused) != 1 || !strings.Contains(res.Refused[0], "computed") || len(res.Accepted) != 0 {
		t.Errorf("files %q, accepted %q, refused %q", res.Files, res.Accepted, res.Refused)
	}
}

// TestUpdateInstanceDrift: a type-wide value one TiKV no longer has gets a
// per-instance block for that instance; the type-wide value stays.
func TestUpdateInstanceDrift(t *testing.T) {
	l2 := readSim(t, "SET CONFIG tikv `split.qps-threshold` = 5000", "SET CONFIG '127.0.0.1:20161' `split.qps-threshold` = 7000")
	src := "tikv {\n  split {\n    qps-threshold = 5000\n  }\n}\n"
	res := runUpdate(t, map[string]string{"main.hcl": src}, map[string]*state.Live{"default": l2}, true)
	want := src + "\ntikv \"127.0.0.1:20161\" {\n  split {\n    qps-threshold = 7000 # default 3000 (v8.5.1)\n  }\n}\n"
	if diff := cmp.Diff(want, string(res.Files["main.hcl"])); diff != "" {
		t.Errorf("(-want +got)\n%s\naccepted %q refused %q", diff, res.Accepted, res.Refused)
	}
}

const fleetBaseline = "variables {\n  tidb_session_plan_cache_size = 200 # shared\n}\n"

const fleetClusters = `cluster "a" {
  dsn = env("A_DSN")
}

cluster "b" {
  dsn = env("B_DSN")
}
`

// TestUpdateFleetOverride: a baseline value one cluster drifted from gets an
// override in that cluster's block; the baseline and the other cluster
// are left alone.
func TestUpdateFleetOverride(t *testing.T) {
	a := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 300")
	b := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 200")
	res := runUpdate(t, map[string]string{"baseline.hcl": fleetBaseline, "clusters.hcl": fleetClusters},
		map[string]*state.Live{"a": a, "b": b}, true)
	if _, touched := res.Files["baseline.hcl"]; touched {
		t.Errorf("the baseline was rewritten:\n%s", res.Files["baseline.hcl"])
	}
	want := strings.Replace(fleetClusters, "  dsn = env(\"A_DSN\")\n", "  dsn = env(\"A_DSN\")\n\n  variables {\n    tidb_session_plan_cache_size = 300 # default 100 (v8.5.1)\n  }\n", 1)
	if diff := cmp.Diff(want, string(res.Files["clusters.hcl"])); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestUpdateFleetBaseline: every cluster drifted to the same value, and all
// were read: the baseline itself is rewritten. When not every cluster was
// read, each drifted one gets an override instead.
func TestUpdateFleetBaseline(t *testing.T) {
	a := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 300")
	b := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 300")
	files := map[string]string{"baseline.hcl": fleetBaseline, "clusters.hcl": fleetClusters}
	res := runUpdate(t, files, map[string]*state.Live{"a": a, "b": b}, true)
	if diff := cmp.Diff(strings.Replace(fleetBaseline, "200", "300", 1), string(res.Files["baseline.hcl"])); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if _, touched := res.Files["clusters.hcl"]; touched {
		t.Errorf("cluster blocks changed:\n%s", res.Files["clusters.hcl"])
	}
	res = runUpdate(t, files, map[string]*state.Live{"a": a, "b": b}, false)
	if _, touched := res.Files["baseline.hcl"]; touched || strings.Count(string(res.Files["clusters.hcl"]), "= 300") != 2 {
		t.Errorf("not every cluster read: want two overrides, got baseline %q clusters\n%s", res.Files["baseline.hcl"], res.Files["clusters.hcl"])
	}
}

// TestUpdateOneLineClusterBlock: an override into a cluster block written
// on one line opens the block onto several lines.
func TestUpdateOneLineClusterBlock(t *testing.T) {
	a := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 300")
	b := readSim(t, "SET GLOBAL tidb_session_plan_cache_size = 200")
	src := map[string][]byte{"baseline.hcl": []byte(fleetBaseline), "clusters.hcl": []byte("cluster \"a\" { dsn = env(\"A_DSN\") }\n\ncluster \"b\" { dsn = env(\"B_DSN\") }\n")}
	d, diags := schema.LoadFiles(".", src, schema.Options{Offline: true})
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	in := UpdateInput{Sources: src, Everyone: true, Fleet: true}
	for _, dc := range d.Clusters {
		l := map[string]*state.Live{"a": a, "b": b}[dc.Name]
		cp, err := planner.BuildCluster(dc, l, planner.Options{Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		in.Clusters = append(in.Clusters, Drifted{Desired: dc, Live: l, Changes: cp.Changes})
	}
	res, err := Update(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "cluster \"a\" {\n  dsn = env(\"A_DSN\")\n\n  variables {\n    tidb_session_plan_cache_size = 300 # default 100 (v8.5.1)\n  }\n}\n\ncluster \"b\" { dsn = env(\"B_DSN\") }\n"
	if diff := cmp.Diff(want, string(res.Files["clusters.hcl"])); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

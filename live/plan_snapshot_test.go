package live_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

// The bar: planning from a snapshot gives the same plan as planning
// against the live cluster it was pulled from (the plan only adds that it is
// offline and how old the snapshot is).
func TestPlanFromSnapshotEqualsLivePlan(t *testing.T) {
	const pw = "Sn4pshot-Plan-pw"
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.5.1", TiDB: 2, TiKV: 3, SQL: []string{
		"CREATE USER 'tiform'@'%' IDENTIFIED BY '" + pw + "'",
		"GRANT ALL PRIVILEGES ON *.* TO 'tiform'@'%'",
		"CREATE RESOURCE GROUP batch RU_PER_SEC=500",
		"CREATE USER 'app'@'%' IDENTIFIED BY 'x'",
	}})
	dir := t.TempDir()
	hcl := `instance_variables = "allow"

tikv {
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "512MiB"
  }
}

pd {
  schedule {
    max-store-down-time = "1h"
  }
}

variables {
  tidb_enable_non_prepared_plan_cache = true
  tidb_slow_log_threshold             = 300
}

resource_group "oltp" {
  ru_per_sec = 20000
  priority   = "HIGH"
  users      = ["app@%"]
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o600); err != nil {
		t.Fatal(err)
	}
	d, diags := schema.Load(dir, schema.Options{DefaultDSN: s.DSN("tiform", pw)})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	dc := d.Clusters[0]
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := live.Open(ctx, dc.DSN, live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "SET CONFIG tikv `coprocessor.region-split-size` = '128MiB'"); err != nil {
		t.Fatal(err)
	}

	req := live.RequestFor(dc)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

	liveState, err := live.Inspect(ctx, db, req)
	if err != nil {
		t.Fatal(err)
	}
	livePlan, err := planner.Build(d, map[string]*state.Live{dc.Name: liveState}, planner.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(livePlan.Clusters[0].Changes) == 0 {
		t.Fatal("the live plan has no changes: the test would prove nothing")
	}

	// state pull: everything a snapshot can hold.
	pulled, err := live.Inspect(ctx, db, live.Everything())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := live.WriteSnapshot(&buf, pulled, live.Origin{Cluster: dc.Name}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(pw)) {
		t.Fatal("the snapshot contains the password")
	}
	path := filepath.Join(t.TempDir(), "snap.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	offline, err := live.FromSnapshot(path, dc.Name, req)
	if err != nil {
		t.Fatal(err)
	}
	snapPlan, err := planner.Build(d, map[string]*state.Live{dc.Name: offline}, planner.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if snapPlan.Clusters[0].Offline == nil || snapPlan.Clusters[0].Offline.Path != path {
		t.Errorf("the offline plan does not say it is offline: %+v", snapPlan.Clusters[0].Offline)
	}
	// Everything but the offline marker must be equal.
	opts := cmp.Options{
		cmpopts.IgnoreFields(planner.ClusterPlan{}, "Offline"),
		cmpopts.EquateEmpty(),
	}
	if diff := cmp.Diff(livePlan, snapPlan, opts); diff != "" {
		t.Errorf("plan from snapshot differs from the live plan (-live +snapshot):\n%s", diff)
	}
	for _, n := range snapPlan.Clusters[0].Notes {
		if strings.Contains(n, pw) {
			t.Error("password in a plan note")
		}
	}
	// Both say the INSTANCE-scoped variable was read from one of the two TiDB only, and
	// name only the declared one (the snapshot read them all).
	want := "INSTANCE-scoped variables (tidb_slow_log_threshold) were read from"
	if notes := strings.Join(snapPlan.Clusters[0].Notes, "\n"); !strings.Contains(notes, want) {
		t.Errorf("plan notes lack %q:\n%s", want, notes)
	}

	// An instance down when the snapshot is pulled: the offline plan refuses
	// to report "no changes" and names the instance, as a live plan does.
	down := s.Cluster.InstancesOf(tidbsim.TypeTiKV)[1].Address
	s.Cluster.SetInstanceDown(down, true)
	pulled, err = live.Inspect(ctx, db, live.Everything())
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := live.WriteSnapshot(&buf, pulled, live.Origin{Cluster: dc.Name}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	offline, err = live.FromSnapshot(path, dc.Name, req)
	if err != nil {
		t.Fatal(err)
	}
	_, err = planner.Build(d, map[string]*state.Live{dc.Name: offline}, planner.Options{Now: now})
	var ie *planner.IncompleteError
	if !errors.As(err, &ie) || !strings.Contains(strings.Join(ie.Reasons, "\n"), down) {
		t.Errorf("plan from a snapshot with %s down: %v, want an IncompleteError naming it", down, err)
	}
}

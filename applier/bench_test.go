package applier

// Benchmarks of plan and apply against the in-process emulator, with 2 ms
// of latency per contacted instance (the emulator's model of an HTTP round
// trip to a TiKV: a CLUSTER_CONFIG read waits one latency for all the
// instances it contacts, a type-wide SET CONFIG one per instance, in turn),
// and of the same reads and writes done the way the Terraform MySQL
// provider does them: one statement per setting on one connection.
// BENCHMARKS.md gives the figures and the command.

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/cpumeter"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// benchLatency is the latency per contacted instance.
const benchLatency = 2 * time.Millisecond

// bench is an emulated cluster for a benchmark: tikv TiKV instances serving
// n TiKV items (manyTiKVItems) beyond the catalogued ones.
type bench struct {
	srv *tidbsimtest.Cluster
	db  *sql.DB
	n   int
	// applied counts the applies so far: they set 2 and 3 in turn, so that
	// each has n changes, however many times the benchmark runs.
	applied int
}

func newBench(b *testing.B, tikv, n int) *bench {
	b.Helper()
	srv := tidbsimtest.Start(b, tidbsim.Options{TiKV: tikv, NewerConfig: manyTiKVItems(n)})
	srv.Cluster.SetLatency(benchLatency)
	db, err := live.Open(context.Background(), srv.RootDSN(), live.ConnOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return &bench{srv: srv, db: db, n: n}
}

// desired declares the n items at value.
func (x *bench) desired(value string) *state.DesiredCluster {
	dc := desiredTiKV(x.n)
	for i := range dc.Config {
		dc.Config[i].Value.Text = value
	}
	return dc
}

// plan is `tiform plan` of one cluster without the HCL and the output: one
// inspection and the planner.
func (x *bench) plan(b *testing.B, dc *state.DesiredCluster) *planner.ClusterPlan {
	l, err := live.Inspect(context.Background(), x.db, live.RequestFor(dc))
	if err != nil {
		b.Fatal(err)
	}
	cp, err := planner.BuildCluster(dc, l, planner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return cp
}

// apply applies a plan of dc (made outside the timer) as `tiform apply`
// does at --concurrency concurrency (0: the default), fails unless it
// changed all n items, and returns how many statements it sent.
func (x *bench) apply(b *testing.B, dc *state.DesiredCluster, concurrency int, m *cpumeter.Meter) int {
	b.StopTimer()
	cp := x.plan(b, dc)
	if len(cp.Changes) != x.n {
		b.Fatalf("plan has %d changes, want %d", len(cp.Changes), x.n)
	}
	mark := x.srv.Mark()
	b.StartTimer()
	m.Start()
	r, err := Apply(context.Background(), x.db, cp, Options{Desired: dc, LockTimeout: time.Minute, Concurrency: concurrency,
		RollbackPath: b.TempDir() + "/rollback.tfplan"})
	m.Stop()
	if err != nil {
		b.Fatalf("apply: %v (%v)", err, statuses(r))
	}
	return len(x.srv.Since(mark))
}

// statements reports the statements per operation sent since mark.
func (x *bench) statements(b *testing.B, mark int) {
	b.ReportMetric(float64(len(x.srv.Since(mark)))/float64(b.N), "statements/op")
}

// benchPlan measures plans of the n items on x.
func benchPlan(b *testing.B, x *bench) {
	dc := x.desired("2")
	b.ResetTimer()
	mark := x.srv.Mark()
	stop := cpumeter.Start(b)
	for i := 0; i < b.N; i++ {
		if cp := x.plan(b, dc); len(cp.Changes) != x.n {
			b.Fatalf("plan has %d changes, want %d", len(cp.Changes), x.n)
		}
	}
	stop()
	x.statements(b, mark)
}

// benchApply measures applies of the n items on x, alternately to 2 and 3,
// at --concurrency concurrency (0: the default).
func benchApply(b *testing.B, x *bench, concurrency int) {
	var m cpumeter.Meter
	statements := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		statements += x.apply(b, x.desired(fmt.Sprint(2+x.applied%2)), concurrency, &m)
		x.applied++
	}
	m.Report(b)
	b.ReportMetric(float64(statements)/float64(b.N), "statements/op")
}

// BenchmarkPlanSettings: plan of 10, 100 and 1,000 TiKV settings on 3 TiKV.
func BenchmarkPlanSettings(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("settings=%d", n), func(b *testing.B) { benchPlan(b, newBench(b, 3, n)) })
	}
}

// BenchmarkApplySettings: apply of 10, 100 and 1,000 changed TiKV settings
// on 3 TiKV.
func BenchmarkApplySettings(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("settings=%d", n), func(b *testing.B) { benchApply(b, newBench(b, 3, n), 0) })
	}
}

// BenchmarkPlanTiKV: plan of 10 TiKV settings on 3, 50 and 100 TiKV, and the
// floor: one bare CLUSTER_CONFIG read of every TiKV row.
func BenchmarkPlanTiKV(b *testing.B) {
	for _, tikv := range []int{3, 50, 100} {
		x := newBench(b, tikv, 10)
		b.Run(fmt.Sprintf("tikv=%d/tiform", tikv), func(b *testing.B) { benchPlan(b, x) })
		b.Run(fmt.Sprintf("tikv=%d/floor", tikv), func(b *testing.B) { benchFloor(b, x) })
	}
}

// benchFloor reads every TiKV config row once per operation: what no plan
// of TiKV settings can avoid.
func benchFloor(b *testing.B, x *bench) {
	b.ResetTimer()
	mark := x.srv.Mark()
	stop := cpumeter.Start(b)
	for i := 0; i < b.N; i++ {
		rows, err := x.db.Query("SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'tikv'")
		drain(b, "the floor", rows, err)
	}
	stop()
	x.statements(b, mark)
}

// BenchmarkApplyTiKV: apply of 10 changed TiKV settings on 3, 50 and 100 TiKV.
func BenchmarkApplyTiKV(b *testing.B) {
	for _, tikv := range []int{3, 50, 100} {
		b.Run(fmt.Sprintf("tikv=%d", tikv), func(b *testing.B) { benchApply(b, newBench(b, tikv, 10), 0) })
	}
}

// BenchmarkSideBySide: 50 TiKV settings on 50 TiKV, read (plan) and changed
// (apply) by tiform, and the way the Terraform MySQL provider's mysql_ti_config
// resource does it (petoju/terraform-provider-mysql, mysql/resource_ti_config_variable.go):
// one `SHOW CONFIG WHERE type = … AND name = …` per setting on one connection
// to read (terraform plan's refresh), and per setting to change: that read,
// the SET CONFIG and one SHOW WARNINGS (terraform apply), one setting after
// the other. tiform applies at the default --concurrency, and at 1 (one
// change after another) to show what sending changes together saves.
func BenchmarkSideBySide(b *testing.B) {
	x := newBench(b, 50, 50)
	b.Run("plan/tiform", func(b *testing.B) { benchPlan(b, x) })
	b.Run("plan/per-setting", func(b *testing.B) {
		b.ResetTimer()
		mark := x.srv.Mark()
		stop := cpumeter.Start(b)
		for i := 0; i < b.N; i++ {
			perSetting(b, x, "")
		}
		stop()
		x.statements(b, mark)
	})
	b.Run("apply/tiform", func(b *testing.B) { benchApply(b, x, 0) })
	b.Run("apply/tiform-sequential", func(b *testing.B) { benchApply(b, x, 1) })
	b.Run("apply/per-setting", func(b *testing.B) {
		b.ResetTimer()
		mark := x.srv.Mark()
		stop := cpumeter.Start(b)
		for i := 0; i < b.N; i++ {
			perSetting(b, x, fmt.Sprint(4+i%2))
		}
		stop()
		x.statements(b, mark)
	})
}

// perSetting reads every item with its own SHOW CONFIG on one connection,
// and when value is not empty sets it and reads SHOW WARNINGS, one setting
// after the other.
func perSetting(b *testing.B, x *bench, value string) {
	ctx := context.Background()
	conn, err := x.db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	read := func(key string) {
		rows, err := conn.QueryContext(ctx, "SHOW CONFIG WHERE type = 'tikv' AND name = "+quote.String(key))
		drain(b, key, rows, err)
	}
	for i := 0; i < x.n; i++ {
		key := fmt.Sprintf("newer-feature.limit-%d", i)
		read(key)
		if value == "" {
			continue
		}
		if _, err := conn.ExecContext(ctx, "SET CONFIG tikv "+quote.Ident(key)+" = "+value); err != nil {
			b.Fatal(err)
		}
		rows, err := conn.QueryContext(ctx, "SHOW WARNINGS")
		if err != nil {
			b.Fatal(err)
		}
		if rows.Next() {
			b.Fatalf("SET CONFIG %s: a warning", key)
		}
		rows.Close()
	}
}

// drain reads every row of a read named what, which must have some.
func drain(b *testing.B, what string, rows *sql.Rows, err error) {
	if err != nil {
		b.Fatalf("%s: %v", what, err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Close(); err != nil || n == 0 {
		b.Fatalf("%s: %d rows: %v", what, n, err)
	}
}

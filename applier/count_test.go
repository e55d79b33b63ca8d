package applier

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// manyTiKVItems are n TiKV config items the emulator serves as a newer
// TiKV's (so that any number of them can be declared), integers at 1.
func manyTiKVItems(n int) []tidbsim.NewerConfigItem {
	out := make([]tidbsim.NewerConfigItem, n)
	for i := range out {
		out[i] = tidbsim.NewerConfigItem{Type: "tikv", Name: fmt.Sprintf("newer-feature.limit-%d", i), Kind: "int", Default: "1"}
	}
	return out
}

// desiredTiKV declares the n items at 2: n changes.
func desiredTiKV(n int) *state.DesiredCluster {
	dc := &state.DesiredCluster{Name: "prod"}
	for i := 0; i < n; i++ {
		dc.Config = append(dc.Config, state.ConfigSetting{Component: state.TiKV, Key: fmt.Sprintf("newer-feature.limit-%d", i),
			Value: state.Value{Text: "2", Type: state.LiteralNumber}})
	}
	return dc
}

// The bar: apply of N changed TiKV settings sends at most 2N + 12
// statements, the lock connection's mark included (lockholder.go, decision
// 0017); 2N + 10 measured (N SET CONFIG, N SHOW WARNINGS, batched reads), counted in the
// emulator's query log from a fresh connection pool, as `tiform apply`
// opens one per cluster: every value is read once before (one inspection)
// and once after (one read-back of the batch).
func TestApplyStatementCount(t *testing.T) {
	for _, n := range []int{1, 10, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := startSim(t, tidbsim.Options{TiKV: 3, NewerConfig: manyTiKVItems(n)})
			dc := desiredTiKV(n)
			cp := s.plan(t, dc)
			if len(cp.Changes) != n {
				t.Fatalf("plan has %d changes, want %d", len(cp.Changes), n)
			}
			s.db.Close()
			s.db = s.open(t)
			o := s.opts
			o.Desired = dc
			mark := s.srv.Mark()
			if _, err := s.apply(t, ctxT(t), cp, o); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			log := s.srv.Since(mark)
			t.Logf("%d changes: %d statements", n, len(log))
			if len(log) > 2*n+12 {
				t.Errorf("apply of %d changes sent %d statements, want at most %d:\n%s", n, len(log), 2*n+12, strings.Join(log, "\n"))
			}
			count := func(prefix string) int {
				c := 0
				for _, q := range log {
					if strings.HasPrefix(q, prefix) {
						c++
					}
				}
				return c
			}
			for prefix, want := range map[string]int{
				"SET CONFIG tikv":                       n,
				"SELECT TYPE, INSTANCE, `KEY`, VALUE":   2, // the inspection, the read-back
				"SELECT GET_LOCK":                       1,
				"SELECT IS_FREE_LOCK":                   0,
				"SELECT TYPE, INSTANCE, STATUS_ADDRESS": 1,
				"SELECT VERSION()":                      1,
				"SELECT @@SESSION.sql_mode":             0, // no statement holds a backslash
			} {
				if got := count(prefix); got != want {
					t.Errorf("%q sent %d times, want %d", prefix, got, want)
				}
			}
			if re := s.plan(t, dc); len(re.Changes) != 0 {
				t.Errorf("replan: %q", changeAddresses(re))
			}
		})
	}
}

// The bar: a plan sends the same statements for 10 and for 10,000
// declared settings (one CLUSTER_CONFIG read whatever the number of keys).
func TestPlanStatementCount(t *testing.T) {
	counts := map[int]int{}
	for _, n := range []int{10, 10000} {
		s := startSim(t, tidbsim.Options{TiKV: 1, NewerConfig: manyTiKVItems(n)})
		dc := desiredTiKV(n)
		mark := s.srv.Mark()
		if cp := s.plan(t, dc); len(cp.Changes) != n {
			t.Fatalf("%d settings: %d changes", n, len(cp.Changes))
		}
		counts[n] = len(s.srv.Since(mark))
	}
	if counts[10] != counts[10000] || counts[10] != 5 {
		t.Errorf("plan statements: %d for 10 settings, %d for 10,000; want 5 for both", counts[10], counts[10000])
	}
}

// The bar, for the apply that plans from its own read (Hold, then
// Held.Apply, as `tiform apply` runs it): at most 2N + 12 statements from a
// fresh pool, every one after GET_LOCK, the cluster read once (one
// topology, one config read before the first SET CONFIG and the read-back
// after), no sql_mode read (no statement holds a backslash). A second read
// fails it.
func TestHeldApplyStatementCount(t *testing.T) {
	for _, n := range []int{1, 10, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := startSim(t, tidbsim.Options{TiKV: 3, NewerConfig: manyTiKVItems(n)})
			dc := desiredTiKV(n)
			s.db.Close()
			s.db = s.open(t)
			o := s.opts
			o.Desired = dc
			mark := s.srv.Mark()
			h, rep, err := Hold(ctxT(t), s.db, dc.Name, live.RequestFor(dc), o)
			if err != nil {
				t.Fatalf("Hold: %v (report %+v)", err, rep)
			}
			defer h.Release()
			cp, err := planner.BuildCluster(dc, h.Live(), planner.Options{Now: time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)})
			if err != nil || len(cp.Changes) != n {
				t.Fatalf("plan from the held read: %v, %d changes", err, len(cp.Changes))
			}
			if _, err := h.Apply(ctxT(t), cp, o); err != nil {
				t.Fatalf("Held.Apply: %v", err)
			}
			h.Release()
			log := s.srv.Since(mark)
			t.Logf("%d changes: %d statements", n, len(log))
			if len(log) > 2*n+12 {
				t.Errorf("held apply of %d changes sent %d statements, want at most %d:\n%s", n, len(log), 2*n+12, strings.Join(log, "\n"))
			}
			// the lock connection marks itself, then takes the lock
			// (lockholder.go): nothing reads before it
			first := log[0]
			if strings.HasPrefix(first, "SET SESSION tidb_session_alias") && len(log) > 1 {
				first = log[1]
			}
			if !strings.HasPrefix(first, "SELECT GET_LOCK(") {
				t.Errorf("first statement %q: a read came before the lock", first)
			}
			count := func(prefix string) int {
				c := 0
				for _, q := range log {
					if strings.HasPrefix(q, prefix) {
						c++
					}
				}
				return c
			}
			for prefix, want := range map[string]int{
				"SET CONFIG tikv":                       n,
				"SELECT TYPE, INSTANCE, `KEY`, VALUE":   2, // the read under the lock, the read-back
				"SELECT TYPE, INSTANCE, STATUS_ADDRESS": 1,
				"SELECT VERSION()":                      1,
				"SELECT @@SESSION.sql_mode":             0,
				"SELECT RELEASE_LOCK":                   1,
			} {
				if got := count(prefix); got != want {
					t.Errorf("%q sent %d times, want %d", prefix, got, want)
				}
			}
		})
	}
}

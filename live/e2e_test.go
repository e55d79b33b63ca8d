package live

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/state"
)

// End-to-end tests: Inspect against the in-process TiDB emulator.

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func openSim(t *testing.T, s *tidbsimtest.Cluster, user, pass string) *sql.DB {
	t.Helper()
	db, err := Open(ctxT(t), s.DSN(user, pass), ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// inspectLogged runs Inspect and returns the statements the emulator
// received while it ran.
func inspectLogged(t *testing.T, s *tidbsimtest.Cluster, db *sql.DB, req Request) (*state.Live, []string) {
	t.Helper()
	mark := s.Mark()
	l, err := Inspect(ctxT(t), db, req)
	if err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	return l, s.Since(mark)
}

func tikvRequest(keys ...string) Request {
	cr := ComponentRequest{Component: state.TiKV}
	for _, k := range keys {
		cr.Keys = append(cr.Keys, ManagedKey{Key: k})
	}
	return Request{Config: []ComponentRequest{cr}}
}

// Only the declared components' instances are contacted (TYPE push-down:
// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, clusterConfigRetriever).
func TestConfigReadContactsOnlyDeclaredComponents(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3, PD: 3})
	db := openSim(t, s, "root", "")
	before := s.Cluster.Contacts()
	l, _ := inspectLogged(t, s, db, tikvRequest("coprocessor.region-split-size"))
	if got := s.Cluster.Contacts() - before; got != 3 {
		t.Errorf("contacted %d instances, want the 3 TiKV only", got)
	}
	for _, r := range l.Config {
		if r.Component != state.TiKV {
			t.Fatalf("row of %s read: %+v", r.Component, r)
		}
	}
	if len(l.Incomplete()) != 0 {
		t.Errorf("incomplete: %v", l.Incomplete())
	}
}

func TestInstanceDownIsIncomplete(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3})
	db := openSim(t, s, "root", "")
	down := s.Cluster.InstancesOf(tidbsim.TypeTiKV)[1]
	s.Cluster.SetInstanceDown(down.Address, true)
	l, _ := inspectLogged(t, s, db, tikvRequest("coprocessor.region-split-size"))
	if len(l.Incomplete()) != 1 {
		t.Fatalf("incomplete = %q, want exactly one reason", l.Incomplete())
	}
	if !strings.Contains(l.Incomplete()[0], "tikv "+down.Address) {
		t.Errorf("reason %q does not name the instance %s", l.Incomplete()[0], down.Address)
	}
	g := l.Gaps[0]
	if g.Kind != state.GapInstance || g.Component != state.TiKV || g.Instance != down.Address {
		t.Errorf("gap = %+v", g)
	}
	if len(l.Warnings) == 0 {
		t.Error("TiDB's warning for the unreachable instance was not recorded")
	}
	// The other instances are read.
	for _, in := range s.Cluster.InstancesOf(tidbsim.TypeTiKV) {
		if in.Address == down.Address {
			continue
		}
		if _, ok := value(l, state.TiKV, in.Address, "coprocessor.region-split-size"); !ok {
			t.Errorf("%s not read", in.Address)
		}
	}
}

// TestMissingManagedKeyIsIncomplete: a key the cluster does not report is a
// gap (the plan is incomplete) unless the catalog explains its absence: on a
// version the generated table covers, a key the table does not have is no
// setting at all (a note; TF150 refuses it); on a newer version nothing can
// be said.
func TestMissingManagedKeyIsIncomplete(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1, Version: "v9.1.0"})
	db := openSim(t, s, "root", "")
	l, _ := inspectLogged(t, s, db, tikvRequest("coprocessor.region-split-size", "coprocessor.no-such-item"))
	if len(l.Gaps) != 1 || l.Gaps[0].Kind != state.GapConfigKey || l.Gaps[0].Key != "coprocessor.no-such-item" {
		t.Fatalf("gaps = %+v", l.Gaps)
	}
	if !strings.Contains(l.Incomplete()[0], "coprocessor.no-such-item") {
		t.Errorf("reason %q does not name the key", l.Incomplete()[0])
	}

	s = tidbsimtest.Start(t, tidbsim.Options{TiKV: 1, Version: "v8.5.1"})
	db = openSim(t, s, "root", "")
	l, _ = inspectLogged(t, s, db, tikvRequest("coprocessor.region-split-size", "coprocessor.no-such-item"))
	if len(l.Gaps) != 0 || !strings.Contains(strings.Join(l.Notes, "\n"), "coprocessor.no-such-item is not a TiKV setting in any version tiform knows") {
		t.Errorf("on a covered version the absence is a note: gaps %+v, notes %q", l.Gaps, l.Notes)
	}
}

func value(l *state.Live, c state.Component, inst, key string) (string, bool) {
	for _, r := range l.Config {
		if r.Component == c && r.Instance == inst && r.Key == key {
			return r.Value, true
		}
	}
	return "", false
}

// Values are kept exactly as each component renders them
// (pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig):
// the planner compares through the catalog.
func TestValuesKeptAsRendered(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1, PD: 1, Config: []tidbsim.ConfigOverride{
		{Type: "tikv", Name: "coprocessor.region-split-size", Value: "1024MiB"},
	}})
	db := openSim(t, s, "root", "")
	req := Request{Config: []ComponentRequest{
		{Component: state.TiKV, Keys: []ManagedKey{{Key: "coprocessor.region-split-size"}}},
		{Component: state.PD, Keys: []ManagedKey{{Key: "schedule.max-store-down-time"}}},
	}}
	l, _ := inspectLogged(t, s, db, req)
	tikv := s.Cluster.InstancesOf(tidbsim.TypeTiKV)[0].Address
	pd := s.Cluster.InstancesOf(tidbsim.TypePD)[0].Address
	if v, _ := value(l, state.TiKV, tikv, "coprocessor.region-split-size"); v != "1GiB" {
		t.Errorf("TiKV size = %q, want TiKV's rendering 1GiB", v)
	}
	if v, _ := value(l, state.PD, pd, "schedule.max-store-down-time"); v != "30m0s" {
		t.Errorf("PD duration = %q, want PD's Go rendering 30m0s", v)
	}
	if len(l.Incomplete()) != 0 {
		t.Errorf("incomplete: %v", l.Incomplete())
	}
}

func TestHeterogeneousInstanceVisible(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3})
	odd := s.Cluster.InstancesOf(tidbsim.TypeTiKV)[2].Address
	s.Close()
	s = tidbsimtest.Start(t, tidbsim.Options{TiKV: 3, Config: []tidbsim.ConfigOverride{
		{Type: "tikv", Instance: odd, Name: "coprocessor.region-split-size", Value: "512MiB"},
	}})
	if got := s.Cluster.InstancesOf(tidbsim.TypeTiKV)[2].Address; got != odd {
		t.Skipf("instance addresses are not stable across starts (%s vs %s)", got, odd)
	}
	db := openSim(t, s, "root", "")
	l, _ := inspectLogged(t, s, db, tikvRequest("coprocessor.region-split-size"))
	got := map[string]string{}
	for _, in := range s.Cluster.InstancesOf(tidbsim.TypeTiKV) {
		got[in.Address], _ = value(l, state.TiKV, in.Address, "coprocessor.region-split-size")
	}
	for addr, v := range got {
		want := "256MiB"
		if addr == odd {
			want = "512MiB"
		}
		if v != want {
			t.Errorf("%s: %q, want %q (all values: %v)", addr, v, want, got)
		}
	}
}

func TestMixedVersionsRecorded(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3, Version: "v8.5.3", InstanceVersions: map[string]string{"tikv-1": "v8.5.1"}})
	db := openSim(t, s, "root", "")
	l, _ := inspectLogged(t, s, db, Request{})
	min, ok := l.MinVersion(state.TiKV)
	if !ok || min.Short() != "v8.5.1" {
		t.Errorf("MinVersion(tikv) = %v, %v; want v8.5.1", min, ok)
	}
	if !l.Mixed(state.TiKV) {
		t.Error("Mixed(tikv) = false")
	}
	if l.Mixed(state.PD) {
		t.Error("Mixed(pd) = true")
	}
	if l.ServerVersionParsed.Short() != "v8.5.3" {
		t.Errorf("TiDB version = %v", l.ServerVersionParsed)
	}
	if len(l.Instances) != 5 {
		t.Errorf("instances = %+v", l.Instances)
	}
}

// A connection lost mid-read is an error, never a partial state passed off
// as complete.
func TestConnectionDroppedMidRead(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	db := openSim(t, s, "root", "")
	s.Cluster.SetDropAfter(3)
	_, err := Inspect(ctxT(t), db, tikvRequest("coprocessor.region-split-size"))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnreachable {
		t.Fatalf("err = %v, want a lost-connection error", err)
	}
}

// CLUSTER_CONFIG hidden (SEM: pingcap/tidb@v8.5.1:pkg/util/sem/sem.go) → SEM flag and a component
// gap, not "no config".
func TestHiddenClusterConfigIsSEM(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	db := openSim(t, s, "root", "")
	s.Cluster.AddFailRule(tidbsim.FailRule{Match: "INFORMATION_SCHEMA.CLUSTER_CONFIG", Code: 1142, State: "42000",
		Message: "SELECT command denied to user 'root'@'%' for table 'cluster_config'"})
	l, _ := inspectLogged(t, s, db, tikvRequest("coprocessor.region-split-size"))
	if !l.SEM {
		t.Error("SEM not set")
	}
	if len(l.Gaps) != 1 || l.Gaps[0].Kind != state.GapComponent || l.Gaps[0].Component != state.TiKV {
		t.Errorf("gaps = %+v", l.Gaps)
	}
}

// INSTANCE-scoped variables are read from the connected TiDB only, and the
// state says so (https://docs.pingcap.com/tidb/stable/system-variables).
func TestInstanceScopedVariables(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiDB: 2})
	other, err := Open(ctxT(t), s.DSNFor(1, "root", ""), ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(ctxT(t), "SET GLOBAL max_connections = 500"); err != nil {
		t.Fatal(err)
	}
	db := openSim(t, s, "root", "") // TiDB instance 0
	l, _ := inspectLogged(t, s, db, Request{Variables: []string{"max_connections", "tidb_enable_prepared_plan_cache"}})
	if got := l.Variables["max_connections"]; got != "0" {
		t.Errorf("max_connections = %q, want instance 0's value 0", got)
	}
	if len(l.InstanceVariables) != 1 || l.InstanceVariables[0] != "max_connections" {
		t.Errorf("InstanceVariables = %q", l.InstanceVariables)
	}
	found := false
	for _, n := range l.Notes {
		found = found || strings.Contains(n, "max_connections") && strings.Contains(n, "only")
	}
	if !found {
		t.Errorf("no note about the instance-scoped read: %q", l.Notes)
	}
	if len(l.Incomplete()) != 0 {
		t.Errorf("incomplete: %q", l.Incomplete())
	}
}

// Raw renderings read by Inspect compare equal, through the catalog, to the
// spellings an operator writes in HCL: live keeps the
// component's text; meaning is compared with catalog.Entry.Canonical.
func TestRawValuesCompareThroughCatalog(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1, PD: 1, Config: []tidbsim.ConfigOverride{
		{Type: "tikv", Name: "coprocessor.region-split-size", Value: "1024MiB"},
	}})
	db := openSim(t, s, "root", "")
	l, _ := inspectLogged(t, s, db, Request{Config: []ComponentRequest{{Component: state.TiKV}, {Component: state.PD}}})
	tests := []struct {
		comp state.Component
		key  string
		hcl  []string
	}{
		{state.TiKV, "coprocessor.region-split-size", []string{"1GiB", "1024MiB", "1073741824", "1GB"}},
		{state.PD, "schedule.max-store-down-time", []string{"30m", "30m0s", "1800s"}},
	}
	for _, tt := range tests {
		e, ok := catalog.Config(string(tt.comp), tt.key)
		if !ok {
			t.Fatalf("catalog has no %s %s", tt.comp, tt.key)
		}
		inst := l.InstancesOf(tt.comp)[0]
		raw, ok := value(l, tt.comp, inst, tt.key)
		if !ok {
			t.Fatalf("%s %s not read", tt.comp, tt.key)
		}
		want, err := e.Canonical(raw)
		if err != nil {
			t.Fatalf("canonical of live %q: %v", raw, err)
		}
		for _, h := range tt.hcl {
			got, err := e.Canonical(h)
			if err != nil || got != want {
				t.Errorf("%s: HCL %q → %q (%v), live %q → %q", tt.key, h, got, err, raw, want)
			}
		}
	}
}

// A read slower than the read timeout fails with an error that points at the
// timeout, not with a partial state.
func TestReadTimeout(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3})
	db, err := Open(ctxT(t), s.DSN("root", ""), ConnOptions{ReadTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s.Cluster.SetLatency(time.Second)
	_, err = Inspect(ctxT(t), db, tikvRequest("coprocessor.region-split-size"))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnreachable || !strings.Contains(e.Msg, "readTimeout=") {
		t.Fatalf("err = %v, want a lost-connection error mentioning readTimeout", err)
	}
}

package realcluster

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// target is a cluster a scenario runs against.
type target struct {
	name string
	dsn  string
	// real: not the emulator (a TIFORM_TEST_DSN cluster or the tier's
	// tidb-server); own: started for this test, so writes are allowed.
	real, own bool
	// storage: TiKV and PD configuration can be read (not unistore).
	storage bool
}

// targets are the clusters every scenario runs against, by name: the one
// in TIFORM_TEST_DSN when it is set (the opt-in tier); else an emulated
// v8.5.1 cluster with 3 TiKV instances ("tidbsim") and the real-TiDB tier's
// tidb-server ("tidb-server", internal/tidbsimtest), each started for the
// test.
func targets() map[string]func(*testing.T) target {
	if dsn := os.Getenv("TIFORM_TEST_DSN"); dsn != "" {
		return map[string]func(*testing.T) target{"dsn": func(t *testing.T) target {
			t.Log("running against the cluster in TIFORM_TEST_DSN")
			tg := target{name: "dsn", dsn: dsn, real: true}
			// TiKV or PD config rows: a cluster with storage (not a TiDB on
			// unistore, whose only store has no status address)
			for _, r := range inspect(t, tg, live.Everything()).Config {
				tg.storage = tg.storage || r.Component == state.TiKV || r.Component == state.PD
			}
			return tg
		}}
	}
	return map[string]func(*testing.T) target{
		"tidbsim": func(t *testing.T) target {
			s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", TiKV: 3})
			return target{name: "tidbsim", dsn: s.DSN("root", ""), own: true, storage: true}
		},
		"tidb-server": func(t *testing.T) target {
			r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{})
			return target{name: "tidb-server", dsn: r.RootDSN(), real: true, own: true}
		},
	}
}

// eachTarget runs fn as a subtest per target, in name order.
func eachTarget(t *testing.T, fn func(t *testing.T, tg target)) {
	ts := targets()
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) { fn(t, ts[n](t)) })
	}
}

// TestRealTier says which tier ran: the cluster of TIFORM_TEST_DSN, or the
// emulator and the tidb-server the test suite builds.
func TestRealTier(t *testing.T) {
	if os.Getenv("TIFORM_TEST_DSN") == "" {
		tidbsimtest.RealBinary(t) // fails (or skips under TIFORM_REAL_TIDB=off) when there is no real server
		t.Log("TIFORM_TEST_DSN is not set: the scenarios of this package ran against the emulator and the real-TiDB tier's tidb-server")
		return
	}
	t.Log("the scenarios of this package ran against the cluster in TIFORM_TEST_DSN")
}

func inspect(t *testing.T, tg target, req live.Request) *state.Live {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := live.Open(ctx, tg.dsn, live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, req)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestNoFalseDiffs is the fidelity test that matters most on a real cluster:
// declare every catalogued TiKV/PD setting and global variable at exactly the
// value the cluster reports (as the component renders it), and the plan must
// be empty. Any change would be a normalisation bug (renderings:
// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig).
func TestNoFalseDiffs(t *testing.T) { eachTarget(t, testNoFalseDiffs) }

func testNoFalseDiffs(t *testing.T, tg target) {
	l := inspect(t, tg, live.Everything())
	if len(l.Incomplete()) > 0 {
		t.Fatalf("the cluster could not be read completely: %v", l.Incomplete())
	}
	tidb, _ := l.MinVersion(state.TiDB)
	dc := &state.DesiredCluster{Name: "probe"}
	// One value per (component, key): only keys whose instances agree.
	keys, vals := configValues(l)
	for _, k := range keys {
		if comp, key, _ := strings.Cut(k, "\x00"); !catalogued(comp, key) {
			continue
		}
		distinct := map[string]bool{}
		var v string
		for _, x := range vals[k] {
			distinct[x] = true
			v = x
		}
		// "null" is how SHOW CONFIG prints an unset Option (derived from
		// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig):
		// it cannot be declared, so it is not a value to round-trip.
		if len(distinct) != 1 || v == "null" {
			continue
		}
		comp, key, _ := strings.Cut(k, "\x00")
		dc.Config = append(dc.Config, state.ConfigSetting{Component: state.Component(comp), Key: key, Value: state.Value{Text: v}})
	}
	for name, v := range l.Variables {
		e, ok := catalog.Variable(name)
		if !ok || e.ScopeIn(tidb) != catalog.ScopeGlobal || e.ReadOnlyIn(tidb) {
			continue
		}
		dc.Variables = append(dc.Variables, state.VariableSetting{Name: name, Value: state.Value{Text: v}})
	}
	sort.Slice(dc.Variables, func(i, j int) bool { return dc.Variables[i].Name < dc.Variables[j].Name })
	if tg.storage && len(dc.Config) < 10 || len(dc.Variables) < 100 {
		t.Fatalf("only %d config keys and %d variables to compare: the catalog or the read is too thin", len(dc.Config), len(dc.Variables))
	}
	cp, err := planner.BuildCluster(dc, inspect(t, tg, live.RequestFor(dc)), planner.Options{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cp.Changes {
		t.Errorf("false diff: %s %s (before %v, after %q)", string(c.Action), c.Addr, c.Before, c.After)
	}
	t.Logf("compared %d config keys and %d variables: no diff", len(dc.Config), len(dc.Variables))
}

// TestVersionsParse checks every instance's version string parses, and
// that an instance reporting none (the single store of a TiDB on unistore)
// is said to report none.
func TestVersionsParse(t *testing.T) { eachTarget(t, testVersionsParse) }

func testVersionsParse(t *testing.T, tg target) {
	l := inspect(t, tg, live.Request{})
	if len(l.Instances) == 0 {
		t.Fatal("no instances in CLUSTER_INFO")
	}
	for _, in := range l.Instances {
		switch {
		case in.VersionText == "" && !slices.ContainsFunc(l.Notes, func(n string) bool {
			return strings.Contains(n, in.Address+" reports no version")
		}):
			t.Errorf("%s %s reports no version and no note says so: %q", in.Component, in.Address, l.Notes)
		case in.VersionText != "" && in.Version.IsZero():
			t.Errorf("%s %s: version %q did not parse", in.Component, in.Address, in.VersionText)
		}
	}
	if v, ok := l.MinVersion(state.TiDB); !ok || v.IsZero() {
		t.Errorf("no TiDB version: %v", l.Instances)
	}
	for _, c := range []state.Component{state.TiDB, state.TiKV, state.PD} {
		v, ok := l.MinVersion(c)
		t.Logf("%s: lowest version %s (present %v, mixed %v)", c, v, ok, l.Mixed(c))
	}
}

// TestResourceGroupRoundTrip creates, alters and drops a uniquely named
// resource group through the planner's statements. On a real cluster it runs
// only with TIFORM_TEST_ALLOW_WRITES=1.
func TestResourceGroupRoundTrip(t *testing.T) { eachTarget(t, testResourceGroupRoundTrip) }

func testResourceGroupRoundTrip(t *testing.T, tg target) {
	if !tg.own && os.Getenv("TIFORM_TEST_ALLOW_WRITES") != "1" {
		t.Skip("writes to a real cluster need TIFORM_TEST_ALLOW_WRITES=1")
	}
	name := fmt.Sprintf("tiform_test_%d", time.Now().UnixNano()%1_000_000)
	ru := int64(1234)
	prio := "HIGH"
	dc := &state.DesiredCluster{Name: "probe", ResourceGroups: []state.ResourceGroup{{Name: name, RUPerSec: &ru, Priority: &prio}}}
	req := live.RequestFor(dc)
	ctx := context.Background()
	db, err := live.Open(ctx, tg.dsn, live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t.Cleanup(func() { _, _ = db.Exec("DROP RESOURCE GROUP IF EXISTS " + quote.Ident(name)) })

	cp, err := planner.BuildCluster(dc, inspect(t, tg, req), planner.Options{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) != 1 || cp.Changes[0].Action != plans.Create {
		t.Fatalf("want one create, got %+v", cp.Changes)
	}
	for _, st := range cp.Changes[0].Statements {
		if _, err := db.Exec(st.SQL); err != nil {
			t.Fatalf("%s: %v", st.SQL, err)
		}
	}
	cp, err = planner.BuildCluster(dc, inspect(t, tg, req), planner.Options{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) != 0 {
		t.Fatalf("after create, want no changes, got %d: %s", len(cp.Changes), cp.Changes[0].Addr)
	}
}

package realcluster

import (
	"context"
	"fmt"
	"os"
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
	dsn  string
	real bool
}

// cluster returns TIFORM_TEST_DSN when set (the real-cluster tier), else a
// fresh in-process emulated v8.5.1 cluster with 3 TiKV instances.
func cluster(t *testing.T) target {
	t.Helper()
	if dsn := os.Getenv("TIFORM_TEST_DSN"); dsn != "" {
		t.Log("running against the real cluster in TIFORM_TEST_DSN")
		return target{dsn: dsn, real: true}
	}
	s := tidbsimtest.Start(t, tidbsim.Options{Addr: "127.0.0.1:0", TiKV: 3})
	return target{dsn: s.DSN("root", "")}
}

// TestRealTier says loudly whether the real-cluster tier ran.
func TestRealTier(t *testing.T) {
	if os.Getenv("TIFORM_TEST_DSN") == "" {
		t.Skip("TIFORM_TEST_DSN is not set: the real-cluster tier was skipped; the scenarios in this package ran against the emulator only")
	}
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
func TestNoFalseDiffs(t *testing.T) {
	tg := cluster(t)
	l := inspect(t, tg, live.Everything())
	if len(l.Incomplete()) > 0 {
		t.Skipf("the cluster could not be read completely: %v", l.Incomplete())
	}
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
		if !ok || e.Scope != catalog.ScopeGlobal {
			continue
		}
		dc.Variables = append(dc.Variables, state.VariableSetting{Name: name, Value: state.Value{Text: v}})
	}
	sort.Slice(dc.Variables, func(i, j int) bool { return dc.Variables[i].Name < dc.Variables[j].Name })
	if len(dc.Config) < 10 || len(dc.Variables) < 5 {
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

// TestVersionsParse checks every instance's version string parses.
func TestVersionsParse(t *testing.T) {
	tg := cluster(t)
	l := inspect(t, tg, live.Request{})
	if len(l.Instances) == 0 {
		t.Fatal("no instances in CLUSTER_INFO")
	}
	for _, in := range l.Instances {
		if in.Version.IsZero() {
			t.Errorf("%s %s: version %q did not parse", in.Component, in.Address, in.VersionText)
		}
	}
	for _, c := range []state.Component{state.TiDB, state.TiKV, state.PD} {
		v, ok := l.MinVersion(c)
		t.Logf("%s: lowest version %s (present %v, mixed %v)", c, v, ok, l.Mixed(c))
	}
}

// TestResourceGroupRoundTrip creates, alters and drops a uniquely named
// resource group through the planner's statements. On a real cluster it runs
// only with TIFORM_TEST_ALLOW_WRITES=1.
func TestResourceGroupRoundTrip(t *testing.T) {
	tg := cluster(t)
	if tg.real && os.Getenv("TIFORM_TEST_ALLOW_WRITES") != "1" {
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

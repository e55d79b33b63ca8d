package live

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// The statement budget of Inspect, asserted on the emulator's query log.

// desiredOfSize declares n TiKV and PD settings, n variables, n resource
// groups each binding one user.
func desiredOfSize(n int) *state.DesiredCluster {
	d := &state.DesiredCluster{Name: "default"}
	for i := 0; i < n; i++ {
		d.Config = append(d.Config,
			state.ConfigSetting{Component: state.TiKV, Key: fmt.Sprintf("coprocessor.key-%d", i), Value: state.Value{Text: "1"}},
			state.ConfigSetting{Component: state.PD, Key: fmt.Sprintf("schedule.key-%d", i), Value: state.Value{Text: "1"}})
		d.Variables = append(d.Variables, state.VariableSetting{Name: fmt.Sprintf("tidb_var_%d", i), Value: state.Value{Text: "ON"}})
		d.ResourceGroups = append(d.ResourceGroups, state.ResourceGroup{Name: fmt.Sprintf("rg%d", i),
			Users: []state.UserRef{{User: fmt.Sprintf("u%d", i), Host: "%"}}})
	}
	d.Config[0].Key = "coprocessor.region-split-size"
	d.Variables[0].Name = "tidb_enable_prepared_plan_cache"
	return d
}

// The bar: the same number of statements for 1 and for 1,000
// declared settings, variables, groups and users, and exactly the
// documented list (docs/inspection.md).
func TestStatementCountIsConstant(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	db := openSim(t, s, "root", "")
	var counts []int
	for _, n := range []int{1, 1000} {
		req := RequestFor(desiredOfSize(n))
		_, stmts := inspectLogged(t, s, db, req)
		if diff := cmp.Diff(Statements(req), stmts); diff != "" {
			t.Errorf("n=%d: statements sent differ from live.Statements (-want +got):\n%s", n, diff)
		}
		counts = append(counts, len(stmts))
	}
	if counts[0] != counts[1] {
		t.Errorf("statement count grows with the configuration: %d for 1 declaration, %d for 1000", counts[0], counts[1])
	}
	if counts[0] != 11 {
		t.Errorf("a full request sends %d statements, docs/inspection.md says 11", counts[0])
	}
}

func TestOnlyVariablesSendsNoConfigQuery(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{})
	db := openSim(t, s, "root", "")
	contacts := s.Cluster.Contacts()
	l, stmts := inspectLogged(t, s, db, Request{Variables: []string{"tidb_enable_prepared_plan_cache"}})
	for _, q := range stmts {
		if strings.Contains(strings.ToUpper(q), "CONFIG") {
			t.Errorf("config statement sent with only variables declared: %s", q)
		}
	}
	if got := s.Cluster.Contacts() - contacts; got != 0 {
		t.Errorf("%d component instances contacted, want 0", got)
	}
	if len(l.ConfigRead) != 0 || len(l.Config) != 0 {
		t.Errorf("config read: %v", l.ConfigRead)
	}
	if !l.VariablesRead || l.Variables["tidb_enable_prepared_plan_cache"] == "" {
		t.Errorf("variable not read: %v", l.Variables)
	}
	if len(l.Incomplete()) != 0 {
		t.Errorf("incomplete: %v", l.Incomplete())
	}
}

// BenchmarkInspect measures one inspection of a 3-TiKV cluster for 1 and
// 1,000 declarations of each kind (the statement count is asserted by
// TestStatementCountIsConstant; this shows the time and allocations).
func BenchmarkInspect(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("declarations=%d", n), func(b *testing.B) {
			s := tidbsimtest.Start(b, tidbsim.Options{})
			db, err := Open(context.Background(), s.DSN("root", ""), ConnOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			req := RequestFor(desiredOfSize(n))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Inspect(context.Background(), db, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The upgrade-impact read (plan --target-version) is the plan's own read:
// the keys and variables whose default changes are added to its one
// CLUSTER_CONFIG and one SHOW GLOBAL VARIABLES, never as further
// statements; no read holds a backslash, so no connection checks its
// sql_mode. A second read, or a statement more, fails it.
func TestUpgradeReadIsThePlansRead(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.1.2"})
	db := openSim(t, s, "root", "")
	req := RequestFor(desiredOfSize(3))
	up := UpgradeRequest(req, version.MustParse("v8.5.6"))
	l, stmts := inspectLogged(t, s, db, up)
	if len(stmts) != len(Statements(req)) {
		t.Errorf("the upgrade read sent %d statements, the plan's read %d:\n%s", len(stmts), len(Statements(req)), strings.Join(stmts, "\n"))
	}
	if d := cmp.Diff(Statements(up), stmts); d != "" {
		t.Errorf("statements sent differ from live.Statements (-want +got):\n%s", d)
	}
	for _, q := range stmts {
		if strings.Contains(q, "sql_mode") {
			t.Errorf("a read checked its sql_mode: %s", q)
		}
	}
	// What an upgrade to v8.5.6 needs is there, undeclared keys included,
	// and none of them is a gap.
	var got []string
	for _, r := range l.Config {
		if r.Key == "coprocessor.region-split-size" || r.Key == "schedule.max-merge-region-size" {
			got = append(got, r.Key)
		}
	}
	if len(got) < 2 || l.Variables["tidb_ignore_inlist_plan_digest"] != "OFF" {
		t.Errorf("upgrade keys not read: config %v, tidb_ignore_inlist_plan_digest %q", got, l.Variables["tidb_ignore_inlist_plan_digest"])
	}
	for _, g := range l.Gaps {
		if strings.Contains(g.Reason, "region-split-size") || strings.Contains(g.Reason, "inlist") {
			t.Errorf("an upgrade key is a gap: %s", g.Reason)
		}
	}
}

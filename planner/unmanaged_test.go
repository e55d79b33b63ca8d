package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Which live values are unmanaged drift: undeclared, declarable, tuned
// (catalog.Judge), not INSTANCE-scoped, not an identity or path; ignored
// ones listed apart; nothing without ReportsUnmanaged.
func TestUnmanaged(t *testing.T) {
	l := cluster("8.5.1")
	l.ServerVersionParsed = version.MustParse("v8.5.1")
	l.ConfigRead = append(l.ConfigRead, state.TiDB)
	tikvAll(l, "gc.ratio-threshold", "1.5")                                    // tuned on all: reported
	tikvAll(l, "split.qps-threshold", "3000")                                  // at its default
	setRow(l, state.TiKV, "10.0.1.18:20160", "split.qps-threshold", "6000")    // tuned on one
	tikvAll(l, "coprocessor.region-split-size", "1GiB")                        // declared
	tikvAll(l, "server.addr", "10.0.1.17:20160")                               // identity
	tikvAll(l, "no-such.key", "7")                                             // unknown: not judged
	setRow(l, state.PD, "10.0.1.10:2379", "schedule.max-snapshot-count", "64") // PD's default
	l.Variables["tidb_mem_quota_query"] = "2147483648"                         // tuned
	l.Variables["tidb_gc_life_time"] = "30m0s"                                 // tuned, ignored
	l.Variables["tidb_enable_1pc"] = "ON"                                      // default on TiKV
	l.Variables["tidb_txn_mode"] = "pessimistic"                               // default
	l.Variables["tidb_enable_auto_analyze"] = "OFF"                            // declared
	l.Variables["max_connections"] = "5"                                       // INSTANCE-scoped
	l.InstanceVariables = []string{"max_connections"}
	dc := &state.DesiredCluster{Name: "prod",
		Config:    []state.ConfigSetting{cfgS(state.TiKV, "coprocessor.region-split-size", "1GiB", 3)},
		Variables: []state.VariableSetting{varS("tidb_enable_auto_analyze", "OFF", state.LiteralString, 4)},
		Ignores:   []state.Ignore{{Pattern: "variable.tidb_gc_*", Reason: "INC-1", Range: rng(9)}},
	}

	cp, err := BuildCluster(dc, l, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if cp.UnmanagedSettings != nil {
		t.Fatal("unmanaged drift computed without being asked for")
	}
	cp, err = BuildCluster(dc, l, Options{Now: testNow, Unmanaged: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cp.UnmanagedSettings.Settings {
		line := s.Addr.String() + " default " + s.Default + ":"
		for _, v := range s.Live {
			line += " " + v.Instance + "=" + v.Value
		}
		got = append(got, line)
	}
	want := []string{
		"tikv.gc.ratio-threshold default 1.1: 10.0.1.17:20160=1.5 10.0.1.18:20160=1.5 10.0.1.19:20160=1.5",
		"tikv.split.qps-threshold default 3000: 10.0.1.18:20160=6000",
		"variable.tidb_mem_quota_query default 1073741824: =2147483648",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("unmanaged settings (-want +got):\n%s", d)
	}
	if ig := cp.UnmanagedSettings.Ignored; len(ig) != 1 || ig[0].Setting.Addr.Key != "tidb_gc_life_time" {
		t.Errorf("ignored = %+v, want tidb_gc_life_time", ig)
	}
	// The ignore block is in use (no TF196), although it hides no difference.
	for _, f := range cp.Findings {
		if f.Code == guard.CodeIgnoreUnused {
			t.Errorf("TF196 for an ignore block that hides an unmanaged setting: %s", f.Summary)
		}
	}
	// A drift report asks for the clusters whose configuration says so.
	dc.ReportUnmanaged = true
	if !ReportsUnmanaged(dc, Options{Drift: true}) || ReportsUnmanaged(dc, Options{}) {
		t.Error("unmanaged_settings = \"report\" applies to drift reports only")
	}
}

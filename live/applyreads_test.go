package live

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/state"
)

// Apply's reads: with OnlyManagedKeys the one CLUSTER_CONFIG statement keeps
// only the managed keys of every component (any case), and ReadValues sends
// the same statements without the version and the topology.
func TestOnlyManagedKeys(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 3})
	db := openSim(t, s, "root", "")
	req := Request{OnlyManagedKeys: true, Variables: []string{"tidb_gc_enable"}, Config: []ComponentRequest{
		{Component: state.TiKV, Keys: []ManagedKey{{Key: "gc.ratio-threshold"}, {Key: "Coprocessor.Region-Split-Size"}}},
		{Component: state.PD, Keys: []ManagedKey{{Key: "schedule.leader-schedule-limit"}}},
		{Component: state.TiDB}, // no keys: not read
	}}
	wantQuery := "SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('tikv', 'pd') " +
		"AND LOWER(`KEY`) IN ('coprocessor.region-split-size', 'gc.ratio-threshold', 'schedule.leader-schedule-limit')"
	if got := ValueStatements(req)[0]; got != wantQuery {
		t.Errorf("config statement:\n got %s\nwant %s", got, wantQuery)
	}
	l, stmts := inspectLogged(t, s, db, req)
	if d := cmp.Diff(Statements(req), stmts); d != "" {
		t.Errorf("statements (-want +got):\n%s", d)
	}
	rows := func(l *state.Live) []string {
		var out []string
		for _, r := range l.Config {
			out = append(out, string(r.Component)+" "+r.Key)
		}
		sort.Strings(out)
		return out
	}
	want := []string{"pd schedule.leader-schedule-limit"}
	for range 3 {
		want = append(want, "tikv coprocessor.region-split-size", "tikv gc.ratio-threshold")
	}
	sort.Strings(want)
	if d := cmp.Diff(want, rows(l)); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if len(l.Gaps) != 0 || l.Variables["tidb_gc_enable"] == "" {
		t.Errorf("gaps %v, variables %v", l.Gaps, l.Variables)
	}

	conn, err := db.Conn(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	mark := s.Mark()
	r, err := ReadValues(ctxT(t), conn, req)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(ValueStatements(req), s.Since(mark)); d != "" {
		t.Errorf("ReadValues statements (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, rows(r)); d != "" {
		t.Errorf("ReadValues rows (-want +got):\n%s", d)
	}
}

// With only managed keys read, an instance that reports none of them is not
// "down": a key it lacks that its version does not have (the catalog's
// table covers the version) is a note, not a gap; an instance that does not
// answer is an instance gap naming the warning.
func TestOnlyManagedKeysGaps(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 2})
	db := openSim(t, s, "root", "")
	down := s.Addresses(tidbsim.TypeTiKV)[1]
	s.Cluster.SetInstanceDown(down, true)
	l, err := Inspect(ctxT(t), db, Request{OnlyManagedKeys: true, Config: []ComponentRequest{
		{Component: state.TiKV, Keys: []ManagedKey{{Key: "no-such.key"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, g := range l.Gaps {
		kinds = append(kinds, string(g.Kind)+" "+g.Instance)
		if g.Kind == state.GapInstance && !strings.Contains(g.Reason, "connection refused") {
			t.Errorf("instance gap without its warning: %s", g.Reason)
		}
	}
	sort.Strings(kinds)
	up := s.Addresses(tidbsim.TypeTiKV)[0]
	if d := cmp.Diff([]string{string(state.GapInstance) + " " + down}, kinds); d != "" {
		t.Errorf("gaps (-want +got):\n%s", d)
	}
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, "no-such.key") }) {
		t.Errorf("no note for no-such.key, which %s does not report: %q", up, l.Notes)
	}
}

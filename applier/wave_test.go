package applier

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
)

// waveKey is the i-th TiKV item of wavePlan.
func waveKey(i int) string { return fmt.Sprintf("wave.k%d", i) }

// wavePlan is n TiKV changes the plan does not order (waveKey(i) 1 → 2),
// with the items seeded at 1 on the fake cluster's TiKV.
func wavePlan(c *fakeCluster, n int) *planner.ClusterPlan {
	cp := &planner.ClusterPlan{Name: "prod"}
	for i := 0; i < n; i++ {
		for _, in := range tikvs {
			c.config[in][waveKey(i)] = "1"
		}
		cp.Changes = append(cp.Changes, configChange("tikv", waveKey(i), "1", "2", tikvs))
	}
	return cp
}

// logEntry is one statement of the fake cluster's log.
type logEntry struct {
	conn int64
	sql  string
}

func fakeLog(c *fakeCluster) []logEntry {
	var out []logEntry
	for _, l := range c.statements() {
		id, q, _ := strings.Cut(l, ": ")
		n, _ := strconv.ParseInt(id, 10, 64)
		out = append(out, logEntry{n, q})
	}
	return out
}

// setConns returns, per SET CONFIG starting with prefix, the connection it
// was sent on, and checks that the next statement on that connection is its
// SHOW WARNINGS (unless the statement is one of errored: no warnings are
// read after an error).
func setConns(t *testing.T, log []logEntry, prefix string, errored ...string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for i, e := range log {
		if !strings.HasPrefix(e.sql, prefix) {
			continue
		}
		out[e.sql] = e.conn
		next := ""
		for _, f := range log[i+1:] {
			if f.conn == e.conn {
				next = f.sql
				break
			}
		}
		if next != "SHOW WARNINGS" && !slices.Contains(errored, e.sql) {
			t.Errorf("%q on connection %d is followed there by %q, want SHOW WARNINGS", e.sql, e.conn, next)
		}
	}
	return out
}

// waitFor waits, with the fake cluster's mutex held (as hooks run), until
// cond holds; false when it did not within 10 s (the test fails instead of
// hanging).
func waitFor(c *fakeCluster, cond func() bool) bool {
	expired := false
	t := time.AfterFunc(10*time.Second, func() {
		c.mu.Lock()
		expired = true
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer t.Stop()
	for !cond() && !expired {
		c.cond.Wait()
	}
	return cond()
}

// Config changes the plan does not order are in flight together, each on
// its own connection (never the lock's), with SHOW WARNINGS read on that
// connection; the report and the verify and change events keep plan order.
// No timing: each SET CONFIG waits in the cluster until all three are in
// flight, which only a concurrent apply reaches.
func TestApplyWaveOverlaps(t *testing.T) {
	f := newFixture(t)
	cp := wavePlan(f.c, 3)
	var ev events
	f.opts.Events = &ev
	arrived, together := 0, true
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.HasPrefix(q, "SET CONFIG tikv `wave.") {
			arrived++
			f.c.cond.Broadcast()
			together = waitFor(f.c, func() bool { return arrived >= 3 }) && together
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), cp)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if !together {
		t.Errorf("the three SET CONFIG statements were never in flight together")
	}
	log := fakeLog(f.c)
	conns := setConns(t, log, "SET CONFIG tikv `wave.")
	distinct := map[int64]bool{}
	for q, id := range conns {
		distinct[id] = true
		if id == log[0].conn { // GET_LOCK's
			t.Errorf("%q sent on the lock's connection", q)
		}
	}
	if len(conns) != 3 || len(distinct) != 3 {
		t.Errorf("SET CONFIG statements on connections %v, want three on three", conns)
	}
	want := []string{"tikv.wave.k0: applied", "tikv.wave.k1: applied", "tikv.wave.k2: applied"}
	if d := cmp.Diff(want, statuses(r)); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	var statements, concluded []string
	for _, e := range ev.got {
		switch e.Event {
		case "statement":
			statements = append(statements, e.Address)
			if !strings.Contains(e.Statement, strings.TrimPrefix(e.Address, "tikv.")) {
				t.Errorf("statement event of %s names %q", e.Address, e.Statement)
			}
		case "change":
			concluded = append(concluded, e.Address)
		}
	}
	if len(statements) != 3 {
		t.Errorf("statement events: %q", statements)
	}
	if d := cmp.Diff([]string{"tikv.wave.k0", "tikv.wave.k1", "tikv.wave.k2"}, concluded); d != "" {
		t.Errorf("change events (-want +got):\n%s", d)
	}
}

// The first failure of a wave starts no new statement: the change in flight
// finishes and is read back, the others are not attempted, and the report
// and the rollback plan say exactly that. The failing statement waits until
// the second is in flight; the second until the failure is recorded.
func TestApplyWaveStops(t *testing.T) {
	f := newFixture(t)
	f.opts.Concurrency = 2
	cp := wavePlan(f.c, 4)
	failed := false
	f.opts.Events = reporterFunc(func(e views.ApplyEvent) {
		if e.Event == "statement" && e.Result == "error" {
			f.c.set(func(c *fakeCluster) { failed = true; c.cond.Broadcast() })
		}
	})
	second := false
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		switch {
		case strings.HasPrefix(q, "SET CONFIG tikv `wave.k0`"):
			if !waitFor(f.c, func() bool { return second }) {
				t.Errorf("the second change was not sent alongside the first")
			}
			return &mysql.MySQLError{Number: 1105, Message: "injected failure"}, false
		case strings.HasPrefix(q, "SET CONFIG tikv `wave.k1`"):
			second = true
			f.c.cond.Broadcast()
			if !waitFor(f.c, func() bool { return failed }) {
				t.Errorf("the failure was not recorded while the second change was in flight")
			}
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), cp)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	want := []string{"tikv.wave.k0: failed", "tikv.wave.k1: applied", "tikv.wave.k2: not attempted", "tikv.wave.k3: not attempted"}
	if d := cmp.Diff(want, statuses(r)); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	sent := setConns(t, fakeLog(f.c), "SET CONFIG tikv `wave.", "SET CONFIG tikv `wave.k0` = 2")
	if len(sent) != 2 || sent["SET CONFIG tikv `wave.k2` = 2"] != 0 || sent["SET CONFIG tikv `wave.k3` = 2"] != 0 {
		t.Errorf("SET CONFIG sent: %v, want only wave.k0 and wave.k1", sent)
	}
	if got := f.c.values(waveKey(1)); len(got) != 3 || !strings.HasSuffix(got[2], "=2") {
		t.Errorf("wave.k1 = %q, want 2 on every TiKV", got)
	}
	if in := r.Changes[1].Instances; len(in) != 3 || !in[0].OK || in[0].After != "2" {
		t.Errorf("wave.k1 read back: %+v", in)
	}
	rb := readRollback(t, f.opts.RollbackPath)
	if d := cmp.Diff([]string{"tikv.wave.k1"}, addresses(rb.Clusters[0].Changes)); d != "" {
		t.Errorf("rollback plan (-want +got):\n%s", d)
	}
	// The report says why a change after the failed one was sent.
	note := "tikv.wave.k1 was already in flight when tikv.wave.k0 failed (changes the plan does not order are sent " +
		"--concurrency 2 at a time); each change is reported with its own outcome"
	if !slices.Contains(r.Notes, note) {
		t.Errorf("notes = %q, want %q", r.Notes, note)
	}
}

// reporterFunc adapts a function to Reporter.
type reporterFunc func(views.ApplyEvent)

func (f reporterFunc) Report(e views.ApplyEvent) { f(e) }

// A change that depends on another waits for its read-back even among
// changes that go in waves: the wave before it is read back first (the
// region-size order, "read back before a dependent change"), then it goes
// in the next wave.
func TestApplyWaveWaitsForDependency(t *testing.T) {
	f := newFixture(t)
	cp := wavePlan(f.c, 4)
	cp.Changes[2].DependsOn = []state.Address{cp.Changes[0].Addr}
	r, err := f.apply(t, context.Background(), cp)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	var seq []string // wave statements and config reads, in arrival order
	for _, e := range fakeLog(f.c) {
		switch {
		case strings.HasPrefix(e.sql, "SET CONFIG tikv `wave."):
			seq = append(seq, "set "+e.sql[len("SET CONFIG tikv `"):len("SET CONFIG tikv `wave.k0")])
		case strings.HasPrefix(e.sql, "SELECT TYPE, INSTANCE, `KEY`"):
			seq = append(seq, "read "+strings.Join(regexpWaveKeys.FindAllString(e.sql, -1), ","))
		}
	}
	// The inspection; k0 and k1 in either order; their read-back; k2 and
	// k3 in either order; theirs.
	if len(seq) != 7 || seq[0] != "read wave.k0,wave.k1,wave.k2,wave.k3" || seq[3] != "read wave.k0,wave.k1" ||
		seq[6] != "read wave.k2,wave.k3" || !sameSet(seq[1:3], "set wave.k0", "set wave.k1") || !sameSet(seq[4:6], "set wave.k2", "set wave.k3") {
		t.Errorf("config statements: %q", seq)
	}
	if got := statuses(r); len(got) != 4 || got[2] != "tikv.wave.k2: applied" {
		t.Errorf("report: %q", got)
	}
}

var regexpWaveKeys = regexp.MustCompile(`wave\.k\d+`)

func sameSet(got []string, want ...string) bool {
	g, w := append([]string(nil), got...), append([]string(nil), want...)
	sort.Strings(g)
	sort.Strings(w)
	return cmp.Equal(g, w)
}

// Against the emulator, from its query log: with Concurrency 1 every
// SET CONFIG goes on one connection in plan order, each followed by its
// SHOW WARNINGS, as before waves; with 3, the same statements go on three
// connections, each followed on its own by SHOW WARNINGS. Both stay within
// the 2N + 12 statements from a fresh pool, the lock connection's
// mark included (lockholder.go, decision 0017).
func TestE2EWaveConnections(t *testing.T) {
	const n = 10
	s := startSim(t, tidbsim.Options{TiKV: 3, NewerConfig: manyTiKVItems(n)})
	for _, c := range []struct {
		concurrency, conns int
		value              string
	}{{1, 1, "2"}, {3, 3, "3"}} {
		dc := desiredTiKV(n)
		for i := range dc.Config {
			dc.Config[i].Value.Text = c.value
		}
		cp := s.plan(t, dc)
		s.db = s.open(t) // a fresh pool, as tiform apply opens
		o := s.opts
		o.Desired, o.Concurrency = dc, c.concurrency
		mark := len(s.srv.Cluster.QueryLog())
		if _, err := s.apply(t, ctxT(t), cp, o); err != nil {
			t.Fatalf("concurrency %d: Apply: %v", c.concurrency, err)
		}
		var log []logEntry
		for _, e := range s.srv.Cluster.QueryLog()[mark:] {
			log = append(log, logEntry{int64(e.ConnID), strings.TrimSpace(e.SQL)})
		}
		if len(log) > 2*n+12 {
			t.Errorf("concurrency %d: %d statements, want at most %d", c.concurrency, len(log), 2*n+12)
		}
		conns := setConns(t, log, "SET CONFIG tikv")
		var sets, want []string
		distinct := map[int64]bool{}
		for _, e := range log {
			if strings.HasPrefix(e.sql, "SET CONFIG tikv") {
				sets = append(sets, e.sql)
				distinct[conns[e.sql]] = true
			}
		}
		for _, ch := range cp.Changes {
			want = append(want, ch.Statements[0].SQL)
		}
		if c.concurrency > 1 { // any order
			sort.Strings(sets)
			sort.Strings(want)
		}
		if d := cmp.Diff(want, sets); d != "" {
			t.Errorf("concurrency %d: SET CONFIG statements (-want +got):\n%s", c.concurrency, d)
		}
		if len(distinct) != c.conns {
			t.Errorf("concurrency %d: SET CONFIG on %d connections, want %d", c.concurrency, len(distinct), c.conns)
		}
		if re := s.plan(t, dc); len(re.Changes) != 0 {
			t.Errorf("concurrency %d: replan: %q", c.concurrency, changeAddresses(re))
		}
	}
}

// A change of several statements (one per instance) in flight when another
// change of its wave fails stops between its statements, as an interrupt
// stops it: reported failed with why, and rolled back only where it was
// sent.
func TestApplyWaveStopsBetweenStatements(t *testing.T) {
	f := newFixture(t)
	f.opts.Concurrency = 2
	cp := wavePlan(f.c, 2)
	k0 := cp.Changes[0]
	k0.Spec.Set, k0.Spec.Unset = nil, nil
	for _, in := range tikvs {
		k0.Spec.Set = append(k0.Spec.Set, plans.Assignment{Target: in, Value: state.Value{Text: "2"}, Rendered: "1"})
		k0.Spec.Unset = append(k0.Spec.Unset, plans.Assignment{Target: in, Value: state.Value{Text: "1"}, Restore: true})
	}
	derivedChange(k0)
	failed := false
	f.opts.Events = reporterFunc(func(e views.ApplyEvent) {
		if e.Event == "statement" && e.Result == "error" {
			f.c.set(func(c *fakeCluster) { failed = true; c.cond.Broadcast() })
		}
	})
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		switch {
		case strings.HasPrefix(q, "SET CONFIG '127.0.0.1:20160' `wave.k0`"):
			if !waitFor(f.c, func() bool { return failed }) {
				t.Errorf("wave.k1 did not fail while wave.k0 was in flight")
			}
		case strings.HasPrefix(q, "SET CONFIG tikv `wave.k1`"):
			return &mysql.MySQLError{Number: 1105, Message: "injected failure"}, false
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), cp)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	c := r.Changes[0]
	if c.Status != Failed || !c.Effective || c.Reason != "stopped after 1 of 3 statements: tikv.wave.k1 failed" {
		t.Errorf("wave.k0: %s, effective %v, reason %q", c.Status, c.Effective, c.Reason)
	}
	if d := cmp.Diff([]string{"127.0.0.1:20160=2", "127.0.0.1:20161=1", "127.0.0.1:20162=1"}, f.c.values(waveKey(0))); d != "" {
		t.Errorf("wave.k0 (-want +got):\n%s", d)
	}
	rb := readRollback(t, f.opts.RollbackPath)
	want := []plans.Statement{{SQL: "SET CONFIG '127.0.0.1:20160' `wave.k0` = 1", Target: "127.0.0.1:20160"}}
	if d := cmp.Diff(want, rb.Clusters[0].Changes[0].Statements); len(rb.Clusters[0].Changes) != 1 || d != "" {
		t.Errorf("rollback plan: %d changes, statements (-want +got):\n%s", len(rb.Clusters[0].Changes), d)
	}
}

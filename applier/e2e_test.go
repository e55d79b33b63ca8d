package applier

// End-to-end tests: plans built by the planner from a live read of the
// in-process TiDB emulator, applied by Apply, checked by re-inspection.

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

const simPassword = "Tif0rm-e2e-S3cret"

type sim struct {
	srv  *tidbsimtest.Cluster
	db   *sql.DB
	dsn  string
	dir  string
	out  *hookWriter // progress
	opts Options
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func startSim(t *testing.T, o tidbsim.Options) *sim {
	t.Helper()
	srv := tidbsimtest.Start(t, o)
	dsn := srv.AddUser(t, "tiform", simPassword)
	s := &sim{srv: srv, dsn: dsn, dir: t.TempDir(), out: &hookWriter{}}
	s.db = s.open(t)
	s.opts = Options{
		AuditPath:    filepath.Join(s.dir, ".tiform", "audit.log"),
		RollbackPath: filepath.Join(s.dir, "rollback.tfplan"),
		Progress:     s.out,
		Operator:     Operator{OSUser: "dbre", DBUser: "tiform"},
		Secrets:      []string{simPassword},
		LockTimeout:  5 * time.Second,
		Retry:        RetryPolicy{Sleep: func(context.Context, time.Duration) error { return nil }},
	}
	return s
}

func (s *sim) open(t *testing.T) *sql.DB {
	t.Helper()
	db, err := live.Open(ctxT(t), s.dsn, live.ConnOptions{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func (s *sim) tikvs() []string { return s.srv.Addresses(tidbsim.TypeTiKV) }

func e2eDesired() *state.DesiredCluster {
	ru := int64(1000)
	return &state.DesiredCluster{
		Name: "prod",
		Config: []state.ConfigSetting{
			{Component: state.TiKV, Key: "gc.ratio-threshold", Value: state.Value{Text: "1.3", Type: state.LiteralNumber}},
			{Component: state.TiKV, Key: "pessimistic-txn.wait-for-lock-timeout", Value: state.Value{Text: "2s", Type: state.LiteralString}},
			{Component: state.PD, Key: "schedule.leader-schedule-limit", Value: state.Value{Text: "8", Type: state.LiteralNumber}},
		},
		Variables: []state.VariableSetting{
			{Name: "tidb_session_plan_cache_size", Value: state.Value{Text: "200", Type: state.LiteralNumber}},
		},
		ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: &ru}},
	}
}

func (s *sim) plan(t *testing.T, dc *state.DesiredCluster) *planner.ClusterPlan {
	t.Helper()
	l, err := live.Inspect(ctxT(t), s.db, live.RequestFor(dc))
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	cp, err := planner.BuildCluster(dc, l, planner.Options{Now: time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return cp
}

func (s *sim) apply(t *testing.T, ctx context.Context, cp *planner.ClusterPlan, o Options) (*Report, error) {
	t.Helper()
	r, err := Apply(ctx, s.db, cp, o)
	if r == nil {
		t.Fatalf("Apply returned no report (err %v)", err)
	}
	s.noPassword(t, r, err)
	return r, err
}

// noPassword greps every output of an apply for the DSN password.
func (s *sim) noPassword(t *testing.T, r *Report, err error) {
	t.Helper()
	var text bytes.Buffer
	r.WriteText(&text)
	outs := map[string][]byte{"report": text.Bytes(), "progress": s.out.buf.Bytes()}
	if err != nil {
		outs["error"] = []byte(err.Error())
	}
	for _, p := range []string{s.opts.AuditPath, r.RollbackPath} {
		if p == "" {
			continue
		}
		b, rerr := os.ReadFile(p)
		if rerr != nil {
			t.Errorf("read %s: %v", p, rerr)
		}
		outs[p] = b
	}
	for name, b := range outs {
		if bytes.Contains(b, []byte(simPassword)) {
			t.Errorf("%s contains the DSN password", name)
		}
	}
}

func changeAddresses(cp *planner.ClusterPlan) []string { return addresses(cp.Changes) }

func TestE2EHappyPath(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3})
	dc := e2eDesired()
	dc.DSN = s.dsn // as a cluster block's dsn = env(...) carries it: secret material
	cp := s.plan(t, dc)
	if len(cp.Changes) < 5 {
		t.Fatalf("plan has %d changes, want 5: %q", len(cp.Changes), changeAddresses(cp))
	}
	// The saved plan file never holds the password either.
	var pf bytes.Buffer
	if err := planner.WritePlanFile(&pf, &planner.Plan{Clusters: []*planner.ClusterPlan{cp}}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(pf.Bytes(), []byte(simPassword)) {
		t.Errorf("the plan file contains the DSN password")
	}
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctxT(t), cp, o)
	if err != nil {
		t.Fatalf("Apply: %v\n%s", err, s.out.buf.String())
	}
	for _, c := range r.Changes {
		if c.Status != Applied {
			t.Errorf("%s: %s (%s)", c.Addr, c.Status, c.Reason)
		}
		if c.Addr.String() == "tikv.gc.ratio-threshold" {
			var ok []string
			for _, in := range c.Instances {
				if in.OK {
					ok = append(ok, in.Instance)
				}
			}
			if d := cmp.Diff(s.tikvs(), ok); d != "" {
				t.Errorf("verified instances (-want +got):\n%s", d)
			}
		}
	}
	var text strings.Builder
	r.WriteText(&text)
	if !strings.HasPrefix(text.String(), "Apply complete! Resources: 4 changed, 1 created, 0 deleted.") {
		t.Errorf("report:\n%s", text.String())
	}
	b, err := os.ReadFile(o.AuditPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := auditLines(t, b)
	verify := 0
	for _, l := range lines {
		if l.Event == "verify" {
			verify++
		}
	}
	if want := 2 + 2*len(cp.Changes) + verify; len(lines) != want || verify < len(cp.Changes) {
		t.Errorf("audit log has %d lines (%d verify), want %d and a verify line per change at least", len(lines), verify, want)
	}
	if fi, err := os.Stat(o.AuditPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode: %v %v", fi.Mode(), err)
	}
	if re := s.plan(t, dc); len(re.Changes) != 0 {
		t.Errorf("replan after apply has changes: %q", changeAddresses(re))
	}
	// A second apply appends to the audit log.
	if _, err := s.apply(t, ctxT(t), s.plan(t, dc), o); err != nil {
		t.Fatalf("empty apply: %v", err)
	}
	b2, _ := os.ReadFile(o.AuditPath)
	if !bytes.HasPrefix(b2, b) {
		t.Errorf("audit log was rewritten, not appended")
	}
}

func TestE2EInstanceDown(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3})
	dc := e2eDesired()
	dc.Variables, dc.ResourceGroups = nil, nil
	cp := s.plan(t, dc)
	down := s.tikvs()[1]
	s.out.on = func(l string) {
		if strings.Contains(l, "tikv.") && strings.Contains(l, "applying") {
			s.srv.Cluster.SetInstanceDown(down, true)
		}
	}
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctxT(t), cp, o)
	s.out.on = nil
	if !errors.Is(err, ErrFailed) || errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrFailed (exit 1)", err)
	}
	var c *ChangeResult
	for _, x := range r.Changes {
		if strings.HasPrefix(x.Addr.String(), "tikv.") && x.Status == Failed {
			c = x
		}
	}
	if c == nil {
		t.Fatalf("no failed tikv change: %q", statuses(r))
	}
	for _, in := range c.Instances {
		if in.OK == (in.Instance == down) {
			t.Errorf("%s on %s: ok=%v (%s)", c.Addr, in.Instance, in.OK, in.Reason)
		}
	}
	if !strings.Contains(c.Reason, down) {
		t.Errorf("reason %q does not name %s", c.Reason, down)
	}
	rb, err := os.ReadFile(r.RollbackPath)
	if err != nil {
		t.Fatalf("rollback plan: %v", err)
	}
	p, err := readPlanFile(r.RollbackPath, rb)
	if err != nil {
		t.Fatal(err)
	}
	// The rollback restores the others while the instance is still down.
	o2 := s.opts
	o2.Desired = dc // as `tiform apply rollback.tfplan` passes it
	o2.RollbackPath = filepath.Join(s.dir, "rollback2.tfplan")
	r2, err := s.apply(t, ctxT(t), p.Clusters[0], o2)
	if err != nil {
		t.Fatalf("apply rollback: %v\n%q", err, statuses(r2))
	}
	s.srv.Cluster.SetInstanceDown(down, false)
	l, err := live.Inspect(ctxT(t), s.db, live.RequestFor(dc))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range l.Config {
		if row.Key == "gc.ratio-threshold" && row.Value != "1.1" {
			t.Errorf("after rollback %s %s = %s, want 1.1", row.Instance, row.Key, row.Value)
		}
	}
}

// TestE2EEveryDivergedInstanceNamed: SET CONFIG succeeds while instances
// fail, each with a warning (pingcap/tidb#59856, #59857): the report names
// every instance that did not take the value, in the change's reason and
// in its per-instance lines, and none that did.
func TestE2EEveryDivergedInstanceNamed(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 4})
	dc := &state.DesiredCluster{Name: "prod", Config: []state.ConfigSetting{
		{Component: state.TiKV, Key: "gc.ratio-threshold", Value: state.Value{Text: "1.3", Type: state.LiteralNumber}},
	}}
	cp := s.plan(t, dc)
	kvs := s.tikvs()
	down := []string{kvs[1], kvs[3]}
	s.out.on = func(l string) {
		if strings.Contains(l, "tikv.gc.ratio-threshold") && strings.Contains(l, "applying") {
			for _, a := range down {
				s.srv.Cluster.SetInstanceDown(a, true)
			}
		}
	}
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctxT(t), cp, o)
	s.out.on = nil
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	c := r.Changes[0]
	if c.Status != Failed {
		t.Fatalf("status %s", c.Status)
	}
	if !strings.Contains(c.Reason, "2 of 4 instances did not take it") {
		t.Errorf("reason %q does not count the diverged instances", c.Reason)
	}
	for _, a := range kvs {
		if strings.Contains(c.Reason, a+":") != slices.Contains(down, a) {
			t.Errorf("reason %q: naming %s is wrong", c.Reason, a)
		}
	}
	var text bytes.Buffer
	r.WriteText(&text)
	for _, a := range kvs {
		mark := " ok"
		if slices.Contains(down, a) {
			mark = " FAILED: "
		}
		found := false
		for _, line := range strings.Split(text.String(), "\n") {
			if strings.Contains(line, a+": 1.1 -> ") && strings.Contains(line, mark) {
				found = true
			}
		}
		if !found {
			t.Errorf("the report has no line for %s marked %q:\n%s", a, mark, text.String())
		}
	}
}

// From the moment the k-th change starts, every connection drops when it
// receives its second statement, without answering (or running) it: the
// k-th change's statement is lost on the statement connection, and so is
// the lock connection's ownership check. Apply reconnects to take the lock
// again, but a fresh lock connection marks itself first (SET SESSION
// tidb_session_alias, so that another apply can name it) and its GET_LOCK,
// the second statement, is dropped too: apply cannot hold the lock, so it
// re-sends nothing. The changes read back before are applied; the k-th, and
// any change of its batch sent before it (the two TiKV changes form one
// batch), are failed with an unknown effect: they count as effective and the
// rollback plan covers them; the rest are not attempted. A new plan shows
// what did not take effect (the k-th's statement never ran), and the
// rollback plan restores the original.
func TestE2EConnectionDroppedAfterK(t *testing.T) {
	dc := e2eDesired()
	{
		s := startSim(t, tidbsim.Options{TiKV: 3})
		want := []string{"variable.tidb_session_plan_cache_size", "pd.schedule.leader-schedule-limit",
			"tikv.gc.ratio-threshold", "tikv.pessimistic-txn.wait-for-lock-timeout", "resource_group.oltp"}
		if d := cmp.Diff(want, changeAddresses(s.plan(t, dc))); d != "" {
			t.Fatalf("plan order (-want +got):\n%s", d)
		}
	}
	const A, F, N = Applied, Failed, NotAttempted
	for k, tc := range map[int]struct {
		want []Status
		// remaining is the index of the first change a new plan shows: the
		// k-th change's statement did not run.
		remaining int
	}{
		1: {want: []Status{A, F, N, N, N}, remaining: 1},
		2: {want: []Status{A, A, F, N, N}, remaining: 2}, // the first TiKV change is lost; the second is not sent
		3: {want: []Status{A, A, F, F, N}, remaining: 3}, // the first TiKV change was sent, not yet read back; the second is lost
		4: {want: []Status{A, A, A, A, F}, remaining: 4}, // CREATE RESOURCE GROUP is re-sent only after a re-read shows it did not run
	} {
		want := tc.want
		t.Run(string(rune('0'+k)), func(t *testing.T) {
			s := startSim(t, tidbsim.Options{TiKV: 3})
			cp := s.plan(t, dc)
			starts := 0
			s.out.on = func(l string) {
				if strings.Contains(l, ": applying") {
					starts++
					if starts == k+1 {
						s.srv.Cluster.SetDropAfter(1) // every connection drops from now on
					}
				}
			}
			o := s.opts
			o.Desired = dc
			// One after another: the k-th change is the k-th to start (a
			// wave starts two TiKV changes at once: TestApplyWaveStops).
			o.Concurrency = 1
			r, err := s.apply(t, ctxT(t), cp, o)
			s.out.on = nil
			s.srv.Cluster.SetDropAfter(0)
			if err == nil {
				t.Fatalf("Apply succeeded through dropped connections")
			}
			var got []Status
			var took []string // applied, or effect unknown
			for _, c := range r.Changes {
				got = append(got, c.Status)
				if c.Effective {
					took = append(took, c.Addr.String())
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("statuses (-want +got):\n%s", d)
			}
			// Re-inspection agrees: a new plan shows exactly the changes whose
			// statement did not run.
			s.db = s.open(t)
			re := s.plan(t, dc)
			if d := cmp.Diff(changeAddresses(cp)[tc.remaining:], changeAddresses(re)); d != "" {
				t.Errorf("replan (-want +got):\n%s", d)
			}
			// The rollback plan undoes every change that may have taken
			// effect, in reverse.
			b, err := os.ReadFile(r.RollbackPath)
			if err != nil {
				t.Fatalf("rollback plan: %v", err)
			}
			p, err := readPlanFile(r.RollbackPath, b)
			if err != nil {
				t.Fatal(err)
			}
			rb := changeAddresses(p.Clusters[0])
			slices.Reverse(rb)
			if d := cmp.Diff(took, rb); d != "" {
				t.Errorf("rollback plan (-took effect +rollback reversed):\n%s", d)
			}
			o2 := s.opts
			o2.Desired = dc
			o2.RollbackPath = filepath.Join(s.dir, "rollback2.tfplan")
			if _, err := Apply(ctxT(t), s.db, p.Clusters[0], o2); err != nil {
				t.Fatalf("apply rollback: %v", err)
			}
			if d := cmp.Diff(changeAddresses(cp), changeAddresses(s.plan(t, dc))); d != "" {
				t.Errorf("after rollback the plan is not the original (-want +got):\n%s", d)
			}
		})
	}
}

// Two applies at once, through two different TiDB instances of the same
// cluster: the lock is cluster-wide.
func TestE2ETwoApplies(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3, TiDB: 2})
	dbB, err := live.Open(ctxT(t), s.srv.DSNFor(1, "tiform", simPassword), live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dbB.Close() })
	dcA := e2eDesired()
	dcA.Variables = nil
	dcB := &state.DesiredCluster{Name: "prod", Variables: e2eDesired().Variables}
	cpA, cpB := s.plan(t, dcA), s.plan(t, dcB)

	// A blocks in its first change until B is waiting for the lock.
	release := make(chan struct{})
	var once sync.Once
	outA := &hookWriter{on: func(l string) {
		if strings.Contains(l, "applying") {
			once.Do(func() { <-release })
		}
	}}
	oA := s.opts
	oA.Desired, oA.Progress = dcA, outA
	oA.RollbackPath = filepath.Join(s.dir, "a.tfplan")
	errA := make(chan error, 1)
	go func() {
		_, err := Apply(ctxT(t), s.db, cpA, oA)
		errA <- err
	}()
	tidbsimtest.WaitFor(t, func() bool { return lockHeld(t, s) })

	// With a short timeout, B fails naming the lock.
	oB := s.opts
	oB.Desired, oB.LockTimeout, oB.Progress = dcB, time.Second, &hookWriter{}
	r, err := Apply(ctxT(t), dbB, cpB, oB)
	s.noPassword(t, r, err)
	// IS_USED_LOCK answers 1 to other sessions, but A's lock connection is
	// marked (tidb_session_alias): B names it from CLUSTER_PROCESSLIST.
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), `"tiform.apply"`) || !strings.Contains(err.Error(), "--lock-timeout") ||
		!strings.Contains(err.Error(), "another tiform apply holds the lock") || !strings.Contains(err.Error(), "'tiform'@") {
		t.Fatalf("B with a short timeout: err = %v, want the lock message naming A", err)
	}
	if r.Changes[0].Status != NotAttempted {
		t.Errorf("B report: %q", statuses(r))
	}
	// With a long timeout, B waits; A proceeds and finishes; then B runs.
	oB.LockTimeout = 60 * time.Second
	errB := make(chan error, 1)
	gets := countLog(s, "GET_LOCK")
	go func() {
		_, err := Apply(ctxT(t), dbB, cpB, oB)
		errB <- err
	}()
	tidbsimtest.WaitFor(t, func() bool { return countLog(s, "GET_LOCK") > gets })
	close(release)
	if err := <-errA; err != nil {
		t.Fatalf("A: %v", err)
	}
	if err := <-errB; err != nil {
		t.Fatalf("B after waiting: %v", err)
	}
	if re := s.plan(t, e2eDesired()); len(re.Changes) != 0 {
		t.Errorf("after both applies: %q", changeAddresses(re))
	}
}

func lockHeld(t *testing.T, s *sim) bool {
	var id sql.NullInt64
	if err := s.db.QueryRowContext(ctxT(t), "SELECT IS_USED_LOCK('tiform.apply')").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id.Valid
}

func countLog(s *sim, sub string) int { return s.srv.Count(sub) }

func TestE2EStalePlan(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3})
	dc := e2eDesired()
	cp := s.plan(t, dc)
	if _, err := s.db.ExecContext(ctxT(t), "SET GLOBAL tidb_session_plan_cache_size = 150"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctxT(t), "SET CONFIG '"+s.tikvs()[2]+"' `gc.ratio-threshold` = 1.2"); err != nil {
		t.Fatal(err)
	}
	changes := func() int { return countLog(s, "SET ") - countLog(s, markStatement) }
	before := changes()
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctxT(t), cp, o)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want a stale-plan refusal", err)
	}
	for _, want := range []string{"variable.tidb_session_plan_cache_size", `tikv["` + s.tikvs()[2] + `"].gc.ratio-threshold`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
	if len(r.Stale) != 2 {
		t.Errorf("stale = %+v, want 2 entries", r.Stale)
	}
	if n := changes(); n != before {
		t.Errorf("a stale plan sent %d SET statements", n-before)
	}
}

func TestE2ECancelled(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3})
	dc := e2eDesired()
	cp := s.plan(t, dc)
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	starts := 0
	s.out.on = func(l string) {
		if strings.Contains(l, ": applying") {
			starts++
			if starts == 2 {
				cancel()
			}
		}
	}
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctx, cp, o)
	if !errors.Is(err, ErrInterrupted) || !r.Interrupted {
		t.Fatalf("err = %v, interrupted %v", err, r.Interrupted)
	}
	// The running change finished; nothing after it was sent.
	for i, c := range r.Changes {
		if (i < 2) != (c.Status == Applied) {
			t.Errorf("change %d %s: %s", i, c.Addr, c.Status)
		}
	}
	s.out.on = nil
	if d := cmp.Diff(changeAddresses(cp)[2:], changeAddresses(s.plan(t, dc))); d != "" {
		t.Errorf("replan (-want +got):\n%s", d)
	}
	if r.RollbackPath == "" {
		t.Fatalf("no rollback plan written")
	}
	b, err := os.ReadFile(r.RollbackPath)
	if err != nil {
		t.Fatal(err)
	}
	p, err := readPlanFile(r.RollbackPath, b)
	if err != nil {
		t.Fatal(err)
	}
	got := changeAddresses(p.Clusters[0])
	slices.Reverse(got)
	if d := cmp.Diff(changeAddresses(cp)[:2], got); d != "" {
		t.Errorf("rollback plan (-applied +rollback reversed):\n%s", d)
	}
	var text strings.Builder
	r.WriteText(&text)
	if !strings.Contains(text.String(), "Apply interrupted") || !strings.Contains(text.String(), r.RollbackPath) {
		t.Errorf("report:\n%s", text.String())
	}
}

// A variable TiDB clamps into its range succeeds with warning 1292 (ranges:
// https://docs.pingcap.com/tidb/stable/system-variables):
// apply counts it as failed and the rollback restores the old value. The
// plan is built by hand: the planner would reject the out-of-range value.
func TestE2EClampedVariable(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 1})
	name := "tidb_session_plan_cache_size"
	// Restore writes the value as it is (no range check), as for a value
	// read from a cluster whose range differs from the catalog's.
	cp := &planner.ClusterPlan{Name: "prod", Changes: []*plans.Change{derivedChange(&plans.Change{
		Addr: state.VariableAddress(name), Action: plans.Update,
		Before: []plans.InstanceValue{{Value: "100"}}, After: "200000",
		Spec: plans.Spec{Set: []plans.Assignment{{Value: state.Value{Text: "200000"}, Restore: true}},
			Unset: []plans.Assignment{{Value: state.Value{Text: "100"}, Restore: true}}},
		Verify: []plans.Check{{Addr: state.VariableAddress(name), Want: "200000"}},
	})}, Fingerprint: []plans.Dependency{{Addr: state.VariableAddress(name), Value: "100"}}}
	r, err := s.apply(t, ctxT(t), cp, s.opts)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	c := r.Changes[0]
	if c.Status != Failed || !strings.Contains(c.Reason, "clamped") || !strings.Contains(c.Reason, "Truncated incorrect") {
		t.Fatalf("change = %+v", c)
	}
	b, err := os.ReadFile(r.RollbackPath)
	if err != nil {
		t.Fatal(err)
	}
	p, err := readPlanFile(r.RollbackPath, b)
	if err != nil {
		t.Fatal(err)
	}
	o := s.opts
	o.RollbackPath = filepath.Join(s.dir, "rollback2.tfplan")
	if _, err := s.apply(t, ctxT(t), p.Clusters[0], o); err != nil {
		t.Fatalf("apply rollback: %v", err)
	}
	var v string
	if err := s.db.QueryRowContext(ctxT(t), "SELECT @@GLOBAL."+name).Scan(&v); err != nil || v != "100" {
		t.Errorf("after rollback %s = %q (%v), want 100", name, v, err)
	}
}

// One TiKV differs from the others (drift): the plan targets that instance
// only, apply verifies it, and the replan is empty.
func TestE2EDriftedInstance(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3})
	odd := s.tikvs()[2]
	if _, err := s.db.ExecContext(ctxT(t), "SET CONFIG '"+odd+"' `gc.ratio-threshold` = 1.2"); err != nil {
		t.Fatal(err)
	}
	dc := &state.DesiredCluster{Name: "prod", Config: []state.ConfigSetting{
		{Component: state.TiKV, Key: "gc.ratio-threshold", Value: state.Value{Text: "1.1", Type: state.LiteralNumber}},
	}}
	cp := s.plan(t, dc)
	if len(cp.Changes) != 1 {
		t.Fatalf("plan: %q", changeAddresses(cp))
	}
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctxT(t), cp, o)
	if err != nil {
		t.Fatalf("Apply: %v\n%s", err, s.out.buf.String())
	}
	for _, st := range r.Changes[0].Statements {
		if !strings.Contains(st.SQL, odd) {
			t.Errorf("statement %q does not target only the drifted instance %s", st.SQL, odd)
		}
	}
	if re := s.plan(t, dc); len(re.Changes) != 0 {
		t.Errorf("replan: %q", changeAddresses(re))
	}
}

// TestE2EUncatalogued: issue 11's scenario — tidb_gc_enable = true, in sync
// (ON), declared next to real changes — and the same for settings the
// catalog does not know (the variables and config items of a release newer
// than the catalog, tidbsim's newer settings): a bool, an enum, a size and a
// duration, some changed and some in sync, all declared in spellings that
// differ from how the cluster prints them. Apply is not refused as stale (ON
// vs 1 from SELECT @@ is one boolean, 1024MiB is 1GiB, 10000ms is 10s),
// verifies every instance, and the next plan is empty.
func TestE2EUncatalogued(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3,
		NewerVariables: []tidbsim.NewerVariable{
			{Name: "tidb_newer_switch", Type: "bool", Default: "OFF"},
			{Name: "tidb_newer_mode", Type: "enum", Possible: []string{"OFF", "ON", "AUTO"}, Default: "ON"},
			{Name: "tidb_newer_timeout", Type: "duration", Default: "10m"},
			// In sync, declared in another spelling: fingerprinted, so the
			// stale check must read them as the planner did (issue 11).
			{Name: "tidb_newer_gc_like", Type: "bool", Default: "ON"},
			{Name: "tidb_newer_kind", Type: "enum", Possible: []string{"LEGACY", "PHYSICAL"}, Default: "LEGACY"},
		},
		NewerConfig: []tidbsim.NewerConfigItem{
			{Type: "tikv", Name: "newer-feature.cache-size", Kind: "size", Default: "64MiB"},
			{Type: "tikv", Name: "newer-feature.tick", Kind: "duration", Default: "1m"},
			{Type: "tikv", Name: "newer-feature.mode", Kind: "enum", Enum: []string{"fast", "safe"}, Default: "safe"},
			{Type: "pd", Name: "schedule.newer-switch", Kind: "bool", Default: "false"},
			{Type: "tikv", Name: "newer-feature.buffer", Kind: "size", Default: "1GiB"},
			{Type: "tikv", Name: "newer-feature.interval", Kind: "duration", Default: "10s"},
		},
	})
	str := func(s string) state.Value { return state.Value{Text: s, Type: state.LiteralString} }
	yes := state.Value{Text: "true", Type: state.LiteralBool}
	dc := &state.DesiredCluster{Name: "prod",
		Config: []state.ConfigSetting{
			{Component: state.TiKV, Key: "newer-feature.cache-size", Value: str("512MB")},
			{Component: state.TiKV, Key: "newer-feature.tick", Value: str("90s")},
			{Component: state.TiKV, Key: "newer-feature.mode", Value: str("fast")},
			{Component: state.PD, Key: "schedule.newer-switch", Value: yes},
			// In sync, in other spellings: no change, and not stale.
			{Component: state.TiKV, Key: "newer-feature.buffer", Value: str("1024MiB")},
			{Component: state.TiKV, Key: "newer-feature.interval", Value: str("10000ms")},
		},
		Variables: []state.VariableSetting{
			{Name: "tidb_gc_enable", Value: yes}, // ON already: no change
			{Name: "tidb_newer_switch", Value: yes},
			{Name: "tidb_newer_mode", Value: str("auto")},
			{Name: "tidb_newer_timeout", Value: str("20m")},
			{Name: "tidb_newer_gc_like", Value: yes},
			{Name: "tidb_newer_kind", Value: str("legacy")},
		},
	}
	cp := s.plan(t, dc)
	want := []string{"variable.tidb_newer_mode", "variable.tidb_newer_switch", "variable.tidb_newer_timeout",
		"pd.schedule.newer-switch", "tikv.newer-feature.cache-size", "tikv.newer-feature.mode", "tikv.newer-feature.tick"}
	if d := cmp.Diff(want, changeAddresses(cp)); d != "" {
		t.Fatalf("planned changes (-want +got):\n%s", d)
	}
	o := s.opts
	o.Desired = dc
	r, err := s.apply(t, ctxT(t), cp, o)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	for _, c := range r.Changes {
		if c.Status != Applied {
			t.Errorf("%s: %s (%s)", c.Addr, c.Status, c.Reason)
		}
		for _, in := range c.Instances {
			if !in.OK {
				t.Errorf("%s on %q: %s", c.Addr, in.Instance, in.Reason)
			}
		}
		if c.Addr.String() == "tikv.newer-feature.cache-size" && len(c.Instances) != 3 {
			t.Errorf("%s verified on %d instances, want 3", c.Addr, len(c.Instances))
		}
	}
	if re := s.plan(t, dc); len(re.Changes) != 0 {
		t.Errorf("replan after apply has changes: %q", changeAddresses(re))
	}
}

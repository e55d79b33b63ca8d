package applier

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

const secret = "s3cr3t-Pa55"

var tikvs = []string{"127.0.0.1:20160", "127.0.0.1:20161", "127.0.0.1:20162"}

// derivedChange fills c's statements with the planner's one builder, as
// the planner does (apply refuses statements a change does not derive).
func derivedChange(c *plans.Change) *plans.Change {
	s, rb, err := planner.Derive(c)
	if err != nil {
		panic(err)
	}
	c.Statements, c.Rollback = s, rb
	return c
}

func configChange(comp state.Component, key, from, to string, insts []string) *plans.Change {
	return derivedChange(&plans.Change{
		Addr: state.ConfigAddress(comp, "", key), Action: plans.Update,
		Before: []plans.InstanceValue{{Value: from}},
		After:  to,
		Spec: plans.Spec{Set: []plans.Assignment{{Target: string(comp), Value: state.Value{Text: to}, Rendered: from}},
			Unset: []plans.Assignment{{Target: string(comp), Value: state.Value{Text: from}, Restore: true}}},
		Verify: []plans.Check{{Addr: state.ConfigAddress(comp, "", key), Want: to}},
	})
}

func variableChange(name, from, to string) *plans.Change {
	return derivedChange(&plans.Change{
		Addr: state.VariableAddress(name), Action: plans.Update,
		Before: []plans.InstanceValue{{Value: from}}, After: to,
		Spec: plans.Spec{Set: []plans.Assignment{{Value: state.Value{Text: to}, Rendered: from}},
			Unset: []plans.Assignment{{Value: state.Value{Text: from}, Restore: true}}},
		Verify: []plans.Check{{Addr: state.VariableAddress(name), Want: to}},
	})
}

// testPlan is five changes over the fake cluster's initial state, with a
// fingerprint of every value they depend on.
func testPlan() *planner.ClusterPlan {
	cp := &planner.ClusterPlan{Name: "prod", Changes: []*plans.Change{
		configChange("tikv", "coprocessor.region-max-size", "144MiB", "384MiB", tikvs),
		configChange("tikv", "coprocessor.region-split-size", "96MiB", "256MiB", tikvs),
		variableChange("tidb_enable_instance_plan_cache", "OFF", "ON"),
		derivedChange(&plans.Change{
			Addr: state.GroupAddress("oltp"), Action: plans.Create, After: "RU_PER_SEC=1000",
			Spec:   plans.Spec{Group: &state.ResourceGroup{Name: "oltp", RUPerSec: i64p(1000)}, Version: "v8.5.1"},
			Verify: []plans.Check{{Addr: state.GroupAddress("oltp"), Options: []plans.GroupOption{{Name: "RU_PER_SEC", Value: "1000"}}}},
		}),
		configChange("pd", "schedule.max-merge-region-size", "54", "20", nil),
	}}
	for _, k := range []struct{ key, v string }{{"coprocessor.region-max-size", "144MiB"}, {"coprocessor.region-split-size", "96MiB"}} {
		for _, in := range tikvs {
			cp.Fingerprint = append(cp.Fingerprint, plans.Dependency{Addr: state.ConfigAddress("tikv", in, k.key), Value: k.v})
		}
	}
	cp.Fingerprint = append(cp.Fingerprint,
		plans.Dependency{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Value: "OFF"},
		plans.Dependency{Addr: state.GroupAddress("oltp"), Value: Absent},
		plans.Dependency{Addr: state.ConfigAddress("pd", "127.0.0.1:2379", "schedule.max-merge-region-size"), Value: "54"},
	)
	for _, in := range topo3 {
		cp.Fingerprint = append(cp.Fingerprint, plans.Dependency{Addr: state.VersionAddress(in.Component, in.Address), Value: "8.5.1"})
	}
	return cp
}

type fixture struct {
	c        *fakeCluster
	opts     Options
	audit    *bytes.Buffer
	progress *hookWriter
	dir      string
}

// hookWriter collects progress and calls on for each line (tests use it to
// inject faults at a precise point: just before a change starts).
type hookWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
	on  func(line string)
}

func (h *hookWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	h.buf.Write(p)
	on := h.on
	h.mu.Unlock()
	if on != nil {
		for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
			on(l)
		}
	}
	return len(p), nil
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{c: newFakeCluster(), audit: &bytes.Buffer{}, progress: &hookWriter{}, dir: t.TempDir()}
	clock := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	f.opts = Options{
		AuditLog:     f.audit,
		Progress:     f.progress,
		RollbackPath: filepath.Join(f.dir, "rollback.tfplan"),
		Operator:     Operator{OSUser: "dbre", DBUser: "admin"},
		Secrets:      []string{secret},
		LockTimeout:  time.Second,
		Retry:        RetryPolicy{Sleep: func(context.Context, time.Duration) error { return nil }},
		Now: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			clock = clock.Add(time.Millisecond)
			return clock
		},
	}
	return f
}

func (f *fixture) apply(t *testing.T, ctx context.Context, cp *planner.ClusterPlan) (*Report, error) {
	t.Helper()
	db := f.c.db()
	defer db.Close()
	r, err := Apply(ctx, db, cp, f.opts)
	if r == nil {
		t.Fatalf("Apply returned a nil report (err %v)", err)
	}
	f.checkNoSecret(t, r)
	return r, err
}

func (f *fixture) checkNoSecret(t *testing.T, r *Report) {
	t.Helper()
	var text bytes.Buffer
	r.WriteText(&text)
	for name, b := range map[string][]byte{"audit log": f.audit.Bytes(), "report": text.Bytes(), "progress": f.progress.buf.Bytes()} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s contains the password:\n%s", name, b)
		}
	}
	if b, err := os.ReadFile(f.opts.RollbackPath); err == nil && bytes.Contains(b, []byte(secret)) {
		t.Errorf("rollback plan contains the password")
	}
}

func statuses(r *Report) []string {
	var out []string
	for _, c := range r.Changes {
		out = append(out, c.Addr.String()+": "+string(c.Status))
	}
	return out
}

// auditLines parses the audit log, each line checked against its schema.
func auditLines(t *testing.T, b []byte) []views.ApplyEvent {
	t.Helper()
	var out []views.ApplyEvent
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		viewstest.Validate(t, "apply-event.schema.json", sc.Bytes())
		var r views.ApplyEvent
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func readRollback(t *testing.T, path string) *planner.Plan {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("rollback plan: %v", err)
	}
	p, err := readPlanFile(path, b)
	if err != nil {
		t.Fatalf("rollback plan: %v", err)
	}
	return p
}

func addresses(cs []*plans.Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Addr.String())
	}
	return out
}

func TestApplyHappyPath(t *testing.T) {
	f := newFixture(t)
	f.opts.Concurrency = 1 // the plan's order, one after another (waves: TestApplyWave*)
	r, err := f.apply(t, context.Background(), testPlan())
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	var text strings.Builder
	r.WriteText(&text)
	if got, want := text.String(), "Apply complete! Resources: 4 changed, 1 created, 0 deleted.\n"; got != want {
		t.Errorf("report = %q, want %q", got, want)
	}
	for _, c := range r.Changes {
		for _, in := range c.Instances {
			if !in.OK {
				t.Errorf("%s on %q not verified: %+v", c.Addr, in.Instance, in)
			}
		}
	}
	if n := len(r.Changes[1].Instances); n != 3 {
		t.Errorf("region-split-size verified on %d instances, want 3", n)
	}
	want := []string{"127.0.0.1:20160=256MiB", "127.0.0.1:20161=256MiB", "127.0.0.1:20162=256MiB"}
	if d := cmp.Diff(want, f.c.values("coprocessor.region-split-size")); d != "" {
		t.Errorf("cluster (-want +got):\n%s", d)
	}
	if _, err := os.Stat(f.opts.RollbackPath); !os.IsNotExist(err) {
		t.Errorf("a complete apply wrote a rollback plan (stat: %v)", err)
	}
	lines := auditLines(t, f.audit.Bytes())
	var events []string
	verified := map[string]int{}
	var ch views.ApplyEvent // the change line of region-split-size
	for _, l := range lines {
		if l.Operator.OSUser != "dbre" || l.Operator.DBUser != "admin" || l.Cluster != "prod" || !strings.HasPrefix(l.PlanHash, "sha256:") {
			t.Errorf("audit line lacks operator/cluster/plan hash: %+v", l)
		}
		switch {
		case l.Event == "verify":
			// One per value read back, each ok, with what it read and wanted.
			if l.Result != "ok" || len(l.After) != 1 || l.After[0].Value == "" || l.Want == "" {
				t.Errorf("verify line = %+v", l)
			}
			verified[l.Address]++
			continue
		case l.Event == "change" && l.Address == "tikv.coprocessor.region-split-size":
			ch = l
		}
		events = append(events, l.Event+":"+l.Result)
	}
	if verified["tikv.coprocessor.region-split-size"] != 3 || verified["tikv.coprocessor.region-max-size"] != 3 || len(verified) != 5 {
		t.Errorf("verify events per address: %v", verified)
	}
	// The two TiKV changes are read back together, after both statements;
	// the others each after their own.
	wantEvents := []string{"apply_start:", "statement:ok", "statement:ok", "change:applied", "change:applied"}
	for range 3 {
		wantEvents = append(wantEvents, "statement:ok", "change:applied")
	}
	wantEvents = append(wantEvents, "apply_end:complete")
	if d := cmp.Diff(wantEvents, events); d != "" {
		t.Errorf("audit events (-want +got):\n%s", d)
	}
	// before/after per instance on the change line
	if ch.Address != "tikv.coprocessor.region-split-size" || len(ch.Before) != 3 || len(ch.After) != 3 || ch.After[2].Value != "256MiB" || ch.Before[2].Value != "96MiB" {
		t.Errorf("change audit line = %+v", ch)
	}
	// The lock was taken first and released at the end; in between, one
	// inspection (its CLUSTER_CONFIG reads only the planned keys), then each
	// statement with its warnings, and one read-back per batch.
	var log []string
	for _, l := range f.c.statements() {
		log = append(log, l[strings.Index(l, ": ")+2:]) // without the connection id
	}
	wantLog := []string{
		markStatement,
		"SELECT GET_LOCK('tiform.apply', 1)",
		"SELECT VERSION()", "SELECT TYPE, INSTANCE, STATUS_ADDRESS, VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO", "SHOW WARNINGS",
		"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('tikv', 'pd') AND LOWER(`KEY`) IN ('coprocessor.region-max-size', 'coprocessor.region-split-size', 'schedule.max-merge-region-size')", "SHOW WARNINGS",
		"SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_enable_instance_plan_cache')", "SHOW WARNINGS",
		"SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS", "SHOW WARNINGS",
		"SET CONFIG tikv `coprocessor.region-max-size` = '384MiB'", "SHOW WARNINGS",
		"SET CONFIG tikv `coprocessor.region-split-size` = '256MiB'", "SHOW WARNINGS",
		"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('tikv') AND LOWER(`KEY`) IN ('coprocessor.region-max-size', 'coprocessor.region-split-size')", "SHOW WARNINGS",
		"SET GLOBAL tidb_enable_instance_plan_cache = ON", "SHOW WARNINGS",
		"SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_enable_instance_plan_cache')", "SHOW WARNINGS",
		"CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 1000", "SHOW WARNINGS",
		"SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS", "SHOW WARNINGS",
		"SET CONFIG pd `schedule.max-merge-region-size` = 20", "SHOW WARNINGS",
		"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('pd') AND LOWER(`KEY`) IN ('schedule.max-merge-region-size')", "SHOW WARNINGS",
		"SELECT RELEASE_LOCK('tiform.apply')",
	}
	if d := cmp.Diff(wantLog, log); d != "" {
		t.Errorf("statements (-want +got):\n%s", d)
	}
	if !strings.Contains(f.progress.buf.String(), "tikv.coprocessor.region-split-size: applied, verified on 3/3") {
		t.Errorf("progress:\n%s", f.progress.buf.String())
	}
	if strings.Contains(f.progress.buf.String(), "Waiting") {
		t.Errorf("a free lock was announced as a wait:\n%s", f.progress.buf.String())
	}
}

func TestApplyRefusesBlockingFindings(t *testing.T) {
	f := newFixture(t)
	cp := testPlan()
	cp.Findings = []guard.Finding{
		{Code: "TF201", Severity: diag.Error},
		{Code: "TF101", Severity: diag.Error},
		{Code: "TF300", Severity: diag.Error, Acknowledged: true},
		{Code: "TF900", Severity: diag.Warning},
	}
	r, err := f.apply(t, context.Background(), cp)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "TF101, TF201") || strings.Contains(err.Error(), "TF300") {
		t.Fatalf("err = %v, want refusal naming TF101, TF201 only", err)
	}
	if n := len(f.c.statements()); n != 0 {
		t.Errorf("%d statements sent, want none: %q", n, f.c.statements())
	}
	if r.Refused == "" || len(r.Changes) != 5 || r.Changes[0].Status != NotAttempted {
		t.Errorf("report = %+v", r)
	}
}

// A saved plan applied after the acknowledgement of one of its error
// findings expired is refused; while it holds, apply proceeds.
func TestApplyRefusesExpiredAcknowledgement(t *testing.T) {
	for _, tt := range []struct {
		until   string
		refused bool
	}{{"2026-11-29", true}, {"2026-11-30", false}} {
		t.Run(tt.until, func(t *testing.T) {
			f := newFixture(t) // its clock reads 2026-11-30T03:00Z
			cp := testPlan()
			cp.Findings = []guard.Finding{{Code: "TF140", Severity: diag.Error, Acknowledged: true, AckReason: "restart planned"}}
			until, _ := time.Parse("2006-01-02", tt.until)
			f.opts.Desired = &state.DesiredCluster{Name: "prod",
				Acknowledgements: []state.Acknowledgement{{Code: "TF140", Reason: "restart planned", Until: until}}}
			f.opts.Refingerprint = func(context.Context) ([]plans.Dependency, error) { return cp.Fingerprint, nil }
			_, err := f.apply(t, context.Background(), cp)
			if got := errors.Is(err, ErrRefused); got != tt.refused {
				t.Fatalf("refused = %v (err %v), want %v", got, err, tt.refused)
			}
			if tt.refused {
				if !strings.Contains(err.Error(), "TF140") || !strings.Contains(err.Error(), "expired") {
					t.Errorf("err = %v", err)
				}
				if n := len(f.c.statements()); n != 0 {
					t.Errorf("%d statements sent, want none", n)
				}
			}
		})
	}
}

func TestApplyStalePlan(t *testing.T) {
	f := newFixture(t)
	f.c.set(func(c *fakeCluster) {
		c.vars["tidb_enable_instance_plan_cache"] = "ON"
		c.config["127.0.0.1:20161"]["coprocessor.region-split-size"] = "128MiB"
	})
	r, err := f.apply(t, context.Background(), testPlan())
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want ErrRefused", err)
	}
	want := []StaleValue{
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20161", "coprocessor.region-split-size"), Planned: "96MiB", Now: "128MiB"},
		{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Planned: "OFF", Now: "ON"},
	}
	if d := cmp.Diff(want, r.Stale); d != "" {
		t.Errorf("stale (-want +got):\n%s", d)
	}
	for _, s := range []string{`tikv["127.0.0.1:20161"].coprocessor.region-split-size: planned against 96MiB, now 128MiB`, "variable.tidb_enable_instance_plan_cache: planned against OFF, now ON"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error does not name %q:\n%v", s, err)
		}
	}
	for _, s := range f.c.statements() {
		if isSet(s) || strings.Contains(s, "CREATE ") {
			t.Errorf("stale plan sent %q", s)
		}
	}
}

// An instance that went down after the plan does not report its config:
// the stale check says so instead of "<absent>".
func TestApplyStaleInstanceDown(t *testing.T) {
	f := newFixture(t)
	f.c.set(func(c *fakeCluster) { c.down["127.0.0.1:20162"] = true })
	r, err := f.apply(t, context.Background(), testPlan())
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want ErrRefused", err)
	}
	want := []StaleValue{
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20162", "coprocessor.region-max-size"), Planned: "144MiB", Now: notReported},
		{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20162", "coprocessor.region-split-size"), Planned: "96MiB", Now: notReported},
	}
	if d := cmp.Diff(want, r.Stale); d != "" {
		t.Errorf("stale (-want +got):\n%s", d)
	}
}

// The stale check cannot read a value: the report says apply stopped before
// changing anything, and why (not "Apply failed" with empty lists).
func TestApplyStaleCheckReadError(t *testing.T) {
	f := newFixture(t)
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.Contains(q, "CLUSTER_CONFIG") {
			return &mysql.MySQLError{Number: 1227, Message: "Access denied; you need (at least one of) the CONFIG privilege(s) for this operation"}, false
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), testPlan())
	if err == nil {
		t.Fatal("Apply succeeded without reading the plan's values")
	}
	var b strings.Builder
	r.WriteText(&b)
	for _, want := range []string{`Apply stopped before changing anything for cluster "prod": the stale-plan check could not re-read`,
		"CONFIG privilege", "Nothing was changed."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	for _, s := range f.c.statements() {
		if isSet(s) {
			t.Errorf("sent %q", s)
		}
	}
}

func TestApplyStaleNewInstance(t *testing.T) {
	f := newFixture(t)
	f.c.set(func(c *fakeCluster) {
		c.topo = append(append([]instanceInfo(nil), c.topo...), instanceInfo{Component: "tikv", Address: "127.0.0.1:20163", Status: "127.0.0.1:20183"})
		c.config["127.0.0.1:20163"] = map[string]string{"coprocessor.region-split-size": "96MiB", "coprocessor.region-max-size": "144MiB"}
	})
	r, err := f.apply(t, context.Background(), testPlan())
	want := []StaleValue{{Addr: state.VersionAddress(state.TiKV, "127.0.0.1:20163"), Planned: Absent, Now: "8.5.1"}}
	if d := cmp.Diff(want, r.Stale); d != "" {
		t.Errorf("stale (-want +got):\n%s", d)
	}
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, stale = %+v; want a refusal naming the new instance", err, r.Stale)
	}
}

func TestApplyStopsOnFirstFailure(t *testing.T) {
	for _, cont := range []bool{false, true} {
		t.Run(map[bool]string{false: "stop", true: "continue"}[cont], func(t *testing.T) {
			f := newFixture(t)
			f.opts.ContinueOnError = cont
			f.c.hook = func(_ int64, _ int, q string) (error, bool) {
				if strings.HasPrefix(q, "SET GLOBAL") {
					return &mysql.MySQLError{Number: 1105, Message: "injected failure"}, false
				}
				return nil, false
			}
			r, err := f.apply(t, context.Background(), testPlan())
			if !errors.Is(err, ErrFailed) {
				t.Fatalf("err = %v, want ErrFailed", err)
			}
			want := []string{
				"tikv.coprocessor.region-max-size: applied",
				"tikv.coprocessor.region-split-size: applied",
				"variable.tidb_enable_instance_plan_cache: failed",
				"resource_group.oltp: not attempted",
				"pd.schedule.max-merge-region-size: not attempted",
			}
			if cont {
				want[3], want[4] = "resource_group.oltp: applied", "pd.schedule.max-merge-region-size: applied"
			}
			if d := cmp.Diff(want, statuses(r)); d != "" {
				t.Errorf("statuses (-want +got):\n%s", d)
			}
			if !strings.Contains(r.Changes[2].Reason, "injected failure") {
				t.Errorf("reason = %q", r.Changes[2].Reason)
			}
			rb := readRollback(t, f.opts.RollbackPath)
			wantRB := []string{"tikv.coprocessor.region-split-size", "tikv.coprocessor.region-max-size"}
			if cont {
				wantRB = append([]string{"pd.schedule.max-merge-region-size", "resource_group.oltp"}, wantRB...)
			}
			if d := cmp.Diff(wantRB, addresses(rb.Clusters[0].Changes)); d != "" {
				t.Errorf("rollback changes (-want +got):\n%s", d)
			}
			var text strings.Builder
			r.WriteText(&text)
			if !strings.Contains(text.String(), "Rollback plan written to "+f.opts.RollbackPath) {
				t.Errorf("report does not say where the rollback plan is:\n%s", text.String())
			}
		})
	}
}

func TestApplyInstanceDownMidApply(t *testing.T) {
	for _, backUp := range []bool{false, true} {
		t.Run(map[bool]string{false: "rollback while down", true: "rollback after recovery"}[backUp], func(t *testing.T) {
			testInstanceDown(t, backUp)
		})
	}
}

func testInstanceDown(t *testing.T, backUp bool) {
	f := newFixture(t)
	f.opts.Concurrency = 1 // the second change starts after the first's warnings
	cp := testPlan()
	cp.Changes = cp.Changes[:2]
	// The instance goes down after the stale check, just before the first change.
	f.progress.on = func(l string) {
		if strings.Contains(l, "region-max-size: applying") {
			f.c.set(func(c *fakeCluster) { c.down["127.0.0.1:20162"] = true })
		}
	}
	r, err := f.apply(t, context.Background(), cp)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	c := r.Changes[0]
	if c.Status != Failed || !c.Effective {
		t.Fatalf("change = %+v, want failed and effective", c)
	}
	var failed []string
	for _, in := range c.Instances {
		if !in.OK {
			failed = append(failed, in.Instance)
		}
	}
	if d := cmp.Diff([]string{"127.0.0.1:20162"}, failed); d != "" {
		t.Errorf("failed instances (-want +got):\n%s", d)
	}
	if !strings.Contains(c.Reason, "127.0.0.1:20162") || !strings.Contains(c.Reason, "connection refused") {
		t.Errorf("reason = %q, want the instance and the warning", c.Reason)
	}
	if r.Changes[1].Status != NotAttempted {
		t.Errorf("second change = %s, want not attempted", r.Changes[1].Status)
	}
	rb := readRollback(t, f.opts.RollbackPath)
	got := rb.Clusters[0].Changes[0].Statements
	want := []plans.Statement{
		{SQL: "SET CONFIG '127.0.0.1:20160' `coprocessor.region-max-size` = '144MiB'", Target: "127.0.0.1:20160"},
		{SQL: "SET CONFIG '127.0.0.1:20161' `coprocessor.region-max-size` = '144MiB'", Target: "127.0.0.1:20161"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rollback statements (-want +got):\n%s", d)
	}
	// The rollback plan applies and restores the others, whether the instance
	// is still down or back (its value never moved, so it is not stale).
	if backUp {
		f.c.set(func(c *fakeCluster) { c.down["127.0.0.1:20162"] = false })
	}
	f2 := newFixture(t)
	f2.c = f.c
	r2, err := f2.apply(t, context.Background(), rb.Clusters[0])
	if err != nil {
		t.Fatalf("apply rollback: %v\n%+v", err, statuses(r2))
	}
	f.c.set(func(c *fakeCluster) { c.down["127.0.0.1:20162"] = false })
	wantVals := []string{"127.0.0.1:20160=144MiB", "127.0.0.1:20161=144MiB", "127.0.0.1:20162=144MiB"}
	if d := cmp.Diff(wantVals, f.c.values("coprocessor.region-max-size")); d != "" {
		t.Errorf("after rollback (-want +got):\n%s", d)
	}
}

func TestApplyClampedVariable(t *testing.T) {
	f := newFixture(t)
	// Restore writes the value as it is (no range check), as for a value
	// read from a cluster whose range differs from the catalog's.
	ch := &plans.Change{
		Addr: state.VariableAddress("tidb_session_plan_cache_size"), Action: plans.Update,
		Before: []plans.InstanceValue{{Value: "100"}}, After: "0",
		Spec: plans.Spec{Set: []plans.Assignment{{Value: state.Value{Text: "0"}, Restore: true}},
			Unset: []plans.Assignment{{Value: state.Value{Text: "100"}, Restore: true}}},
		Verify: []plans.Check{{Addr: state.VariableAddress("tidb_session_plan_cache_size"), Want: "0"}},
	}
	cp := &planner.ClusterPlan{Name: "prod", Changes: []*plans.Change{derivedChange(ch)}}
	r, err := f.apply(t, context.Background(), cp)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	if c := r.Changes[0]; c.Status != Failed || !strings.Contains(c.Reason, "clamped") || !strings.Contains(c.Reason, "Truncated incorrect") {
		t.Errorf("change = %+v", c)
	}
	rb := readRollback(t, f.opts.RollbackPath)
	if d := cmp.Diff([]plans.Statement{{SQL: "SET GLOBAL tidb_session_plan_cache_size = 100"}}, rb.Clusters[0].Changes[0].Statements); d != "" {
		t.Errorf("rollback (-want +got):\n%s", d)
	}
}

// After the k-th change's statement the connection is lost before the
// statement runs, and retries are off: exactly k changes are applied, the
// rollback plan undoes exactly those, in reverse.
func TestApplyConnectionDroppedAfterK(t *testing.T) {
	cp := testPlan()
	n := len(cp.Changes)
	for k := 1; k < n; k++ {
		t.Run(string(rune('0'+k)), func(t *testing.T) {
			f := newFixture(t)
			f.opts.Retry.MaxRetries = -1
			f.opts.Concurrency = 1 // the (k+1)-th SET is the k-th change's
			sent := 0
			f.c.hook = func(_ int64, _ int, q string) (error, bool) {
				if isSet(q) || strings.HasPrefix(q, "CREATE ") {
					sent++
					if sent == k+1 {
						return mysql.ErrInvalidConn, false
					}
				}
				return nil, false
			}
			r, err := f.apply(t, context.Background(), testPlan())
			if !errors.Is(err, ErrFailed) {
				t.Fatalf("err = %v, want ErrFailed", err)
			}
			var applied []string
			for i, c := range r.Changes {
				switch {
				case i < k && c.Status != Applied, i == k && c.Status != Failed, i > k && c.Status != NotAttempted:
					t.Errorf("change %d %s: %s", i, c.Addr, c.Status)
				}
				if c.Status == Applied {
					applied = append(applied, c.Addr.String())
				}
				if i == k && c.Effective {
					t.Errorf("change %d reported effective though the statement never ran", i)
				}
			}
			rb := readRollback(t, f.opts.RollbackPath)
			got := addresses(rb.Clusters[0].Changes)
			for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
				got[i], got[j] = got[j], got[i]
			}
			if d := cmp.Diff(applied, got); d != "" {
				t.Errorf("rollback changes (reversed) vs applied (-applied +rollback):\n%s", d)
			}
		})
	}
}

// The connection is lost right after the statement took effect: apply
// reconnects, confirms the effect by re-reading, and goes on (an idempotent
// SET is retried; a CREATE is not sent twice).
func TestApplyConnectionLostAfterEffect(t *testing.T) {
	f := newFixture(t)
	dropped := map[string]bool{}
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		for _, p := range []string{"SET CONFIG tikv `coprocessor.region-split-size`", "CREATE RESOURCE GROUP"} {
			if strings.HasPrefix(q, p) && !dropped[p] {
				dropped[p] = true
				return nil, true
			}
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), testPlan())
	if err != nil {
		t.Fatalf("Apply: %v\n%q", err, statuses(r))
	}
	if a := r.Changes[1].Statements[0].Attempts; a != 2 {
		t.Errorf("SET CONFIG attempts = %d, want 2 (retried after the connection loss)", a)
	}
	if a := r.Changes[3].Statements[0].Attempts; a != 1 {
		t.Errorf("CREATE attempts = %d, want 1 (re-read showed it took effect)", a)
	}
	creates := 0
	for _, s := range f.c.statements() {
		if strings.Contains(s, "CREATE RESOURCE GROUP") {
			creates++
		}
	}
	if creates != 1 {
		t.Errorf("CREATE sent %d times, want 1", creates)
	}
}

func TestApplyCancelled(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.progress.on = func(l string) {
		if strings.Contains(l, "region-split-size: applying") {
			cancel() // SIGINT while the second change starts
		}
	}
	r, err := f.apply(t, ctx, testPlan())
	if !errors.Is(err, ErrInterrupted) || !r.Interrupted {
		t.Fatalf("err = %v, interrupted = %v; want ErrInterrupted", err, r.Interrupted)
	}
	want := []string{
		"tikv.coprocessor.region-max-size: applied",
		"tikv.coprocessor.region-split-size: applied",
		"variable.tidb_enable_instance_plan_cache: not attempted",
		"resource_group.oltp: not attempted",
		"pd.schedule.max-merge-region-size: not attempted",
	}
	if d := cmp.Diff(want, statuses(r)); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	rb := readRollback(t, f.opts.RollbackPath)
	if d := cmp.Diff([]string{"tikv.coprocessor.region-split-size", "tikv.coprocessor.region-max-size"}, addresses(rb.Clusters[0].Changes)); d != "" {
		t.Errorf("rollback (-want +got):\n%s", d)
	}
	lines := auditLines(t, f.audit.Bytes())
	if last := lines[len(lines)-1]; last.Event != "apply_end" || last.Result != "interrupted" {
		t.Errorf("last audit line = %+v", last)
	}
}

func TestApplyLockHeld(t *testing.T) {
	f := newFixture(t)
	f.c.set(func(c *fakeCluster) { c.lock[LockName] = 999 })
	r, err := f.apply(t, context.Background(), testPlan())
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	for _, s := range []string{`"tiform.apply"`, "--lock-timeout"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
	// TiDB's IS_USED_LOCK answers 1 to every session but the holder's: the
	// message must not name a connection it cannot know.
	if strings.Contains(err.Error(), "connection") {
		t.Errorf("error %q names a holder connection", err)
	}
	for _, s := range f.c.statements() {
		if isSet(s) {
			t.Errorf("sent %q without the lock", s)
		}
	}
	if r.Changes[0].Status != NotAttempted {
		t.Errorf("report = %+v", statuses(r))
	}
	// The report itself carries the advice (the CLI prints only the report).
	if !strings.Contains(r.Refused, "--lock-timeout") {
		t.Errorf("report.Refused = %q, want the --lock-timeout advice", r.Refused)
	}
	recs := auditLines(t, f.audit.Bytes())
	if last := recs[len(recs)-1]; last.Result != "locked" {
		t.Errorf("last audit record result = %q, want locked", last.Result)
	}
}

// A connection loss while another session took the lock (our lock
// connection died with it): apply stops instead of going on unlocked, and
// sends nothing more.
func TestApplyLockLostAfterConnectionLoss(t *testing.T) {
	f := newFixture(t)
	f.opts.Concurrency = 1 // nothing in flight alongside (a wave: TestApplyWaveStops)
	lost := false
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.HasPrefix(q, "SET CONFIG tikv `coprocessor.region-split-size`") && !lost {
			lost = true
			f.c.lock[LockName] = 999 // hooks run with the cluster's mutex held
			return mysql.ErrInvalidConn, false
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), testPlan())
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	if c := r.Changes[1]; c.Status != Failed || !strings.Contains(c.Reason, "lost the apply lock") {
		t.Errorf("%s: %s (%s), want failed with the lost-lock reason", c.Addr, c.Status, c.Reason)
	}
	sets := 0
	after := false
	for _, s := range f.c.statements() {
		if strings.Contains(s, "SET CONFIG tikv `coprocessor.region-split-size`") {
			after = true
			continue
		}
		if after && (isSet(s) || strings.Contains(s, "CREATE ")) {
			sets++
		}
	}
	if sets != 0 {
		t.Errorf("%d statements sent after the lock was lost: %q", sets, f.c.statements())
	}
}

// TiDB waits at most 3600 s in GET_LOCK (innodb_lock_wait_timeout's
// maximum): a longer --lock-timeout is capped and says so.
func TestApplyLockTimeoutCapped(t *testing.T) {
	f := newFixture(t)
	f.opts.LockTimeout = 2 * time.Hour
	r, err := f.apply(t, context.Background(), testPlan())
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	found := false
	for _, s := range f.c.statements() {
		found = found || strings.Contains(s, "GET_LOCK('tiform.apply', 3600)")
	}
	if !found {
		t.Errorf("GET_LOCK not capped at 3600: %q", f.c.statements())
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "waiting at most 3600s") {
		t.Errorf("notes %q do not say the wait was capped", r.Notes)
	}
}

func TestApplyWaitsForLock(t *testing.T) {
	f := newFixture(t)
	f.opts.LockTimeout = 5 * time.Second
	f.c.set(func(c *fakeCluster) { c.lock[LockName] = 999 })
	go func() {
		// release once the second apply has waited long enough to say so
		for {
			for _, s := range f.c.statements() {
				if strings.Contains(s, "GET_LOCK") {
					time.Sleep(lockWaitNotice + 200*time.Millisecond)
					f.c.set(func(c *fakeCluster) { delete(c.lock, LockName); c.cond.Broadcast() })
					return
				}
			}
			time.Sleep(time.Millisecond)
		}
	}()
	if _, err := f.apply(t, context.Background(), testPlan()); err != nil {
		t.Fatalf("Apply after waiting: %v", err)
	}
	if out := f.progress.buf.String(); !strings.Contains(out, `Waiting up to 5s (--lock-timeout) for the apply lock "tiform.apply"`) {
		t.Errorf("no waiting line in the progress:\n%s", out)
	}
}

func TestApplyStaleByRefingerprint(t *testing.T) {
	f := newFixture(t)
	cp := testPlan()
	f.opts.Refingerprint = func(context.Context) ([]plans.Dependency, error) {
		var fresh []plans.Dependency
		for _, d := range cp.Fingerprint {
			if d.Addr.Kind == state.KindUser || d.Addr.Key == "tidb_enable_instance_plan_cache" {
				continue
			}
			fresh = append(fresh, d)
		}
		// a user bound since the plan (not a dependency: ignored), and the
		// variable gone from the fresh read (reported)
		return append(fresh, plans.Dependency{Addr: state.UserAddress(state.UserRef{User: "app", Host: "%"}), Value: "oltp"}), nil
	}
	r, err := f.apply(t, context.Background(), cp)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want ErrRefused", err)
	}
	want := []StaleValue{{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Planned: "OFF", Now: Absent}}
	if d := cmp.Diff(want, r.Stale); d != "" {
		t.Errorf("stale (-want +got):\n%s", d)
	}
}

// The cluster becomes unreachable right after the k-th change's statement
// ran (every statement on every connection fails from then on). The changes
// whose batch was read back before are applied; those sent since (the k-th
// and any change of its batch before it, and a change of the same batch
// whose statement met the outage) are failed with an unknown effect, so they
// count as effective and are rolled back; the rest are not attempted. The
// two TiKV changes of the test plan form one batch; the others each their own.
func TestApplyOutageAfterK(t *testing.T) {
	const A, F, N = Applied, Failed, NotAttempted
	for k, want := range map[int][]Status{
		1: {F, F, N, N, N}, // the second TiKV change's statement met the outage
		2: {F, F, N, N, N},
		3: {A, A, F, N, N},
		4: {A, A, A, F, N},
	} {
		t.Run(string(rune('0'+k)), func(t *testing.T) {
			f := newFixture(t)
			// The k-th change statement is known by its connection: the
			// statements of a batch go out concurrently (--concurrency), so
			// the next SHOW WARNINGS overall may belong to another one.
			sets, down := 0, false
			kthOn := int64(-1)
			f.c.hook = func(id int64, _ int, q string) (error, bool) {
				if down {
					return mysql.ErrInvalidConn, false
				}
				if isSet(q) || strings.HasPrefix(q, "CREATE ") {
					if sets++; sets == k {
						kthOn = id
					}
				}
				if id == kthOn && q == "SHOW WARNINGS" {
					// the statement's warnings are read, then the server goes away
					defer func() { down = true }()
				}
				return nil, false
			}
			r, err := f.apply(t, context.Background(), testPlan())
			if !errors.Is(err, ErrFailed) {
				t.Fatalf("err = %v, want ErrFailed", err)
			}
			var got []Status
			effective := 0
			for _, c := range r.Changes {
				got = append(got, c.Status)
				if c.Status == Failed && !c.Effective {
					t.Errorf("%s: effect unknown must count as effective (so it is rolled back)", c.Addr)
				}
				if c.Effective {
					effective++
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("statuses (-want +got):\n%s", d)
			}
			rb := readRollback(t, f.opts.RollbackPath)
			if got := len(rb.Clusters[0].Changes); got != effective {
				t.Errorf("rollback has %d changes, want %d (every change that may have taken effect)", got, effective)
			}
		})
	}
}

func TestApplyCancelledWhileWaitingForLock(t *testing.T) {
	f := newFixture(t)
	f.opts.LockTimeout = time.Minute
	f.c.set(func(c *fakeCluster) { c.lock[LockName] = 999 })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			for _, s := range f.c.statements() {
				if strings.Contains(s, "GET_LOCK") {
					cancel()
					return
				}
			}
			time.Sleep(time.Millisecond)
		}
	}()
	r, err := f.apply(t, ctx, testPlan())
	if !errors.Is(err, ErrInterrupted) || !r.Interrupted {
		t.Fatalf("err = %v, interrupted = %v", err, r.Interrupted)
	}
	for _, s := range f.c.statements() {
		if isSet(s) {
			t.Errorf("sent %q", s)
		}
	}
	if _, err := os.Stat(f.opts.RollbackPath); !os.IsNotExist(err) {
		t.Errorf("rollback plan written though nothing was applied")
	}
}

func TestApplyAuditLogUnwritable(t *testing.T) {
	f := newFixture(t)
	blocker := filepath.Join(f.dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f.opts.AuditLog = nil
	f.opts.AuditPath = filepath.Join(blocker, "audit.log") // parent is a file
	_, err := f.apply(t, context.Background(), testPlan())
	if err == nil || !strings.Contains(err.Error(), "audit log") {
		t.Fatalf("err = %v, want an audit log error", err)
	}
	if n := len(f.c.statements()); n != 0 {
		t.Errorf("%d statements sent without an audit log", n)
	}
}

func TestApplyEmptyPlan(t *testing.T) {
	f := newFixture(t)
	r, err := f.apply(t, context.Background(), &planner.ClusterPlan{Name: "prod"})
	if err != nil || !r.Complete() {
		t.Fatalf("err = %v, report %+v", err, r)
	}
	if n := len(f.c.statements()); n != 0 {
		t.Errorf("empty plan sent %d statements", n)
	}
	var text strings.Builder
	r.WriteText(&text)
	if text.String() != "Apply complete! Resources: 0 changed, 0 created, 0 deleted.\n" {
		t.Errorf("report = %q", text.String())
	}
}

func TestAuditAppends(t *testing.T) {
	f := newFixture(t)
	f.opts.AuditLog = nil
	f.opts.AuditPath = filepath.Join(f.dir, "sub", "audit.log")
	cp := testPlan()
	cp.Changes = cp.Changes[:1]
	if _, err := f.apply(t, context.Background(), cp); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(f.opts.AuditPath)
	if _, err := f.apply(t, context.Background(), &planner.ClusterPlan{Name: "prod"}); err != nil {
		t.Fatal(err)
	}
	b2, _ := os.ReadFile(f.opts.AuditPath)
	if !bytes.HasPrefix(b2, b1) || len(auditLines(t, b2)) != len(auditLines(t, b1))+2 {
		t.Errorf("audit log not appended:\n%s", b2)
	}
	if fi, err := os.Stat(f.opts.AuditPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if bytes.Contains(b2, []byte(secret)) {
		t.Errorf("audit log contains the password")
	}
}

// A connection error before the statement ran is retried (with backoff) and
// the apply completes; the backoff sleeps follow the policy.
func TestApplyRetriesTransientConnectionError(t *testing.T) {
	f := newFixture(t)
	var sleeps []time.Duration
	f.opts.Retry = RetryPolicy{Initial: 100 * time.Millisecond, Max: time.Second, Sleep: func(_ context.Context, d time.Duration) error {
		sleeps = append(sleeps, d)
		return nil
	}}
	fails := 0
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.HasPrefix(q, "SET GLOBAL") && fails < 2 {
			fails++
			return mysql.ErrInvalidConn, false
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), testPlan())
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if a := r.Changes[2].Statements[0].Attempts; a != 3 {
		t.Errorf("attempts = %d, want 3", a)
	}
	if d := cmp.Diff([]time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, sleeps); d != "" {
		t.Errorf("backoff (-want +got):\n%s", d)
	}
}

// A connection that keeps dying is retried up to the limit (1 + 3 attempts by
// default, with growing backoff), then the change fails and apply stops.
func TestApplyRetryLimit(t *testing.T) {
	f := newFixture(t)
	var sleeps []time.Duration
	f.opts.Retry = RetryPolicy{Sleep: func(_ context.Context, d time.Duration) error {
		sleeps = append(sleeps, d)
		return nil
	}}
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.HasPrefix(q, "SET GLOBAL") {
			return mysql.ErrInvalidConn, false
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), testPlan())
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	c := r.Changes[2]
	if c.Status != Failed || len(c.Statements) != 1 || c.Statements[0].Attempts != 4 ||
		!strings.Contains(c.Statements[0].Error, "after 4 attempt(s)") {
		t.Fatalf("change = %+v", c)
	}
	if d := cmp.Diff([]time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond}, sleeps); d != "" {
		t.Errorf("backoff (-want +got):\n%s", d)
	}
	if r.Changes[3].Status != NotAttempted {
		t.Errorf("apply went on after the failure: %q", statuses(r))
	}
}

// A non-idempotent CREATE that lost its connection before running is
// retried only after a re-read shows the group does not exist.
func TestApplyCreateRetriedWhenAbsent(t *testing.T) {
	f := newFixture(t)
	failed := false
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.HasPrefix(q, "CREATE RESOURCE GROUP") && !failed {
			failed = true
			return mysql.ErrInvalidConn, false
		}
		return nil, false
	}
	r, err := f.apply(t, context.Background(), testPlan())
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if a := r.Changes[3].Statements[0].Attempts; a != 2 {
		t.Errorf("attempts = %d, want 2", a)
	}
}

// Under SEM (CLUSTER_INFO hidden) a variables-only plan still applies; a
// plan with config changes does not.
func TestApplyWithoutTopology(t *testing.T) {
	f := newFixture(t)
	f.c.set(func(c *fakeCluster) { c.hideClusterInfo = true })
	cp := &planner.ClusterPlan{Name: "prod", Changes: []*plans.Change{variableChange("tidb_enable_instance_plan_cache", "OFF", "ON")},
		Fingerprint: []plans.Dependency{{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Value: "OFF"}}}
	r, err := f.apply(t, context.Background(), cp)
	if err != nil || len(r.Notes) != 1 {
		t.Fatalf("variables-only plan: err = %v, notes %q", err, r.Notes)
	}
	f2 := newFixture(t)
	f2.c.set(func(c *fakeCluster) { c.hideClusterInfo = true })
	if _, err := f2.apply(t, context.Background(), testPlan()); err == nil || !strings.Contains(err.Error(), "CLUSTER_INFO") {
		t.Fatalf("config plan without topology: err = %v", err)
	}
}

type failAfter struct {
	n   int
	buf bytes.Buffer
}

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, errors.New("disk full")
	}
	w.n--
	return w.buf.Write(p)
}

// When the audit log stops accepting lines, apply stops before the next
// change (the change whose line failed has already run).
func TestApplyStopsWhenAuditFails(t *testing.T) {
	f := newFixture(t)
	f.opts.AuditLog = &failAfter{n: 3} // start + the two TiKV statement lines; their change lines fail
	r, err := f.apply(t, context.Background(), testPlan())
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "audit log") {
		t.Fatalf("err = %v", err)
	}
	want := []string{
		"tikv.coprocessor.region-max-size: applied",
		"tikv.coprocessor.region-split-size: applied",
		"variable.tidb_enable_instance_plan_cache: not attempted",
		"resource_group.oltp: not attempted",
		"pd.schedule.max-merge-region-size: not attempted",
	}
	if d := cmp.Diff(want, statuses(r)); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	if _, err := os.Stat(f.opts.RollbackPath); err != nil {
		t.Errorf("rollback plan not written: %v", err)
	}
}

// events collects what Options.Events receives.
type events struct{ got []views.ApplyEvent }

func (e *events) Report(ev views.ApplyEvent) { e.got = append(e.got, ev) }

// Options.Events receives, as they happen, exactly the events the audit log
// records: a warning event per SHOW WARNINGS row after its statement, a
// verify event per value read back (a failed one names the instance and
// why), then the change's result.
func TestApplyReportsEvents(t *testing.T) {
	f := newFixture(t)
	var ev events
	f.opts.Events = &ev
	cp := testPlan()
	cp.Changes = cp.Changes[:1]
	f.progress.on = func(l string) {
		if strings.Contains(l, "region-max-size: applying") {
			f.c.set(func(c *fakeCluster) { c.down["127.0.0.1:20162"] = true })
		}
	}
	if _, err := f.apply(t, context.Background(), cp); !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	lines := auditLines(t, f.audit.Bytes())
	if d := cmp.Diff(lines, ev.got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("reported events differ from the audit log (-log +reported):\n%s", d)
	}
	var seq []string
	for _, e := range ev.got {
		s := e.Event
		switch e.Event {
		case "warning":
			s += " " + e.Warnings[0].Instance
			if !strings.Contains(e.Warnings[0].Message, "connection refused") || e.Statement == "" {
				t.Errorf("warning event = %+v", e)
			}
		case "verify":
			s += " " + e.Target + " " + e.Result
			if e.Result == "failed" && (e.Error == "" || e.Want == "") {
				t.Errorf("failed verify event = %+v", e)
			}
		}
		seq = append(seq, s)
	}
	want := []string{"apply_start", "statement", "warning 127.0.0.1:20162",
		"verify 127.0.0.1:20160 ok", "verify 127.0.0.1:20161 ok", "verify 127.0.0.1:20162 failed", "change", "apply_end"}
	if d := cmp.Diff(want, seq); d != "" {
		t.Errorf("event sequence (-want +got):\n%s", d)
	}
}

func i64p(n int64) *int64 { return &n }

// A change that depends on another (the region-size order) is sent only
// after the other was read back and verified: the batch is read back first,
// and a failure there stops apply before the dependent statement.
func TestApplyReadsBackBeforeDependentChange(t *testing.T) {
	for _, fail := range []bool{false, true} {
		t.Run(map[bool]string{false: "verified", true: "not verified"}[fail], func(t *testing.T) {
			f := newFixture(t)
			cp := testPlan()
			cp.Changes = cp.Changes[:2]
			cp.Changes[1].DependsOn = []state.Address{cp.Changes[0].Addr}
			if fail {
				// The first change reaches two of the three instances without a
				// warning (a TiKV that kept its value): only its read-back shows it.
				f.c.hook = func(_ int64, _ int, q string) (error, bool) {
					if strings.HasPrefix(q, "SELECT TYPE, INSTANCE, `KEY`") && f.c.config[tikvs[2]]["coprocessor.region-max-size"] == "384MiB" {
						f.c.config[tikvs[2]]["coprocessor.region-max-size"] = "144MiB"
					}
					return nil, false
				}
			}
			r, err := f.apply(t, context.Background(), cp)
			var log []string
			for _, l := range f.c.statements() {
				l = l[strings.Index(l, ": ")+2:]
				if strings.HasPrefix(l, "SET CONFIG") || strings.HasPrefix(l, "SELECT TYPE, INSTANCE, `KEY`") {
					log = append(log, l[:14])
				}
			}
			want := []string{"SELECT TYPE, I", "SET CONFIG tik", "SELECT TYPE, I", "SET CONFIG tik", "SELECT TYPE, I"}
			wantStatus := []string{"tikv.coprocessor.region-max-size: applied", "tikv.coprocessor.region-split-size: applied"}
			if fail {
				want = want[:3]
				wantStatus = []string{"tikv.coprocessor.region-max-size: failed", "tikv.coprocessor.region-split-size: not attempted"}
				if !errors.Is(err, ErrFailed) {
					t.Errorf("err = %v, want ErrFailed", err)
				}
			} else if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if d := cmp.Diff(want, log); d != "" {
				t.Errorf("config statements (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantStatus, statuses(r)); d != "" {
				t.Errorf("statuses (-want +got):\n%s", d)
			}
		})
	}
}

// The rollback of a change follows the rollbacks of the changes that
// depended on it, so that applying the rollback plan reads them back first.
func TestRollbackKeepsDependencies(t *testing.T) {
	f := newFixture(t)
	cp := testPlan()
	cp.Changes[1].DependsOn = []state.Address{cp.Changes[0].Addr}
	f.c.hook = func(_ int64, _ int, q string) (error, bool) {
		if strings.HasPrefix(q, "SET GLOBAL") {
			return &mysql.MySQLError{Number: 1105, Message: "injected failure"}, false
		}
		return nil, false
	}
	if _, err := f.apply(t, context.Background(), cp); !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed", err)
	}
	rb := readRollback(t, f.opts.RollbackPath).Clusters[0].Changes
	if d := cmp.Diff([]string{"tikv.coprocessor.region-split-size", "tikv.coprocessor.region-max-size"}, addresses(rb)); d != "" {
		t.Fatalf("rollback (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]state.Address{cp.Changes[1].Addr}, rb[1].DependsOn); d != "" {
		t.Errorf("rollback of %s depends on (-want +got):\n%s", rb[1].Addr, d)
	}
	if len(rb[0].DependsOn) != 0 {
		t.Errorf("rollback of %s depends on %v", rb[0].Addr, rb[0].DependsOn)
	}
}

package applier

import (
	"context"
	"database/sql/driver"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

var topo3 = []instanceInfo{
	{Component: "tidb", Address: "127.0.0.1:4000", Status: "127.0.0.1:10080"},
	{Component: "pd", Address: "127.0.0.1:2379", Status: "127.0.0.1:2379"},
	{Component: "tikv", Address: "127.0.0.1:20160", Status: "127.0.0.1:20180"},
	{Component: "tikv", Address: "127.0.0.1:20161", Status: "127.0.0.1:20181"},
	{Component: "tikv", Address: "127.0.0.1:20162", Status: "127.0.0.1:20182"},
}

func TestWarningInstance(t *testing.T) {
	tests := []struct {
		msg, want string
	}{
		{`bad request to http://127.0.0.1:20181/config: failed to update, error: "config log-level can not be changed"`, "127.0.0.1:20161"},
		{`request http://127.0.0.1:20182/config failed: 503 Service Unavailable`, "127.0.0.1:20162"},
		{`Post "http://127.0.0.1:20180/config": dial tcp 127.0.0.1:20180: connect: connection refused`, "127.0.0.1:20160"},
		{`bad request to http://127.0.0.1:2379/pd/api/v1/config: config item x not found`, "127.0.0.1:2379"},
		{`Truncated incorrect tidb_session_plan_cache_size value: '0'`, ""},
		{`https://127.0.0.1:20181/config failed`, "127.0.0.1:20161"},
	}
	for _, tt := range tests {
		if got := warningInstance(tt.msg, topo3); got != tt.want {
			t.Errorf("warningInstance(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func TestIdempotent(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SET CONFIG tikv `coprocessor.region-split-size` = '256MiB'", true},
		{"set global tidb_enable_instance_plan_cache = ON", true},
		{"ALTER RESOURCE GROUP oltp RU_PER_SEC = 2000", true},
		{"ALTER USER 'app'@'%' RESOURCE GROUP `oltp`", true},
		{"CREATE RESOURCE GROUP oltp RU_PER_SEC = 1000", false},
		{"CREATE RESOURCE GROUP IF NOT EXISTS oltp RU_PER_SEC = 1000", true},
		{"DROP RESOURCE GROUP oltp", false},
		{"DROP RESOURCE GROUP IF EXISTS oltp", true},
		{"  set\n config pd `schedule.max-merge-region-size` = 54", true},
	}
	for _, tt := range tests {
		if got := idempotent(tt.sql); got != tt.want {
			t.Errorf("idempotent(%q) = %v, want %v", tt.sql, got, tt.want)
		}
	}
}

type netErr struct{}

func (netErr) Error() string   { return "i/o timeout" }
func (netErr) Timeout() bool   { return true }
func (netErr) Temporary() bool { return true }

func TestIsConnError(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{driver.ErrBadConn, true},
		{mysql.ErrInvalidConn, true},
		{io.EOF, true},
		{fmt.Errorf("x: %w", io.ErrUnexpectedEOF), true},
		{fmt.Errorf("write: %w", syscall.ECONNRESET), true},
		{errors.New("read tcp 127.0.0.1:1->127.0.0.1:2: read: connection reset by peer"), true},
		{netErr{}, true},
		{context.Canceled, false},
		{&mysql.MySQLError{Number: 1105, Message: "instance x is not found in this cluster"}, false},
		{&mysql.MySQLError{Number: 1064, Message: "syntax error"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := isConnError(tt.err); got != tt.want {
			t.Errorf("isConnError(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	p := RetryPolicy{Initial: 100 * time.Millisecond, Max: time.Second}
	var got []time.Duration
	for i := 0; i < 6; i++ {
		got = append(got, p.backoff(i))
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("backoff (-want +got):\n%s", d)
	}
	if n := (RetryPolicy{}).maxRetries(); n != 3 {
		t.Errorf("default retries = %d, want 3", n)
	}
	if n := (RetryPolicy{MaxRetries: -1}).maxRetries(); n != 0 {
		t.Errorf("disabled retries = %d, want 0", n)
	}
}

func splitChange() *plans.Change {
	return configChange(state.TiKV, "coprocessor.region-split-size", "96MiB", "256MiB", nil)
}

func TestVerdicts(t *testing.T) {
	ch := splitChange()
	ts := ch.Verify
	key := ts[0].Addr
	all := func(v string) reading {
		return reading{values: map[string]string{"127.0.0.1:20160": v, "127.0.0.1:20161": v, "127.0.0.1:20162": v}}
	}
	down := all("256MiB")
	delete(down.values, "127.0.0.1:20162")
	tests := []struct {
		name          string
		after         reading
		warnings      []Warning
		wantOK        []bool
		wantEffective bool
	}{
		{"all applied", all("256MiB"), nil, []bool{true, true, true}, true},
		{"nothing moved", all("96MiB"), nil, []bool{false, false, false}, false},
		{"one down", down, []Warning{{Level: "Warning", Code: 1105, Message: "Post \"http://127.0.0.1:20182/config\": dial tcp: connection refused", Instance: "127.0.0.1:20162"}}, []bool{true, true, false}, true},
		{"warning but value read back", all("256MiB"), []Warning{{Code: 1105, Message: "bad request", Instance: "127.0.0.1:20161"}}, []bool{true, false, true}, true},
		{"unattributed 1105 fails all", all("256MiB"), []Warning{{Code: 1105, Message: "something went wrong"}}, []bool{false, false, false}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, eff := verdicts(ts, []reading{all("96MiB")}, []reading{tt.after}, tt.warnings, ch, topo3)
			var ok []bool
			for _, r := range got {
				ok = append(ok, r.OK)
				if r.Addr != key {
					t.Errorf("address = %s, want %s", r.Addr, key)
				}
			}
			if d := cmp.Diff(tt.wantOK, ok); d != "" {
				t.Errorf("OK per instance (-want +got):\n%s\n%+v", d, got)
			}
			if eff != tt.wantEffective {
				t.Errorf("effective = %v, want %v", eff, tt.wantEffective)
			}
		})
	}
}

func TestVerdictsClamped(t *testing.T) {
	ch := &plans.Change{Addr: state.VariableAddress("tidb_session_plan_cache_size"),
		Verify: []plans.Check{{Addr: state.VariableAddress("tidb_session_plan_cache_size"), Want: "0"}}}
	ts := ch.Verify
	ws := []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_session_plan_cache_size value: '0'"}}
	got, eff := verdicts(ts, []reading{{values: map[string]string{"": "100"}}}, []reading{{values: map[string]string{"": "1"}}}, ws, ch, topo3)
	if len(got) != 1 || got[0].OK || !strings.Contains(got[0].Reason, "clamped") || !eff {
		t.Fatalf("clamped variable: got %+v effective %v; want one failed instance with a clamped reason", got, eff)
	}
}

func TestRollbackChange(t *testing.T) {
	ch := splitChange()
	key := ch.Verify[0].Addr
	res := func(after3 string) *ChangeResult {
		r := &ChangeResult{}
		for i, a := range []string{"256MiB", "256MiB", after3} {
			r.Instances = append(r.Instances, InstanceResult{Addr: key, Instance: fmt.Sprintf("127.0.0.1:2016%d", i), Before: "96MiB", After: a})
		}
		return r
	}
	t.Run("all moved keeps the type-wide statement", func(t *testing.T) {
		rb, fp := rollbackChange(ch, res("256MiB"), topo3)
		want := []plans.Statement{{SQL: "SET CONFIG tikv `coprocessor.region-split-size` = '96MiB'", Target: "tikv"}}
		if d := cmp.Diff(want, rb.Statements); d != "" {
			t.Errorf("statements (-want +got):\n%s", d)
		}
		if len(rb.Verify) != 3 || len(fp) != 3 {
			t.Errorf("verify %d, fingerprint %d; want 3 each", len(rb.Verify), len(fp))
		}
		if rb.After != "96MiB" || rb.Action != plans.Update {
			t.Errorf("after %q action %v", rb.After, rb.Action)
		}
	})
	t.Run("a variable reads as the plan renders it", func(t *testing.T) {
		vc := variableChange("tidb_enable_non_prepared_plan_cache", "OFF", "ON")
		vkey := vc.Verify[0].Addr
		// @@GLOBAL returns 0/1 for booleans; the rollback plan shows OFF/ON.
		r := &ChangeResult{Instances: []InstanceResult{{Addr: vkey, Before: "0", After: "1"}}}
		rb, fp := rollbackChange(vc, r, topo3)
		if rb == nil || rb.After != "OFF" || len(rb.Before) != 1 || rb.Before[0].Value != "ON" {
			t.Fatalf("rollback = %+v", rb)
		}
		if len(fp) != 1 || fp[0].Value != "1" {
			t.Errorf("fingerprint keeps the raw value: %+v", fp)
		}
	})
	t.Run("one instance down narrows to the others", func(t *testing.T) {
		r := res("")
		r.Instances[2].After = ""
		rb, fp := rollbackChange(ch, r, topo3)
		want := []plans.Statement{
			{SQL: "SET CONFIG '127.0.0.1:20160' `coprocessor.region-split-size` = '96MiB'", Target: "127.0.0.1:20160"},
			{SQL: "SET CONFIG '127.0.0.1:20161' `coprocessor.region-split-size` = '96MiB'", Target: "127.0.0.1:20161"},
		}
		if d := cmp.Diff(want, rb.Statements); d != "" {
			t.Errorf("statements (-want +got):\n%s", d)
		}
		wantChecks := []plans.Check{
			{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20160", "coprocessor.region-split-size"), Want: "96MiB"},
			{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20161", "coprocessor.region-split-size"), Want: "96MiB"},
		}
		if d := cmp.Diff(wantChecks, rb.Verify); d != "" {
			t.Errorf("verify (-want +got):\n%s", d)
		}
		if len(fp) != 2 {
			t.Errorf("fingerprint = %+v, want 2 entries", fp)
		}
	})
	t.Run("per-instance rollback statements are filtered", func(t *testing.T) {
		c := *ch
		c.Spec.Unset = []plans.Assignment{
			{Target: "127.0.0.1:20160", Value: state.Value{Text: "96MiB"}, Restore: true},
			{Target: "127.0.0.1:20162", Value: state.Value{Text: "96MiB"}, Restore: true},
		}
		derivedChange(&c)
		r := res("96MiB")
		rb, _ := rollbackChange(&c, r, topo3)
		if d := cmp.Diff(c.Rollback[:1], rb.Statements); d != "" {
			t.Errorf("statements (-want +got):\n%s", d)
		}
	})
	t.Run("no rollback statements", func(t *testing.T) {
		c := *ch
		c.Rollback = nil
		if rb, _ := rollbackChange(&c, res("256MiB"), topo3); rb != nil {
			t.Errorf("got %+v, want nil", rb)
		}
	})
}

func TestReportText(t *testing.T) {
	split := state.ConfigAddress(state.TiKV, "", "coprocessor.region-split-size")
	tests := []struct {
		name string
		r    *Report
	}{
		{"complete", &Report{Cluster: "prod", Changes: []*ChangeResult{
			{Addr: split, Action: plans.Update, Status: Applied},
			{Addr: state.ConfigAddress(state.TiKV, "", "in-memory-engine.enable"), Action: plans.Update, Status: Applied, Effective: true, RestartRequired: true, Persistence: plans.PersistTiKVFile},
			{Addr: state.VariableAddress("max_connections"), Action: plans.Update, Status: Applied, Effective: true, Persistence: plans.PersistInstanceOnly},
			{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Action: plans.Update, Status: Applied},
			{Addr: state.GroupAddress("oltp"), Action: plans.Create, Status: Applied},
		}}},
		{"failed", &Report{Cluster: "prod", RollbackPath: "rollback.tfplan", Changes: []*ChangeResult{
			{Addr: state.VariableAddress("tidb_enable_instance_plan_cache"), Action: plans.Update, Status: Applied},
			{Addr: split, Action: plans.Update, Status: Failed, Effective: true, Persistence: plans.PersistTiKVFile,
				Reason: `127.0.0.1:20162: Post "http://127.0.0.1:20182/config": dial tcp: connection refused`,
				Instances: []InstanceResult{
					{Instance: "127.0.0.1:20160", Before: "96MiB", After: "256MiB", Want: "256MiB", OK: true},
					{Instance: "127.0.0.1:20161", Before: "96MiB", After: "256MiB", Want: "256MiB", OK: true},
					{Instance: "127.0.0.1:20162", Before: "96MiB", Want: "256MiB", Reason: `Post "http://127.0.0.1:20182/config": dial tcp: connection refused`},
				}},
			{Addr: state.GroupAddress("oltp"), Action: plans.Create, Status: NotAttempted},
		}}},
		{"interrupted", &Report{Cluster: "prod", Interrupted: true, RollbackPath: "/tmp/x/rollback.tfplan", Changes: []*ChangeResult{
			{Addr: split, Action: plans.Update, Status: Applied, Effective: true},
			{Addr: state.GroupAddress("oltp"), Action: plans.Create, Status: NotAttempted},
		}}},
		{"stale", &Report{Cluster: "prod", Refused: "the plan is stale: 1 value(s) changed since it was made; plan again",
			Stale:   []StaleValue{{Addr: state.VariableAddress("tidb_session_plan_cache_size"), Planned: "100", Now: "50"}},
			Changes: []*ChangeResult{{Addr: split, Action: plans.Update, Status: NotAttempted}}}},
		{"nothing took effect", &Report{Cluster: "prod", Changes: []*ChangeResult{
			{Addr: split, Action: plans.Update, Status: Failed, Reason: "Error 1105: unknown type x"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.r.WriteText(&b)
			golden(t, filepath.Join("testdata", "report_"+strings.ReplaceAll(tt.name, " ", "_")+".txt"), b.String())
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s (-want +got):\n%s", path, d)
	}
}

// TestErrorKinds: Apply's errors say what happened through errors.Is (cmd
// maps them to exit codes).
func TestErrorKinds(t *testing.T) {
	tests := []struct {
		err  error
		kind error
	}{
		{&kindError{msg: "x", kind: ErrInterrupted}, ErrInterrupted},
		{&kindError{msg: "x", kind: ErrFailed}, ErrFailed},
		{&kindError{msg: "x", kind: ErrLocked}, ErrLocked},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.kind) {
			t.Errorf("%v is not %v", tt.err, tt.kind)
		}
		if tt.kind != ErrInterrupted && errors.Is(tt.err, ErrInterrupted) {
			t.Errorf("%v counts as interrupted", tt.err)
		}
	}
}

func TestFreePath(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 30, 3, 4, 5, 0, time.UTC)
	p := filepath.Join(dir, "rollback.tfplan")
	var got []string
	for i := 0; i < 3; i++ {
		f := freePath(p, now)
		got = append(got, filepath.Base(f))
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"rollback.tfplan", "rollback-20261130T030405Z.tfplan", "rollback-20261130T030405Z-2.tfplan"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("freePath (-want +got):\n%s", d)
	}
}

func TestReportScrub(t *testing.T) {
	r := &Report{Refused: "x pw1 y", Notes: []string{"pw1"}, Changes: []*ChangeResult{{
		Reason:     "reason pw1",
		Instances:  []InstanceResult{{Reason: "a pw1", Before: "pw1", After: "pw1"}},
		Statements: []StatementResult{{Error: "e pw1", Warnings: []Warning{{Message: "w pw1"}}}},
	}}}
	r.scrub([]string{"pw1"})
	var b strings.Builder
	r.WriteText(&b)
	if strings.Contains(fmt.Sprintf("%+v %+v %+v", r, *r.Changes[0], b.String()), "pw1") {
		t.Errorf("secret left in report: %+v %+v", r, *r.Changes[0])
	}
}

func TestPlanHashSurvivesPlanFile(t *testing.T) {
	cp := splitChangePlan()
	var b strings.Builder
	if err := planner.WritePlanFile(&b, &planner.Plan{ConfigHash: "x", Clusters: []*planner.ClusterPlan{cp}}); err != nil {
		t.Fatal(err)
	}
	p, err := planner.ReadPlanFile(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := PlanHash(cp), PlanHash(p.Clusters[0])
	if h1 == "" || h1 != h2 {
		t.Errorf("hash in memory %q, after a plan file %q", h1, h2)
	}
	cp.Changes[0].After = "128MiB"
	if PlanHash(cp) == h1 {
		t.Errorf("hash did not change with the plan")
	}
}

func splitChangePlan() *planner.ClusterPlan {
	return &planner.ClusterPlan{Name: "prod", Changes: []*plans.Change{splitChange()},
		Fingerprint: []plans.Dependency{{Addr: state.ConfigAddress(state.TiKV, "127.0.0.1:20160", "coprocessor.region-split-size"), Value: "96MiB"}}}
}

// TestJudgeNamesEveryDivergedInstance: SET CONFIG reports success while an
// instance fails with a warning (pingcap/tidb#59856), or keeps its value with
// no warning at all (pingcap/tidb#59857): the change fails, and its reason
// and the report name each such instance, the others are ok.
func TestJudgeNamesEveryDivergedInstance(t *testing.T) {
	ch := splitChange()
	all := func(v string) reading {
		return reading{values: map[string]string{"127.0.0.1:20160": v, "127.0.0.1:20161": v, "127.0.0.1:20162": v}}
	}
	after := all("256MiB")
	after.values["127.0.0.1:20161"] = "96MiB" // kept its value, no warning
	delete(after.values, "127.0.0.1:20162")   // down: the warning names it
	ws := []Warning{{Level: "Warning", Code: 1105, Message: `bad request to http://127.0.0.1:20182/config: connection refused`, Instance: "127.0.0.1:20162"}}
	a := &run{cluster: &cluster{topo: topo3}}
	res := &ChangeResult{Addr: ch.Addr, Action: ch.Action}
	a.judge(ch, res, sentStatements{warnings: ws, count: 1}, []reading{all("96MiB")}, []reading{after}, nil)
	if res.Status != Failed {
		t.Fatalf("status %s, want failed", res.Status)
	}
	for _, want := range []string{"2 of 3 instances did not take it", "127.0.0.1:20161: read back 96MiB, want 256MiB",
		"127.0.0.1:20162: bad request to http://127.0.0.1:20182/config: connection refused"} {
		if !strings.Contains(res.Reason, want) {
			t.Errorf("reason lacks %q: %s", want, res.Reason)
		}
	}
	if strings.Contains(res.Reason, "127.0.0.1:20160") {
		t.Errorf("reason names the instance that took the change: %s", res.Reason)
	}
	var b strings.Builder
	(&Report{Cluster: "prod", Changes: []*ChangeResult{res}}).WriteText(&b)
	for _, want := range []string{"127.0.0.1:20160: 96MiB -> 256MiB (want 256MiB) ok",
		"127.0.0.1:20161: 96MiB -> 96MiB (want 256MiB) FAILED: read back 96MiB, want 256MiB",
		"127.0.0.1:20162: 96MiB -> (unread) (want 256MiB) FAILED: bad request"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

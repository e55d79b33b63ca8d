package applier

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// A saved plan is applied once: applied, reverted by hand, applied again —
// the second apply is refused before anything is sent, naming when and by
// whom the first was applied; with a reason it is applied, and the reason is
// recorded. An expired plan and a plan with no record to check are refused.
func TestSavedPlanAppliedOnce(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 1})
	dc := &state.DesiredCluster{Name: "prod", Variables: []state.VariableSetting{
		{Name: "tidb_session_plan_cache_size", Value: state.Value{Text: "200", Type: state.LiteralNumber}},
	}}
	cp := s.plan(t, dc)
	made := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	o := s.opts
	o.Now = func() time.Time { return made.Add(time.Hour) }
	o.Saved = &SavedPlan{CreatedAt: made}
	if _, err := s.apply(t, ctxT(t), cp, o); err != nil {
		t.Fatalf("first apply: %v", err)
	}
	// Reverted by hand: the plan is not stale, its before-values are back.
	s.srv.Exec(t, "SET GLOBAL tidb_session_plan_cache_size = 100")
	sent := s.srv.Count("SET GLOBAL")

	r, err := s.apply(t, ctxT(t), cp, o)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("second apply: err = %v, want refused", err)
	}
	for _, want := range []string{"was applied to cluster \"prod\" before", "at 2026-11-30T04:00:00Z by OS user dbre, database user tiform", "--force-reapply"} {
		if !strings.Contains(r.Refused, want) {
			t.Errorf("refusal %q lacks %q", r.Refused, want)
		}
	}
	if n := s.srv.Count("SET GLOBAL"); n != sent {
		t.Errorf("the refused apply sent %d statements", n-sent)
	}

	// Another plan file of the same change (made later, so another
	// creation time) is another plan: it is applied.
	fresh := o
	fresh.Saved = &SavedPlan{CreatedAt: made.Add(30 * time.Minute)}
	fresh.Now = func() time.Time { return made.Add(2 * time.Hour) }
	if _, err := s.apply(t, ctxT(t), cp, fresh); err != nil {
		t.Fatalf("a plan made later: %v", err)
	}
	s.srv.Exec(t, "SET GLOBAL tidb_session_plan_cache_size = 100")

	forced := o
	forced.Saved = &SavedPlan{CreatedAt: made, Reapply: "INC-7: reverted by the incident runbook"}
	r, err = s.apply(t, ctxT(t), cp, forced)
	if err != nil {
		t.Fatalf("forced apply: %v", err)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "applied again as --force-reapply asks: INC-7") {
		t.Errorf("notes: %q", r.Notes)
	}
	b, _ := os.ReadFile(o.AuditPath)
	starts := 0
	for _, l := range auditLines(t, b) {
		if l.PlanCreatedAt == nil || !l.PlanCreatedAt.Equal(l.PlanCreatedAt.UTC()) {
			t.Errorf("%s event without the plan's creation time", l.Event)
		}
		if l.Event == "apply_start" && l.Reapply == "INC-7: reverted by the incident runbook" {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("%d apply_start events record the reason, want 1", starts)
	}

	expired := o
	expired.Now = func() time.Time { return made.Add(planner.DefaultMaxAge + time.Minute) }
	if r, err := s.apply(t, ctxT(t), cp, expired); !errors.Is(err, ErrRefused) || !strings.Contains(r.Refused, "--plan-max-age") {
		t.Errorf("expired plan: err = %v, refused %q", err, r.Refused)
	}
	noLog := o
	noLog.AuditPath, noLog.AuditLog = "", &strings.Builder{}
	noLog.Saved = &SavedPlan{CreatedAt: made.Add(45 * time.Minute)}
	if r, err := Apply(ctxT(t), s.db, cp, noLog); !errors.Is(err, ErrRefused) || !strings.Contains(r.Refused, "no audit log") {
		t.Errorf("no audit log: err = %v, refused %q", err, r.Refused)
	}
}

// The audit log is read back in bounded memory: a line over the bound is
// skipped, and the events after it are still found.
func TestFirstApplySkipsOverlongLines(t *testing.T) {
	made := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	line := `{"format_version":"2.0","time":"2026-11-30T04:00:00Z","event":"statement","operator":{"os_user":"dbre"},"cluster":"prod","plan_hash":"sha256:ab","plan_created_at":"2026-11-30T03:00:00Z","address":"variable.x","statement":"SET GLOBAL x = 1","attempts":1,"result":"ok"}`
	path := t.TempDir() + "/audit.log"
	long := `{"event":"statement","plan_hash":"sha256:ab","x":"` + strings.Repeat("y", maxAuditLine) + `"}`
	if err := os.WriteFile(path, []byte(long+"\n"+line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := firstApply(path, "prod", "sha256:ab", made)
	if err != nil || e == nil || e.Operator.OSUser != "dbre" {
		t.Fatalf("firstApply = %+v, %v", e, err)
	}
	for _, miss := range []struct {
		cluster, hash string
		created       time.Time
	}{{"other", "sha256:ab", made}, {"prod", "sha256:cd", made}, {"prod", "sha256:ab", made.Add(time.Second)}} {
		if e, err := firstApply(path, miss.cluster, miss.hash, miss.created); err != nil || e != nil {
			t.Errorf("firstApply(%v) = %+v, %v; want none", miss, e, err)
		}
	}
	if e, err := firstApply(path+".missing", "prod", "sha256:ab", made); err != nil || e != nil {
		t.Errorf("no log yet: %+v, %v", e, err)
	}
}

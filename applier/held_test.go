package applier

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
)

// Hold refuses when another apply holds the lock: nothing is read, the
// report says why with the --lock-timeout advice, and the audit log records
// the refusal as "locked", as a refused Apply does.
func TestHoldLockHeld(t *testing.T) {
	f := newFixture(t)
	f.c.set(func(c *fakeCluster) { c.lock[LockName] = 999 })
	db := f.c.db()
	defer db.Close()
	h, rep, err := Hold(context.Background(), db, "prod", live.RequestFor(e2eDesired()), f.opts)
	if h != nil || !errors.Is(err, ErrLocked) {
		t.Fatalf("Hold = %v, %v; want ErrLocked", h, err)
	}
	if rep == nil || !strings.Contains(rep.Refused, "--lock-timeout") || rep.Cluster != "prod" {
		t.Fatalf("report %+v", rep)
	}
	// Without the lock nothing of the cluster is read: only the lock
	// connection's mark, GET_LOCK, and who holds it (lockholder.go).
	for _, q := range f.c.statements() {
		if !strings.Contains(q, "SELECT GET_LOCK") && !strings.Contains(q, "tidb_session_alias") &&
			!strings.Contains(q, "PROCESSLIST") && !strings.HasSuffix(q, "SHOW GRANTS") {
			t.Errorf("sent %q without the lock", q)
		}
	}
	recs := auditLines(t, f.audit.Bytes())
	if len(recs) != 2 || recs[0].Event != "apply_start" || recs[1].Event != "apply_end" || recs[1].Result != "locked" {
		t.Errorf("audit %+v", recs)
	}
	f.checkNoSecret(t, rep)
}

// Held.Apply sends the plan made from the held read without reading the
// cluster again, refuses a plan made from another read that moved since
// (the stale check runs on the held read), and applies one plan only.
func TestHeldApplyRefusesAMovedPlan(t *testing.T) {
	s := startSim(t, tidbsim.Options{TiKV: 3})
	dc := e2eDesired()
	old := s.plan(t, dc) // read before the hold
	s.srv.Exec(t, "SET GLOBAL tidb_session_plan_cache_size = 150")
	h, _, err := Hold(ctxT(t), s.db, dc.Name, live.RequestFor(dc), s.opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	mark := s.srv.Mark()
	o := s.opts
	o.Desired = dc
	r, err := h.Apply(ctxT(t), old, o)
	if !errors.Is(err, ErrRefused) || len(r.Stale) == 0 {
		t.Fatalf("apply of a plan read before the hold: %v, stale %v", err, r.Stale)
	}
	if sent := s.srv.Since(mark); len(sent) != 0 {
		t.Errorf("a refused held apply sent %q", sent)
	}
	if _, err := h.Apply(ctxT(t), old, o); err == nil || !strings.Contains(err.Error(), "one plan") {
		t.Errorf("a second Apply on one hold: %v", err)
	}
	// Released, the lock is free for the next apply.
	h.Release()
	h2, _, err := Hold(ctxT(t), s.db, dc.Name, live.RequestFor(dc), s.opts)
	if err != nil {
		t.Fatalf("hold after release: %v", err)
	}
	cp, err := planner.BuildCluster(dc, h2.Live(), planner.Options{Now: time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h2.Apply(ctxT(t), cp, o); err != nil {
		t.Fatalf("apply of the plan from the held read: %v", err)
	}
	h2.Release()
	if re := s.plan(t, dc); len(re.Changes) != 0 {
		t.Errorf("replan: %q", changeAddresses(re))
	}
}

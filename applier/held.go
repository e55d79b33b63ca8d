package applier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// Held is a cluster taken for one apply that is planned from the apply's own
// read (tiform apply without a saved plan): Hold takes the cluster-wide lock,
// opens the statement connection and reads the cluster once under the lock;
// the caller plans from Live, shows the plan, and calls Apply, which sends the
// plan's statements without reading the cluster again (the plan was made from
// this very read, and the lock kept other applies out since). Release gives
// the cluster back. A Held is used by one goroutine at a time.
type Held struct {
	c       *cluster
	name    string
	req     live.Request
	o       Options
	applied bool
}

// Hold takes the lock on the cluster behind db (named name in reports and
// the audit log), opens the statement connection and reads req on it under
// the lock: the one read of the apply. When it fails (the lock is held by
// another apply, the read failed, ctx was cancelled) nothing was sent but
// the lock and the read: it returns a Report saying why (Refused for a held
// lock, Aborted for a failed read, Interrupted), records it in the audit
// log (apply_start, apply_end), and an error wrapping ErrLocked, ErrRefused
// or ErrInterrupted; the cluster is not held.
func Hold(ctx context.Context, db *sql.DB, name string, req live.Request, o Options) (*Held, *Report, error) {
	if db == nil {
		return nil, nil, errors.New("applier: nil database")
	}
	a := &run{cluster: &cluster{db: db}, cp: &planner.ClusterPlan{Name: name}, o: &o, ctx: ctx, work: context.WithoutCancel(ctx)}
	a.rep = &Report{Cluster: name, Started: o.now()}
	err := a.hold(req)
	if err == nil {
		return &Held{c: a.cluster, name: name, req: req, o: o}, nil, nil
	}
	// Nothing but the lock and the read was sent: say why in the report and
	// the audit log, as an apply refused before its first statement.
	if a.rep.Refused == "" && a.rep.Aborted == "" && !a.rep.Interrupted {
		a.rep.Aborted = "the cluster could not be read under the apply lock: " + scrub(err.Error(), o.Secrets)
	}
	if a.kind == nil {
		a.kind = ErrRefused
	}
	a.rep.Finished = o.now()
	if audit, aerr := openAudit(&o); aerr == nil {
		a.audit = audit
		a.record(AuditRecord{Event: "apply_start"})
		a.finish(err)
		if cerr := audit.close(); cerr != nil {
			a.rep.Notes = append(a.rep.Notes, cerr.Error())
		}
	} else {
		a.rep.Notes = append(a.rep.Notes, aerr.Error())
	}
	a.rep.scrub(o.Secrets)
	return nil, a.rep, a.wrapKind(errors.New(scrub(err.Error(), o.Secrets)))
}

// hold takes the lock, connects and reads req; on failure it leaves nothing
// open.
func (a *run) hold(req live.Request) error {
	if err := a.acquireLock(); err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		a.releaseLock()
		return err
	}
	if err := a.inspect(req); err != nil {
		a.closeConn()
		a.releaseLock()
		if a.ctx.Err() != nil {
			a.rep.Interrupted = true
			a.kind = ErrInterrupted
			return fmt.Errorf("applier: cluster %q: interrupted while reading under the apply lock: %w", a.cp.Name, err)
		}
		return fmt.Errorf("applier: cluster %q: read under the apply lock: %w", a.cp.Name, err)
	}
	return nil
}

// Live is what the one read under the lock found: plan from it.
func (h *Held) Live() *state.Live { return h.c.live }

// Apply executes cp, planned from Live, as Apply does, without taking the
// lock or reading the cluster before its first statement: the stale-plan
// check compares cp's fingerprint with the read Hold made (a plan made from
// another read is refused when a value differs). o replaces the Options
// given to Hold for this apply (its lock name and timeout are Hold's). A
// Held applies one plan.
func (h *Held) Apply(ctx context.Context, cp *planner.ClusterPlan, o Options) (*Report, error) {
	if cp == nil {
		return nil, errors.New("applier: nil plan")
	}
	if h.applied {
		return nil, errors.New("applier: a held cluster applies one plan")
	}
	if cp.Name != h.name {
		return nil, fmt.Errorf("applier: cluster %q holds the lock, the plan is for %q", h.name, cp.Name)
	}
	h.applied = true
	o.LockName, o.LockTimeout = h.o.LockName, h.o.LockTimeout
	return runApply(ctx, h.c, cp, o, true)
}

// Release releases the lock and closes the connections. It is safe to call
// more than once.
func (h *Held) Release() {
	if h == nil || h.c == nil {
		return
	}
	a := &run{cluster: h.c, cp: &planner.ClusterPlan{Name: h.name}, o: &h.o, work: context.Background(), rep: &Report{}}
	a.closeConn()
	a.releaseLock()
	h.c = nil
}

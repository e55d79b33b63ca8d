package applier

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Error kinds Apply returns (wrapped; test with errors.Is).
var (
	// ErrRefused: nothing was sent (blocking guard findings, stale plan).
	ErrRefused = errors.New("apply refused")
	// ErrLocked: another apply holds the lock and the wait timed out.
	ErrLocked = errors.New("apply lock held")
	// ErrFailed: at least one change failed; see the Report.
	ErrFailed = errors.New("apply failed")
	// ErrInterrupted: the context was cancelled; see the Report.
	ErrInterrupted = errors.New("apply interrupted")
)

// Apply executes cp against the cluster behind db: it refuses error-level
// guard findings, takes the cluster-wide lock, inspects the cluster once
// (refusing a stale plan), then runs every change's statements in plan order
// on one connection, reading SHOW WARNINGS after each statement and reading
// every affected instance back in batches (batch.go). It returns a Report in every case where it got that far
// (nil only for invalid arguments), and a non-nil error unless every change
// was applied and verified. When anything took effect and the apply did not
// complete, it writes a rollback plan (Report.RollbackPath).
//
// Cancelling ctx stops the apply between statements: the running statement
// finishes, the change it belongs to is read back, Report.Interrupted is set
// and the error wraps ErrInterrupted.
func Apply(ctx context.Context, db *sql.DB, cp *planner.ClusterPlan, o Options) (*Report, error) {
	if db == nil || cp == nil {
		return nil, errors.New("applier: nil database or plan")
	}
	return runApply(ctx, &cluster{db: db}, cp, o, false)
}

// runApply is Apply over c: taken here (held false), or by Hold (held: no
// lock to take, no read before the first statement, nothing to release).
func runApply(ctx context.Context, c *cluster, cp *planner.ClusterPlan, o Options, held bool) (*Report, error) {
	a := &run{cluster: c, cp: cp, o: &o, ctx: ctx, work: context.WithoutCancel(ctx), heldByCaller: held}
	a.rep = &Report{Cluster: cp.Name, PlanHash: PlanHash(cp), Started: o.now()}
	audit, err := openAudit(&o)
	if err != nil {
		// Nothing is sent without the audit log.
		a.rep.Refused = fmt.Sprintf("the audit log cannot be opened, and tiform changes nothing it cannot record: %v", err)
		a.rep.Finished = o.now()
		return a.rep, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	a.audit = audit
	start := AuditRecord{Event: "apply_start", Changes: len(cp.Changes)}
	if o.Saved != nil {
		start.Reapply = o.Saved.Reapply
	}
	a.record(start)
	err = a.apply()
	a.rep.Finished = o.now()
	a.finish(err)
	if cerr := audit.close(); cerr != nil {
		a.rep.Notes = append(a.rep.Notes, cerr.Error())
		if err == nil {
			err = cerr
		}
	}
	a.rep.scrub(o.Secrets)
	a.rep.hideSensitive(cp)
	if err != nil {
		err = errors.New(scrub(err.Error(), o.Secrets)) // keep errors.Is below
		err = a.wrapKind(err)
	}
	return a.rep, err
}

// run is the state of one Apply.
type run struct {
	// cluster is what the apply holds of the cluster: the lock, the
	// statement connection and the one read. Apply takes and releases it;
	// Held.Apply runs over the caller's.
	*cluster
	cp    *planner.ClusterPlan
	o     *Options
	ctx   context.Context // cancelled by the caller (SIGINT)
	work  context.Context // never cancelled: a started statement always finishes
	rep   *Report
	audit *auditLog

	// workers are the further connections a concurrent wave opened
	// (wave.go), kept to the end of the apply.
	workers []*link
	// noWorkers: a worker's connection could not be opened; waves go on
	// with the connections open.
	noWorkers bool
	// mu guards what the workers of a wave share with each other: the
	// facts (a re-read after a lost connection), Report.Interrupted and
	// re-taking the lock. out serialises the audit log, the events and the
	// progress.
	mu   sync.Mutex
	out  sync.Mutex
	kind error // ErrRefused, ErrLocked, ErrFailed, ErrInterrupted
	// rollback holds the rollback of every change that took effect, in
	// application order.
	rollback []rollbackOf
	// heldByCaller: the cluster was taken by Hold, and Held.Release gives
	// it back; this apply neither takes the lock nor reads before its first
	// statement.
	heldByCaller bool
}

// cluster is what one apply holds of a cluster, from the lock to the end.
type cluster struct {
	db   *sql.DB
	lock *sql.Conn
	// main is the statement connection: the read, every read-back, and the
	// statements of changes sent one at a time.
	main  *link
	live  *state.Live // what the one read under the lock found
	topo  []instanceInfo
	facts *facts
}

// rollbackOf is the rollback of one change that took effect.
type rollbackOf struct {
	change      *plans.Change
	fingerprint []plans.Dependency // the values it restores from
	of          *plans.Change      // the change it undoes
}

func (a *run) wrapKind(err error) error {
	if a.kind == nil {
		return err
	}
	return &kindError{msg: err.Error(), kind: a.kind}
}

type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

func (a *run) record(r AuditRecord) {
	a.out.Lock()
	defer a.out.Unlock()
	r.Time = a.o.now().UTC()
	r.Operator = a.o.Operator
	r.Cluster = a.cp.Name
	r.PlanHash = a.rep.PlanHash
	if a.o.Saved != nil {
		r.PlanCreatedAt = a.o.Saved.CreatedAt
	}
	e := r.view(a.o.Secrets)
	a.audit.write(e)
	if a.o.Events != nil {
		a.o.Events.Report(e)
	}
}

func (a *run) progress(format string, args ...any) {
	if a.o.Progress != nil {
		a.out.Lock()
		defer a.out.Unlock()
		for i, arg := range args {
			if s, ok := arg.(string); ok {
				args[i] = diag.Printable(s) // an address, a server's message
			}
		}
		fmt.Fprintf(a.o.Progress, format+"\n", args...)
	}
}

func (a *run) apply() error {
	if err := a.refuseUnderived(); err != nil {
		return err
	}
	if err := a.refuseBlocked(); err != nil {
		return err
	}
	if len(a.cp.Changes) == 0 {
		return nil
	}
	if err := a.refuseReplay(); err != nil {
		return err
	}
	if !a.heldByCaller {
		if err := a.acquireLock(); err != nil {
			a.notAttempted(0)
			return err
		}
		defer a.releaseLock()
		defer a.closeConn()
		if err := a.connect(); err != nil {
			return err
		}
		if err := a.inspect(a.request()); err != nil {
			return a.cannotCheck(err)
		}
	} else {
		defer a.closeWorkers()
	}
	if err := a.refuseStale(); err != nil {
		return err
	}
	failed := a.runChanges()
	if a.rep.Complete() {
		return nil
	}
	a.writeRollback()
	if a.rep.Interrupted {
		a.kind = ErrInterrupted
		return fmt.Errorf("applier: cluster %q: interrupted; %s", a.cp.Name, a.summary())
	}
	a.kind = ErrFailed
	if failed == 0 && len(a.rep.Notes) > 0 {
		return fmt.Errorf("applier: cluster %q: stopped: %s; %s", a.cp.Name, a.rep.Notes[len(a.rep.Notes)-1], a.summary())
	}
	return fmt.Errorf("applier: cluster %q: %d change(s) failed; %s", a.cp.Name, failed, a.summary())
}

// refuseUnderived refuses the plan, before anything is sent, when a change's
// statements are not exactly what its values derive with the planner's one
// builder (planner.CheckDerivable): apply never sends SQL taken from a plan
// as it is, whatever file the plan came from.
func (a *run) refuseUnderived() error {
	if err := planner.CheckDerivable(a.cp); err != nil {
		a.rep.Refused = err.Error()
		a.kind = ErrRefused
		a.notAttempted(0)
		return fmt.Errorf("applier: cluster %q: refusing to apply: %w", a.cp.Name, err)
	}
	return nil
}

// refuseBlocked refuses the plan, before anything is sent, when an
// error-level guard finding is not acknowledged, or when the acknowledgement
// of one expired after the plan was made (a saved plan applied later).
func (a *run) refuseBlocked() error {
	if b := guard.Blocking(a.cp.Findings); len(b) > 0 {
		codes := make([]string, 0, len(b))
		for _, f := range b {
			codes = append(codes, f.Code)
		}
		codes = uniqueSorted(codes)
		a.rep.Refused = fmt.Sprintf("error-level guard findings %s block apply (fix the configuration or acknowledge them)", strings.Join(codes, ", "))
		a.kind = ErrRefused
		a.notAttempted(0)
		return fmt.Errorf("applier: cluster %q: refusing to apply: error-level guard findings %s", a.cp.Name, strings.Join(codes, ", "))
	}
	if codes := a.expiredAcks(); len(codes) > 0 {
		a.rep.Refused = fmt.Sprintf("the acknowledgement of %s expired after the plan was made; plan again (or extend until after review)",
			strings.Join(codes, ", "))
		a.kind = ErrRefused
		a.notAttempted(0)
		return fmt.Errorf("applier: cluster %q: refusing to apply: the acknowledgement of error finding(s) %s expired after the plan was made",
			a.cp.Name, strings.Join(codes, ", "))
	}
	return nil
}

// connect opens the statement connection.
func (a *run) connect() error {
	conn, err := a.db.Conn(a.ctx)
	if err != nil {
		a.notAttempted(0)
		return fmt.Errorf("applier: connect: %w", err)
	}
	a.main = &link{conn: conn}
	return nil
}

// request is what Apply reads, in one inspection on the statement
// connection, before its first statement: the topology, every value the
// plan's fingerprint lists, every value a change verifies (its "before"
// value), and with the configuration what the planner's fingerprint reads.
// Config is read only for the keys concerned (live.Request.OnlyManagedKeys).
func (a *run) request() live.Request {
	var req live.Request
	if a.o.Desired != nil && a.o.Refingerprint == nil {
		req = live.RequestFor(a.o.Desired)
	}
	req.OnlyManagedKeys = true
	for _, d := range a.cp.Fingerprint {
		addToRequest(&req, d.Addr)
	}
	for _, ch := range a.cp.Changes {
		for _, c := range ch.Verify {
			addToRequest(&req, c.Addr)
		}
	}
	return req
}

// inspect reads req on the statement connection: the one read of the
// cluster an apply makes before its first statement.
//
// CLUSTER_INFO is hidden on TiDB Cloud / under Security Enhanced Mode
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info): a
// plan that needs no topology (no config change, no instance in its
// fingerprint) can still be applied and verified without it; the stale
// check (topologyHidden) decides.
func (a *run) inspect(req live.Request) error {
	l, err := live.InspectConn(a.ctx, a.cluster.db, a.main.conn, req)
	if err != nil {
		return err
	}
	a.live, a.topo, a.facts = l, topologyOf(l), newFacts(l)
	a.facts.learn(req, l)
	return nil
}

// topologyHidden refuses a plan that needs the topology when the read found
// CLUSTER_INFO hidden, and notes that it was hidden otherwise.
func (a *run) topologyHidden() error {
	if len(a.live.Instances) > 0 || !a.live.SEM {
		return nil
	}
	if needsTopology(a.cp) {
		return fmt.Errorf("applier: the cluster topology (INFORMATION_SCHEMA.CLUSTER_INFO) is hidden (TiDB Cloud or Security Enhanced Mode): config changes cannot be verified on every instance")
	}
	a.rep.Notes = append(a.rep.Notes, "the cluster topology (INFORMATION_SCHEMA.CLUSTER_INFO) is hidden; the plan has no config change, so apply went on without it")
	return nil
}

func (a *run) closeConn() {
	if a.main != nil {
		a.main.conn.Close()
	}
	a.closeWorkers()
}

// closeWorkers closes the connections concurrent waves opened.
func (a *run) closeWorkers() {
	for _, w := range a.workers {
		w.conn.Close()
	}
	a.workers = nil
}

// cannotCheck ends an apply whose read before the first statement failed:
// nothing was sent.
func (a *run) cannotCheck(err error) error {
	a.notAttempted(0)
	if a.ctx.Err() != nil {
		a.rep.Interrupted = true
		a.kind = ErrInterrupted
		return fmt.Errorf("applier: interrupted before the first statement: %w", err)
	}
	a.rep.Aborted = "the stale-plan check could not re-read the plan's values: " + scrub(err.Error(), a.o.Secrets)
	return err
}

// refuseStale refuses the plan, before anything is sent, when a value it
// depends on moved or could not be read, as the read under the lock found
// it.
func (a *run) refuseStale() error {
	err := a.topologyHidden()
	var stale []StaleValue
	if err == nil {
		stale, err = a.staleCheck()
	}
	if err != nil {
		return a.cannotCheck(err)
	}
	if len(stale) == 0 {
		return nil
	}
	a.rep.Stale = stale
	a.rep.Refused = fmt.Sprintf("the plan is stale: %d value(s) changed since it was made; plan again", len(stale))
	a.kind = ErrRefused
	a.notAttempted(0)
	var b strings.Builder
	for _, s := range stale {
		fmt.Fprintf(&b, "\n  %s: planned against %s, now %s", s.Addr, s.Planned, s.Now)
	}
	return fmt.Errorf("applier: cluster %q: the plan is stale, nothing was changed; plan again:%s", a.cp.Name, b.String())
}

func (a *run) summary() string {
	var ap, fa, na int
	for _, c := range a.rep.Changes {
		switch c.Status {
		case Applied:
			ap++
		case Failed:
			fa++
		default:
			na++
		}
	}
	s := fmt.Sprintf("%d applied, %d failed, %d not attempted", ap, fa, na)
	if a.rep.RollbackPath != "" {
		s += "; rollback plan written to " + a.rep.RollbackPath
	}
	return s
}

// needsTopology reports whether applying cp needs CLUSTER_INFO: to attribute
// SET CONFIG warnings and verify every instance, or to check pinned versions.
func needsTopology(cp *planner.ClusterPlan) bool {
	for _, ch := range cp.Changes {
		if ch.Addr.Kind == state.KindConfig {
			return true
		}
	}
	for _, d := range cp.Fingerprint {
		if k := d.Addr.Kind; k == state.KindVersion || k == state.KindInstance || k == state.KindConfig {
			return true
		}
	}
	return false
}

// notAttempted records changes from index i on as not attempted.
func (a *run) notAttempted(i int) {
	for _, ch := range a.cp.Changes[i:] {
		a.rep.Changes = append(a.rep.Changes, &ChangeResult{Addr: ch.Addr, Action: ch.Action, Status: NotAttempted})
	}
}

func (a *run) finish(err error) {
	result := "complete"
	switch {
	case errors.Is(a.kind, ErrLocked):
		result = "locked"
	case a.rep.Refused != "" || errors.Is(a.kind, ErrRefused):
		result = "refused"
	case a.rep.Interrupted:
		result = "interrupted"
	case err != nil:
		result = "failed"
	}
	var msg string
	if err != nil {
		msg = err.Error()
	}
	created, changed, deleted := a.rep.Counts()
	a.record(AuditRecord{Event: "apply_end", Result: result, Error: msg, Changes: len(a.cp.Changes),
		Summary:    fmt.Sprintf("%d changed, %d created, %d deleted; %s", changed, created, deleted, a.summary()),
		Rollback:   a.rep.RollbackPath,
		DurationMS: a.rep.Finished.Sub(a.rep.Started).Milliseconds()})
}

func uniqueSorted(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// PlanHash is the cluster plan's hash (planner.ClusterPlan.Hash), recorded in
// the audit log so an apply can be matched to the reviewed plan, whose
// Markdown view shows the same hash.
func PlanHash(cp *planner.ClusterPlan) string { return cp.Hash() }

// ---------------------------------------------------------------------------
// Lock

// acquireLock takes the advisory lock on a dedicated connection held for the
// whole apply. A second apply waits up to the lock timeout, then fails naming
// the lock.
//
// TiDB's GET_LOCK family differs from MySQL's (pkg/expression
// builtin_miscellaneous.go, pkg/session IsUsedAdvisoryLock): the wait is
// capped at 3600 s (innodb_lock_wait_timeout's maximum; longer waits are cut
// with a warning), a timeout of 0 still waits 1 s, and IS_USED_LOCK from any
// session but the holder's answers 1, not the holder's connection id. So
// ownership is only ever asked on the lock connection itself, and the lock
// connection marks itself so that an apply refused the lock can name the
// holder (lockholder.go).
func (a *run) acquireLock() error {
	name := a.o.lockName()
	c, err := a.db.Conn(a.ctx)
	if err != nil {
		return fmt.Errorf("applier: connect: %w", err)
	}
	markLockConn(a.ctx, c)
	secs := int64(math.Ceil(a.o.lockTimeout().Seconds()))
	if secs > maxLockWait {
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("--lock-timeout %s is above TiDB's maximum GET_LOCK wait; "+
			"waiting at most %ds", a.o.lockTimeout(), maxLockWait))
		secs = maxLockWait
	}
	var got sql.NullInt64
	start := a.o.now()
	announced := a.announceWait(name, secs)
	err = queryRow(a.ctx, c, fmt.Sprintf("SELECT GET_LOCK(%s, %d)", sqlString(name), secs), &got)
	announced()
	if err != nil {
		c.Close()
		if a.ctx.Err() != nil {
			a.rep.Interrupted = true
			a.kind = ErrInterrupted
			return fmt.Errorf("applier: interrupted while waiting for the apply lock %q", name)
		}
		return fmt.Errorf("applier: take the apply lock %q: %w", name, err)
	}
	if !got.Valid || got.Int64 != 1 {
		waited := a.o.now().Sub(start).Round(time.Second)
		holder := lockHolders(a.work, c).text(name)
		c.Close()
		a.kind = ErrLocked
		msg := fmt.Sprintf("%s; waited %s (--lock-timeout). Wait for it to finish (its operator's audit log shows "+
			"it) and retry, or raise --lock-timeout (at most 1h)", holder, waited)
		a.rep.Refused = msg
		return fmt.Errorf("applier: cluster %q: %s; nothing was changed", a.cp.Name, msg)
	}
	a.lock = c
	return nil
}

// lockWaitNotice is how long GET_LOCK may take before apply says that it
// waits for another apply: a free lock is granted at once, so a wait this
// long means another session holds it. (Asking first, with IS_FREE_LOCK,
// would cost a statement on every apply.)
const lockWaitNotice = 500 * time.Millisecond

// announceWait prints, unless done is called first, that apply waits for
// the lock once GET_LOCK has taken lockWaitNotice. done returns once
// nothing more can be printed.
func (a *run) announceWait(name string, secs int64) (done func()) {
	if a.o.Progress == nil {
		return func() {}
	}
	var mu sync.Mutex
	over := false
	t := time.AfterFunc(lockWaitNotice, func() {
		mu.Lock()
		defer mu.Unlock()
		if !over {
			a.progress("Waiting up to %s (--lock-timeout) for the apply lock %q: another session holds it...",
				time.Duration(secs)*time.Second, name)
		}
	})
	return func() {
		t.Stop()
		mu.Lock()
		over = true
		mu.Unlock()
	}
}

// maxLockWait is the longest GET_LOCK wait TiDB grants: the maximum of
// innodb_lock_wait_timeout, in seconds.
const maxLockWait = 3600

// expiredAcks lists the codes of acknowledged error findings that no
// acknowledgement of the configuration (Options.Desired) covers any more at
// apply time. Without the configuration there is nothing to re-check.
func (a *run) expiredAcks() []string {
	if a.o.Desired == nil {
		return nil
	}
	now := a.o.now()
	var codes []string
	for _, f := range a.cp.Findings {
		if f.Severity != diag.Error || !f.Acknowledged {
			continue
		}
		active := false
		for _, ack := range a.o.Desired.Acknowledgements {
			if strings.EqualFold(strings.TrimSpace(ack.Code), f.Code) && guard.AckActive(ack, now) {
				active = true
			}
		}
		if !active {
			codes = append(codes, f.Code)
		}
	}
	return uniqueSorted(codes)
}

func (a *run) releaseLock() {
	if a.lock == nil {
		return
	}
	var r sql.NullInt64
	if err := queryRow(a.work, a.lock, "SELECT RELEASE_LOCK("+sqlString(a.o.lockName())+")", &r); err != nil && !isConnError(err) {
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("releasing the lock %q failed (it is released when the connection closes): %v", a.o.lockName(), err))
	}
	a.lock.Close()
	a.lock = nil
}

// checkLock verifies after a reconnect that this apply still holds the lock.
// It asks the lock connection itself (TiDB tells only the holder's own session
// who holds a lock); if that connection died, the lock died with it, and it is
// taken again without waiting unless another apply took it in between.
func (a *run) checkLock() error {
	a.mu.Lock() // workers that lost their connections ask one at a time
	defer a.mu.Unlock()
	name := a.o.lockName()
	if a.lock != nil {
		var holder, mine sql.NullInt64
		err := a.lock.QueryRowContext(a.work, "SELECT IS_USED_LOCK("+sqlString(name)+"), CONNECTION_ID()").Scan(&holder, &mine)
		if err == nil && holder.Valid && mine.Valid && holder.Int64 == mine.Int64 {
			return nil
		}
		if err != nil && !isConnError(err) {
			return fmt.Errorf("applier: check the apply lock %q: %w", name, err)
		}
		a.lock.Close()
		a.lock = nil
	}
	// Our lock connection is gone (or no longer holds it). Take it again,
	// without waiting: if another apply got it in between, stop.
	c, err := a.db.Conn(a.work)
	if err != nil {
		return fmt.Errorf("applier: re-take the apply lock %q: %w", name, err)
	}
	markLockConn(a.work, c)
	var got sql.NullInt64
	if err := queryRow(a.work, c, "SELECT GET_LOCK("+sqlString(name)+", 0)", &got); err != nil || !got.Valid || got.Int64 != 1 {
		c.Close()
		return fmt.Errorf("applier: lost the apply lock %q after a connection loss (another session holds it now, or "+
			"it could not be re-taken); stopping", name)
	}
	a.lock = c
	return nil
}

// reconnect replaces l's connection after a connection error and confirms
// the lock is still held.
func (a *run) reconnect(l *link) error {
	if l.conn != nil {
		l.conn.Close()
	}
	var err error
	for i := 0; i < 3; i++ {
		var c *sql.Conn
		if c, err = a.db.Conn(a.work); err != nil {
			continue
		}
		if err = c.PingContext(a.work); err != nil {
			c.Close()
			continue
		}
		l.conn = c
		return a.checkLock()
	}
	return fmt.Errorf("applier: reconnect: %w", err)
}

// ---------------------------------------------------------------------------
// Stale-plan check

// staleCheck compares every value the plan depends on (cp.Fingerprint),
// as the inspection read it, and returns those that moved, as planner.Stale
// decides: values that changed or are gone, and instances that appeared for
// a component whose topology the plan pins. With Options.Refingerprint (or
// Options.Desired) it also compares the fingerprint recomputed from the same
// inspection.
func (a *run) staleCheck() ([]StaleValue, error) {
	out := a.staleValues(planner.Stale(a.cp.Fingerprint, a.fingerprintNow()), nil)
	fresh, err := a.refingerprint()
	if err != nil {
		return nil, err
	}
	if fresh != nil {
		out = append(out, a.staleValues(planner.Stale(a.cp.Fingerprint, fresh), out)...)
	}
	return out, nil
}

// fingerprintNow is every value cp.Fingerprint lists as the inspection read
// it, as dependencies of the same form: config keys on every instance,
// other values once; versions and instances from the topology, every
// instance of a component the plan pins.
func (a *run) fingerprintNow() []plans.Dependency {
	var now []plans.Dependency
	read := map[state.Address]bool{}
	pinned := map[state.Component]bool{}
	for _, d := range a.cp.Fingerprint {
		if d.Addr.Kind == state.KindVersion || d.Addr.Kind == state.KindInstance {
			pinned[d.Addr.Component] = true
			continue
		}
		at := d.Addr.OnEveryInstance()
		if read[at] {
			continue
		}
		read[at] = true
		for inst, v := range a.facts.reading(at).values {
			got := at
			if at.Kind == state.KindConfig {
				got.Instance = inst
			}
			now = append(now, plans.Dependency{Addr: got, Value: v})
		}
	}
	for _, in := range a.topo {
		if pinned[in.Component] {
			now = append(now,
				plans.Dependency{Addr: state.VersionAddress(in.Component, in.Address), Value: in.Version},
				plans.Dependency{Addr: state.InstanceAddress(in.Component, in.Address), Value: in.Address})
		}
	}
	return now
}

// staleValues turns what planner.Stale found into the report's form, values
// shown the way the component prints them, leaving out addresses already
// reported.
func (a *run) staleValues(stale []planner.StaleDependency, already []StaleValue) []StaleValue {
	reported := map[state.Address]bool{}
	for _, s := range already {
		reported[s.Addr] = true
	}
	var out []StaleValue
	for _, s := range stale {
		d := s.Dependency
		if reported[d.Addr] {
			continue
		}
		nowText := planner.DisplayValue(d.Addr, s.Now)
		if s.Now == Absent && d.Addr.Kind == state.KindConfig && isInstance(d.Addr.Instance, a.topo) {
			// CLUSTER_CONFIG leaves out an instance it cannot reach (with a warning):
			// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig.
			nowText = notReported
		}
		out = append(out, StaleValue{Addr: d.Addr, Planned: planner.DisplayValue(d.Addr, d.Value), Now: nowText})
	}
	return out
}

// notReported is how the stale check shows a config value an instance that
// is still in CLUSTER_INFO did not report: "<absent>" read as if the key were
// gone, while the usual cause is the instance being down.
const notReported = "not reported (instance down or unreachable)"

// refingerprint recomputes the plan's fingerprint with the planner from the
// inspection, which read what a plan of the configuration reads (nil when
// the plan has no configuration, e.g. a rollback plan).
func (a *run) refingerprint() ([]plans.Dependency, error) {
	if a.o.Refingerprint != nil {
		fresh, err := a.o.Refingerprint(a.ctx)
		if err != nil {
			return nil, fmt.Errorf("applier: stale-plan check: %w", err)
		}
		return fresh, nil
	}
	if a.o.Desired == nil {
		return nil, nil
	}
	return planner.Fingerprint(a.o.Desired, a.live), nil
}

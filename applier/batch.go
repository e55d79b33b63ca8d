package applier

import (
	"fmt"
	"time"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Batched verification. Changes are sent one statement at a time, each
// followed by SHOW WARNINGS, which decides whether apply goes on; the
// read-back that proves every instance took the values is one read for a
// batch of changes: the changes sent since the last read-back. A batch is
// read back
//
//   - before a change that reads another kind of value (another component's
//     config, variables, resource groups, users): one read per component,
//     after its statements;
//   - before a change that depends on one of the batch (plans.Change.DependsOn:
//     the region-size order, a group created before a user is bound to it),
//     or that verifies a value one of the batch verifies, so that it starts
//     from verified values;
//   - as soon as a change of the batch is failing (a statement failed, or its
//     warnings fail an instance), the apply is interrupted, or cannot go on;
//   - at the end.

// sentChange is a change whose statements were sent, waiting for its
// read-back.
type sentChange struct {
	ch     *plans.Change
	res    *ChangeResult
	before []reading // what its checks read before it (the values known then)
	sent   sentStatements
	start  time.Time
	// notSent: its values could not be read first, so nothing was sent.
	notSent bool
}

// failing reports whether the change already failed before its read-back.
func (sc *sentChange) failing() bool {
	return sc.notSent || sc.sent.failed != "" || judgeWarnings(sc.sent.warnings, sc.ch).failing()
}

// batch is the changes sent since the last read-back.
type batch struct {
	changes  []*sentChange
	source   source
	addrs    map[state.Address]bool // the batch's change addresses
	verified map[state.Address]bool // the values they verify, on every instance
}

// source is the kind of value a change reads: a component's config, or the
// variables, resource groups or users.
type source struct {
	kind      state.Kind
	component state.Component
}

func sourceOf(a state.Address) source {
	if a.Kind == state.KindConfig {
		return source{kind: a.Kind, component: a.Component}
	}
	return source{kind: a.Kind}
}

// joins reports whether ch may be sent before the batch is read back.
func (b *batch) joins(ch *plans.Change) bool {
	if b.addrs == nil {
		return true
	}
	if sourceOf(ch.Addr) != b.source {
		return false
	}
	for _, d := range ch.DependsOn {
		if b.addrs[d] {
			return false
		}
	}
	for _, c := range ch.Verify {
		if b.verified[c.Addr.OnEveryInstance()] {
			return false
		}
	}
	return true
}

func (b *batch) add(sc *sentChange) {
	b.admit(sc.ch)
	b.changes = append(b.changes, sc)
}

// admit records what ch changes and verifies, for joins.
func (b *batch) admit(ch *plans.Change) {
	if b.addrs == nil {
		b.source = sourceOf(ch.Addr)
		b.addrs, b.verified = map[state.Address]bool{}, map[state.Address]bool{}
	}
	b.addrs[ch.Addr] = true
	for _, c := range ch.Verify {
		b.verified[c.Addr.OnEveryInstance()] = true
	}
}

// runChanges applies the changes in plan order until one fails (unless
// ContinueOnError), the apply is interrupted, the audit log cannot be
// written or apply cannot go on; it reads back every batch, collects the
// rollback of every change that took effect, and returns how many failed.
// Config changes that may join one batch are sent as a wave, several at
// once (wave.go); every other change on its own.
func (a *run) runChanges() (failed int) {
	var b batch
	noted := false // a fatal error is already in the notes
	// verify reads the batch back; stop is set when apply must not go on.
	verify := func() (stop bool) {
		n, lost := a.verify(b.changes)
		b = batch{}
		failed += n
		if lost != nil {
			if !noted {
				a.rep.Notes = append(a.rep.Notes, lost.Error())
			}
			return true
		}
		return n > 0 && !a.o.ContinueOnError
	}
	for i := 0; i < len(a.cp.Changes); {
		ch := a.cp.Changes[i]
		if !b.joins(ch) && verify() {
			a.notAttempted(i)
			return failed
		}
		if a.stopBefore() {
			verify()
			a.notAttempted(i)
			return failed
		}
		if wave := a.wave(&b, i); len(wave) > 1 {
			w := a.sendWave(wave)
			for _, sc := range w.sent {
				a.rep.Changes = append(a.rep.Changes, sc.res)
				b.add(sc)
			}
			i += len(w.sent)
			if w.fatal != nil {
				a.rep.Notes, noted = append(a.rep.Notes, w.fatal.Error()), true
			}
			if w.fatal == nil && !w.halted && !a.rep.Interrupted && !w.failing() {
				continue
			}
			stop := verify()
			a.noteInFlight(w)
			if stop || w.fatal != nil || w.halted || a.rep.Interrupted {
				a.notAttempted(i)
				return failed
			}
			continue
		}
		i++
		sc, fatal := a.send(ch)
		a.rep.Changes = append(a.rep.Changes, sc.res)
		if sc.notSent {
			a.rep.Notes, noted = append(a.rep.Notes, fatal.Error()), true
			verify()
			a.notAttempted(i)
			return failed
		}
		b.add(sc)
		if fatal == nil && !a.rep.Interrupted && !sc.failing() {
			continue
		}
		if fatal != nil {
			a.rep.Notes, noted = append(a.rep.Notes, fatal.Error()), true
		}
		if stop := verify(); stop || fatal != nil || a.rep.Interrupted {
			a.notAttempted(i)
			return failed
		}
	}
	verify()
	return failed
}

// stopBefore reports whether apply must stop before the next change: it was
// interrupted, or the audit log cannot be written (no change without a
// record of it).
func (a *run) stopBefore() bool {
	if a.ctx.Err() != nil {
		a.interrupt()
		return true
	}
	if err := a.audit.failed(); err != nil {
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("stopped: the audit log cannot be written: %v", err))
		return true
	}
	return false
}

// verify reads back a batch of sent changes — every value they verify, in
// one read per kind of value — and concludes each. It returns how many
// failed, and lost when the connection could not be restored (apply cannot
// go on).
func (a *run) verify(changes []*sentChange) (failed int, lost error) {
	if len(changes) == 0 {
		return 0, nil
	}
	var checks []plans.Check
	for _, sc := range changes {
		checks = append(checks, sc.ch.Verify...)
	}
	var after []reading
	var rerr error
	if len(checks) > 0 {
		after, rerr, lost = a.readBack(a.main, checks)
	}
	for _, sc := range changes {
		n := len(sc.ch.Verify)
		a.conclude(sc, after[:n], rerr)
		after = after[n:]
		if sc.res.Status == Failed {
			failed++
		}
	}
	return failed, lost
}

package applier

import (
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Concurrent waves. A type-wide SET CONFIG contacts every instance of the
// type one after another (pingcap/tidb@v8.5.1:pkg/executor/set_config.go,
// SetConfigExec), so N changes on a cluster of M instances cost N × M round
// trips sent in turn. Config changes that the plan does not order may be
// sent at once instead, as Terraform walks independent nodes of its graph
// up to -parallelism. A wave is such a run of changes:
//
//   - consecutive in plan order, each of which may join the current batch
//     (batch.joins: the same component, no dependency on a change of the
//     batch, no value verified twice), so that no ordering edge of the
//     plan lies between two of them (an edge between changes i and j
//     passes only through changes placed between them, which the run
//     holds too);
//   - config changes only (SET GLOBAL and resource-group or user DDL are
//     cheap and stay one after another), whose values apply knows, so that
//     nothing is read before they start.
//
// Up to Options.Concurrency changes of a wave are in flight, each on its own
// connection (run.main, then workers the pool opens with the same session
// setup: live.Open's sql_mode check), with SHOW WARNINGS read on the
// connection of its statement right after it. Changes start in plan order,
// so the changes sent are always the wave's first ones. After the first
// change that fails (a statement error or a warning that fails an
// instance; unless ContinueOnError), a connection lost for good, an
// interrupt or an audit log that cannot be written, no statement starts:
// the changes in flight finish their running statement (a change of several
// statements stops between them, as an interrupt stops it), and the
// changes sent are reported in plan order, read back and rolled back as
// after a sequential apply. The lock stays on its own connection
// throughout. Statement events arrive in the order the statements complete
// (each names its change); verify and change events come after the
// read-back, in plan order.

// link is a connection apply sends statements on: the statement
// connection (run.main) or a worker's.
type link struct{ conn *sql.Conn }

// interrupt records that the apply was interrupted (workers call it).
func (a *run) interrupt() {
	a.mu.Lock()
	a.rep.Interrupted = true
	a.mu.Unlock()
}

// wave returns the changes from index i on that are sent next: the wave
// starting there when Options.Concurrency allows more than one change at
// once, else (or when no second change may join) the change at i alone.
func (a *run) wave(b *batch, i int) []*plans.Change {
	changes := a.cp.Changes
	if a.o.concurrency() < 2 {
		return changes[i : i+1]
	}
	t := batch{source: b.source, addrs: clone(b.addrs), verified: clone(b.verified)}
	var out []*plans.Change
	for _, ch := range changes[i:] {
		if !a.concurrent(ch) || !t.joins(ch) {
			break
		}
		t.admit(ch)
		out = append(out, ch)
	}
	if len(out) < 2 {
		return changes[i : i+1]
	}
	return out
}

// concurrent reports whether ch may be sent alongside others: a config
// change whose values apply knows.
func (a *run) concurrent(ch *plans.Change) bool {
	if ch.Addr.Kind != state.KindConfig {
		return false
	}
	for _, c := range ch.Verify {
		if !a.facts.known(c.Addr) {
			return false
		}
	}
	return true
}

func clone(m map[state.Address]bool) map[state.Address]bool {
	if m == nil {
		return nil
	}
	out := make(map[state.Address]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// waveResult is what sending a wave did.
type waveResult struct {
	// sent are the changes started, in plan order: the wave's first ones.
	sent []*sentChange
	// fatal is the first error after which apply cannot go on (connection
	// or lock lost for good).
	fatal error
	// halted: stopBefore ended the wave (interrupted, audit log failing).
	halted bool
	// stoppedBy is the change whose failure stopped the wave (nil: none did).
	stoppedBy *plans.Change
}

// failing reports whether a change sent already failed before its
// read-back.
func (w waveResult) failing() bool {
	for _, sc := range w.sent {
		if sc.failing() {
			return true
		}
	}
	return false
}

// noteInFlight says in the report which changes of a stopped wave were
// sent after the first that failed, in plan order: they were in flight
// when it failed, which a sequential apply would not have sent. Each is
// reported with its own outcome.
func (a *run) noteInFlight(w waveResult) {
	if a.o.ContinueOnError {
		return
	}
	var later []string
	after := false
	for _, sc := range w.sent {
		if after {
			later = append(later, sc.ch.Addr.String())
		}
		after = after || sc.ch == w.stoppedBy
	}
	if len(later) == 0 {
		return
	}
	a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("%s %s already in flight when %s failed (changes the plan does not order "+
		"are sent --concurrency %d at a time); each change is reported with its own outcome",
		strings.Join(later, ", "), plural(len(later), "was", "were"), w.stoppedBy.Addr, a.o.concurrency()))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// stopFlag says why a wave starts no more statements ("" while it goes on),
// and which change stopped it. A nil *stopFlag (a change sent on its own)
// never stops.
type stopFlag struct {
	mu     sync.Mutex
	why    string
	change *plans.Change
}

// set stops the wave because of ch (the first reason stays).
func (s *stopFlag) set(ch *plans.Change, why string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.why == "" {
		s.why, s.change = why, ch
	}
}

// get is why the wave stopped.
func (s *stopFlag) get() string { return s.by(nil) }

// by is why the wave stopped, unless ch itself stopped it (its own
// remaining statements go on, as when it is sent on its own).
func (s *stopFlag) by(ch *plans.Change) string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch != nil && s.change == ch {
		return ""
	}
	return s.why
}

// sendWave sends the wave's changes, at most Options.Concurrency at once,
// until one stops it (see above), and waits for every change it started.
func (a *run) sendWave(wave []*plans.Change) waveResult {
	// Every change's "before" values are taken before any worker runs: a
	// worker may update the facts (a re-read after a lost connection).
	before := make([][]reading, len(wave))
	for i, ch := range wave {
		before[i] = a.facts.readings(ch.Verify)
	}
	a.progress("Sending %d %s changes that do not depend on each other, up to %d at a time (--concurrency):",
		len(wave), wave[0].Addr.Component, min(a.o.concurrency(), len(wave)))
	type done struct {
		sc *sentChange
		on *link
	}
	var (
		w        waveResult
		stop     stopFlag
		free     = append([]*link{a.main}, a.workers...)
		finished = make(chan done)
		running  = 0
		next     = 0
	)
	for {
		for stop.get() == "" && next < len(wave) {
			on := a.freeLink(&free)
			if on == nil {
				break // every connection is busy
			}
			if a.stopBefore() {
				w.halted = true
				if a.ctx.Err() != nil {
					stop.set(nil, "interrupted")
				} else {
					stop.set(nil, "the audit log cannot be written")
				}
				free = append(free, on)
				break
			}
			sc := a.begin(wave[next])
			sc.before = before[next]
			w.sent = append(w.sent, sc)
			next++
			running++
			go func() {
				sc.sent = a.sendStatements(on, sc.ch, sc.res, sc.before, &stop)
				finished <- done{sc, on}
			}()
		}
		if running == 0 {
			w.stoppedBy = stop.change // every worker is done
			return w
		}
		d := <-finished
		running--
		free = append(free, d.on)
		if d.sc.sent.fatal != nil && w.fatal == nil {
			w.fatal = d.sc.sent.fatal // the wave stopped when it happened
		}
	}
}

// freeLink returns a connection that sends no statement now: one of free,
// or a new worker's while the wave has fewer than Options.Concurrency. Nil
// when all are busy (or a new one cannot be opened: the wave goes on with
// the connections it has).
func (a *run) freeLink(free *[]*link) *link {
	if n := len(*free); n > 0 {
		on := (*free)[n-1]
		*free = (*free)[:n-1]
		return on
	}
	if 1+len(a.workers) >= a.o.concurrency() || a.noWorkers {
		return nil
	}
	c, err := a.db.Conn(a.ctx)
	if err != nil {
		a.noWorkers = true
		return nil
	}
	on := &link{conn: c}
	a.workers = append(a.workers, on)
	return on
}

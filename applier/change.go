package applier

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// send sends one change: its statements in order, with SHOW WARNINGS after
// each. The values it verifies are known before it starts (apply's
// inspection, or the read-back of earlier changes): they are its "before"
// values; one that is not known (a read-back failed) is read first. fatal is
// set when apply cannot go on at all (connection or lock lost for good).
func (a *run) send(ch *plans.Change) (sc *sentChange, fatal error) {
	sc = a.begin(ch)
	res := sc.res
	if err, lost := a.readUnknown(ch.Verify); err != nil {
		// Nothing was sent for this change: it stays "not attempted", and
		// apply stops because it cannot record what it would change.
		res.Reason = "not sent: could not read the current value first: " + scrub(err.Error(), a.o.Secrets)
		a.progress("  %s: not applied: %s", ch.Addr, maskIfSensitive(ch, res.Reason))
		sc.notSent = true
		if lost != nil {
			return sc, lost
		}
		return sc, err
	}
	sc.before = a.facts.readings(ch.Verify)
	sc.sent = a.sendStatements(a.main, ch, res, sc.before, nil)
	return sc, sc.sent.fatal
}

// begin starts ch: its result, not attempted until a statement is sent, and
// its progress line.
func (a *run) begin(ch *plans.Change) *sentChange {
	res := &ChangeResult{Addr: ch.Addr, Action: ch.Action, Status: NotAttempted, RestartRequired: ch.RestartRequired, Persistence: ch.Persistence}
	a.progress("%c %s: applying%s...", actionSymbol(ch.Action), ch.Addr, where(ch))
	return &sentChange{ch: ch, res: res, start: a.o.now()}
}

// readUnknown reads the values of checks apply does not know (after a
// read-back that failed), so that every change starts from known values.
func (a *run) readUnknown(checks []plans.Check) (err, lost error) {
	var unknown []plans.Check
	for _, c := range checks {
		if !a.facts.known(c.Addr) {
			unknown = append(unknown, c)
		}
	}
	if len(unknown) == 0 {
		return nil, nil
	}
	_, err, lost = a.readBack(a.main, unknown)
	return err, lost
}

// readBack reads the values of checks on the connection on, in one read
// per kind of value (live.ReadValues), reconnecting once after a lost
// connection (lost is set when the connection could not be restored), and
// records them as the values now known.
func (a *run) readBack(on *link, checks []plans.Check) (vals []reading, err, lost error) {
	addrs := make([]state.Address, len(checks))
	for i, c := range checks {
		addrs[i] = c.Addr
	}
	req := requestFor(addrs)
	l, err := live.ReadValues(a.work, on.conn, req)
	if err != nil && isConnError(err) {
		if lost = a.reconnect(on); lost == nil {
			l, err = live.ReadValues(a.work, on.conn, req)
		}
	}
	a.mu.Lock() // a worker re-reads after a lost connection (tookEffect)
	defer a.mu.Unlock()
	if err != nil {
		a.facts.forget(addrs)
		return make([]reading, len(checks)), err, lost
	}
	a.facts.learn(req, l)
	return a.facts.readings(checks), nil, lost
}

// verifyRecord is the verify event of one read-back.
func verifyRecord(in InstanceResult) AuditRecord {
	r := AuditRecord{Event: "verify", Address: in.Addr.String(), Target: in.Instance,
		After: []AuditValue{{Instance: in.Instance, Value: in.After}}, Want: in.Want, Result: "ok"}
	if !in.OK {
		r.Result, r.Error = "failed", in.Reason
	}
	return r
}

// sentStatements is what sending a change's statements did.
type sentStatements struct {
	count    int       // statements sent
	warnings []Warning // SHOW WARNINGS after each
	failed   string    // why the statements stopped ("" when all succeeded)
	fatal    error     // apply cannot go on (connection or lock lost for good)
}

// sendStatements sends the change's statements in order on c, reading SHOW
// WARNINGS after each, until one fails, the apply is cancelled or another
// change of its wave stopped the wave (stop; nil when the change is sent on
// its own); each is recorded in the audit log with the values read before
// it. A statement that fails, or whose warnings fail an instance (unless
// ContinueOnError), or after which apply cannot go on, stops the wave
// before it is recorded.
func (a *run) sendStatements(c *link, ch *plans.Change, res *ChangeResult, before []reading, stop *stopFlag) sentStatements {
	var out sentStatements
	for i, st := range ch.Statements {
		if i > 0 && a.ctx.Err() != nil {
			a.interrupt()
			out.failed = fmt.Sprintf("interrupted after %d of %d statements", i, len(ch.Statements))
			break
		}
		if why := stop.by(ch); i > 0 && why != "" {
			out.failed = fmt.Sprintf("stopped after %d of %d statements: %s", i, len(ch.Statements), why)
			break
		}
		sr, ferr := a.statement(c, st, ch)
		switch {
		case ferr != nil:
			stop.set(ch, fmt.Sprintf("apply cannot go on after %s", ch.Addr))
		case (sr.Error != "" || judgeWarnings(sr.Warnings, ch).failing()) && !a.o.ContinueOnError:
			stop.set(ch, fmt.Sprintf("%s failed", ch.Addr))
		}
		out.count++
		res.Statements = append(res.Statements, sr)
		out.warnings = append(out.warnings, sr.Warnings...)
		a.recordFor(ch)(AuditRecord{Event: "statement", Address: ch.Addr.String(), Statement: st.SQL, Target: st.Target,
			Attempts: sr.Attempts, Before: auditValues(ch.Verify, before), Warnings: sr.Warnings,
			Result: resultOf(sr), Error: sr.Error, DurationMS: sr.Duration.Milliseconds()})
		for _, w := range sr.Warnings {
			a.recordFor(ch)(AuditRecord{Event: "warning", Address: ch.Addr.String(), Statement: st.SQL, Target: st.Target,
				Warnings: []Warning{w}})
		}
		if ferr != nil {
			out.fatal = ferr
		}
		if sr.Error != "" {
			out.failed = sr.Error
			break
		}
	}
	return out
}

// conclude judges a sent change from its read-back (after, or rerr when it
// could not be read), records it in the audit log and the progress, and
// keeps its rollback when it took effect.
func (a *run) conclude(sc *sentChange, after []reading, rerr error) {
	ch, res := sc.ch, sc.res
	res.readBefore = sc.before
	a.judge(ch, res, sc.sent, sc.before, after, rerr)
	for _, in := range res.Instances {
		a.recordFor(ch)(verifyRecord(in))
	}
	res.Duration = a.o.now().Sub(sc.start)
	a.recordFor(ch)(AuditRecord{Event: "change", Address: ch.Addr.String(), Before: auditValues(ch.Verify, sc.before),
		After: auditValues(ch.Verify, after), Result: string(res.Status), Error: res.Reason,
		DurationMS: res.Duration.Milliseconds()})
	a.progressDone(ch, res)
	if !res.Effective {
		return
	}
	if rb, fp := rollbackChange(ch, res, a.topo); rb != nil {
		a.rollback = append(a.rollback, rollbackOf{change: rb, fingerprint: fp, of: ch})
	} else {
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("%s took effect but has no rollback statements; restore it by hand", ch.Addr))
	}
}

// judge decides the change's outcome from its statements and read-back:
// per-instance verdicts, whether it took effect anywhere (so that it must be
// rolled back), applied or failed and why.
func (a *run) judge(ch *plans.Change, res *ChangeResult, sent sentStatements, before, after []reading, rerr error) {
	res.Instances, res.Effective = verdicts(ch.Verify, before, after, sent.warnings, ch, a.topo)
	if rerr != nil {
		res.Reason = "could not read back: " + scrub(rerr.Error(), a.o.Secrets)
		// Unknown effect: assume it may have taken effect so the rollback
		// plan covers it.
		res.Effective = true
	}
	if len(ch.Verify) == 0 && (sent.failed == "" || sent.count > 1) {
		res.Effective = true
	}
	res.Status = Applied
	if sent.failed != "" {
		res.Status = Failed
		if res.Reason == "" {
			res.Reason = sent.failed
		}
	}
	var diverged []InstanceResult
	for _, in := range res.Instances {
		if !in.OK {
			res.Status = Failed
			diverged = append(diverged, in)
		}
	}
	if res.Reason == "" && len(diverged) > 0 {
		res.Reason = divergedReason(diverged, len(res.Instances))
	}
	if rerr != nil {
		res.Status = Failed
	}
}

// divergedReason names every instance that did not take the change, with
// its warning or the value it kept: SET CONFIG answers success while some
// instances fail (pingcap/tidb#59856, #59857), so the reason must not stop
// at the first.
func divergedReason(diverged []InstanceResult, checked int) string {
	if len(diverged) == 1 {
		return instanceReason(diverged[0])
	}
	parts := make([]string, len(diverged))
	for i, in := range diverged {
		parts[i] = instanceReason(in)
	}
	return fmt.Sprintf("%d of %d instances did not take it: %s", len(diverged), checked, strings.Join(parts, "; "))
}

// progressDone prints the change's outcome line (the values of a sensitive
// change masked).
func (a *run) progressDone(ch *plans.Change, res *ChangeResult) {
	ok := 0
	for _, in := range res.Instances {
		if in.OK {
			ok++
		}
	}
	verified := ""
	if len(res.Instances) > 0 {
		verified = fmt.Sprintf(", verified on %d/%d", ok, len(res.Instances))
	}
	if res.Status == Applied {
		a.progress("  %s: applied%s [%s]", res.Addr, verified, fmtDuration(res.Duration))
		return
	}
	reason := res.Reason
	if ch.Sensitive {
		values := changeValues(ch)
		for _, in := range res.Instances {
			values = append(values, in.Before, in.After, in.Want)
		}
		reason = maskValues(reason, values)
	}
	a.progress("  %s: FAILED%s [%s]: %s", res.Addr, verified, fmtDuration(res.Duration), reason)
}

// recordFor returns how ch's audit records are written: as they are, or with
// the values of a sensitive change masked.
func (a *run) recordFor(ch *plans.Change) func(AuditRecord) {
	if ch.Sensitive {
		return func(r AuditRecord) { hideRecord(&r, ch); a.record(r) }
	}
	return a.record
}

func instanceReason(in InstanceResult) string {
	where := in.Instance
	if where == "" {
		where = "cluster"
	}
	return fmt.Sprintf("%s: %s", where, in.Reason)
}

func resultOf(sr StatementResult) string {
	switch {
	case sr.Error != "":
		return "error"
	case len(sr.Warnings) > 0:
		return "warning"
	}
	return "ok"
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

func where(ch *plans.Change) string {
	var ts []string
	seen := map[string]bool{}
	for _, s := range ch.Statements {
		if s.Target != "" && !seen[s.Target] {
			seen[s.Target] = true
			ts = append(ts, s.Target)
		}
	}
	if len(ts) == 0 {
		// SET GLOBAL and DDL run on the connected TiDB (https://docs.pingcap.com/tidb/stable/system-variables).
		if ch.Persistence == plans.PersistInstanceOnly {
			return " on the connected tidb instance only"
		}
		return " on tidb"
	}
	return " on " + strings.Join(ts, ", ")
}

// satisfied asks the planner whether v, read on one instance as part of r,
// satisfies c.
func satisfied(c plans.Check, v string, r reading) bool {
	if c.Addr.Kind == state.KindResourceGroup {
		return planner.GroupSatisfied(c, r.group, r.tidb)
	}
	return planner.Satisfied(c, v)
}

// expected returns the instances a check must find: the one named, or every
// instance of the component; "" for cluster-wide values.
func expected(t state.Address, topo []instanceInfo) []string {
	if t.Kind != state.KindConfig {
		return []string{""}
	}
	if t.Instance != "" {
		return []string{t.Instance}
	}
	return instancesOf(topo, t.Component)
}

// warningVerdicts is what a change's warnings say about it: a SET CONFIG
// warning naming an instance fails that instance (SET CONFIG reports a
// per-instance failure as warning 1105 naming the instance's status URL:
// https://docs.pingcap.com/tidb/stable/dynamic-config); a clamped value
// (warning 1292, "Truncated incorrect … value") fails the cluster-wide check;
// a config warning naming no instance fails every instance.
type warningVerdicts struct {
	byInstance   map[string][]string
	clamped      []string
	unattributed []string
}

func judgeWarnings(ws []Warning, ch *plans.Change) warningVerdicts {
	w := warningVerdicts{byInstance: map[string][]string{}}
	for _, x := range ws {
		switch {
		case x.Code == 1292:
			w.clamped = append(w.clamped, x.Message)
		case x.Instance != "":
			w.byInstance[x.Instance] = append(w.byInstance[x.Instance], x.Message)
		case x.Code == 1105 && ch.Addr.Kind == state.KindConfig:
			w.unattributed = append(w.unattributed, x.Message)
		}
	}
	return w
}

// failing reports whether the warnings fail any instance: apply stops
// sending (unless it continues on errors) and reads the change back at once.
func (w warningVerdicts) failing() bool {
	return len(w.byInstance) > 0 || len(w.clamped) > 0 || len(w.unattributed) > 0
}

// verdicts compares the read-back with the wanted value on every instance,
// and folds in the warnings (warningVerdicts). effective reports whether any
// value moved.
func verdicts(ts []plans.Check, before, after []reading, ws []Warning, ch *plans.Change, topo []instanceInfo) (out []InstanceResult, effective bool) {
	w := judgeWarnings(ws, ch)
	for i, t := range ts {
		insts := expected(t.Addr, topo)
		// instances read back but not in the topology (should not happen) count too
		var extra []string
		for in := range after[i].values {
			if !slices.Contains(insts, in) {
				extra = append(extra, in)
			}
		}
		sort.Strings(extra)
		insts = append(insts, extra...)
		for _, in := range insts {
			r := InstanceResult{Addr: t.Addr, Instance: in, Want: planner.DisplayValue(t.Addr, planner.CheckText(t))}
			b, hasB := before[i].values[in]
			v, hasA := after[i].values[in]
			if hasB {
				r.Before = b
			}
			if hasA {
				r.After = v
			}
			if hasA && hasB && !planner.SameValue(t.Addr, b, v) {
				effective = true
			}
			switch {
			case !hasA:
				r.Reason = "no value read back (instance down or not reachable)"
			case !satisfied(t, v, after[i]):
				r.Reason = fmt.Sprintf("read back %s, want %s", v, r.Want)
			default:
				r.OK = true
			}
			w.apply(&r, in)
			out = append(out, r)
		}
	}
	return out, effective
}

// apply fails r, the result on instance in, as the warnings say.
func (w warningVerdicts) apply(r *InstanceResult, in string) {
	if msgs := w.byInstance[in]; len(msgs) > 0 {
		r.OK = false
		r.Reason = strings.Join(msgs, "; ")
	}
	if in == "" && len(w.clamped) > 0 {
		r.OK = false
		r.Reason = "value clamped: " + strings.Join(w.clamped, "; ")
	}
	if len(w.unattributed) > 0 && r.OK {
		r.OK = false
		r.Reason = "SET CONFIG warning: " + strings.Join(w.unattributed, "; ")
	}
}

func auditValues(ts []plans.Check, vals []reading) []AuditValue {
	var out []AuditValue
	for i, t := range ts {
		if i >= len(vals) || vals[i].values == nil {
			continue
		}
		keys := make([]string, 0, len(vals[i].values))
		for k := range vals[i].values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, AuditValue{Key: t.Addr.String(), Instance: k, Value: vals[i].values[k]})
		}
	}
	return out
}

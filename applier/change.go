package applier

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/planner"
)

// change runs one change: pre-read of every check, statements in order (with
// SHOW WARNINGS after each), read-back, per-instance verdicts. fatal is set
// when apply cannot go on at all (connection or lock lost for good).
func (a *run) change(ch *planner.Change) (res *ChangeResult, fatal error) {
	res = &ChangeResult{Address: ch.Address, Action: ch.Action, Status: NotAttempted, RestartRequired: ch.RestartRequired, Persistence: ch.Persistence}
	record := a.record
	if ch.Sensitive {
		record = func(r AuditRecord) { hideRecord(&r, ch); a.record(r) }
	}
	start := a.o.now()
	a.progress("%c %s: applying%s...", actionSymbol(ch.Action), ch.Address, where(ch))

	targets := checkTargets(ch)
	before, err := a.readAll(targets)
	if err != nil && isConnError(err) {
		if rerr := a.reconnect(); rerr == nil {
			before, err = a.readAll(targets)
		} else {
			err = rerr
		}
	}
	if err != nil {
		// Nothing was sent for this change: it stays "not attempted", and
		// apply stops because it cannot record what it would change.
		res.Reason = "not sent: could not read the current value first: " + scrub(err.Error(), a.o.Secrets)
		res.Duration = a.o.now().Sub(start)
		a.progress("  %s: not applied: %s", ch.Address, maskIfSensitive(ch, res.Reason))
		return res, err
	}
	var warnings []Warning
	stmtFailed := ""
	sent := 0
	for i, st := range ch.Statements {
		if i > 0 && a.ctx.Err() != nil {
			a.rep.Interrupted = true
			stmtFailed = fmt.Sprintf("interrupted after %d of %d statements", i, len(ch.Statements))
			break
		}
		sr, ferr := a.statement(st, ch)
		sent++
		res.Statements = append(res.Statements, sr)
		warnings = append(warnings, sr.Warnings...)
		record(AuditRecord{Event: "statement", Address: ch.Address, Statement: st.SQL, Target: st.Target,
			Attempts: sr.Attempts, Before: auditValues(targets, before), Warnings: sr.Warnings,
			Result: resultOf(sr), Error: sr.Error, DurationMS: sr.Duration.Milliseconds()})
		if ferr != nil {
			fatal = ferr
		}
		if sr.Error != "" {
			stmtFailed = sr.Error
			break
		}
	}
	if sent == 0 && len(ch.Statements) > 0 {
		res.Duration = a.o.now().Sub(start)
		return res, fatal
	}
	// Read back. After a connection loss that could not be repaired, a.conn
	// may be unusable: try once more on a fresh connection so the report says
	// what actually took effect.
	after, rerr := a.readAll(targets)
	if rerr != nil && isConnError(rerr) {
		if err := a.reconnect(); err == nil {
			after, rerr = a.readAll(targets)
		} else if fatal == nil {
			fatal = err
		}
	}
	res.Instances, res.Effective = verdicts(targets, before, after, warnings, ch, a.topo)
	if rerr != nil {
		res.Reason = "could not read back: " + scrub(rerr.Error(), a.o.Secrets)
		// Unknown effect: assume it may have taken effect so the rollback
		// plan covers it.
		res.Effective = true
	}
	if len(targets) == 0 && stmtFailed == "" {
		res.Effective = true
	}
	if len(targets) == 0 && stmtFailed != "" && sent > 1 {
		res.Effective = true
	}
	res.Status = Applied
	if stmtFailed != "" {
		res.Status = Failed
		if res.Reason == "" {
			res.Reason = stmtFailed
		}
	}
	for _, in := range res.Instances {
		if !in.OK {
			res.Status = Failed
			if res.Reason == "" {
				res.Reason = instanceReason(in)
			}
		}
	}
	if rerr != nil {
		res.Status = Failed
	}
	res.Duration = a.o.now().Sub(start)
	record(AuditRecord{Event: "change", Address: ch.Address, Before: auditValues(targets, before),
		After: auditValues(targets, after), Result: string(res.Status), Error: res.Reason,
		DurationMS: res.Duration.Milliseconds()})
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
		a.progress("  %s: applied%s [%s]", ch.Address, verified, fmtDuration(res.Duration))
	} else {
		reason := res.Reason
		if ch.Sensitive {
			values := changeValues(ch)
			for _, in := range res.Instances {
				values = append(values, in.Before, in.After, in.Want)
			}
			reason = maskValues(reason, values)
		}
		a.progress("  %s: FAILED%s [%s]: %s", ch.Address, verified, fmtDuration(res.Duration), reason)
	}
	return res, fatal
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

func where(ch *planner.Change) string {
	var ts []string
	seen := map[string]bool{}
	for _, s := range ch.Statements {
		if s.Target != "" && !seen[s.Target] {
			seen[s.Target] = true
			ts = append(ts, s.Target)
		}
	}
	if len(ts) == 0 {
		// SET GLOBAL and DDL run on the connected TiDB (tidb-facts.md §2.5).
		if ch.Persistence == planner.PersistInstanceOnly {
			return " on the connected tidb instance only"
		}
		return " on tidb"
	}
	return " on " + strings.Join(ts, ", ")
}

// checkTargets turns the change's checks into read targets. A change without
// checks is verified by its statements' success only.
func checkTargets(ch *planner.Change) []checkTarget {
	var out []checkTarget
	for _, c := range ch.Verify {
		out = append(out, checkTarget{t: target{Kind: c.Kind, Component: c.Component, Instance: c.Instance, Key: c.Key}, check: c})
	}
	return out
}

type checkTarget struct {
	t     target
	check planner.Check
}

// satisfied asks the planner whether v, read on one instance as part of r,
// satisfies the check.
func (t checkTarget) satisfied(v string, r reading) bool {
	if t.t.Kind == planner.KindResourceGroup {
		return t.check.GroupSatisfied(r.group, r.tidb)
	}
	return t.check.Satisfied(v)
}

// readAll reads every target.
func (a *run) readAll(ts []checkTarget) ([]reading, error) {
	out := make([]reading, len(ts))
	for i, t := range ts {
		r, err := readValues(a.work, a.conn, a.db, t.t)
		if err != nil {
			return out, err
		}
		out[i] = r
	}
	return out, nil
}

// expected returns the instances a check must find: the one named, or every
// instance of the component; "" for cluster-wide values.
func expected(t target, topo []instanceInfo) []string {
	if t.Kind != planner.KindConfig {
		return []string{""}
	}
	if t.Instance != "" {
		return []string{t.Instance}
	}
	return instancesOf(topo, t.Component)
}

// verdicts compares the read-back with the wanted value on every instance,
// and folds in warnings: a SET CONFIG warning naming an instance fails it
// (tidb-facts.md §2.3); a clamped value (warning 1292, §5.1) fails the
// cluster-wide check. effective reports whether any value moved.
func verdicts(ts []checkTarget, before, after []reading, ws []Warning, ch *planner.Change, topo []instanceInfo) (out []InstanceResult, effective bool) {
	byInstance := map[string][]string{}
	var clamped, unattributed []string
	for _, w := range ws {
		switch {
		case w.Code == 1292:
			clamped = append(clamped, w.Message)
		case w.Instance != "":
			byInstance[w.Instance] = append(byInstance[w.Instance], w.Message)
		case w.Code == 1105 && ch.Kind == planner.KindConfig:
			unattributed = append(unattributed, w.Message)
		}
	}
	for i, t := range ts {
		insts := expected(t.t, topo)
		// instances read back but not in the topology (should not happen) count too
		var extra []string
		for in := range after[i].values {
			if !contains(insts, in) {
				extra = append(extra, in)
			}
		}
		sort.Strings(extra)
		insts = append(insts, extra...)
		for _, in := range insts {
			r := InstanceResult{Key: t.t.String(), Instance: in, Want: planner.DisplayValue(t.t.Kind, t.t.Component, t.t.Key, t.check.Want)}
			b, hasB := before[i].values[in]
			v, hasA := after[i].values[in]
			if hasB {
				r.Before = b
			}
			if hasA {
				r.After = v
			}
			if hasA && hasB && !planner.SameValue(t.t.Kind, t.t.Component, t.t.Key, b, v) {
				effective = true
			}
			switch {
			case !hasA:
				r.Reason = "no value read back (instance down or not reachable)"
			case !t.satisfied(v, after[i]):
				r.Reason = fmt.Sprintf("read back %s, want %s", v, r.Want)
			default:
				r.OK = true
			}
			if msgs := byInstance[in]; len(msgs) > 0 {
				r.OK = false
				r.Reason = strings.Join(msgs, "; ")
			}
			if in == "" && len(clamped) > 0 {
				r.OK = false
				r.Reason = "value clamped: " + strings.Join(clamped, "; ")
			}
			if len(unattributed) > 0 && r.OK {
				r.OK = false
				r.Reason = "SET CONFIG warning: " + strings.Join(unattributed, "; ")
			}
			out = append(out, r)
		}
	}
	return out, effective
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func auditValues(ts []checkTarget, vals []reading) []AuditValue {
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
			out = append(out, AuditValue{Key: t.t.String(), Instance: k, Value: vals[i].values[k]})
		}
	}
	return out
}

package applier

import (
	"fmt"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// statement sends one statement on c and reads SHOW WARNINGS after it, on
// the same connection. A connection error is retried (with backoff, up to the
// policy's limit) only for idempotent statements, or for a CREATE/DROP whose
// effect a re-read shows is not there yet. fatal is set when the connection
// or the lock cannot be recovered.
func (a *run) statement(c *link, st plans.Statement, ch *plans.Change) (sr StatementResult, fatal error) {
	sr = StatementResult{SQL: st.SQL, Target: st.Target}
	start := a.o.now()
	defer func() { sr.Duration = a.o.now().Sub(start) }()
	max := a.o.Retry.maxRetries()
	for attempt := 0; ; attempt++ {
		sr.Attempts++
		_, err := c.conn.ExecContext(a.work, st.SQL)
		if err == nil {
			ws, werr := readWarnings(a.work, c.conn, a.topo)
			if werr != nil {
				// The statement succeeded; its warnings are lost. The
				// read-back decides whether it took effect everywhere.
				if isConnError(werr) {
					if rerr := a.reconnect(c); rerr != nil {
						return sr, rerr
					}
				}
				sr.Warnings = append(sr.Warnings, Warning{Level: "Note", Message: "warnings could not be read: " + scrub(werr.Error(), a.o.Secrets)})
			}
			sr.Warnings = append(sr.Warnings, ws...)
			return sr, nil
		}
		msg := scrub(err.Error(), a.o.Secrets)
		if !isConnError(err) {
			sr.Error = msg
			return sr, nil
		}
		// The connection was lost: the statement may or may not have run.
		if rerr := a.reconnect(c); rerr != nil {
			sr.Error = fmt.Sprintf("connection lost (%s) and could not be restored: %s", msg, scrub(rerr.Error(), a.o.Secrets))
			return sr, rerr
		}
		if !idempotent(st.SQL) {
			done, derr := a.tookEffect(c, ch)
			if derr == nil && done {
				sr.Warnings = append(sr.Warnings, Warning{Level: "Note", Message: "connection lost after the statement took effect (confirmed by re-reading)"})
				return sr, nil
			}
		}
		if attempt >= max {
			sr.Error = fmt.Sprintf("connection lost: %s (after %d attempt(s))", msg, sr.Attempts)
			return sr, nil
		}
		if err := a.o.Retry.sleep(a.ctx, a.o.Retry.backoff(attempt)); err != nil {
			a.interrupt()
			sr.Error = fmt.Sprintf("connection lost: %s; interrupted before retrying", msg)
			return sr, nil
		}
	}
}

// tookEffect re-reads a resource-group change whose non-idempotent statement
// lost its connection: a CREATE took effect when the group now exists, a
// DROP when it is gone. For other changes it compares the checks with Want.
func (a *run) tookEffect(c *link, ch *plans.Change) (bool, error) {
	if ch.Addr.Kind == state.KindResourceGroup && (ch.Action == plans.Create || ch.Action == plans.Delete) {
		vals, err, lost := a.readBack(c, []plans.Check{{Addr: ch.Addr}})
		if err == nil {
			err = lost
		}
		if err != nil {
			return false, err
		}
		return (vals[0].group != nil) == (ch.Action == plans.Create), nil
	}
	if len(ch.Verify) == 0 {
		return false, nil
	}
	vals, err, lost := a.readBack(c, ch.Verify)
	if err == nil {
		err = lost
	}
	if err != nil {
		return false, err
	}
	for i, c := range ch.Verify {
		if len(vals[i].values) == 0 {
			return false, nil
		}
		for _, v := range vals[i].values {
			if !satisfied(c, v, vals[i]) {
				return false, nil
			}
		}
	}
	return true, nil
}

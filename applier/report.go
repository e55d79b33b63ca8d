package applier

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Status is the outcome of one change.
type Status string

const (
	// Applied: every statement succeeded and every read-back matched.
	Applied Status = "applied"
	// Failed: a statement failed or a read-back did not match. Instances lists
	// which instances took the change and which did not; a failed change that
	// reached some instances is "partially applied" and is in the rollback plan.
	Failed Status = "failed"
	// NotAttempted: no statement of the change was sent.
	NotAttempted Status = "not attempted"
)

// Report is what one Apply did. It is exact: every change is listed once with
// what happened to it, per instance where that is known.
type Report struct {
	Cluster  string
	PlanHash string
	Started  time.Time
	Finished time.Time
	// Refused is set when apply sent no statement because of blocking guard
	// findings, a held lock or a stale plan; it says why.
	Refused string
	// Aborted is set when apply stopped before its first statement because it
	// could not read what it must check first (topology, the plan's values);
	// it says what failed. Nothing was sent.
	Aborted string
	// Stale lists what changed since the plan was made (only when refused for it).
	Stale []StaleValue
	// Changes has one result per plan change, in plan order.
	Changes []*ChangeResult
	// Interrupted is set when the context was cancelled mid-apply: the running
	// statement finished, nothing more was sent.
	Interrupted bool
	// RollbackPath is where the rollback plan was written ("" when none was
	// needed or writing failed; see RollbackError).
	RollbackPath  string
	RollbackError string
	// Notes are warnings that did not fail anything (e.g. lock release failed).
	Notes []string
}

// ChangeResult is the outcome of one planned change.
type ChangeResult struct {
	Addr   state.Address
	Action plans.Action
	Status Status
	// Reason says why the change failed (first failure), "" when applied.
	Reason string
	// Instances is the per-instance outcome from the read-back.
	Instances []InstanceResult
	// Statements run for the change, in order.
	Statements []StatementResult
	Duration   time.Duration
	// Effective is true when the change took effect somewhere (so it must be
	// rolled back): the statements reached at least one instance.
	Effective bool
	// RestartRequired repeats the plan: the value is set but takes effect
	// only after the component restarts.
	RestartRequired bool
	// Persistence repeats the plan: how the change survives a restart.
	Persistence plans.Persistence

	// readBefore holds what each check read just before the change, for the
	// rollback's read-back (a resource group's options are restored whole).
	readBefore []reading
}

// InstanceResult is one instance's value before and after the change.
type InstanceResult struct {
	// Addr is the check's address; Instance is where the value was read ("" for
	// cluster-wide values).
	Addr     state.Address
	Instance string
	Before   string
	After    string
	Want     string
	OK       bool
	Reason   string
}

// StatementResult is one statement sent.
type StatementResult struct {
	SQL      string
	Target   string
	Attempts int
	Error    string
	Warnings []Warning
	Duration time.Duration
}

// Warning is one SHOW WARNINGS row, with the instance it is about when the
// message names one (SET CONFIG per-instance failures:
// pingcap/tidb@v8.5.1:pkg/executor/set_config.go, SetConfigExec.Next).
type Warning struct {
	Level    string
	Code     int
	Message  string
	Instance string
}

// StaleValue is one live value that moved between plan and apply.
type StaleValue struct {
	Addr    state.Address
	Planned string
	Now     string
}

// Counts returns how many changes of each action kind were applied.
func (r *Report) Counts() (created, changed, deleted int) {
	for _, c := range r.Changes {
		if c.Status != Applied {
			continue
		}
		switch c.Action {
		case plans.Create:
			created++
		case plans.Delete:
			deleted++
		default:
			changed++
		}
	}
	return
}

// Complete reports whether every change was applied.
func (r *Report) Complete() bool {
	if r.Refused != "" || r.Interrupted {
		return false
	}
	for _, c := range r.Changes {
		if c.Status != Applied {
			return false
		}
	}
	return true
}

// WriteText renders the report for a terminal: a one-line summary when
// everything was applied, otherwise the lists of applied, failed and not
// attempted changes and where the rollback plan was written.
func (r *Report) WriteText(w io.Writer) {
	r = diag.PrintableCopy(r) // values and server messages shown with control characters escaped
	created, changed, deleted := r.Counts()
	if r.Refused != "" {
		fmt.Fprintf(w, "Apply refused for cluster %q: %s\n", r.Cluster, r.Refused)
		for _, s := range r.Stale {
			fmt.Fprintf(w, "  ! %s: planned against %s, now %s\n", s.Addr, s.Planned, s.Now)
		}
		fmt.Fprintln(w, "Nothing was changed.")
		return
	}
	if r.Aborted != "" {
		fmt.Fprintf(w, "Apply stopped before changing anything for cluster %q: %s\n", r.Cluster, r.Aborted)
		fmt.Fprintln(w, "Nothing was changed.")
		return
	}
	if r.Complete() {
		fmt.Fprintf(w, "Apply complete! Resources: %d changed, %d created, %d deleted.\n", changed, created, deleted)
		r.writeRestarts(w)
		for _, n := range r.Notes {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
		return
	}
	head := "Apply failed"
	if r.Interrupted {
		head = "Apply interrupted"
	}
	fmt.Fprintf(w, "%s for cluster %q. Resources: %d changed, %d created, %d deleted.\n", head, r.Cluster, changed, created, deleted)
	section := func(title string, pick func(*ChangeResult) bool, detail bool) {
		var list []*ChangeResult
		for _, c := range r.Changes {
			if pick(c) {
				list = append(list, c)
			}
		}
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(list))
		if len(list) == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		for _, c := range list {
			fmt.Fprintf(w, "  %c %s\n", actionSymbol(c.Action), c.Addr)
			if !detail {
				continue
			}
			if c.Reason != "" {
				fmt.Fprintf(w, "      reason: %s\n", c.Reason)
			}
			for _, in := range c.Instances {
				where := in.Instance
				if where == "" {
					where = "cluster"
				}
				mark := "ok"
				if !in.OK {
					mark = "FAILED"
					if in.Reason != "" {
						mark += ": " + in.Reason
					}
				}
				fmt.Fprintf(w, "      %s: %s -> %s (want %s) %s\n", where, orUnread(in.Before), orUnread(in.After), orDash(in.Want), mark)
			}
		}
	}
	section("Applied", func(c *ChangeResult) bool { return c.Status == Applied }, false)
	section("Failed", func(c *ChangeResult) bool { return c.Status == Failed }, true)
	section("Not attempted", func(c *ChangeResult) bool { return c.Status == NotAttempted }, false)
	fmt.Fprintln(w)
	switch {
	case r.RollbackPath != "":
		fmt.Fprintf(w, "Rollback plan written to %s\n  review it: tiform show %s\n  apply it:  tiform apply %s\n", r.RollbackPath, r.RollbackPath, r.RollbackPath)
	case r.RollbackError != "":
		fmt.Fprintf(w, "Rollback plan could NOT be written: %s\n", r.RollbackError)
	default:
		fmt.Fprintln(w, "Nothing took effect, so there is nothing to roll back.")
	}
	r.writeRestarts(w)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
}

// writeRestarts names applied changes that take effect only after a restart,
// and reminds how the changes that took effect persist
// (https://docs.pingcap.com/tidb/stable/dynamic-config).
func (r *Report) writeRestarts(w io.Writer) {
	var tikvFile, instanceOnly []string
	for _, c := range r.Changes {
		if !c.Effective && c.Status != Applied {
			continue
		}
		if c.RestartRequired {
			fmt.Fprintf(w, "Restart required: %s is set but takes effect only after the component restarts.\n", c.Addr)
		}
		switch c.Persistence {
		case plans.PersistTiKVFile:
			tikvFile = append(tikvFile, c.Addr.String())
		case plans.PersistInstanceOnly:
			instanceOnly = append(instanceOnly, c.Addr.String())
		}
	}
	if len(tikvFile) > 0 {
		fmt.Fprintf(w, "TiUP: %d TiKV change(s) were written to the TiKV config files; also make them with `tiup cluster edit-config`, or the next `tiup cluster reload/upgrade` overwrites them: %s\n",
			len(tikvFile), strings.Join(tikvFile, ", "))
	}
	if len(instanceOnly) > 0 {
		fmt.Fprintf(w, "Instance only: %s changed only the connected TiDB instance and is lost on its restart; set it in tidb.toml too.\n",
			strings.Join(instanceOnly, ", "))
	}
}

// scrub replaces secrets in every text of the report (server messages could
// in theory echo anything back).
func (r *Report) scrub(secrets []string) {
	if len(secrets) == 0 {
		return
	}
	r.Refused = scrub(r.Refused, secrets)
	r.Aborted = scrub(r.Aborted, secrets)
	r.RollbackError = scrub(r.RollbackError, secrets)
	for i := range r.Notes {
		r.Notes[i] = scrub(r.Notes[i], secrets)
	}
	for i := range r.Stale {
		r.Stale[i].Planned = scrub(r.Stale[i].Planned, secrets)
		r.Stale[i].Now = scrub(r.Stale[i].Now, secrets)
	}
	for _, c := range r.Changes {
		c.Reason = scrub(c.Reason, secrets)
		for i := range c.Instances {
			in := &c.Instances[i]
			in.Reason, in.Before, in.After = scrub(in.Reason, secrets), scrub(in.Before, secrets), scrub(in.After, secrets)
		}
		for i := range c.Statements {
			st := &c.Statements[i]
			st.Error = scrub(st.Error, secrets)
			for j := range st.Warnings {
				st.Warnings[j].Message = scrub(st.Warnings[j].Message, secrets)
			}
		}
	}
}

func actionSymbol(a plans.Action) rune {
	if a == 0 {
		return ' '
	}
	return rune(a)
}

// orUnread renders a value that could not be read (instance down): "-" read
// like a value to a DBRE at 3 a.m.
func orUnread(s string) string {
	if s == "" {
		return "(unread)"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

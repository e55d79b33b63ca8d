package applier

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/views"
)

// AuditRecord is one event of an apply, written as one line of the audit log
// (JSON lines, append-only) through its view, views.ApplyEvent, and reported
// to Options.Events. Every apply writes an "apply_start" event, one
// "statement" event per statement sent followed by one "warning" event per
// SHOW WARNINGS row, one "verify" event per value read back and one "change"
// event per change after its read-back, and an "apply_end" event. Fields that do not apply to an event stay zero (and are omitted).
// It never contains a password: the operator is names only and error texts
// are scrubbed.
type AuditRecord struct {
	Time     time.Time
	Event    string // apply_start, statement, warning, verify, change, apply_end
	Operator Operator
	Cluster  string
	PlanHash string
	// PlanCreatedAt is the saved plan's creation time (Options.Saved).
	PlanCreatedAt time.Time
	// Reapply is apply_start's reason to apply a saved plan again.
	Reapply string

	Address   string
	Statement string
	Target    string
	Attempts  int
	Before    []AuditValue
	After     []AuditValue
	Warnings  []Warning
	// Result: ok, warning, error (statement); applied, failed (change);
	// complete, failed, interrupted, refused, locked (apply_end).
	Result     string
	Error      string
	DurationMS int64
	// apply_start / apply_end
	Changes  int
	Summary  string
	Rollback string
	// verify: the value the read-back had to read
	Want string
	// Rollout events (views.ApplyEvent): the stage, the clusters concerned,
	// the gate's check, the --ignore-windows reason, the state file.
	Stage    string
	Clusters []string
	Check    string
	Reason   string
	State    string
}

// AuditValue is a value on one instance ("" = cluster-wide).
type AuditValue struct {
	Key      string
	Instance string
	Value    string
}

// view is r as written: scrubbed of secrets, through views.ApplyEvent.
func (r AuditRecord) view(secrets []string) views.ApplyEvent {
	e := views.ApplyEvent{
		FormatVersion: views.Format, Time: r.Time, Event: r.Event, Cluster: r.Cluster, PlanHash: r.PlanHash,
		Operator: views.Operator{OSUser: r.Operator.OSUser, DBUser: r.Operator.DBUser, Host: r.Operator.Host},
		Address:  r.Address, Statement: scrub(r.Statement, secrets), Target: r.Target, Attempts: r.Attempts,
		Before: keyValues(r.Before), After: keyValues(r.After), Result: r.Result, Error: scrub(r.Error, secrets),
		DurationMS: r.DurationMS, Changes: r.Changes, Summary: scrub(r.Summary, secrets), Rollback: r.Rollback,
		Want: scrub(r.Want, secrets), Reapply: scrub(r.Reapply, secrets),
		Stage: r.Stage, Clusters: r.Clusters, Check: r.Check, Reason: scrub(r.Reason, secrets),
		State: r.State,
	}
	if !r.PlanCreatedAt.IsZero() {
		t := r.PlanCreatedAt.UTC()
		e.PlanCreatedAt = &t
	}
	for _, w := range r.Warnings {
		e.Warnings = append(e.Warnings, views.SQLWarning{Level: w.Level, Code: w.Code, Message: scrub(w.Message, secrets), Instance: w.Instance})
	}
	return e
}

func keyValues(vs []AuditValue) []views.KeyValue {
	var out []views.KeyValue
	for _, v := range vs {
		out = append(out, views.KeyValue{Key: v.Key, Instance: v.Instance, Value: v.Value})
	}
	return out
}

// Record writes one event that belongs to no cluster's apply (a rollout's
// stage, gate or window override: views.ApplyEvent) to the audit log and the
// event stream o names, as an apply writes its own: time, operator, scrubbed
// of o.Secrets. An audit log that cannot be written is an error: what
// tiform cannot record it must not do.
func Record(o Options, r AuditRecord) error {
	r.Time = o.now().UTC()
	r.Operator = o.Operator
	e := r.view(o.Secrets)
	audit, err := openAudit(&o)
	if err != nil {
		return err
	}
	audit.write(e)
	if o.Events != nil {
		o.Events.Report(e)
	}
	return audit.close()
}

// auditLog writes records, one Write call per line so that concurrent
// appenders (O_APPEND) never interleave within a line.
type auditLog struct {
	mu     sync.Mutex
	w      io.Writer
	closer io.Closer
	err    error
}

func openAudit(o *Options) (*auditLog, error) {
	a := &auditLog{}
	switch {
	case o.AuditLog != nil:
		a.w = o.AuditLog
	case o.AuditPath != "":
		if err := files.MkdirPrivate(filepath.Dir(o.AuditPath)); err != nil {
			return nil, fmt.Errorf("applier: audit log: %w", err)
		}
		f, err := files.OpenAppend(o.AuditPath)
		if err != nil {
			return nil, fmt.Errorf("applier: audit log: %w", err)
		}
		a.w, a.closer = f, f
	}
	return a, nil
}

// write appends e as one line (views.WriteLine: one Write call per line).
func (a *auditLog) write(e views.ApplyEvent) {
	if a == nil || a.w == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := views.WriteLine(a.w, e); err != nil && a.err == nil {
		a.err = err
	}
}

// failed returns the first write error, if any.
func (a *auditLog) failed() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

func (a *auditLog) close() error {
	if a == nil {
		return nil
	}
	if f, ok := a.closer.(*os.File); ok {
		if err := f.Sync(); err != nil && a.err == nil {
			a.err = err
		}
	}
	if a.closer != nil {
		if err := a.closer.Close(); err != nil && a.err == nil {
			a.err = err
		}
	}
	if a.err != nil {
		return fmt.Errorf("applier: audit log: %w", a.err)
	}
	return nil
}

// scrub replaces every secret in s with "****".
func scrub(s string, secrets []string) string {
	for _, p := range secrets {
		if p != "" {
			s = strings.ReplaceAll(s, p, "****")
		}
	}
	return s
}

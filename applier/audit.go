package applier

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// AuditRecord is one line of the audit log (JSON lines, append-only). Every
// apply writes an "apply_start" line, one "statement" line per statement
// sent, one "change" line per change after its read-back, and an "apply_end"
// line. Fields that do not apply to an event are omitted. It never contains a
// password: the operator is names only and error texts are scrubbed.
type AuditRecord struct {
	Time     time.Time `json:"time"`
	Event    string    `json:"event"` // apply_start, statement, change, apply_end
	Operator Operator  `json:"operator"`
	Cluster  string    `json:"cluster"`
	PlanHash string    `json:"plan_hash"`

	Address   string       `json:"address,omitempty"`
	Statement string       `json:"statement,omitempty"`
	Target    string       `json:"target,omitempty"`
	Attempts  int          `json:"attempts,omitempty"`
	Before    []AuditValue `json:"before,omitempty"`
	After     []AuditValue `json:"after,omitempty"`
	Warnings  []Warning    `json:"warnings,omitempty"`
	// Result: ok, error, failed (change read-back did not match), applied,
	// not_attempted; for apply_end: complete, failed, interrupted, refused.
	Result     string `json:"result,omitempty"`
	Error      string `json:"error,omitempty"`
	DurationMS int64  `json:"duration_ms,omitempty"`
	// apply_start / apply_end
	Changes  int    `json:"changes,omitempty"`
	Summary  string `json:"summary,omitempty"`
	Rollback string `json:"rollback,omitempty"`
}

// AuditValue is a value on one instance ("" = cluster-wide).
type AuditValue struct {
	Key      string `json:"key,omitempty"`
	Instance string `json:"instance,omitempty"`
	Value    string `json:"value"`
}

// auditLog writes records, one Write call per line so that concurrent
// appenders (O_APPEND) never interleave within a line.
type auditLog struct {
	mu      sync.Mutex
	w       io.Writer
	closer  io.Closer
	err     error
	secrets []string
}

func openAudit(o *Options) (*auditLog, error) {
	a := &auditLog{secrets: o.Secrets}
	switch {
	case o.AuditLog != nil:
		a.w = o.AuditLog
	case o.AuditPath != "":
		if err := os.MkdirAll(filepath.Dir(o.AuditPath), 0o700); err != nil {
			return nil, fmt.Errorf("applier: audit log: %w", err)
		}
		f, err := os.OpenFile(o.AuditPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("applier: audit log: %w", err)
		}
		a.w, a.closer = f, f
	}
	return a, nil
}

func (a *auditLog) write(r AuditRecord) {
	if a == nil || a.w == nil {
		return
	}
	r.Error = scrub(r.Error, a.secrets)
	r.Statement = scrub(r.Statement, a.secrets)
	r.Summary = scrub(r.Summary, a.secrets)
	for i := range r.Warnings {
		r.Warnings[i].Message = scrub(r.Warnings[i].Message, a.secrets)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<absent>", not "\u003cabsent\u003e"
	if err := enc.Encode(r); err != nil {
		a.fail(err)
		return
	}
	b := buf.Bytes() // Encode ends the line with '\n'
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.w.Write(b); err != nil && a.err == nil {
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

func (a *auditLog) fail(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		a.err = err
	}
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

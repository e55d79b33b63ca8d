package applier

import (
	"context"
	"io"
	"time"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
)

// LockName is the name of the cluster-wide advisory lock every apply holds for
// its whole duration (SELECT GET_LOCK('tiform.apply', timeout)). It is
// documented in docs/apply.md; changing it breaks mutual exclusion between
// tiform versions.
const LockName = "tiform.apply"

// Defaults used when the corresponding Options field is zero.
const (
	DefaultLockTimeout  = 60 * time.Second
	DefaultRollbackPath = "rollback.tfplan"
	// DefaultConcurrency is how many SET CONFIG statements of independent
	// config changes apply sends at once when Options.Concurrency is zero
	// (docs/decisions/0014-concurrent-set-config.md says why 3).
	DefaultConcurrency = 3
)

// Options control one Apply. The zero value is usable: lock timeout 60s, stop
// on the first failure, default retry policy, no progress output, no audit
// log, rollback plan written to ./rollback.tfplan.
type Options struct {
	// Desired is the configuration the plan was made from, used to recompute
	// the plan's fingerprint from a fresh read. Nil (a saved rollback plan has
	// no configuration) limits the stale-plan check to re-reading every value
	// listed in ClusterPlan.Fingerprint, which is always done.
	Desired *state.DesiredCluster
	// Refingerprint, when set, recomputes the plan's dependencies from a fresh
	// read of the cluster; its result is compared with ClusterPlan.Fingerprint
	// in addition to the direct re-read. It overrides the built-in recompute
	// from Desired (tests use it to simulate a moved cluster).
	Refingerprint func(ctx context.Context) ([]plans.Dependency, error)

	// LockName overrides the advisory lock name (tests only; default LockName).
	LockName string
	// LockTimeout is how long to wait for another apply to release the lock.
	// Zero means DefaultLockTimeout; negative means do not wait at all.
	LockTimeout time.Duration

	// ContinueOnError keeps applying the remaining changes after a failure.
	ContinueOnError bool

	// Concurrency is how many changes apply sends at once, each on its own
	// connection, among config changes that the plan does not order (no
	// dependency between them, none verifying a value another verifies:
	// the changes one read-back covers, batch.go). Variables, resource
	// groups and users are always sent one after another. Zero means
	// DefaultConcurrency; 1 (or less) sends every change after the previous
	// one, on one connection.
	Concurrency int

	// Progress receives one line per change (what, where, how long). Nil = silent.
	Progress io.Writer

	// Events receives every event of the apply as it happens: the events
	// the audit log records (apply_start, statement, warning, verify,
	// change, apply_end), scrubbed and masked as the audit log writes them.
	// `tiform apply --format json` streams them. Nil: none.
	Events Reporter

	// AuditLog receives the JSON-lines audit records. When nil and AuditPath is
	// set, AuditPath is opened for appending (created 0600 with its directory).
	AuditLog  io.Writer
	AuditPath string

	// Operator identifies who applies. Never a password.
	Operator Operator

	// RollbackPath is where the rollback plan is written when anything was
	// applied and the apply did not complete. Empty means DefaultRollbackPath.
	RollbackPath string
	// ConfigHash is copied into the rollback plan (planner.Plan.ConfigHash).
	ConfigHash string

	// Retry is the policy for connection errors.
	Retry RetryPolicy

	// Secrets are strings (the DSN password) that must never appear in any
	// output; every error text written to the report, audit log or rollback
	// plan is scrubbed of them. tiform never puts them there on purpose; this
	// is the second line of defence.
	Secrets []string

	// Now is the clock (tests pin it). Nil means time.Now.
	Now func() time.Time

	// Saved is set when the plan comes from a file (tiform apply PLANFILE):
	// such a plan expires and is applied once (replay.go).
	Saved *SavedPlan
}

// SavedPlan describes a plan applied from a file. A saved plan older than
// MaxAge is refused (planner.CheckAge), and so is one the audit log
// (AuditPath) records as applied to the cluster before, unless Reapply gives
// the reason to apply it again.
type SavedPlan struct {
	// CreatedAt is the plan's creation time (planner.Plan.CreatedAt).
	CreatedAt time.Time
	// MaxAge is the oldest a plan may be; 0 means planner.DefaultMaxAge,
	// negative never.
	MaxAge time.Duration
	// Reapply is the reason to apply the plan although it was applied
	// before; it is recorded in the apply_start event. Empty: refuse.
	Reapply string
}

// Reporter receives the events of an apply, in order, as they happen
// (views.ApplyEvent, docs/apply.md). It is the one reporting interface of the
// applier: the audit log writes the same events.
type Reporter interface {
	Report(views.ApplyEvent)
}

// Operator is who runs the apply, as recorded in the audit log.
type Operator struct {
	OSUser string
	DBUser string
	Host   string
}

// RetryPolicy governs retries of statements that failed with a connection
// error. Only idempotent statements are retried (SET CONFIG, SET GLOBAL,
// ALTER ...); CREATE/DROP RESOURCE GROUP only when a read-back shows the
// statement did not take effect.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt. Zero means 3;
	// negative means never retry.
	MaxRetries int
	// Initial is the first backoff (default 200ms), doubled on each retry up to
	// Max (default 5s).
	Initial, Max time.Duration
	// Sleep waits d or until ctx is done (tests replace it). Nil = real sleep.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *Options) lockName() string {
	if o.LockName != "" {
		return o.LockName
	}
	return LockName
}

func (o *Options) lockTimeout() time.Duration {
	switch {
	case o.LockTimeout == 0:
		return DefaultLockTimeout
	case o.LockTimeout < 0:
		return 0
	}
	return o.LockTimeout
}

func (o *Options) concurrency() int {
	switch {
	case o.Concurrency == 0:
		return DefaultConcurrency
	case o.Concurrency < 1:
		return 1
	}
	return o.Concurrency
}

func (o *Options) rollbackPath() string {
	if o.RollbackPath != "" {
		return o.RollbackPath
	}
	return DefaultRollbackPath
}

func (p RetryPolicy) maxRetries() int {
	switch {
	case p.MaxRetries == 0:
		return 3
	case p.MaxRetries < 0:
		return 0
	}
	return p.MaxRetries
}

// backoff returns the wait before retry n (0-based).
func (p RetryPolicy) backoff(n int) time.Duration {
	d, max := p.Initial, p.Max
	if d <= 0 {
		d = 200 * time.Millisecond
	}
	if max <= 0 {
		max = 5 * time.Second
	}
	for i := 0; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return d
}

func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

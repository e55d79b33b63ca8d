package tidbsim

import (
	"math"
	"strings"
	"sync"
	"time"
)

// Named (user-level) locks: GET_LOCK, RELEASE_LOCK, IS_USED_LOCK,
// IS_FREE_LOCK and RELEASE_ALL_LOCKS (issue 2 point 8). tiform's applier uses
// GET_LOCK to serialise applies.
//
// As in MySQL: a session may hold several locks and take the same lock again
// (it then needs as many releases); names are case-insensitive, at most 64
// characters (3057 otherwise); a connection's locks are released when it
// closes. Where TiDB differs from MySQL, tidbsim follows TiDB (docs
// functions-and-operators/locking-functions.md, v7.5 … master, "MySQL
// compatibility"; code pkg/expression/builtin_miscellaneous.go builtinLockSig,
// builtinReleaseLockSig, builtinUsedLockSig):
//   - the GET_LOCK timeout is an integer number of seconds between 1 and 3600:
//     0 (and NULL) wait 1 second; a negative value or one above 3600 waits
//     3600 seconds with warning 1292 "Truncated incorrect get_lock value: 'x'";
//   - RELEASE_LOCK returns 1 when the session released the lock, else 0 (never
//     NULL);
//   - IS_USED_LOCK returns the caller's own connection id when the caller holds
//     the lock, 1 when another session holds it ("cannot return the ID of the
//     process holding the lock"), NULL when it is free.

// maxLockNameLength is MySQL's limit on user-level lock names.
const maxLockNameLength = 64

type namedLock struct {
	owner uint32
	count int
	// freed is closed when the lock is released completely.
	freed chan struct{}
}

// LockTable is the cluster's user-level locks. It is safe for concurrent use;
// waiting for a lock never holds the table's mutex (nor Cluster.Mu).
type LockTable struct {
	mu    sync.Mutex
	locks map[string]*namedLock
}

// NewLockTable returns an empty lock table.
func NewLockTable() *LockTable { return &LockTable{locks: map[string]*namedLock{}} }

// errLockName is MySQL's ER_USER_LOCK_WRONG_NAME (3057).
func errLockName(name string) *SQLError {
	return NewError(3057, "42000", "Incorrect user-level lock name '%s'.", name)
}

func lockKey(name string) string { return strings.ToLower(name) }

// Get is GET_LOCK(name, timeout) for connection owner: true when acquired
// (also when owner already holds it: the count goes up), false when timeout
// elapsed first. timeout < 0 waits forever.
func (lt *LockTable) Get(owner uint32, name string, timeout time.Duration) (bool, error) {
	if name == "" || len([]rune(name)) > maxLockNameLength {
		return false, errLockName(name)
	}
	key := lockKey(name)
	var deadline <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	for {
		lt.mu.Lock()
		l, held := lt.locks[key]
		if !held {
			lt.locks[key] = &namedLock{owner: owner, count: 1, freed: make(chan struct{})}
			lt.mu.Unlock()
			return true, nil
		}
		if l.owner == owner {
			l.count++
			lt.mu.Unlock()
			return true, nil
		}
		freed := l.freed
		lt.mu.Unlock()
		if timeout == 0 {
			return false, nil
		}
		select {
		case <-freed:
		case <-deadline:
			return false, nil
		}
	}
}

// Release is RELEASE_LOCK(name): 1 when owner held it (one level released),
// else 0 — also when nobody holds it (TiDB builtinReleaseLockSig; MySQL would
// return NULL).
func (lt *LockTable) Release(owner uint32, name string) (Value, error) {
	if name == "" || len([]rune(name)) > maxLockNameLength {
		return Null, errLockName(name)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	key := lockKey(name)
	l, held := lt.locks[key]
	if !held || l.owner != owner {
		return Int(0), nil
	}
	l.count--
	if l.count == 0 {
		delete(lt.locks, key)
		close(l.freed)
	}
	return Int(1), nil
}

// UsedBy is IS_USED_LOCK(name) called by connection caller: caller's id when
// it holds the lock, 1 when another connection does (TiDB cannot tell which),
// NULL when the lock is free.
func (lt *LockTable) UsedBy(caller uint32, name string) (Value, error) {
	if name == "" || len([]rune(name)) > maxLockNameLength {
		return Null, errLockName(name)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	l, held := lt.locks[lockKey(name)]
	switch {
	case !held:
		return Null, nil
	case l.owner == caller:
		return Int(int64(caller)), nil
	}
	return Int(1), nil
}

// ReleaseAll is RELEASE_ALL_LOCKS() and the release at disconnect: it frees
// every lock owner holds and returns how many lock levels were held.
func (lt *LockTable) ReleaseAll(owner uint32) int64 {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	var n int64
	for key, l := range lt.locks {
		if l.owner == owner {
			n += int64(l.count)
			delete(lt.locks, key)
			close(l.freed)
		}
	}
	return n
}

// maxLockTimeout is TiDB's upper bound for GET_LOCK: the maximum of
// innodb_lock_wait_timeout, 3600 seconds.
const maxLockTimeout = 3600

// lockTimeout converts GET_LOCK's second argument as TiDB does: evaluated as
// an integer (decimals rounded, NULL is 0); below 0 or above 3600 it becomes
// 3600 and truncated is set (the caller appends warning 1292); 0 waits the
// minimum of 1 second.
func lockTimeout(v Value) (d time.Duration, truncated bool, secs int64) {
	switch {
	case v.IsNull():
		secs = 0
	case v.Kind == KindInt:
		secs = v.I
	default:
		f := math.Round(v.ToFloat())
		switch {
		case f > math.MaxInt64/2:
			secs = math.MaxInt64
		case f < math.MinInt64/2:
			secs = math.MinInt64
		default:
			secs = int64(f)
		}
	}
	eff := secs
	if eff < 0 || eff > maxLockTimeout {
		truncated = true
		eff = maxLockTimeout
	}
	if eff == 0 {
		eff = 1
	}
	return time.Duration(eff) * time.Second, truncated, secs
}

// lockName converts a lock-name argument; NULL is an invalid name ('NULL').
func lockName(v Value) (string, error) {
	if v.IsNull() {
		return "", errLockName("NULL")
	}
	return v.String(), nil
}

type lockTableKey struct{}

// clusterLocks returns the cluster's lock table.
func clusterLocks(c *Cluster) *LockTable {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Ext(lockTableKey{}).(*LockTable)
}

func init() {
	RegisterClusterInit(func(c *Cluster) { c.SetExt(lockTableKey{}, NewLockTable()) })
	// A connection's locks are released when it closes.
	RegisterSessionClose(func(s *Session) { clusterLocks(s.Cluster).ReleaseAll(s.ID) })
	RegisterFunction("GET_LOCK", func(s *Session, args []Value) (Value, error) {
		if len(args) != 2 {
			return Null, ErrWrongArgCount("get_lock")
		}
		name, err := lockName(args[0])
		if err != nil {
			return Null, err
		}
		timeout, truncated, secs := lockTimeout(args[1])
		if truncated {
			s.AppendWarning(1292, "Truncated incorrect get_lock value: '%d'", secs)
		}
		ok, err := clusterLocks(s.Cluster).Get(s.ID, name, timeout)
		if err != nil {
			return Null, err
		}
		return BoolValue(ok), nil
	})
	RegisterFunction("RELEASE_LOCK", func(s *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("release_lock")
		}
		name, err := lockName(args[0])
		if err != nil {
			return Null, err
		}
		return clusterLocks(s.Cluster).Release(s.ID, name)
	})
	RegisterFunction("IS_USED_LOCK", func(s *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("is_used_lock")
		}
		name, err := lockName(args[0])
		if err != nil {
			return Null, err
		}
		return clusterLocks(s.Cluster).UsedBy(s.ID, name)
	})
	RegisterFunction("IS_FREE_LOCK", func(s *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("is_free_lock")
		}
		name, err := lockName(args[0])
		if err != nil {
			return Null, err
		}
		v, err := clusterLocks(s.Cluster).UsedBy(s.ID, name)
		if err != nil {
			return Null, err
		}
		return BoolValue(v.IsNull()), nil
	})
	RegisterFunction("RELEASE_ALL_LOCKS", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("release_all_locks")
		}
		return Int(clusterLocks(s.Cluster).ReleaseAll(s.ID)), nil
	})
}

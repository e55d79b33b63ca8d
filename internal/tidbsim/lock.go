package tidbsim

import (
	"math"
	"strings"
	"sync"
	"time"
)

// Named (user-level) locks: GET_LOCK, RELEASE_LOCK, IS_USED_LOCK,
// IS_FREE_LOCK and RELEASE_ALL_LOCKS with MySQL semantics, which TiDB
// implements (issue 2 point 8): a session may hold several locks and take the
// same lock again (it then needs as many releases); names are
// case-insensitive and at most 64 characters; a connection's locks are
// released when it closes. tiform's applier uses GET_LOCK to serialise applies
// (issue 2).

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

// Release is RELEASE_LOCK(name): 1 when owner held it (one level released), 0
// when another connection holds it, NULL when nobody does.
func (lt *LockTable) Release(owner uint32, name string) (Value, error) {
	if name == "" || len([]rune(name)) > maxLockNameLength {
		return Null, errLockName(name)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	key := lockKey(name)
	l, held := lt.locks[key]
	if !held {
		return Null, nil
	}
	if l.owner != owner {
		return Int(0), nil
	}
	l.count--
	if l.count == 0 {
		delete(lt.locks, key)
		close(l.freed)
	}
	return Int(1), nil
}

// UsedBy is IS_USED_LOCK(name): the owner's connection id, or NULL.
func (lt *LockTable) UsedBy(name string) (Value, error) {
	if name == "" || len([]rune(name)) > maxLockNameLength {
		return Null, errLockName(name)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if l, held := lt.locks[lockKey(name)]; held {
		return Int(int64(l.owner)), nil
	}
	return Null, nil
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

// lockTimeout converts GET_LOCK's second argument (seconds, may be
// fractional; NULL counts as 0; negative waits forever) to a duration.
func lockTimeout(v Value) time.Duration {
	if v.IsNull() {
		return 0
	}
	secs := v.ToFloat()
	if secs < 0 {
		return -1
	}
	if secs > math.MaxInt64/float64(time.Second) {
		return -1
	}
	return time.Duration(secs * float64(time.Second))
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
		ok, err := clusterLocks(s.Cluster).Get(s.ID, name, lockTimeout(args[1]))
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
		return clusterLocks(s.Cluster).UsedBy(name)
	})
	RegisterFunction("IS_FREE_LOCK", func(s *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("is_free_lock")
		}
		name, err := lockName(args[0])
		if err != nil {
			return Null, err
		}
		v, err := clusterLocks(s.Cluster).UsedBy(name)
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

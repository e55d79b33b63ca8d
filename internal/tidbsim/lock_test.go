package tidbsim

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLockTable(t *testing.T) {
	lt := NewLockTable()
	get := func(owner uint32, name string) bool {
		t.Helper()
		ok, err := lt.Get(owner, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !get(7, "tiform") {
		t.Fatal("first GET_LOCK must succeed")
	}
	if get(2, "TIFORM") {
		t.Fatal("names are case-insensitive: connection 2 must time out")
	}
	if !get(7, "tiform") {
		t.Fatal("re-acquiring own lock succeeds")
	}
	steps := []struct {
		name string
		got  func() (Value, error)
		want Value
	}{
		{"used by 7, asked by 7", func() (Value, error) { return lt.UsedBy(7, "tiform") }, Int(7)},
		{"used by 7, asked by 2", func() (Value, error) { return lt.UsedBy(2, "tiform") }, Int(1)},
		{"release by other", func() (Value, error) { return lt.Release(2, "tiform") }, Int(0)},
		{"release level 2", func() (Value, error) { return lt.Release(7, "tiform") }, Int(1)},
		{"still held", func() (Value, error) { return lt.UsedBy(7, "tiform") }, Int(7)},
		{"release level 1", func() (Value, error) { return lt.Release(7, "tiform") }, Int(1)},
		{"free now", func() (Value, error) { return lt.UsedBy(7, "tiform") }, Null},
		// TiDB returns 0, not MySQL's NULL, for a lock nobody holds.
		{"release unheld", func() (Value, error) { return lt.Release(7, "tiform") }, Int(0)},
	}
	for _, st := range steps {
		got, err := st.got()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if diff := cmp.Diff(st.want, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", st.name, diff)
		}
	}
	// Errors: empty and over-long names (3057).
	if _, err := lt.Get(1, "", 0); sqlCode(err) != 3057 {
		t.Errorf("empty name: %v", err)
	}
	long := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" // 65
	if _, err := lt.Get(1, long, 0); sqlCode(err) != 3057 || err.(*SQLError).Message != "Incorrect user-level lock name '"+long+"'." {
		t.Errorf("long name: %v", err)
	}
	// ReleaseAll counts levels and frees everything.
	get(3, "a")
	get(3, "a")
	get(3, "b")
	if n := lt.ReleaseAll(3); n != 3 {
		t.Errorf("ReleaseAll = %d, want 3", n)
	}
	if !get(4, "a") || !get(4, "b") {
		t.Error("locks must be free after ReleaseAll")
	}
}

// TestLockWaiterGetsLockOnRelease: a waiting GET_LOCK (infinite timeout)
// acquires the lock once the holder releases it. No timing assertion: the test
// only waits for the outcome.
func TestLockWaiterGetsLockOnRelease(t *testing.T) {
	lt := NewLockTable()
	if ok, _ := lt.Get(1, "apply", 0); !ok {
		t.Fatal("GET_LOCK")
	}
	done := make(chan bool)
	go func() {
		ok, _ := lt.Get(2, "apply", -1)
		done <- ok
	}()
	if v, _ := lt.Release(1, "apply"); v != Int(1) {
		t.Fatalf("release = %v", v)
	}
	if !<-done {
		t.Fatal("waiter must acquire the lock")
	}
	if v, _ := lt.UsedBy(2, "apply"); v != Int(2) {
		t.Fatalf("IS_USED_LOCK = %v, want 2", v)
	}
}

// TestLockTimeoutArg: TiDB's GET_LOCK timeout rules (locking-functions.md):
// integer seconds in [1, 3600], 0 and NULL wait 1 s, out of range → 3600 s
// with a truncation warning.
func TestLockTimeoutArg(t *testing.T) {
	tests := []struct {
		in        Value
		want      time.Duration
		truncated bool
		secs      int64
	}{
		{Int(0), time.Second, false, 0},
		{Null, time.Second, false, 0},
		{Int(2), 2 * time.Second, false, 2},
		{Value{Kind: KindDecimal, S: "0.5"}, time.Second, false, 1},
		{Value{Kind: KindDecimal, S: "2.4"}, 2 * time.Second, false, 2},
		{Int(3600), time.Hour, false, 3600},
		{Int(3601), time.Hour, true, 3601},
		{Int(-1), time.Hour, true, -1},
		{Str("5"), 5 * time.Second, false, 5},
	}
	for _, tt := range tests {
		d, tr, secs := lockTimeout(tt.in)
		if d != tt.want || tr != tt.truncated || secs != tt.secs {
			t.Errorf("lockTimeout(%#v) = %v, %v, %d; want %v, %v, %d", tt.in, d, tr, secs, tt.want, tt.truncated, tt.secs)
		}
	}
}

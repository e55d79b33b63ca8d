package tidbsim

import (
	"testing"

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
	if !get(1, "tiform") {
		t.Fatal("first GET_LOCK must succeed")
	}
	if get(2, "TIFORM") {
		t.Fatal("names are case-insensitive: connection 2 must time out")
	}
	if !get(1, "tiform") {
		t.Fatal("re-acquiring own lock succeeds")
	}
	steps := []struct {
		name string
		got  func() (Value, error)
		want Value
	}{
		{"used by 1", func() (Value, error) { return lt.UsedBy("tiform") }, Int(1)},
		{"release by other", func() (Value, error) { return lt.Release(2, "tiform") }, Int(0)},
		{"release level 2", func() (Value, error) { return lt.Release(1, "tiform") }, Int(1)},
		{"still held", func() (Value, error) { return lt.UsedBy("tiform") }, Int(1)},
		{"release level 1", func() (Value, error) { return lt.Release(1, "tiform") }, Int(1)},
		{"free now", func() (Value, error) { return lt.UsedBy("tiform") }, Null},
		{"release unheld", func() (Value, error) { return lt.Release(1, "tiform") }, Null},
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
	if v, _ := lt.UsedBy("apply"); v != Int(2) {
		t.Fatalf("IS_USED_LOCK = %v, want 2", v)
	}
}

func TestLockTimeoutArg(t *testing.T) {
	tests := []struct {
		in   Value
		want int64 // nanoseconds, -1 forever
	}{
		{Int(0), 0},
		{Int(2), 2e9},
		{Value{Kind: KindDecimal, S: "0.5"}, 5e8},
		{Int(-1), -1},
		{Null, 0},
	}
	for _, tt := range tests {
		if got := lockTimeout(tt.in); int64(got) != tt.want {
			t.Errorf("lockTimeout(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

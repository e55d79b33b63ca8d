package applier

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
)

// What an apply refused the lock says of the holder, for each thing the
// cluster can tell it.
func TestLockHolderText(t *testing.T) {
	other := lockHolder{Instance: "10.0.1.1:10080", User: "tiform_apply", Host: "10.0.3.7:51234", ID: 2097162, Seconds: 42}
	for _, tc := range []struct {
		name string
		h    holders
		want []string
	}{
		{"an old TiDB: nothing known", holders{}, []string{"another session holds the lock", "v7.4.0+"}},
		{"another apply of this account", holders{known: true, account: "'tiform_apply'@'%'", sessions: []lockHolder{other}},
			[]string{"another tiform apply holds the lock \"tiform.apply\": 'tiform_apply'@'10.0.3.7:51234' (connection 2097162 on 10.0.1.1:10080, for 42s)"}},
		{"a marked session of another account", holders{known: true, account: "'ci'@'%'", sessions: []lockHolder{other}},
			[]string{"'tiform_apply'@'10.0.3.7:51234'", "not 'ci'@'%': any account can mark a session this way"}},
		{"nothing marked, every session visible: a squatter", holders{known: true, seesAll: true, account: "'ci'@'%'"},
			[]string{"a session that is not a tiform apply holds the lock", "GET_LOCK needs no privilege", "KILL"}},
		{"nothing marked, own sessions only", holders{known: true, account: "'ci'@'%'"},
			[]string{"held by a session that 'ci'@'%' cannot see", "grant PROCESS to 'ci'@'%'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.h.text(LockName)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
		})
	}
}

// Against the real tidb-server, whose GET_LOCK needs no privilege and whose
// IS_USED_LOCK does not name the holder: a login with no privilege at all
// takes the apply lock. An apply whose account may see every session says
// that no tiform apply holds it; a tiform apply that holds it is named, with
// its account and connection id, as CLUSTER_PROCESSLIST shows it.
func TestLockHolderOnTheRealServer(t *testing.T) {
	r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{})
	r.Exec(t,
		"CREATE USER 'squatter'@'%' IDENTIFIED BY 'Squat-pw-1'",
		"CREATE USER 'applier'@'%' IDENTIFIED BY 'Apply-pw-1'",
		"GRANT CONFIG, SYSTEM_VARIABLES_ADMIN, PROCESS ON *.* TO 'applier'@'%'",
		"CREATE USER 'blind'@'%' IDENTIFIED BY 'Blind-pw-1'",
		"GRANT CONFIG, SYSTEM_VARIABLES_ADMIN ON *.* TO 'blind'@'%'")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	open := func(user, pw string) *sql.DB {
		db, err := live.Open(ctx, r.DSN(user, pw), live.ConnOptions{})
		if err != nil {
			t.Fatalf("open as %s: %v", user, err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	hold := func(db *sql.DB, mark bool) (release func()) {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if mark {
			markLockConn(ctx, c)
		}
		var got sql.NullInt64
		if err := c.QueryRowContext(ctx, "SELECT GET_LOCK('tiform.apply', 1)").Scan(&got); err != nil || got.Int64 != 1 {
			t.Fatalf("GET_LOCK = %v, %v", got, err)
		}
		return func() {
			_, _ = c.ExecContext(ctx, "SELECT RELEASE_LOCK('tiform.apply')")
			c.Close()
		}
	}
	cp := &planner.ClusterPlan{Name: "prod", Changes: []*plans.Change{variableChange("tidb_gc_life_time", "10m0s", "20m0s")}}
	apply := func(db *sql.DB) string {
		t.Helper()
		rep, err := Apply(ctx, db, cp, Options{LockTimeout: time.Second, AuditLog: &strings.Builder{}})
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("err = %v, want ErrLocked", err)
		}
		return rep.Refused
	}

	// Any login, no privilege: GET_LOCK is granted.
	release := hold(open("squatter", "Squat-pw-1"), false)
	if got := apply(open("applier", "Apply-pw-1")); !strings.Contains(got, "a session that is not a tiform apply holds the lock \"tiform.apply\"") {
		t.Errorf("squatted, seen by an account with PROCESS: %s", got)
	}
	if got := apply(open("blind", "Blind-pw-1")); !strings.Contains(got, "held by a session that 'blind'@'%' cannot see") {
		t.Errorf("squatted, seen by an account without PROCESS: %s", got)
	}
	release()

	// A tiform apply's lock connection: named.
	holder := open("applier", "Apply-pw-1")
	release = hold(holder, true)
	defer release()
	got := apply(open("applier", "Apply-pw-1"))
	if !strings.Contains(got, "another tiform apply holds the lock \"tiform.apply\": 'applier'@'127.0.0.1") || !strings.Contains(got, "(connection ") {
		t.Errorf("held by a tiform apply: %s", got)
	}
}

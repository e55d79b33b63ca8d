package tidbsim

import (
	"context"
	"database/sql"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFailStatementFault(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	srv.Cluster.AddFailRule(FailRule{Match: "set config", Prefix: true, Code: 1105, Message: "injected failure"})
	srv.Cluster.AddFailRule(FailRule{Match: "cluster_config", Code: 9001, State: "HY000", Message: "PD server timeout"})
	_, err := db.Exec("  SET CONFIG tikv `log.level` = 'warn'")
	if me := mysqlErr(t, err); me.Number != 1105 || me.Message != "injected failure" {
		t.Errorf("got %d %q", me.Number, me.Message)
	}
	if v, _ := srv.Cluster.ConfigValue("127.0.0.1:20160", "log.level"); v != "info" {
		t.Error("failed statement was applied")
	}
	_, err = db.Query("select * from information_schema.CLUSTER_CONFIG")
	if me := mysqlErr(t, err); me.Number != 9001 || me.Message != "PD server timeout" {
		t.Errorf("got %d %q", me.Number, me.Message)
	}
	// the statement was still received (query log)
	if n := len(srv.QueryLog()); n != 2 {
		t.Errorf("query log has %d entries", n)
	}
	queryRows(t, db, "SELECT 1") // unaffected

	// Times: fail only the first matching statement
	srv.Cluster.AddFailRule(FailRule{Match: "select 7", Code: 2013, Message: "Lost connection", Times: 1})
	if _, err := db.Exec("SELECT 7"); err == nil {
		t.Error("first SELECT 7 should fail")
	}
	if got := queryRows(t, db, "SELECT 7"); got[0][0] != "7" {
		t.Errorf("second SELECT 7: %v", got)
	}
}

func TestDropConnectionFault(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	srv.Cluster.SetDropAfter(2)
	db := openDB(t, srv)
	db.SetMaxIdleConns(1)
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := 0; i < 2; i++ {
		if _, err := conn.ExecContext(t.Context(), "SELECT 1"); err != nil {
			t.Fatalf("statement %d: %v", i+1, err)
		}
	}
	if _, err := conn.ExecContext(t.Context(), "SELECT 1"); err == nil {
		t.Fatal("third statement answered; connection should have been dropped")
	}
	var got []string
	for _, e := range srv.QueryLog() {
		got = append(got, e.SQL)
	}
	if d := cmp.Diff([]string{"SELECT 1", "SELECT 1", "SELECT 1"}, got); d != "" {
		t.Errorf("log (-want +got):\n%s", d)
	}
}

// A PD item with a TTL override (set by BR/Lightning) refuses changes
// (tikv/pd@v8.5.1:server/api/config.go updateConfig).
func TestPDTTLFault(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{Faults: Faults{PDTTL: map[string]bool{"schedule.max-merge-region-size": true}}})
	db := openDB(t, srv)
	if _, err := db.Exec("SET CONFIG pd `schedule.max-merge-region-size` = 20"); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"need to clean up TTL first for schedule.max-merge-region-size\"\n"}}
	if d := cmp.Diff(want, warnings(t, db)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	srv.Cluster.SetPDTTL("schedule.max-merge-region-size", false)
	if _, err := db.Exec("SET CONFIG pd `schedule.max-merge-region-size` = 20"); err != nil {
		t.Fatal(err)
	}
	if v, _ := srv.Cluster.ConfigValue("127.0.0.1:2379", "schedule.max-merge-region-size"); v != "20" {
		t.Errorf("after the TTL is cleared: %s", v)
	}
}

// Latency is functional here (no timing assertion): statements still succeed.
func TestLatencyFault(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiKV: 3, Faults: Faults{Latency: 7 * time.Millisecond}})
	var mu sync.Mutex
	var slept []time.Duration
	srv.Cluster.Mu.Lock()
	srv.Cluster.sleep = func(d time.Duration) { // observe, do not wait
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
	}
	srv.Cluster.Mu.Unlock()
	take := func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		got := slept
		slept = nil
		return got
	}
	db := openDB(t, srv)
	ms7 := 7 * time.Millisecond
	tests := []struct {
		name, sql string
		want      []time.Duration
	}{
		// a read contacts its instances concurrently: one latency
		{"show config", "SHOW CONFIG WHERE type='pd'", []time.Duration{ms7}},
		{"cluster_config of one instance", "SELECT `key` FROM information_schema.cluster_config WHERE instance = '127.0.0.1:20160' AND `key` = 'log.level'", []time.Duration{ms7}},
		// SET CONFIG requests each instance in turn: one latency each
		{"set config tikv", "SET CONFIG tikv `log.level`='warn'", []time.Duration{ms7, ms7, ms7}},
		{"set config one instance", "SET CONFIG '127.0.0.1:20161' `log.level`='info'", []time.Duration{ms7}},
		// statements that contact no instance wait nothing
		{"select", "SELECT 1", nil},
		{"cluster_config contradiction", "SELECT `key` FROM information_schema.cluster_config WHERE type = 'pd' AND type = 'tikv'", nil},
	}
	for _, tc := range tests {
		if _, err := db.Exec(tc.sql); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d := cmp.Diff(tc.want, take()); d != "" {
			t.Errorf("%s: latency waits (-want +got):\n%s", tc.name, d)
		}
	}
	srv.Cluster.SetLatency(0)
	if _, err := db.Exec("SET CONFIG tikv `log.level`='warn'"); err != nil {
		t.Fatal(err)
	}
	if got := take(); len(got) != 0 {
		t.Errorf("after SetLatency(0): waits %v", got)
	}
}

func BenchmarkShowConfigLatency(b *testing.B) {
	srv, err := Start(Options{Faults: Faults{Latency: time.Millisecond}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	s := srv.NewSession("root")
	for b.Loop() {
		if _, err := s.Exec("SHOW CONFIG WHERE type='tikv'"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		srv, err := Start(Options{})
		if err != nil {
			b.Fatal(err)
		}
		srv.Close()
	}
}

// Many connections reading and writing config at once (run with -race).
func TestConcurrentConnections(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiDB: 2})
	errs := make(chan error, 40)
	for i := 0; i < 20; i++ {
		go func(i int) {
			db, err := sql.Open("mysql", srv.DSNFor(i%2, "root", ""))
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			if _, err := db.Exec("SET CONFIG tikv `raftstore.messages-per-tick` = " + strconv.Itoa(1000+i)); err != nil {
				errs <- err
				return
			}
			_, err = queryRowsErr(db, "SELECT COUNT(*) FROM information_schema.cluster_config WHERE type = 'tikv'")
			errs <- err
		}(i)
	}
	for i := 0; i < 20; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := len(srv.QueryLog()); n != 40 {
		t.Errorf("query log has %d entries, want 40", n)
	}
}

// TestRoundTripFault: the network round trip is waited once per exchange of
// the protocol — before the greeting, for each authentication step and for
// each statement however many rows it returns — and not at all once unset.
func TestRoundTripFault(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiKV: 3, Faults: Faults{RoundTrip: 5 * time.Millisecond}})
	var waits atomic.Int64
	srv.Cluster.Mu.Lock()
	srv.Cluster.sleep = func(d time.Duration) { // observe, do not wait
		if d != 5*time.Millisecond {
			t.Errorf("waited %v, want the round trip 5ms", d)
		}
		waits.Add(1)
	}
	srv.Cluster.Mu.Unlock()
	ctx := context.Background()
	conn, err := openDB(t, srv).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// go-sql-driver/mysql's handshake with the emulator's
	// mysql_native_password: the TCP handshake before the greeting, then the
	// handshake response answered by OK.
	if got := waits.Swap(0); got != 2 {
		t.Errorf("connecting waited %d round trips, want 2", got)
	}
	for _, q := range []string{"SELECT 1", "SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'tikv'", "SHOW WARNINGS"} {
		rows, err := conn.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
		if got := waits.Swap(0); got != 1 {
			t.Errorf("%s: waited %d round trips, want 1", q, got)
		}
	}
	if err := conn.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	if got := waits.Swap(0); got != 1 {
		t.Errorf("ping: waited %d round trips, want 1", got)
	}
	srv.Cluster.SetRoundTrip(0)
	if _, err := conn.ExecContext(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if got := waits.Load(); got != 0 {
		t.Errorf("after SetRoundTrip(0): %d waits", got)
	}
}

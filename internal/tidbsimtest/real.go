package tidbsimtest

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/tiform/tiform/internal/realtidb"
)

// The real-TiDB backend: an upstream tidb-server (store unistore) started for
// one test by internal/realtidb (docs/testing.md). Its SQL layer — system
// variables with their validation, errors and warnings, resource groups,
// users, GET_LOCK, statement summary — is TiDB's own; TiKV and PD are not
// real (CLUSTER_INFO lists one tikv "store1" with no status address and no
// version; SHOW CONFIG has only the tidb instance).

// RealOptions adjust a real server.
type RealOptions = realtidb.Options

// Real is an upstream tidb-server started for one test. Clients connect
// through a proxy that logs every statement (the query log), so statement
// counts are read on the real server as on the emulator.
type Real struct {
	*realtidb.Server
	proxy *proxy
	root  *sql.DB
}

// RealBinary returns the path of the tidb-server binary (realtidb.Binary:
// TIFORM_TIDB_SERVER, else built once per machine). It skips tb under
// TIFORM_REAL_TIDB=off and fails it when the binary cannot be had.
func RealBinary(tb TB) string {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	bin, err := realtidb.Binary()
	if errors.Is(err, realtidb.ErrOff) {
		skip(tb, err.Error())
	}
	if err != nil {
		tb.Fatalf("real tidb-server: %v (set TIFORM_REAL_TIDB=off to skip the real-TiDB tier)", err)
	}
	return bin
}

// skip skips tb when it can be skipped, else fails it.
func skip(tb TB, msg string) {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	if s, ok := tb.(interface{ Skip(args ...any) }); ok {
		s.Skip(msg)
		return
	}
	tb.Fatalf("%s", msg)
}

// StartReal starts a tidb-server for tb on free loopback ports with its own
// data directory, waits until it answers, and stops it (by its PID) when tb
// ends.
func StartReal(tb TB, opts RealOptions) *Real {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	srv, err := realtidb.Start(RealBinary(tb), opts)
	if err != nil {
		tb.Fatalf("start tidb-server: %v", err)
	}
	r := &Real{Server: srv}
	tb.Cleanup(r.stop)
	if r.proxy, err = startProxy(srv.Addr); err != nil {
		tb.Fatalf("start the query-log proxy: %v", err)
	}
	if r.root, err = sql.Open("mysql", srv.DSN("root", "")); err != nil {
		tb.Fatalf("tidb-server: %v", err)
	}
	r.root.SetMaxOpenConns(1)
	return r
}

// stop closes the connections and the proxy, then stops the server.
func (r *Real) stop() {
	if r.root != nil {
		r.root.Close()
	}
	if r.proxy != nil {
		r.proxy.close()
	}
	r.Server.Stop()
}

// ProxyAddr is the address clients connect to (the logging proxy); the
// embedded Server's Addr bypasses the log.
func (r *Real) ProxyAddr() string { return r.proxy.addr() }

// DSN returns a DSN for user through the logging proxy, in the form the
// emulator's DSN has.
func (r *Real) DSN(user, pass string) string {
	if pass != "" {
		return fmt.Sprintf("%s:%s@tcp(%s)/?interpolateParams=true", user, pass, r.ProxyAddr())
	}
	return fmt.Sprintf("%s@tcp(%s)/?interpolateParams=true", user, r.ProxyAddr())
}

// RootDSN is the DSN of root, which has no password.
func (r *Real) RootDSN() string { return r.DSN("root", "") }

// Exec runs statements as root on one connection that bypasses the query
// log, as an operator changing the cluster behind tiform's back would; an
// error fails tb.
func (r *Real) Exec(tb TB, stmts ...string) {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	for _, q := range stmts {
		if _, err := r.root.Exec(q); err != nil {
			tb.Fatalf("tidb-server: %s: %v", q, err)
		}
	}
}

// AddUser creates user@'%' with password and every privilege, and returns
// its DSN.
func (r *Real) AddUser(tb TB, user, password string) string {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	r.Exec(tb,
		"CREATE USER '"+user+"'@'%' IDENTIFIED BY '"+password+"'",
		"GRANT ALL PRIVILEGES ON *.* TO '"+user+"'@'%'")
	return r.DSN(user, password)
}

// DB is root's connection pool (one connection), bypassing the query log.
func (r *Real) DB() *sql.DB { return r.root }

// QueryLog returns the statements clients sent through the proxy, in order.
func (r *Real) QueryLog() []LoggedStatement { return r.proxy.log() }

// Mark is the current end of the query log, for Since.
func (r *Real) Mark() int { return len(r.proxy.log()) }

// Since returns the statements logged after mark, trimmed, in order.
func (r *Real) Since(mark int) []string {
	log := r.proxy.log()
	out := make([]string, 0, len(log)-mark)
	for _, e := range log[mark:] {
		out = append(out, strings.TrimSpace(e.SQL))
	}
	return out
}

// Count returns how many logged statements contain sub.
func (r *Real) Count(sub string) int {
	n := 0
	for _, e := range r.proxy.log() {
		if strings.Contains(e.SQL, sub) {
			n++
		}
	}
	return n
}

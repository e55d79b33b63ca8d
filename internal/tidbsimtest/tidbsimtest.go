// Package tidbsimtest is the one test helper that starts the TiDB emulator
// for a test (like Skeema's tengo/testing.go): an in-process cluster on
// 127.0.0.1:0, stopped when the test ends, with its DSNs, accounts,
// statements behind tiform's back and the query log.
//
// Every test that starts tidbsim goes through Start; the CLI stories
// (cmd/testdata/script) reach it through their `sim` command.
//
// Contracts: it is imported by _test.go files only, so it is never linked
// into tiform; it imports no tiform package but the emulator (so that any
// package's internal tests may use it); it never bends the emulator: the
// options are tidbsim's own.
package tidbsimtest

import (
	"strings"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
)

// TB is what the helpers need of a test: a testing.TB, or an adapter for a
// testscript.TestScript (the CLI stories' `sim` command).
type TB interface {
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Cluster is an emulated cluster started for one test.
type Cluster struct {
	*tidbsim.Server
}

// Start starts the cluster opts describes (listening on 127.0.0.1:0 unless
// opts.Addr says otherwise) and stops it when tb ends. A cluster that cannot
// start fails tb.
func Start(tb TB, opts tidbsim.Options) *Cluster {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper() // failures point at the test, not here
	}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	srv, err := tidbsim.Start(opts)
	if err != nil {
		tb.Fatalf("start tidbsim: %v", err)
	}
	tb.Cleanup(srv.Close)
	return &Cluster{Server: srv}
}

// StartSeed starts the cluster the seed file at path describes
// (tidbsim.LoadSeed: the demo's and the workloads' seeds); edit, unless nil,
// adjusts the options first (a version, a clock, faults).
func StartSeed(tb TB, path string, edit func(*tidbsim.Options)) *Cluster {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper() // failures point at the test, not here
	}
	seed, err := tidbsim.LoadSeed(path)
	if err != nil {
		tb.Fatalf("tidbsim seed: %v", err)
	}
	opts := seed.Options()
	if edit != nil {
		edit(&opts)
	}
	return Start(tb, opts)
}

// RootDSN is the DSN of root, which has no password.
func (c *Cluster) RootDSN() string { return c.DSN("root", "") }

// AddUser creates user@'%' with password and every privilege, and returns
// its DSN (a password in a DSN is what the no-leak tests look for).
func (c *Cluster) AddUser(tb TB, user, password string) string {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper() // failures point at the test, not here
	}
	c.Exec(tb,
		"CREATE USER '"+user+"'@'%' IDENTIFIED BY '"+password+"'",
		"GRANT ALL PRIVILEGES ON *.* TO '"+user+"'@'%'")
	return c.DSN(user, password)
}

// Exec runs statements as root, as an operator changing the cluster behind
// tiform's back would; an error fails tb.
func (c *Cluster) Exec(tb TB, stmts ...string) {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper() // failures point at the test, not here
	}
	s := c.NewSession("root")
	for _, q := range stmts {
		if _, err := s.Exec(q); err != nil {
			tb.Fatalf("tidbsim: %s: %v", q, err)
		}
	}
}

// Addresses lists the service addresses of the instances of typ
// (tidbsim.TypeTiKV, …) in order.
func (c *Cluster) Addresses(typ string) []string {
	var out []string
	for _, in := range c.Cluster.InstancesOf(typ) {
		out = append(out, in.Address)
	}
	return out
}

// Mark is the current end of the query log, for Since.
func (c *Cluster) Mark() int { return len(c.QueryLog()) }

// Since returns the statements logged after mark, trimmed, in order.
func (c *Cluster) Since(mark int) []string {
	log := c.QueryLog()
	out := make([]string, 0, len(log)-mark)
	for _, e := range log[mark:] {
		out = append(out, strings.TrimSpace(e.SQL))
	}
	return out
}

// Count returns how many logged statements contain sub.
func (c *Cluster) Count(sub string) int {
	n := 0
	for _, e := range c.QueryLog() {
		if strings.Contains(e.SQL, sub) {
			n++
		}
	}
	return n
}

// WaitFor polls cond until it holds, failing tb after 30 seconds.
func WaitFor(tb TB, cond func() bool) {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper() // failures point at the test, not here
	}
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("condition not reached in 30s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

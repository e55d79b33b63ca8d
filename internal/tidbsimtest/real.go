package tidbsimtest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
)

// The real-TiDB backend: an upstream tidb-server (store unistore) started for
// one test, built once by tools/tidbserver (docs/testing.md). Its SQL layer —
// system variables with their validation, errors and warnings, resource
// groups, users, GET_LOCK, statement summary — is TiDB's own; TiKV and PD are
// not real (CLUSTER_INFO lists one tikv "store1" with no status address and
// no version; SHOW CONFIG has only the tidb instance).
//
// Environment:
//
//	TIFORM_TIDB_SERVER  path of a tidb-server binary to use (make test sets
//	                    it after building); else the builder is run here
//	TIFORM_REAL_TIDB    "off": real-server tests skip with a message instead
//	                    of building (a machine with no module proxy)

// RealOptions adjust a real server.
type RealOptions struct {
	// TLS starts the server with auto-tls: a self-signed certificate, so a
	// client may connect with tls=skip-verify (a secure connection, as
	// require_secure_transport wants).
	TLS bool
}

// Real is an upstream tidb-server started for one test. Clients connect
// through a proxy that logs every statement (the query log), so statement
// counts are read on the real server as on the emulator.
type Real struct {
	// Version is the release version the server reports (tidb-server -V).
	Version string
	// Dir holds the server's data, logs and configuration.
	Dir string

	serverAddr, statusAddr string
	cmd                    *exec.Cmd
	exited                 chan struct{}
	proxy                  *proxy
	root                   *sql.DB
}

var realBinary struct {
	once       sync.Once
	path, skip string
	err        error
}

// RealBinary returns the path of the tidb-server binary, building it (once
// per machine, cached outside the checkout) when TIFORM_TIDB_SERVER does not
// name one. It skips tb when TIFORM_REAL_TIDB=off and fails it when the
// binary cannot be had.
func RealBinary(tb TB) string {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	realBinary.once.Do(func() {
		if os.Getenv("TIFORM_REAL_TIDB") == "off" {
			realBinary.skip = "TIFORM_REAL_TIDB=off: the real-TiDB tier was skipped"
			return
		}
		if p := os.Getenv("TIFORM_TIDB_SERVER"); p != "" {
			realBinary.path = p
			return
		}
		realBinary.path, realBinary.err = buildReal()
	})
	if realBinary.skip != "" {
		skip(tb, realBinary.skip)
	}
	if realBinary.err != nil {
		tb.Fatalf("real tidb-server: %v (set TIFORM_REAL_TIDB=off to skip the real-TiDB tier)", realBinary.err)
	}
	return realBinary.path
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

// buildReal runs tools/tidbserver, which prints the cached binary's path
// after building it if needed.
func buildReal() (string, error) {
	dir, err := toolDir()
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go run %s: %v\n%s", dir, err, errb.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// toolDir finds tools/tidbserver above the working directory (a test runs
// in its package's directory).
func toolDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "tools", "tidbserver")
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return p, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no tools/tidbserver above %s", wd)
		}
	}
}

// StartReal starts a tidb-server for tb on free loopback ports with its own
// data directory, waits until it answers, and stops it (by its PID) when tb
// ends.
func StartReal(tb TB, opts RealOptions) *Real {
	if h, ok := tb.(interface{ Helper() }); ok {
		h.Helper()
	}
	bin := RealBinary(tb)
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a free port can be taken between choosing and binding it
		r, err := startReal(bin, opts)
		if err == nil {
			tb.Cleanup(r.stop)
			return r
		}
		lastErr = err
	}
	tb.Fatalf("start tidb-server: %v", lastErr)
	return nil
}

func startReal(bin string, opts RealOptions) (*Real, error) {
	dir, err := os.MkdirTemp("", "tiform-tidb-")
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(2)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r := &Real{Dir: dir, serverAddr: fmt.Sprintf("127.0.0.1:%d", ports[0]), statusAddr: fmt.Sprintf("127.0.0.1:%d", ports[1]),
		exited: make(chan struct{})}
	cfg := filepath.Join(dir, "tidb.toml")
	if err := os.WriteFile(cfg, []byte(realConfig(dir, opts)), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	logf, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r.cmd = exec.Command(bin, "-config", cfg, "-store", "unistore", "-path", filepath.Join(dir, "data"),
		"-host", "127.0.0.1", "-P", fmt.Sprint(ports[0]), "-status", fmt.Sprint(ports[1]),
		"-log-file", filepath.Join(dir, "tidb.log"))
	r.cmd.Stdout, r.cmd.Stderr = logf, logf
	r.cmd.SysProcAttr = childAttr()
	if err := r.cmd.Start(); err != nil {
		logf.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	go func() { _ = r.cmd.Wait(); logf.Close(); close(r.exited) }()
	if err := r.waitReady(90 * time.Second); err != nil {
		r.stop()
		return nil, err
	}
	if r.proxy, err = startProxy(r.serverAddr); err != nil {
		r.stop()
		return nil, err
	}
	if r.root, err = sql.Open("mysql", r.direct("root", "")); err != nil {
		r.stop()
		return nil, err
	}
	r.root.SetMaxOpenConns(1)
	out, err := exec.Command(bin, "-V").Output()
	if err != nil {
		r.stop()
		return nil, err
	}
	if _, v, ok := strings.Cut(strings.SplitN(string(out), "\n", 2)[0], "Release Version: "); ok {
		r.Version = strings.TrimSpace(v)
	}
	return r, nil
}

// realConfig keeps every file the server writes under dir (by default it
// puts a socket and temporary files under /tmp).
func realConfig(dir string, opts RealOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "socket = \"\"\ntemp-dir = %q\ntmp-storage-path = %q\n", filepath.Join(dir, "tmp"), filepath.Join(dir, "tmp-storage"))
	fmt.Fprintf(&b, "[log]\nslow-query-file = %q\n", filepath.Join(dir, "tidb-slow.log"))
	b.WriteString("[status]\nstatus-host = \"127.0.0.1\"\n")
	fmt.Fprintf(&b, "[instance]\ntidb_stmt_summary_filename = %q\n", filepath.Join(dir, "tidb-statements.log"))
	if opts.TLS {
		// auto-tls: pingcap/tidb pkg/config (security.auto-tls); a 2048-bit
		// key starts faster than the default 4096.
		b.WriteString("[security]\nauto-tls = true\nrsa-key-size = 2048\n")
	}
	return b.String()
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

// waitReady polls until the server answers a query, the process exits or
// the timeout passes.
func (r *Real) waitReady(timeout time.Duration) error {
	db, err := sql.Open("mysql", r.direct("root", "")+"&timeout=2s")
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := db.ExecContext(ctx, "SELECT 1")
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-r.exited:
			return fmt.Errorf("tidb-server exited before answering: %s", r.tail())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("tidb-server did not answer in %s (%v): %s", timeout, err, r.tail())
		}
	}
}

// tail is the end of the server's logs, for a failure message.
func (r *Real) tail() string {
	var out []string
	for _, f := range []string{"stderr.log", "tidb.log"} {
		b, _ := os.ReadFile(filepath.Join(r.Dir, f))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		out = append(out, f+":\n"+strings.Join(lines, "\n"))
	}
	return strings.Join(out, "\n")
}

// stop ends the server it started (SIGTERM to its PID, SIGKILL after 20
// seconds), closes the proxy and removes the directory.
func (r *Real) stop() {
	if r.root != nil {
		r.root.Close()
	}
	if r.proxy != nil {
		r.proxy.close()
	}
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.exited:
		case <-time.After(20 * time.Second):
			_ = r.cmd.Process.Kill()
			<-r.exited
		}
	}
	os.RemoveAll(r.Dir)
}

// direct is a DSN straight to the server, bypassing the query log.
func (r *Real) direct(user, pass string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = user, pass, "tcp", r.serverAddr
	cfg.InterpolateParams = true
	return cfg.FormatDSN()
}

// Addr is the address clients connect to (the logging proxy).
func (r *Real) Addr() string { return r.proxy.addr() }

// DSN returns a DSN for user through the logging proxy, in the form the
// emulator's DSN has.
func (r *Real) DSN(user, pass string) string {
	if pass != "" {
		return fmt.Sprintf("%s:%s@tcp(%s)/?interpolateParams=true", user, pass, r.Addr())
	}
	return fmt.Sprintf("%s@tcp(%s)/?interpolateParams=true", user, r.Addr())
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

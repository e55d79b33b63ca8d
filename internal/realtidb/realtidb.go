// Package realtidb starts an upstream tidb-server (store unistore) on free
// loopback ports with its own directory, for the real-TiDB test tier
// (internal/tidbsimtest) and for the generator that asks the real server
// what it does (tools/catalogen). The binary is built once by
// tools/tidbserver and cached outside the checkout (docs/testing.md).
//
// The server's SQL layer is TiDB's own; TiKV and PD are not real: unistore
// lists one tikv "store1" with no status address and no version.
//
// Contracts: it is never linked into tiform (tests and tools only); it stops
// only the process it started, by its PID.
package realtidb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
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

// Environment:
//
//	TIFORM_TIDB_SERVER  path of a tidb-server binary to use (make test sets
//	                    it after building); else tools/tidbserver is run
//	TIFORM_REAL_TIDB    "off": Binary returns ErrOff instead of building
//	                    (a machine with no module proxy)

// ErrOff is Binary's error under TIFORM_REAL_TIDB=off.
var ErrOff = errors.New("TIFORM_REAL_TIDB=off: the real-TiDB tier is skipped")

var binary struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of the tidb-server binary: TIFORM_TIDB_SERVER, or
// what tools/tidbserver prints after building it (once per machine; its
// cache is outside the checkout). The result is memoised for the process.
func Binary() (string, error) {
	binary.once.Do(func() {
		switch {
		case os.Getenv("TIFORM_REAL_TIDB") == "off":
			binary.err = ErrOff
		case os.Getenv("TIFORM_TIDB_SERVER") != "":
			binary.path = os.Getenv("TIFORM_TIDB_SERVER")
			if _, err := os.Stat(binary.path); err != nil {
				binary.err = fmt.Errorf("TIFORM_TIDB_SERVER: %w", err)
			}
		default:
			binary.path, binary.err = build()
		}
	})
	return binary.path, binary.err
}

// build runs tools/tidbserver, which prints the cached binary's path after
// building it if needed.
func build() (string, error) {
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
// in its package's directory, a tool in the repository's).
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

// Options adjust a server.
type Options struct {
	// TLS starts the server with auto-tls: a self-signed certificate, so a
	// client may connect with tls=skip-verify (a secure connection, as
	// require_secure_transport wants).
	TLS bool
}

// Server is a running tidb-server.
type Server struct {
	// Version is the release version the binary reports (tidb-server -V).
	Version string
	// Dir holds the server's data, logs and configuration.
	Dir string
	// Addr is the MySQL protocol address, StatusAddr the HTTP status one.
	Addr, StatusAddr string

	cmd    *exec.Cmd
	exited chan struct{}
}

// Start starts bin on free loopback ports with its own temporary directory
// and waits until it answers; a port taken between choosing and binding it
// is retried.
func Start(bin string, opts Options) (*Server, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var s *Server
		if s, err = start(bin, opts); err == nil {
			return s, nil
		}
	}
	return nil, err
}

func start(bin string, opts Options) (*Server, error) {
	dir, err := os.MkdirTemp("", "tiform-tidb-")
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(2)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{Dir: dir, Addr: fmt.Sprintf("127.0.0.1:%d", ports[0]), StatusAddr: fmt.Sprintf("127.0.0.1:%d", ports[1]),
		exited: make(chan struct{})}
	cfg := filepath.Join(dir, "tidb.toml")
	if err := os.WriteFile(cfg, []byte(config(dir, opts)), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	logf, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.cmd = exec.Command(bin, "-config", cfg, "-store", "unistore", "-path", filepath.Join(dir, "data"),
		"-host", "127.0.0.1", "-P", fmt.Sprint(ports[0]), "-status", fmt.Sprint(ports[1]),
		"-log-file", filepath.Join(dir, "tidb.log"))
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	s.cmd.SysProcAttr = childAttr()
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); logf.Close(); close(s.exited) }()
	if err := s.waitReady(90 * time.Second); err != nil {
		s.Stop()
		return nil, err
	}
	out, err := exec.Command(bin, "-V").Output()
	if err != nil {
		s.Stop()
		return nil, err
	}
	if _, v, ok := strings.Cut(strings.SplitN(string(out), "\n", 2)[0], "Release Version: "); ok {
		s.Version = strings.TrimSpace(v)
	}
	return s, nil
}

// config keeps every file the server writes under dir (by default it puts
// a socket and temporary files under /tmp) and its status port on loopback.
func config(dir string, opts Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "socket = \"\"\ntemp-dir = %q\ntmp-storage-path = %q\n", filepath.Join(dir, "tmp"), filepath.Join(dir, "tmp-storage"))
	fmt.Fprintf(&b, "[log]\nslow-query-file = %q\n", filepath.Join(dir, "tidb-slow.log"))
	b.WriteString("[status]\nstatus-host = \"127.0.0.1\"\n")
	fmt.Fprintf(&b, "[instance]\ntidb_stmt_summary_filename = %q\n", filepath.Join(dir, "tidb-statements.log"))
	if opts.TLS {
		// security.auto-tls: https://docs.pingcap.com/tidb/stable/tidb-configuration-file#auto-tls;
		// a 2048-bit key starts faster than the default 4096.
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
func (s *Server) waitReady(timeout time.Duration) error {
	db, err := sql.Open("mysql", s.DSN("root", "")+"&timeout=2s")
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
		case <-s.exited:
			return fmt.Errorf("tidb-server exited before answering: %s", s.Tail())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("tidb-server did not answer in %s (%v): %s", timeout, err, s.Tail())
		}
	}
}

// Tail is the end of the server's logs, for a failure message.
func (s *Server) Tail() string {
	var out []string
	for _, f := range []string{"stderr.log", "tidb.log"} {
		b, _ := os.ReadFile(filepath.Join(s.Dir, f))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		out = append(out, f+":\n"+strings.Join(lines, "\n"))
	}
	return strings.Join(out, "\n")
}

// Stop ends the server it started (SIGTERM to its PID, SIGKILL after 20
// seconds) and removes its directory.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(20 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	}
	os.RemoveAll(s.Dir)
}

// DSN is a DSN straight to the server (go-sql-driver form, bound parameters
// interpolated client-side).
func (s *Server) DSN(user, pass string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = user, pass, "tcp", s.Addr
	cfg.InterpolateParams = true
	return cfg.FormatDSN()
}

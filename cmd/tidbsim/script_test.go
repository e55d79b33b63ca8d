package main

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tidbsim": func() {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
			stop()
			os.Exit(code)
		},
	})
}

// TestScripts runs the CLI stories in testdata/script. They use three
// commands besides testscript's own:
//
//	simstart FLAGS...  runs the tidbsim binary with --addr 127.0.0.1:0 and FLAGS,
//	                   waits for its ready line (printed to stdout), sets $ADDR
//	simstop            sends SIGINT and waits; fails unless the exit code is 0
//	                   (! simstop: unless it is not 0); its stderr goes to stderr
//	sql ADDR QUERY     prints the rows tab-separated and warnings as "warning: ..."
//
// Ephemeral ports (rather than a port picked in advance and released) keep the
// scripts safe to run in parallel with other tests on the same machine.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Values[simKey{}] = &simProc{}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"sql":      sqlCmd,
			"simstart": simStartCmd,
			"simstop":  simStopCmd,
		},
	})
}

type simKey struct{}

// simProc is the tidbsim process a script started with simstart.
type simProc struct {
	cmd    *exec.Cmd
	stderr strings.Builder
	done   chan error
}

func simStartCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! simstart")
	}
	p := ts.Value(simKey{}).(*simProc)
	if p.done != nil {
		ts.Fatalf("simstart: already started")
	}
	bin := ""
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, "tidbsim")); err == nil && !fi.IsDir() {
			bin = filepath.Join(dir, "tidbsim")
			break
		}
	}
	if bin == "" {
		ts.Fatalf("simstart: tidbsim not found in $PATH")
	}
	p.cmd = exec.Command(bin, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	p.cmd.Env = os.Environ()
	for _, kv := range []string{"PATH", "HOME", "TMPDIR"} {
		p.cmd.Env = append(p.cmd.Env, kv+"="+ts.Getenv(kv))
	}
	p.cmd.Dir = ts.Getenv("WORK")
	p.cmd.Stderr = &p.stderr
	out, err := p.cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(p.cmd.Start())
	ts.Defer(func() {
		if p.done != nil {
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	lines := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- line
		io.Copy(io.Discard, out)
		close(copied)
	}()
	p.done = make(chan error, 1)
	go func() {
		<-copied // Wait only after every read from the pipe (os/exec contract)
		p.done <- p.cmd.Wait()
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(10 * time.Second):
		ts.Fatalf("simstart: no ready line after 10s; stderr: %s", p.stderr.String())
	}
	m := readyLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		<-p.done
		p.done = nil
		ts.Fatalf("simstart: want a ready line, got %q; stderr: %s", line, p.stderr.String())
	}
	ts.Setenv("ADDR", m[1])
	fmt.Fprint(ts.Stdout(), line)
}

func simStopCmd(ts *testscript.TestScript, neg bool, args []string) {
	p := ts.Value(simKey{}).(*simProc)
	if p.done == nil {
		ts.Fatalf("simstop: not started")
	}
	ts.Check(p.cmd.Process.Signal(os.Interrupt))
	err := <-p.done
	p.done, p.cmd = nil, nil
	defer p.stderr.Reset()
	fmt.Fprint(ts.Stderr(), p.stderr.String())
	switch {
	case err != nil && !neg:
		ts.Fatalf("simstop: %v", err)
	case err == nil && neg:
		ts.Fatalf("simstop: unexpected exit code 0")
	}
}

func sqlCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sql ADDR QUERY")
	}
	db, err := sql.Open("mysql", "root@tcp("+args[0]+")/")
	ts.Check(err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	deadline := time.Now().Add(10 * time.Second)
	for db.Ping() != nil {
		if time.Now().After(deadline) {
			ts.Fatalf("server at %s not ready", args[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
	rows, err := db.Query(args[1])
	if err != nil {
		if neg {
			fmt.Fprintln(ts.Stdout(), err)
			return
		}
		ts.Fatalf("%s: %v", args[1], err)
	}
	if neg {
		ts.Fatalf("%s: unexpected success", args[1])
	}
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		ts.Check(rows.Scan(ptrs...))
		var out []string
		for _, v := range vals {
			out = append(out, v.String)
		}
		fmt.Fprintln(ts.Stdout(), strings.Join(out, "\t"))
	}
	ts.Check(rows.Err())
	rows.Close()
	w, err := db.Query("SHOW WARNINGS")
	ts.Check(err)
	defer w.Close()
	for w.Next() {
		var level, code, msg string
		ts.Check(w.Scan(&level, &code, &msg))
		fmt.Fprintf(ts.Stdout(), "warning: %s %s %s\n", level, code, msg)
	}
}

package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/signal"
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

// TestScripts runs the CLI stories in testdata/script. Each script gets a free
// port in $PORT and the command `sql ADDR QUERY` that waits for the server
// and prints the rows tab-separated (and warnings as "warning: ...").
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return err
			}
			_, port, _ := net.SplitHostPort(l.Addr().String())
			l.Close()
			env.Setenv("PORT", port)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"sql": sqlCmd,
		},
	})
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

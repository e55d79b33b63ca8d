package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/views/viewstest"
)

// TestMain lets testscript run `tiform` as a command inside the test binary.
// $TIFORM_TEST_NOW (RFC 3339), when set, pins the clock of that tiform
// (change windows): a story sets it to be inside or outside a window.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tiform": func() {
			if now := os.Getenv("TIFORM_TEST_NOW"); now != "" {
				t, err := time.Parse(time.RFC3339, now)
				if err != nil {
					fmt.Fprintf(os.Stderr, "TIFORM_TEST_NOW=%q: %v\n", now, err)
					os.Exit(2)
				}
				clock = func() time.Time { return t }
			}
			os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScript runs the CLI stories in testdata/script/*.txtar. Each story may
// start its own emulated cluster with the `sim` command (see simCmd).
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"sim":       simCmd,
			"exitis":    exitIsCmd,
			"schema":    schemaCmd,
			"mdcheck":   mdCheckCmd,
			"yamlmerge": yamlMergeCmd,
		},
		Setup: func(e *testscript.Env) error {
			// Scripts must not inherit a developer's cluster or colour settings.
			e.Setenv("TIFORM_DSN", "")
			e.Setenv("NO_COLOR", "1")
			e.Setenv("HOME", e.WorkDir)
			e.Values[simKey{}] = &simHolder{}
			return nil
		},
	})
}

// simCmd drives an in-process TiDB emulator for a script:
//
//	sim start [--name NAME] [--version V] [--tidb|--pd|--tikv|--tiflash N] [--tidb-version|--pd-version|--tikv-version V]
//	          [--instance-version tikv-2=V]... [--server-version S] [--sem] [--latency D]
//	          [--bootstrapped-from V] [--config type:name=value]... [--sql STMT]... [--seed FILE] [--workload NAME]
//	    starts a cluster and sets $TIFORM_DSN (root, no password) and $SIM_ADDR;
//	    with --name, also $DSN_<NAME> (several clusters in one script; the
//	    other subcommands act on the last one started); --seed reads a
//	    bin/tidbsim seed file (docs/tidbsim.md) first, the other flags then
//	    override it
//	sim user NAME PASSWORD    creates a user with every privilege and sets $SIM_DSN_<NAME>
//	sim down ADDR | sim up ADDR
//	sim exec STMT             runs a statement as root (for changes behind tiform's back)
//	sim select NAME           makes the cluster started with --name NAME the one the others act on
//	sim pdttl KEY on|off      PD config item KEY has (or no longer has) a TTL override, as BR sets:
//	                          SET CONFIG pd of it is refused with a warning
//	sim mark                  remembers the end of every named cluster's query log
//	sim sent NAME PREFIX N    the cluster NAME received exactly N statements starting with PREFIX
//	                          since the last mark (N may be + for at least one)
func simCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("sim does not support !")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: sim start|user|down|up|exec ...")
	}
	holder := ts.Value(simKey{}).(*simHolder)
	srv := holder.srv
	switch args[0] {
	case "start":
		opts := tidbsim.Options{Addr: "127.0.0.1:0"}
		name := ""
		for i := 1; i < len(args); i++ {
			flag := args[i]
			if flag == "--name" && i+1 < len(args) {
				name = args[i+1]
				i++
				continue
			}
			if flag == "--sem" {
				opts.SEM = true
				continue
			}
			if i+1 >= len(args) {
				ts.Fatalf("sim start: %s needs a value", flag)
			}
			val := args[i+1]
			i++
			switch flag {
			case "--version":
				opts.Version = val
			case "--tikv-version":
				opts.TiKVVersion = val
			case "--tidb-version":
				opts.TiDBVersion = val
			case "--pd-version":
				opts.PDVersion = val
			case "--server-version":
				opts.ServerVersion = val
			case "--instance-version":
				name, v, ok := strings.Cut(val, "=")
				if !ok {
					ts.Fatalf("sim start --instance-version wants tikv-2=v8.5.3, got %q", val)
				}
				if opts.InstanceVersions == nil {
					opts.InstanceVersions = map[string]string{}
				}
				opts.InstanceVersions[name] = v
			case "--latency":
				d, err := time.ParseDuration(val)
				ts.Check(err)
				opts.Faults.Latency = d
			case "--bootstrapped-from":
				opts.BootstrappedFrom = val
			case "--tidb", "--pd", "--tikv", "--tiflash":
				n, err := strconv.Atoi(val)
				ts.Check(err)
				switch flag {
				case "--tidb":
					opts.TiDB = n
				case "--pd":
					opts.PD = n
				case "--tikv":
					opts.TiKV = n
				default:
					opts.TiFlash = n
				}
			case "--config":
				typ, rest, ok1 := strings.Cut(val, ":")
				name, value, ok2 := strings.Cut(rest, "=")
				if !ok1 || !ok2 {
					ts.Fatalf("sim start --config wants type:name=value, got %q", val)
				}
				opts.Config = append(opts.Config, tidbsim.ConfigOverride{Type: typ, Name: name, Value: value})
			case "--sql":
				opts.SQL = append(opts.SQL, val)
			case "--seed":
				seed, err := tidbsim.LoadSeed(ts.MkAbs(val))
				ts.Check(err)
				seeded := seed.Options()
				seeded.Addr = opts.Addr
				opts = seeded
			case "--workload":
				// Seeded statement statistics (internal/tidbsim/testdata/workloads/NAME.json):
				// its statements_summary and sql; the version stays the flags'.
				seed, err := tidbsim.LoadSeed(workloadSeed(val))
				ts.Check(err)
				opts.StatementsSummary = seed.StatementsSummary
				opts.SQL = append(opts.SQL, seed.SQL...)
			default:
				ts.Fatalf("sim start: unknown flag %s", flag)
			}
		}
		s := tidbsimtest.Start(scriptTB{ts}, opts)
		ts.Setenv("TIFORM_DSN", s.DSN("root", ""))
		ts.Setenv("SIM_ADDR", s.Addr())
		if name != "" {
			// One of several clusters: $DSN_<NAME> reaches it.
			ts.Setenv("DSN_"+strings.ToUpper(name), s.DSN("root", ""))
			if holder.named == nil {
				holder.named = map[string]*tidbsimtest.Cluster{}
			}
			holder.named[name] = s
		}
		holder.srv = s
	case "user":
		needSim(ts, srv)
		if len(args) != 3 {
			ts.Fatalf("usage: sim user NAME PASSWORD")
		}
		ts.Setenv("SIM_DSN_"+strings.ToUpper(args[1]), srv.AddUser(scriptTB{ts}, args[1], args[2]))
	case "down", "up":
		needSim(ts, srv)
		if len(args) != 2 {
			ts.Fatalf("usage: sim %s ADDR", args[0])
		}
		srv.Cluster.SetInstanceDown(args[1], args[0] == "down")
	case "exec":
		needSim(ts, srv)
		srv.Exec(scriptTB{ts}, strings.Join(args[1:], " "))
	case "select":
		if len(args) != 2 || holder.named[args[1]] == nil {
			ts.Fatalf("usage: sim select NAME (a cluster started with --name NAME)")
		}
		holder.srv = holder.named[args[1]]
	case "pdttl":
		needSim(ts, srv)
		if len(args) != 3 || (args[2] != "on" && args[2] != "off") {
			ts.Fatalf("usage: sim pdttl KEY on|off")
		}
		srv.Cluster.SetPDTTL(args[1], args[2] == "on")
	case "mark":
		holder.marks = map[string]int{}
		for n, c := range holder.named {
			holder.marks[n] = c.Mark()
		}
	case "sent":
		if len(args) != 4 || holder.named[args[1]] == nil {
			ts.Fatalf("usage: sim sent NAME PREFIX N")
		}
		got := 0
		var all []string
		for _, q := range holder.named[args[1]].Since(holder.marks[args[1]]) {
			all = append(all, q)
			if strings.HasPrefix(q, args[2]) {
				got++
			}
		}
		if args[3] == "+" {
			if got == 0 {
				ts.Fatalf("cluster %s received no statement starting with %q since the mark:\n%s", args[1], args[2], strings.Join(all, "\n"))
			}
			break
		}
		want, err := strconv.Atoi(args[3])
		ts.Check(err)
		if got != want {
			ts.Fatalf("cluster %s received %d statements starting with %q since the mark, want %d:\n%s", args[1], got, args[2], want, strings.Join(all, "\n"))
		}
	default:
		ts.Fatalf("sim: unknown subcommand %s", args[0])
	}
}

// exitIsCmd runs a command and asserts its exact exit code, keeping its
// output for the stdout/stderr assertions that follow:
//
//	exitis 2 tiform plan --detailed-exitcode
func exitIsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitis CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitis: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// workloadSeed is the path of a seeded workload of the emulator.
func workloadSeed(name string) string {
	return filepath.Join("..", "internal", "tidbsim", "testdata", "workloads", name+".json")
}

type simKey struct{}

// simHolder keeps a script's emulators between commands: the current one,
// the named ones, and the marks of sim mark.
type simHolder struct {
	srv   *tidbsimtest.Cluster
	named map[string]*tidbsimtest.Cluster
	marks map[string]int
}

// scriptTB lets tidbsimtest fail a script and stop its cluster at its end.
type scriptTB struct{ ts *testscript.TestScript }

func (s scriptTB) Fatalf(format string, args ...any) { s.ts.Fatalf(format, args...) }
func (s scriptTB) Cleanup(f func())                  { s.ts.Defer(f) }

func needSim(ts *testscript.TestScript, s *tidbsimtest.Cluster) {
	if s == nil {
		ts.Fatalf("sim: no cluster: run 'sim start' first")
	}
}

// schemaCmd checks JSON output against its JSON Schema in views/schema:
//
//	schema NAME            the last command's stdout is one document valid against NAME
//	schema NAME FILE       FILE is
//	schema -lines NAME FILE  every line of FILE (JSON lines, the audit log) is
func schemaCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("schema does not support !")
	}
	lines := len(args) > 0 && args[0] == "-lines"
	if lines {
		args = args[1:]
	}
	if len(args) < 1 || len(args) > 2 || (lines && len(args) != 2) {
		ts.Fatalf("usage: schema [-lines] NAME [FILE]")
	}
	doc := []byte(ts.ReadFile("stdout"))
	if len(args) == 2 {
		doc = []byte(ts.ReadFile(args[1]))
	}
	docs := [][]byte{doc}
	if lines {
		docs = nil
		for _, l := range strings.Split(string(doc), "\n") {
			if strings.TrimSpace(l) != "" {
				docs = append(docs, []byte(l))
			}
		}
		if len(docs) == 0 {
			ts.Fatalf("schema: %s has no line", args[1])
		}
	}
	for _, d := range docs {
		if err := viewstest.Check(args[0], d); err != nil {
			ts.Fatalf("not valid against %s: %v\n%s", args[0], err, d)
		}
	}
}

// mdCheckCmd checks that the last command's stdout is a pull-request comment
// a workflow can post: not empty, starting with the plan marker, every code
// fence and <details> closed, and readable by a CommonMark (+GFM) parser.
//
//	mdcheck [plan|apply]
func mdCheckCmd(ts *testscript.TestScript, neg bool, args []string) {
	kind := "plan"
	if len(args) == 1 {
		kind = args[0]
	}
	if neg || len(args) > 1 {
		ts.Fatalf("usage: mdcheck [plan|apply]")
	}
	md := ts.ReadFile("stdout")
	if !strings.HasPrefix(md, "<!-- tiform:"+kind+" dir=") {
		ts.Fatalf("stdout is not a %s document (no marker on its first line):\n%s", kind, md)
	}
	fence, details := "", 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			ticks := line[:len(line)-len(strings.TrimLeft(line, "`"))]
			switch {
			case fence == "":
				fence = ticks
			case strings.TrimLeft(line, "`") == "" && len(ticks) >= len(fence):
				fence = ""
			}
			continue
		}
		if fence == "" && strings.HasPrefix(line, "<details>") {
			details++
		}
		if fence == "" && line == "</details>" {
			details--
		}
	}
	if fence != "" || details != 0 {
		ts.Fatalf("an unclosed code fence (%q) or <details> (%d):\n%s", fence, details, md)
	}
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), io.Discard); err != nil {
		ts.Fatalf("goldmark: %v", err)
	}
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tiform/tiform/internal/tidbsim"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// listFlag collects a repeatable, comma-separable flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// failFlag collects --fail rules: "[^]MATCH=CODE:MESSAGE" (^ = prefix match).
type failFlag []tidbsim.FailRule

func (f *failFlag) String() string { return fmt.Sprint(len(*f)) }
func (f *failFlag) Set(s string) error {
	match, rest, ok := strings.Cut(s, "=")
	code, msg, ok2 := strings.Cut(rest, ":")
	n, err := strconv.ParseUint(code, 10, 16)
	if !ok || !ok2 || err != nil || match == "" {
		return fmt.Errorf("want [^]MATCH=CODE:MESSAGE, got %q", s)
	}
	r := tidbsim.FailRule{Match: match, Code: uint16(n), Message: msg}
	if strings.HasPrefix(match, "^") {
		r.Match, r.Prefix = match[1:], true
	}
	*f = append(*f, r)
	return nil
}

// run starts the emulator and blocks until ctx is done. It returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, code := parseFlags(args, stderr)
	if f == nil {
		return code
	}
	opts, code := f.options(stderr)
	if code != 0 {
		return code
	}
	srv, err := tidbsim.Start(opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer srv.Close()
	for d := range opts.Faults.Down {
		if _, ok := srv.Cluster.Instance(d); !ok {
			fmt.Fprintf(stderr, "tidbsim: --down %s: no instance has that address\n", d)
			return 2
		}
	}
	fmt.Fprintf(stdout, "tidbsim listening on %s (%s)\n", srv.Addr(), summary(srv))
	<-ctx.Done()
	return 0
}

// flags are tidbsim's command-line options, and which were given.
type flags struct {
	addr, ver, seedPath                    string
	tidbVer, tikvVer, pdVer, flashVer      string
	boot, serverVer                        string
	nTiDB, nTiKV, nPD, nTiFlash, dropAfter int
	latency, roundTrip                     time.Duration
	sem                                    bool
	down, pdTTL, instVer                   listFlag
	fails                                  failFlag
	set                                    map[string]bool // flags given explicitly
}

// parseFlags reads the command line; nil and an exit code when it is
// wrong (2: usage) or asked for help.
func parseFlags(args []string, stderr io.Writer) (*flags, int) {
	fs := flag.NewFlagSet("tidbsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &flags{set: map[string]bool{}}
	fs.StringVar(&f.addr, "addr", "127.0.0.1:4000", "listen address of the first TiDB instance (TiDB instance i listens on port+i)")
	fs.StringVar(&f.ver, "version", tidbsim.DefaultVersion, "version of every component")
	fs.IntVar(&f.nTiDB, "tidb", 1, "number of TiDB instances")
	fs.IntVar(&f.nTiKV, "tikv", 3, "number of TiKV instances")
	fs.IntVar(&f.nPD, "pd", 1, "number of PD instances")
	fs.IntVar(&f.nTiFlash, "tiflash", 0, "number of TiFlash instances")
	fs.StringVar(&f.tidbVer, "tidb-version", "", "TiDB version (overrides --version)")
	fs.StringVar(&f.tikvVer, "tikv-version", "", "TiKV version (overrides --version)")
	fs.StringVar(&f.pdVer, "pd-version", "", "PD version (overrides --version)")
	fs.StringVar(&f.flashVer, "tiflash-version", "", "TiFlash version (overrides --version)")
	fs.StringVar(&f.boot, "bootstrapped-from", "", "version the cluster was bootstrapped with (PD keeps the schedule config it persisted then: tikv/pd@v8.4.0:server/config/persist_options.go)")
	fs.StringVar(&f.seedPath, "seed", "", "JSON seed file: topology, config-file values, SQL statements (see docs/tidbsim.md)")
	fs.DurationVar(&f.latency, "latency", 0, "latency added per contacted instance (e.g. 20ms)")
	fs.DurationVar(&f.roundTrip, "round-trip", 0, "network round trip between a client and the TiDB instance, waited once per exchange (e.g. 2ms)")
	fs.IntVar(&f.dropAfter, "drop-after", 0, "drop each connection when it sends statement N+1 (0 = never)")
	fs.BoolVar(&f.sem, "sem", false, "Security Enhanced Mode (TiDB Cloud): CLUSTER_CONFIG and other system tables invisible")
	fs.StringVar(&f.serverVer, "server-version", "", "TiDB server-version config: VERSION() and CLUSTER_INFO show it verbatim (https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version)")
	fs.Var(&f.down, "down", "instance address (INSTANCE column) that is down; repeatable or comma-separated")
	fs.Var(&f.pdTTL, "pd-ttl", "PD config item with a TTL override (SET CONFIG pd of it is refused); repeatable")
	fs.Var(&f.instVer, "instance-version", "per-instance version TYPE-INDEX=VERSION, e.g. tikv-2=v8.5.3; repeatable")
	fs.Var(&f.fails, "fail", "fail statements: [^]MATCH=CODE:MESSAGE (^ = prefix, else substring, case-insensitive); repeatable")
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tidbsim: unexpected arguments %q\n", fs.Args())
		return nil, 2
	}
	for name, n := range map[string]int{"tidb": f.nTiDB, "tikv": f.nTiKV, "pd": f.nPD, "tiflash": f.nTiFlash} {
		if n < 0 {
			fmt.Fprintf(stderr, "tidbsim: --%s %d: an instance count cannot be negative\n", name, n)
			return nil, 2
		}
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	return f, 0
}

// options builds the cluster's options: the seed's, with explicit flags
// overriding it and defaults filling what it left empty; then faults.
func (f *flags) options(stderr io.Writer) (tidbsim.Options, int) {
	opts := tidbsim.Options{}
	if f.seedPath != "" {
		seed, err := tidbsim.LoadSeed(f.seedPath)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return opts, 1
		}
		opts = seed.Options()
	}
	pickS := func(name string, flagVal string, seedVal *string) {
		if f.set[name] || *seedVal == "" {
			*seedVal = flagVal
		}
	}
	pickI := func(name string, flagVal int, seedVal *int) {
		if f.set[name] || *seedVal == 0 {
			*seedVal = flagVal
			if flagVal == 0 {
				*seedVal = -1 // explicit zero instances
			}
		}
	}
	pickS("version", f.ver, &opts.Version)
	pickS("tidb-version", f.tidbVer, &opts.TiDBVersion)
	pickS("tikv-version", f.tikvVer, &opts.TiKVVersion)
	pickS("pd-version", f.pdVer, &opts.PDVersion)
	pickS("tiflash-version", f.flashVer, &opts.TiFlashVersion)
	pickS("bootstrapped-from", f.boot, &opts.BootstrappedFrom)
	pickS("server-version", f.serverVer, &opts.ServerVersion)
	pickI("tidb", f.nTiDB, &opts.TiDB)
	pickI("tikv", f.nTiKV, &opts.TiKV)
	pickI("pd", f.nPD, &opts.PD)
	pickI("tiflash", f.nTiFlash, &opts.TiFlash)
	opts.Addr = f.addr
	opts.SEM = f.sem
	for _, iv := range f.instVer {
		k, v, ok := strings.Cut(iv, "=")
		if !ok {
			fmt.Fprintf(stderr, "tidbsim: --instance-version wants TYPE-INDEX=VERSION, got %q\n", iv)
			return opts, 2
		}
		if opts.InstanceVersions == nil {
			opts.InstanceVersions = map[string]string{}
		}
		opts.InstanceVersions[k] = v
	}
	opts.Faults = tidbsim.Faults{Latency: f.latency, RoundTrip: f.roundTrip, DropAfter: f.dropAfter, FailStatements: f.fails, Down: map[string]bool{}, PDTTL: map[string]bool{}}
	for _, n := range f.pdTTL {
		opts.Faults.PDTTL[n] = true
	}
	for _, d := range f.down {
		opts.Faults.Down[d] = true
	}
	return opts, 0
}

// summary is "v8.5.1: 1 tidb, 3 tikv, 1 pd" (mixed versions listed per type).
func summary(srv *tidbsim.Server) string {
	var parts []string
	versions := map[string]bool{}
	var first string
	for _, typ := range []string{tidbsim.TypeTiDB, tidbsim.TypeTiKV, tidbsim.TypePD, tidbsim.TypeTiFlash} {
		ins := srv.Cluster.InstancesOf(typ)
		if len(ins) == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", len(ins), typ))
		for _, in := range ins {
			v := in.ReleaseVersion()
			if first == "" {
				first = v
			}
			versions[v] = true
		}
	}
	label := first
	if len(versions) > 1 {
		label = "mixed versions"
	}
	return label + ": " + strings.Join(parts, ", ")
}

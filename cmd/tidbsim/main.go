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
	fs := flag.NewFlagSet("tidbsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		addr      = fs.String("addr", "127.0.0.1:4000", "listen address of the first TiDB instance (TiDB instance i listens on port+i)")
		ver       = fs.String("version", tidbsim.DefaultVersion, "version of every component")
		nTiDB     = fs.Int("tidb", 1, "number of TiDB instances")
		nTiKV     = fs.Int("tikv", 3, "number of TiKV instances")
		nPD       = fs.Int("pd", 1, "number of PD instances")
		nTiFlash  = fs.Int("tiflash", 0, "number of TiFlash instances")
		tidbVer   = fs.String("tidb-version", "", "TiDB version (overrides --version)")
		tikvVer   = fs.String("tikv-version", "", "TiKV version (overrides --version)")
		pdVer     = fs.String("pd-version", "", "PD version (overrides --version)")
		flashVer  = fs.String("tiflash-version", "", "TiFlash version (overrides --version)")
		boot      = fs.String("bootstrapped-from", "", "version the cluster was bootstrapped with (PD keeps its persisted defaults, tidb-facts.md §3.2)")
		seedPath  = fs.String("seed", "", "JSON seed file: topology, config-file values, SQL statements (see docs/tidbsim.md)")
		latency   = fs.Duration("latency", 0, "latency added per contacted instance (e.g. 20ms)")
		dropAfter = fs.Int("drop-after", 0, "drop each connection when it sends statement N+1 (0 = never)")
		sem       = fs.Bool("sem", false, "Security Enhanced Mode (TiDB Cloud): CLUSTER_CONFIG and other system tables invisible")
		serverVer = fs.String("server-version", "", "TiDB server-version config: VERSION() and CLUSTER_INFO show it verbatim (tidb-facts.md §7)")
		down      listFlag
		pdTTL     listFlag
		instVer   listFlag
		fails     failFlag
	)
	fs.Var(&down, "down", "instance address (INSTANCE column) that is down; repeatable or comma-separated")
	fs.Var(&pdTTL, "pd-ttl", "PD config item with a TTL override (SET CONFIG pd of it is refused); repeatable")
	fs.Var(&instVer, "instance-version", "per-instance version TYPE-INDEX=VERSION, e.g. tikv-2=v8.5.3; repeatable")
	fs.Var(&fails, "fail", "fail statements: [^]MATCH=CODE:MESSAGE (^ = prefix, else substring, case-insensitive); repeatable")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tidbsim: unexpected arguments %q\n", fs.Args())
		return 2
	}
	for name, n := range map[string]int{"tidb": *nTiDB, "tikv": *nTiKV, "pd": *nPD, "tiflash": *nTiFlash} {
		if n < 0 {
			fmt.Fprintf(stderr, "tidbsim: --%s %d: an instance count cannot be negative\n", name, n)
			return 2
		}
	}
	opts := tidbsim.Options{}
	if *seedPath != "" {
		seed, err := tidbsim.LoadSeed(*seedPath)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		opts = seed.Options()
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// explicit flags override the seed; defaults fill what the seed left empty
	pickS := func(name string, flagVal string, seedVal *string) {
		if set[name] || *seedVal == "" {
			*seedVal = flagVal
		}
	}
	pickI := func(name string, flagVal int, seedVal *int) {
		if set[name] || *seedVal == 0 {
			*seedVal = flagVal
			if flagVal == 0 {
				*seedVal = -1 // explicit zero instances
			}
		}
	}
	pickS("version", *ver, &opts.Version)
	pickS("tidb-version", *tidbVer, &opts.TiDBVersion)
	pickS("tikv-version", *tikvVer, &opts.TiKVVersion)
	pickS("pd-version", *pdVer, &opts.PDVersion)
	pickS("tiflash-version", *flashVer, &opts.TiFlashVersion)
	pickS("bootstrapped-from", *boot, &opts.BootstrappedFrom)
	pickS("server-version", *serverVer, &opts.ServerVersion)
	pickI("tidb", *nTiDB, &opts.TiDB)
	pickI("tikv", *nTiKV, &opts.TiKV)
	pickI("pd", *nPD, &opts.PD)
	pickI("tiflash", *nTiFlash, &opts.TiFlash)
	opts.Addr = *addr
	opts.SEM = *sem
	for _, iv := range instVer {
		k, v, ok := strings.Cut(iv, "=")
		if !ok {
			fmt.Fprintf(stderr, "tidbsim: --instance-version wants TYPE-INDEX=VERSION, got %q\n", iv)
			return 2
		}
		if opts.InstanceVersions == nil {
			opts.InstanceVersions = map[string]string{}
		}
		opts.InstanceVersions[k] = v
	}
	opts.Faults = tidbsim.Faults{Latency: *latency, DropAfter: *dropAfter, FailStatements: fails, Down: map[string]bool{}, PDTTL: map[string]bool{}}
	for _, n := range pdTTL {
		opts.Faults.PDTTL[n] = true
	}
	for _, d := range down {
		opts.Faults.Down[d] = true
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

// Command catalogen generates internal/upstream/settings.json, the settable
// surface of TiDB per version, from local copies of the upstream
// repositories (git directories or checkouts with their tags):
//
//	go run ./tools/catalogen -tikv DIR -pd DIR -docs-cn DIR [-out FILE] [-check]
//
// It reads every final release tag from v6.5.0 on plus master of tikv/tikv
// and tikv/pd (objects only, nothing is checked out), and the release-X.Y
// branches and master of pingcap/docs-cn. With -check it writes nothing and
// fails when the file it would write differs from -out. docs/catalog.md
// says how to fetch the repositories; `make catalog` and `make
// catalog-check` run it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

func main() {
	var opts options
	flag.StringVar(&opts.tikv, "tikv", os.Getenv("TIFORM_UPSTREAM_TIKV"), "tikv/tikv git directory or checkout (env TIFORM_UPSTREAM_TIKV)")
	flag.StringVar(&opts.pd, "pd", os.Getenv("TIFORM_UPSTREAM_PD"), "tikv/pd git directory or checkout (env TIFORM_UPSTREAM_PD)")
	flag.StringVar(&opts.docs, "docs-cn", os.Getenv("TIFORM_UPSTREAM_DOCS_CN"), "pingcap/docs-cn git directory or checkout (env TIFORM_UPSTREAM_DOCS_CN)")
	out := flag.String("out", "internal/upstream/settings.json", "file to write")
	covOut := flag.String("coverage", coverageFile, "release-notes coverage report to write (\"\" for none)")
	reasonsIn := flag.String("reasons", reasonsFile, "reviewed reasons of the release-notes items no rule covers")
	check := flag.Bool("check", false, "write nothing; fail when -out differs from what would be generated")
	verbose := flag.Bool("v", false, "print every warning")
	tidbServer := flag.String("tidb-server", os.Getenv("TIFORM_TIDB_SERVER"), "upstream tidb-server binary to probe (env TIFORM_TIDB_SERVER; make tidb-server builds it)")
	probeOut := flag.String("probe-out", "internal/upstream/sysvar_probe.json", "file the tidb-server probe writes")
	flag.Parse()
	if *tidbServer != "" {
		data, err := probeSysvars(*tidbServer)
		if err == nil {
			err = writeOrCheckProbe(data, *probeOut, *check, os.ReadFile, func(p string, b []byte) error { return os.WriteFile(p, b, 0o644) })
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "catalogen:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "catalogen: %s is %s\n", *probeOut, map[bool]string{true: "up to date", false: "written"}[*check])
		if opts.tikv == "" && opts.pd == "" && opts.docs == "" {
			return
		}
	}
	if opts.tikv == "" || opts.pd == "" || opts.docs == "" {
		fmt.Fprintln(os.Stderr, "catalogen: -tikv, -pd and -docs-cn are required (see docs/catalog.md, \"Regenerating\")")
		os.Exit(2)
	}
	surface, err := upstream.PDSurface()
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogen:", err)
		os.Exit(1)
	}
	opts.pdSurface = surface
	data, warnings, err := generate(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogen:", err)
		os.Exit(1)
	}
	reportWarnings(warnings, *verbose)
	var cov []byte
	if *covOut != "" {
		if cov, err = coverageStep(opts.docs, data, *reasonsIn, *check); err != nil {
			fmt.Fprintln(os.Stderr, "catalogen:", err)
			os.Exit(1)
		}
	}
	if *check {
		if cov != nil {
			if err := sameFile(*covOut, cov); err != nil {
				fmt.Fprintln(os.Stderr, "catalogen:", err)
				os.Exit(1)
			}
			fmt.Fprintf(os.Stderr, "catalogen: %s is up to date\n", *covOut)
		}
		old, err := os.ReadFile(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "catalogen:", err)
			os.Exit(1)
		}
		if !bytes.Equal(old, data) {
			fmt.Fprintf(os.Stderr, "catalogen: %s is not what these upstream copies generate (%s); run make catalog and review the diff\n", *out, firstDifference(old, data))
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "catalogen: %s is up to date\n", *out)
		return
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "catalogen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "catalogen: wrote %s (%d bytes)\n", *out, len(data))
	if cov != nil {
		if err := os.WriteFile(*covOut, cov, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "catalogen:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "catalogen: wrote %s (%d bytes)\n", *covOut, len(cov))
	}
}

// reportWarnings prints a summary of the walk's warnings (the same warning
// repeats at every tag; each is printed once with the tags it came from).
func reportWarnings(ws []string, verbose bool) {
	count := map[string]int{}
	var order []string
	for _, w := range ws {
		key := w
		if i := strings.Index(w, ": "); i >= 0 && strings.Contains(w[:i], "@") {
			key = w[:strings.Index(w, "@")] + w[i:]
		}
		if count[key] == 0 {
			order = append(order, key)
		}
		count[key]++
	}
	sort.Strings(order)
	for _, k := range order {
		if verbose || count[k] > 0 {
			fmt.Fprintf(os.Stderr, "catalogen: warning (%d×): %s\n", count[k], k)
		}
	}
}

// firstDifference names the first line where two files differ.
func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("first difference at line %d: %q vs %q", i+1, clip(la[i]), clip(lb[i]))
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(la), len(lb))
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

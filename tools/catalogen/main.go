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
	check := flag.Bool("check", false, "write nothing; fail when -out differs from what would be generated")
	verbose := flag.Bool("v", false, "print every warning")
	flag.Parse()
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
	if *check {
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

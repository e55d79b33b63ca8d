package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/version"
)

// TestNoCJKInAnyOutput: validate, plan, check and catalog print English
// only, over the whole catalog. The catalog's system-variable facts come
// from the Chinese docs (its units were printed as "(unit: 毫秒)"); this
// runs each command in every format it has over every catalogued setting
// and fails on any Chinese, Japanese or Korean character in what it
// prints.
func TestNoCJKInAnyOutput(t *testing.T) {
	noCJK := func(what, out string) {
		t.Helper()
		for i, line := range strings.Split(out, "\n") {
			if catalog.HasCJK(line) {
				t.Errorf("%s, line %d: %s", what, i+1, line)
				return
			}
		}
	}
	run := func(args ...string) string {
		t.Helper()
		out, errs, code := runCheckCmd(t, args...)
		if code > 2 {
			t.Fatalf("tiform %s: exit %d\n%s", strings.Join(args, " "), code, errs)
		}
		return out + errs
	}

	// catalog: every entry, at the newest release and at versions whose
	// facts differ.
	for _, args := range [][]string{{"catalog"}, {"catalog", "--format", "json"}, {"catalog", "--stats"},
		{"catalog", "--version", "v8.5.1"}, {"catalog", "--version", "v6.5.0", "--format", "json"},
		{"catalog", "--version", "v9.0.0", "--format", "json"}} {
		noCJK("tiform "+strings.Join(args, " "), run(args...))
	}

	// validate: every setting with a value of the wrong kind, so that each
	// rejection (kind, unit, range, example) is printed.
	bad := t.TempDir()
	writeCatalogHCL(t, bad, func(*catalog.Entry) (string, bool) { return `"not-a-value!"`, true })
	for _, format := range []string{"text", "json"} {
		out := run("validate", "--chdir", bad, "--format", format)
		if !strings.Contains(out, "milliseconds") {
			t.Errorf("validate --format %s shows no unit in milliseconds: the rejections were not printed?", format)
		}
		noCJK("validate --format "+format, out)
	}

	// plan and check against an emulated cluster, with every setting the
	// emulated version has declared at its default there.
	for _, v := range []string{"v8.5.1", "v9.0.0", "v6.5.0"} {
		t.Run(v, func(t *testing.T) {
			s := tidbsimtest.Start(t, tidbsim.Options{Version: v, TiKV: 1})
			dir := t.TempDir()
			ver := version.MustParse(v)
			writeCatalogHCL(t, dir, func(e *catalog.Entry) (string, bool) {
				d, ok := e.DefaultIn(ver)
				if !ok || e.ReadOnly || e.Scope == catalog.ScopeSession || e.Scope == catalog.ScopeInstance || !e.OnlineIn(ver) ||
					e.Check(d) != nil {
					return "", false
				}
				return strconv.Quote(d), true
			})
			dsn := s.DSN("root", "")
			for _, format := range []string{"text", "json", "markdown"} {
				out := run("plan", "--chdir", dir, "--dsn", dsn, "--format", format, "--allow-partial")
				if format == "text" && !strings.Contains(out, "Plan: ") && !strings.Contains(out, "No changes") {
					t.Errorf("plan did not plan:\n%.2000s", out)
				}
				noCJK("plan --format "+format, out)
			}
			for _, format := range []string{"text", "json"} {
				noCJK("check --format "+format, run("check", "--dsn", dsn, "--format", format, "--fail-on", "never"))
			}
		})
	}
}

// writeCatalogHCL writes main.hcl declaring every catalogued TiKV and PD
// config item and system variable (not prefix rules, not TiFlash) with the
// value value gives, in the flat settings form.
func writeCatalogHCL(t *testing.T, dir string, value func(*catalog.Entry) (string, bool)) {
	t.Helper()
	blocks := map[string][]string{}
	for _, e := range catalog.Entries() {
		if e.Prefix || e.Component == "tiflash" || !e.ClassIn(version.Version{}).Setting() {
			continue
		}
		v, ok := value(e)
		if !ok {
			continue
		}
		if e.Target == catalog.TargetVariable {
			if group, leaf, dotted := strings.Cut(e.Key, "."); dotted { // validate_password { length = … }
				blocks["variables"] = append(blocks["variables"], fmt.Sprintf("  %s {\n    %s = %s\n  }", group, leaf, v))
				continue
			}
			blocks["variables"] = append(blocks["variables"], fmt.Sprintf("  %s = %s", e.Key, v))
			continue
		}
		blocks[e.Component] = append(blocks[e.Component], fmt.Sprintf("    %q = %s", e.Key, v))
	}
	var b strings.Builder
	names := make([]string, 0, len(blocks))
	for n := range blocks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n == "variables" {
			fmt.Fprintf(&b, "variables {\n%s\n}\n\n", strings.Join(blocks[n], "\n"))
			continue
		}
		fmt.Fprintf(&b, "%s {\n  settings = {\n%s\n  }\n}\n\n", n, strings.Join(blocks[n], "\n"))
	}
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

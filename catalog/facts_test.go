package catalog

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tiform/tiform/version"
)

// factsTable is one table of tidb-facts.md whose rows name settings in the
// first column and give defaults in later columns.
type factsTable struct {
	heading string // the section's heading line prefix, e.g. "### 3.1 "
	ref     string // Lookup prefix: "tikv:", "pd:", "variable:", "tikv:in-memory-engine."
	// defaults maps a column index (1 = first cell after the name) to the
	// version whose default that column states.
	defaults map[int]string
}

var factsTables = []factsTable{
	// | item | default ≥ v8.4.0 | default < v8.4.0 | source |
	{"### 3.1 ", "tikv:", map[int]string{1: "v8.5.1", 2: "v8.1.2"}},
	// | item | default ≥ v8.4.0 | default < v8.4.0 | notes |
	{"### 3.2 ", "pd:", map[int]string{1: "v8.5.5", 2: "v8.1.2"}},
	// | variable | scope | persisted | type | default | range / notes | introduced / changed |
	{"### 5.1 ", "variable:", map[int]string{4: "v8.5.7"}},
	// | item | default | notes | online? |
	{"## 6. ", "tikv:in-memory-engine.", map[int]string{1: "v8.5.1"}},
}

var (
	backtickRE = regexp.MustCompile("`([^`]+)`")
	plainNumRE = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\b`)
)

// factsDefault is the default a table cell states: the last backticked
// value (a formula cell reads "`split / 2 * 3` = `384MiB`"), else a leading
// plain number ("10 (min 1)"); "" when the cell states none (a formula, "–").
func factsDefault(cell string) string {
	if m := backtickRE.FindAllStringSubmatch(cell, -1); len(m) > 0 {
		v := strings.Trim(m[len(m)-1][1], `"`)
		if strings.ContainsAny(v, " /*(") { // a formula, not a value
			return ""
		}
		return v
	}
	if m := plainNumRE.FindStringSubmatch(cell); m != nil {
		return m[1]
	}
	return ""
}

// TestFactsTables: every setting that the tables of tidb-facts.md §3.1
// (region size), §3.2 (PD merge), §5.1 (plan-cache variables) and §6 (IME)
// name is in the catalog, with the default each table states for the
// versions it states it for (compared by meaning: "1h" is PD's "1h0m0s").
// Skipped when the knowledge base is not readable (outside this checkout).
func TestFactsTables(t *testing.T) {
	facts, err := os.ReadFile("../../shared/tidb-facts.md")
	if err != nil {
		t.Skipf("tidb-facts.md not readable (%v)", err)
	}
	lines := strings.Split(string(facts), "\n")
	for _, tbl := range factsTables {
		start := -1
		for i, l := range lines {
			if strings.HasPrefix(l, tbl.heading) {
				start = i
				break
			}
		}
		if start < 0 {
			t.Errorf("no heading %q in tidb-facts.md", tbl.heading)
			continue
		}
		rows := 0
		for _, l := range lines[start+1:] {
			if strings.HasPrefix(l, "#") {
				break
			}
			cells := strings.Split(l, "|")
			if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
				continue // not a row naming a setting
			}
			name := backtickRE.FindStringSubmatch(cells[1])[1]
			rows++
			e, ok := Lookup(tbl.ref + name)
			if !ok {
				t.Errorf("%s%s (tidb-facts.md %s) is not in the catalog", tbl.ref, name, strings.TrimSpace(tbl.heading))
				continue
			}
			for col, at := range tbl.defaults {
				if col+1 >= len(cells) {
					continue
				}
				want := factsDefault(cells[col+1])
				if want == "" {
					continue
				}
				got, ok := e.DefaultIn(version.MustParse(at))
				if !ok {
					t.Errorf("%s: no default in %s; tidb-facts.md says %s", e.Address(), at, want)
					continue
				}
				wc, werr := e.Canonical(want)
				gc, gerr := e.Canonical(got)
				if werr != nil || gerr != nil || wc != gc {
					t.Errorf("%s: default in %s is %q; tidb-facts.md says %q", e.Address(), at, got, want)
				}
			}
		}
		if rows < 4 {
			t.Errorf("%s: only %d rows found: table layout out of date?", tbl.heading, rows)
		}
	}
}

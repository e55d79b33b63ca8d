package catalog

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tiform/tiform/version"
)

// Corpus round-trip tests over real outputs (testdata/corpus, copied from the
// project's shared corpus; SOURCES.md there names each source_id).

type corpusRow map[string]string

func readTSV(t *testing.T, path string) []corpusRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var header []string
	var rows []corpusRow
	unescape := strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = cells
			continue
		}
		r := corpusRow{}
		for i, h := range header {
			if i < len(cells) {
				r[h] = unescape.Replace(cells[i])
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestCorpusConfigRows: every value of a catalogued key in real SHOW CONFIG /
// CLUSTER_CONFIG / pd-ctl output parses; TiKV/PD renderings of sizes and
// durations come back unchanged through Render(Canonical(v)).
func TestCorpusConfigRows(t *testing.T) {
	rows := readTSV(t, "testdata/corpus/config_rows.tsv")
	known := 0
	for _, r := range rows {
		e, ok := Config(r["type"], r["name"])
		if !ok {
			continue
		}
		known++
		v := r["value"]
		c, err := e.Canonical(v)
		if err != nil {
			t.Errorf("%s %s = %q: %v", r["source_id"], e.Address(), v, err)
			continue
		}
		fromSQL := !strings.HasPrefix(r["instance"], "(")
		if fromSQL && (e.Kind == KindSize || e.Kind == KindDuration || e.Kind == KindBool) {
			if got := e.Render(c); got != v {
				t.Errorf("%s %s: Render(Canonical(%q)) = %q, want the component's own rendering back", r["source_id"], e.Address(), v, got)
			}
		}
	}
	if known < 40 {
		t.Errorf("only %d corpus rows have catalogued keys: lookup broken?", known)
	}
	// The v4.0 docs printed region-max-keys as 1.44e+06 (float64 round-trip in SHOW CONFIG).
	e := mustConfig(t, "tikv", "coprocessor.region-max-keys")
	a, _ := e.Canonical("1.44e+06")
	b, _ := e.Canonical("1440000")
	if a != b || a != "1440000" {
		t.Errorf("1.44e+06 and 1440000 must be equal: %q vs %q", a, b)
	}
}

// TestCorpusDefaults: docs example rows captured on default clusters agree
// with DefaultIn for the version they document.
func TestCorpusDefaults(t *testing.T) {
	sourceVersion := map[string]string{
		"docs-cn-cluster-config-v4.0-v8.3": "v8.3.0",
		"docs-cn-cluster-config-v8.4-v9.0": "v8.4.0",
		"docs-cn-cluster-config-2020":      "v4.0.0",
		"docs-cn-pd-control-v5.4-v8.1":     "v8.1.0",
		"docs-cn-pd-control-v8.5-v9.0":     "v8.5.0",
		"docs-cn-tikv-in-memory-engine":    "v8.5.0",
	}
	checked := 0
	for _, r := range readTSV(t, "testdata/corpus/config_rows.tsv") {
		ver, ok := sourceVersion[r["source_id"]]
		if !ok {
			continue
		}
		e, ok := Config(r["type"], r["name"])
		if !ok {
			continue
		}
		def, ok := e.DefaultIn(version.MustParse(ver))
		if !ok || r["name"] == "in-memory-engine.enable" { // the IME example enabled it
			continue
		}
		checked++
		want, _ := e.Canonical(def)
		got, err := e.Canonical(r["value"])
		if err != nil || got != want {
			t.Errorf("%s %s at %s: corpus %q, catalog default %q", r["source_id"], e.Address(), ver, r["value"], def)
		}
	}
	if checked < 20 {
		t.Errorf("only %d default rows checked", checked)
	}
}

// TestCorpusVariables: every value of a catalogued variable in real SHOW
// VARIABLES / SELECT @@ output parses (0/1, ON/OFF, on/off, auto, numbers).
func TestCorpusVariables(t *testing.T) {
	known := 0
	for _, r := range readTSV(t, "testdata/corpus/variables.tsv") {
		e, ok := Variable(r["variable_name"]) // "@@name" rows come from SELECT @@name
		if !ok || olderThanTable(r["version"]) {
			continue // values of releases before v6.5 may lie outside today's kinds (tidb_txn_mode "")
		}
		known++
		c, err := e.Canonical(r["value"])
		if err != nil {
			t.Errorf("%s %s = %q: %v", r["source_id"], e.Address(), r["value"], err)
			continue
		}
		if e.Kind == KindBool {
			if r := e.Render(c); r != "ON" && r != "OFF" {
				t.Errorf("%s: sysvar bool renders %q", e.Address(), r)
			}
		}
	}
	if known < 15 {
		t.Errorf("only %d corpus variables are catalogued: lookup broken?", known)
	}
}

// olderThanTable reports whether a corpus row's version ("v4.0 docs",
// "v8.5.1") is older than the generated table's oldest release (v6.5).
func olderThanTable(text string) bool {
	if strings.Contains(text, "~v4.0") {
		return true
	}
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(text, "v"), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major < 6 || major == 6 && minor < 5
}

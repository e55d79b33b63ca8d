package cmd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

func runCatalogCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(append([]string{"catalog"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCatalogText(t *testing.T) {
	out, errOut, code := runCatalogCmd(t, "--component", "tikv", "--search", "coprocessor.region-split-size")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 { // header, one entry, blank, summary
		t.Fatalf("want header, 1 entry and a summary, got:\n%s", out)
	}
	got := strings.Fields(lines[1])
	want := []string{"tikv.coprocessor.region-split-size", "size", "-", "yes", "v6.5.0+", "96MiB;", "256MiB", "(v8.4.0+)",
		"tikv/tikv@v8.5.7:components/raftstore/src/coprocessor/config.rs#L28"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("row (-want +got):\n%s", diff)
	}
	for _, h := range []string{"NAME", "KIND", "ONLINE", "VERSIONS", "DEFAULT", "SOURCE"} {
		if !strings.Contains(lines[0], h) {
			t.Errorf("header lacks %s: %q", h, lines[0])
		}
	}
}

func TestCatalogRestartAndVersions(t *testing.T) {
	out, _, code := runCatalogCmd(t, "--search", "resource-control.enabled")
	if code != ExitOK || !strings.Contains(out, "restart") || !strings.Contains(out, "v6.6.0+") ||
		!strings.Contains(out, "false (v6.6.0+); true (v7.0.0+)") {
		t.Errorf("resource-control.enabled row: exit %d\n%s", code, out)
	}
	out, _, _ = runCatalogCmd(t, "--search", "in-memory-engine.enable", "--version", "v8.3.0")
	if !strings.Contains(out, "No settings match.") {
		t.Errorf("the in-memory engine does not exist in v8.3.0:\n%s", out)
	}
	out, _, _ = runCatalogCmd(t, "--search", "in-memory-engine.enable", "--version", "v8.5.1")
	if !strings.Contains(out, "yes (restart to enable)") {
		t.Errorf("IME in v8.5.1:\n%s", out)
	}
	out, _, _ = runCatalogCmd(t, "--search", "coprocessor.region-split-size", "--version", "v8.3.0")
	if !strings.Contains(out, " 96MiB ") || strings.Contains(out, "256MiB") {
		t.Errorf("--version v8.3.0 must show only the default that applies:\n%s", out)
	}
}

func TestCatalogJSON(t *testing.T) {
	out, _, code := runCatalogCmd(t, "--component", "pd", "--format", "json", "--version", "v8.5.0")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	viewstest.Validate(t, "catalog.schema.json", []byte(out))
	var doc views.Catalog
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.FormatVersion != views.Format || len(doc.Entries) < 20 {
		t.Fatalf("format_version %q, %d entries", doc.FormatVersion, len(doc.Entries))
	}
	found := false
	for _, e := range doc.Entries {
		if !strings.HasPrefix(e.Address, "pd.") || len(e.Sources) == 0 {
			t.Errorf("entry %s: wrong component or no source", e.Address)
		}
		if e.Address == "pd.schedule.max-merge-region-size" {
			found = true
			if e.Kind != "int" || e.Unit != "MiB" || e.Family != "pd-merge" || e.DefaultInVersion == nil || *e.DefaultInVersion != "54" ||
				len(e.Defaults) != 2 || e.Defaults[1].Since != "v8.4.0" {
				t.Errorf("max-merge-region-size: %+v", e)
			}
		}
	}
	if !found {
		t.Error("pd.schedule.max-merge-region-size missing")
	}
}

func TestCatalogErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--component", "tidbx"},
		{"--format", "yaml"},
		{"--version", "latest"},
		{"--online", "maybe"},
		{"extra-arg"},
	} {
		_, errOut, code := runCatalogCmd(t, args...)
		if code != ExitError || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 with a message", args, code, errOut)
		}
	}
}

func TestCatalogHelp(t *testing.T) {
	out, _, code := runCatalogCmd(t, "--help")
	if code != ExitOK || !strings.Contains(out, "tiform catalog --search region") || !strings.Contains(out, "--component") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

// TestCatalogNotes: a default that applies to new clusters only is marked in
// the table and explained in a numbered footnote (a note inline would make
// the column unreadably wide); --version keeps the note of the default that
// applies there.
func TestCatalogNotes(t *testing.T) {
	out, _, code := runCatalogCmd(t, "--component", "tidb", "--search", "concurrency")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"1 (v8.4.0+); 3 (v8.5.7+) [1]",
		"[1] variable.tidb_auto_analyze_concurrency: 3: new clusters only; upgraded clusters keep their previous value",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "§") && strings.Contains(line, "new clusters") {
			t.Errorf("a note inside the table: %q", line)
		}
	}
	out, _, _ = runCatalogCmd(t, "--search", "tidb_resource_control_strict_mode", "--version", "v8.5.1")
	if !strings.Contains(out, " ON [1] ") || !strings.Contains(out, "[1] variable.tidb_resource_control_strict_mode: new clusters; OFF after upgrading from a version before v8.2.0") {
		t.Errorf("--version v8.5.1:\n%s", out)
	}
}

// TestCatalogOnlineFilter: --online keeps what changes online in --version
// (import.num-threads is restart-only in v8.2.0–v8.5.1, tikv/tikv
// components/sst_importer/src/config.rs at those tags).
func TestCatalogOnlineFilter(t *testing.T) {
	for _, tt := range []struct {
		version, online string
		listed          bool
	}{
		{"v8.2.0", "no", true}, {"v8.2.0", "yes", false}, {"v8.5.2", "yes", true}, {"v8.5.2", "no", false},
	} {
		out, _, code := runCatalogCmd(t, "--search", "import.num-threads", "--version", tt.version, "--online", tt.online)
		if code != ExitOK || strings.Contains(out, "tikv.import.num-threads") != tt.listed {
			t.Errorf("--version %s --online %s: exit %d, listed %v, want %v\n%s", tt.version, tt.online, code, !tt.listed, tt.listed, out)
		}
	}
	out, _, _ := runCatalogCmd(t, "--search", "import.num-threads")
	if !strings.Contains(out, "varies") || !strings.Contains(out, `ONLINE "varies"`) {
		t.Errorf("without --version the row says varies and the footer explains it:\n%s", out)
	}
}

// TestCatalogStats: --stats prints the coverage the bar measures,
// as text and as JSON that fits its schema.
func TestCatalogStats(t *testing.T) {
	out, _, code := runCatalogCmd(t, "--stats")
	if code != ExitOK || !strings.Contains(out, "TiKV online keys (OnlineConfig walk)") || !strings.Contains(out, "100.0%") {
		t.Errorf("--stats: exit %d\n%s", code, out)
	}
	out, _, code = runCatalogCmd(t, "--stats", "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	viewstest.Validate(t, "catalog-stats.schema.json", []byte(out))
	var doc views.CatalogStats
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Groups) != 4 || doc.Groups[0].Percent < 98 || doc.Groups[0].Upstream < 300 {
		t.Errorf("stats: %+v", doc)
	}
}

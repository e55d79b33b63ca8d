package catalog

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/version"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current catalog")

// TestEntriesGolden keeps a one-line-per-entry summary of the catalog in
// testdata/entries.golden, so every change to what tiform knows shows up as a
// reviewable diff. Regenerate with: go test ./catalog -run Golden -update
func TestEntriesGolden(t *testing.T) {
	var b strings.Builder
	for _, e := range Entries() {
		online := "online"
		switch {
		case e.ReadOnly:
			online = "read-only"
		case e.RestartIfEnabled:
			online = "online(restart to enable)"
		case !e.Online:
			online = "restart"
		case e.OnlineText() != "":
			online = e.OnlineText()
		}
		var defs []string
		for _, d := range e.Defaults {
			s := d.Value
			if !d.Since.IsZero() {
				s = d.Since.Short() + ":" + s
			}
			defs = append(defs, s)
		}
		kind := e.Kind.String()
		if len(e.Codes) > 0 {
			kind += "(printed as " + strings.Join(e.Codes, "|") + ")"
		}
		class := ""
		if !e.Class.Setting() {
			class = " | not a setting: " + e.Class.String()
		}
		if f, ok := e.ComputedIn(version.Version{}); ok {
			class += " | computed: " + f
		}
		fmt.Fprintf(&b, "%s | %s | %s | %s | %s | %s | %s%s\n", e.Address(), kind, e.Scope, online,
			e.VersionsText(), strings.Join(defs, ", "), strings.Join(e.Sources, " "), class)
	}
	got := b.String()
	const path = "testdata/entries.golden"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("catalog changed (-golden +now); if intended, run go test ./catalog -run Golden -update:\n%s", diff)
	}
}

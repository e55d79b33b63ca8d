package live_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

// The bar, end to end against the emulator: a cluster in the middle
// of a rolling upgrade is reported as mixed in the plan (every view), and
// version decisions use the lowest version per component.
func TestMixedVersionClusterIsReportedInThePlan(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.5.4", TiKV: 3,
		InstanceVersions: map[string]string{"tikv-2": "v8.5.1"}})
	dir := t.TempDir()
	hcl := "tikv {\n  storage {\n    block-cache {\n      capacity = \"2GiB\"\n    }\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o600); err != nil {
		t.Fatal(err)
	}
	d, diags := schema.Load(dir, schema.Options{DefaultDSN: s.DSN("root", "")})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	dc := d.Clusters[0]
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := live.Open(ctx, dc.DSN, live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, live.RequestFor(dc))
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(d, map[string]*state.Live{dc.Name: l}, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cp := p.Clusters[0]
	if diff := cmp.Diff([]state.Component{state.TiKV}, cp.Mixed); diff != "" {
		t.Errorf("mixed components (-want +got):\n%s", diff)
	}
	if got := cp.Versions[state.TiKV]; got != "v8.5.1" {
		t.Errorf("tikv version = %s, want the lowest, v8.5.1", got)
	}
	var text, js, md bytes.Buffer
	if err := render.Text(&text, p, render.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := render.JSON(&js, p); err != nil {
		t.Fatal(err)
	}
	if err := render.Markdown(&md, p, render.MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "3 tikv v8.5.1 (mixed versions)") {
		t.Errorf("text does not report the mixed versions:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "3 tikv v8.5.1 (mixed versions)") {
		t.Errorf("markdown does not report the mixed versions:\n%s", md.String())
	}
	if !strings.Contains(js.String(), "\"mixed_versions\": [\n        \"tikv\"\n      ]") {
		t.Errorf("json does not report the mixed versions:\n%s", js.String())
	}
}

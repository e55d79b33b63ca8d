package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/views/viewstest"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func buildScenario(t *testing.T, sc scenario) *planner.Plan {
	t.Helper()
	p, err := planner.Build(sc.desired, sc.lives, sc.opts)
	if err != nil {
		t.Fatalf("%s: Build: %v", sc.name, err)
	}
	return p
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", path, diff)
	}
}

func render(t *testing.T, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	scs := scenarios()
	if len(scs) < 12 {
		t.Fatalf("only %d scenarios; the bar is 12", len(scs))
	}
	for _, sc := range scs {
		t.Run(sc.name, func(t *testing.T) {
			p := buildScenario(t, sc)
			text := render(t, func(b *bytes.Buffer) error { return Text(b, p, TextOptions{}) })
			golden(t, sc.name+".txt", text)
			golden(t, sc.name+".verbose.txt", render(t, func(b *bytes.Buffer) error { return Text(b, p, TextOptions{Verbose: true}) }))
			js := render(t, func(b *bytes.Buffer) error { return JSON(b, p) })
			golden(t, sc.name+".json", js)
			md := render(t, func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) })
			golden(t, sc.name+".md", md)

			if bytes.Contains(text, []byte("\x1b[")) {
				t.Error("text without Color contains ANSI escapes")
			}
			viewstest.Validate(t, "plan.schema.json", js)
			checkMarkdown(t, md)
		})
	}
}

func TestGoldenColor(t *testing.T) {
	for _, sc := range scenarios() {
		if sc.name != "every-action" {
			continue
		}
		p := buildScenario(t, sc)
		out := render(t, func(b *bytes.Buffer) error { return Text(b, p, TextOptions{Color: true}) })
		if !bytes.Contains(out, []byte(ansiGreen)) || !bytes.Contains(out, []byte(ansiRed)) {
			t.Error("colour output lacks green/red")
		}
		golden(t, sc.name+".color.txt", out)
	}
}

// checkMarkdown renders md with a CommonMark (+GFM tables) library and checks
// that it has no ANSI escapes and that the tables came out as tables.
func checkMarkdown(t *testing.T, md []byte) {
	t.Helper()
	if bytes.ContainsRune(md, 0x1b) {
		t.Error("Markdown contains an ANSI escape")
	}
	var html bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	if err := gm.Convert(md, &html); err != nil {
		t.Fatalf("goldmark: %v", err)
	}
	h := html.String()
	if strings.Contains(string(md), "| # |") && !strings.Contains(h, "<table>") {
		t.Errorf("the change table did not render as a table:\n%s", h)
	}
	if !strings.Contains(h, "<h2>tiform plan</h2>") {
		t.Errorf("missing heading:\n%s", h)
	}
}

// The schema must reject what it is meant to reject (a test that can fail).
func TestSchemaRejects(t *testing.T) {
	sc := scenarios()[1]
	js := render(t, func(b *bytes.Buffer) error { return JSON(b, buildScenario(t, sc)) })
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	mutations := map[string]func(map[string]any){
		"wrong format_version": func(d map[string]any) { d["format_version"] = "1.0" },
		"unknown field":        func(d map[string]any) { d["dsn"] = "root:secret@tcp(x)/" },
		"bad action": func(d map[string]any) {
			d["clusters"].([]any)[0].(map[string]any)["changes"].([]any)[0].(map[string]any)["action"] = "replace"
		},
		"missing statements": func(d map[string]any) {
			delete(d["clusters"].([]any)[0].(map[string]any)["changes"].([]any)[0].(map[string]any), "statements")
		},
	}
	for name, mut := range mutations {
		var d map[string]any
		_ = json.Unmarshal(js, &d)
		mut(d)
		b, _ := json.Marshal(d)
		if err := viewstest.Check("plan.schema.json", b); err == nil {
			t.Errorf("%s: schema accepted an invalid document", name)
		}
	}
}

// Every value is shown in full in its change's row of the Markdown table
// (creates and deletes too), wrapped at option boundaries, never cut: a
// reviewer never has to guess what "..." hid.
func TestMarkdownShowsEveryValueInFull(t *testing.T) {
	cell := strings.NewReplacer("`", "", "<br>", " ")
	for _, sc := range scenarios() {
		p := buildScenario(t, sc)
		md := string(render(t, func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) }))
		if strings.Contains(md, "...") {
			t.Errorf("%s: the Markdown cuts a value:\n%s", sc.name, md)
		}
		for _, cp := range p.Clusters {
			for i, c := range cp.Changes {
				row := ""
				for _, line := range strings.Split(md, "\n") {
					if strings.HasPrefix(line, fmt.Sprintf("| %d | ", i+1)) && strings.Contains(line, "`"+c.Addr.String()+"`") {
						row = cell.Replace(line)
					}
				}
				vals := []string{c.After}
				for _, b := range c.Before {
					vals = append(vals, b.Value)
				}
				for _, v := range vals {
					if v != "" && !strings.Contains(row, v) {
						t.Errorf("%s: %s: value %q is not in full in its row %q", sc.name, c.Addr, v, row)
					}
				}
			}
		}
	}
}

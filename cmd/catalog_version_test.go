package cmd

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views"
)

var footnote = regexp.MustCompile(`\s*\[[0-9]+\]$`)

// TestCatalogViewsAgreeAtEveryVersion: for every version the generated
// table observed, `tiform catalog --version V` as text and as JSON say the
// same of every entry, field by field: kind (with its values and unit),
// scope, online, versions, the default that applies there (or how it is
// computed) and the source. The text is read by the header's column
// offsets (tabwriter aligns each column under its heading).
func TestCatalogViewsAgreeAtEveryVersion(t *testing.T) {
	entries := catalog.Entries()
	seen := map[string]bool{}
	var versions []string
	for _, comp := range []string{upstream.TiKV, upstream.PD, upstream.SysVar} {
		for _, v := range upstream.MustLoad().Versions[comp] {
			if v != "master" && !seen[v] {
				seen[v] = true
				versions = append(versions, v)
			}
		}
	}
	if len(versions) < 40 {
		t.Fatalf("only %d versions observed", len(versions))
	}
	checked := 0
	for _, vs := range versions {
		ver := version.MustParse(vs)
		var in []*catalog.Entry
		for _, e := range entries {
			if e.ExistsIn(ver) {
				in = append(in, e)
			}
		}
		var text, js bytes.Buffer
		if err := writeCatalogText(&text, in, ver); err != nil {
			t.Fatal(err)
		}
		if err := writeCatalogJSON(&js, in, ver); err != nil {
			t.Fatal(err)
		}
		var doc views.Catalog
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		rows := textRows(t, text.String())
		if len(rows) != len(doc.Entries) {
			t.Fatalf("%s: %d text rows, %d JSON entries", vs, len(rows), len(doc.Entries))
		}
		for i, j := range doc.Entries {
			r := rows[i]
			want := map[string]string{
				"NAME": j.Address, "KIND": jsonKindText(j), "SCOPE": dashed(j.Scope), "ONLINE": jsonOnline(j),
				"VERSIONS": j.Versions, "DEFAULT": jsonDefault(j), "SOURCE": j.Sources[0],
			}
			for col, w := range want {
				got := r[col]
				if col == "DEFAULT" {
					got = strings.TrimSpace(footnote.ReplaceAllString(got, ""))
				}
				if got != w {
					t.Errorf("%s %s: text %s %q, JSON says %q", vs, j.Address, col, got, w)
				}
			}
			checked++
		}
	}
	t.Logf("%d versions, %d entries compared", len(versions), checked)
}

// textRows reads the catalog's text table by the header's column offsets
// (in runes: tabwriter aligns runes, and VERSIONS holds en dashes).
func textRows(t *testing.T, out string) []map[string]string {
	t.Helper()
	lines := strings.Split(out, "\n")
	header := lines[0]
	cols := []string{"NAME", "KIND", "SCOPE", "ONLINE", "VERSIONS", "DEFAULT", "SOURCE"}
	var starts []int
	for _, c := range cols {
		i := strings.Index(header, c)
		if i < 0 {
			t.Fatalf("header lacks %s: %q", c, header)
		}
		starts = append(starts, len([]rune(header[:i])))
	}
	var rows []map[string]string
	for _, line := range lines[1:] {
		if line == "" {
			break
		}
		l := []rune(line) // tabwriter aligns in runes (VERSIONS holds en dashes)
		r := map[string]string{}
		for i, c := range cols {
			end := len(l)
			if i+1 < len(starts) {
				end = min(starts[i+1], len(l))
			}
			r[c] = strings.TrimSpace(string(l[min(starts[i], len(l)):end]))
		}
		rows = append(rows, r)
	}
	return rows
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func jsonKindText(j views.CatalogEntry) string {
	k := j.Kind
	if j.Kind == "enum" {
		k += "(" + strings.Join(j.Enum, "|") + ")"
	}
	if j.Unit != "" && j.Unit != "B" {
		k += " " + j.Unit
	}
	if j.Prefix {
		k += " (prefix rule)"
	}
	if j.Secret != "" {
		k += " (credential)"
	}
	return k
}

func jsonOnline(j views.CatalogEntry) string {
	switch {
	case j.Class == "read-only":
		return "read-only"
	case j.Class != "setting":
		return "not a setting (" + j.Class + ")"
	case j.RestartIfEnabled:
		return "yes (restart to enable)"
	case j.Online:
		return "yes"
	}
	return "restart"
}

func jsonDefault(j views.CatalogEntry) string {
	switch {
	case j.DefaultInVersion != nil && *j.DefaultInVersion != "":
		return *j.DefaultInVersion
	case j.DefaultComputed != "":
		return "computed: " + j.DefaultComputed
	}
	return "-"
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/upstream"
)

// upstreamOptions returns the upstream copies named by the environment, or
// skips the test saying how to run it.
func upstreamOptions(t *testing.T) options {
	t.Helper()
	o := options{tikv: os.Getenv("TIFORM_UPSTREAM_TIKV"), pd: os.Getenv("TIFORM_UPSTREAM_PD"), docs: os.Getenv("TIFORM_UPSTREAM_DOCS_CN"),
		pdSurface: upstream.MustPDSurface()}
	if o.tikv == "" || o.pd == "" || o.docs == "" {
		t.Skip("skipped: set TIFORM_UPSTREAM_TIKV, TIFORM_UPSTREAM_PD and TIFORM_UPSTREAM_DOCS_CN to git copies of " +
			"tikv/tikv, tikv/pd and pingcap/docs-cn (docs/catalog.md, \"Regenerating\") to check internal/upstream/settings.json against them")
	}
	return o
}

// TestRegenerateReproducesCommittedFile: generating from the upstream copies
// gives internal/upstream/settings.json byte for byte.
func TestRegenerateReproducesCommittedFile(t *testing.T) {
	o := upstreamOptions(t)
	data, _, err := generate(o)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "internal", "upstream", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, committed) {
		t.Errorf("internal/upstream/settings.json differs from what the upstream copies generate (%s): run make catalog",
			firstDifference(committed, data))
	}
}

// TestWalkCoversDocumentedOnlineKeys checks the OnlineConfig walk against an
// independent list: every TiKV key of the online-change table of
// docs-cn release-8.5 dynamic-config.md ({db-name} and {cf-name}
// expanded) is online at v8.5's newest tag. The docs also list a few
// keys the code no longer has; those are reported, not failed.
func TestWalkCoversDocumentedOnlineKeys(t *testing.T) {
	o := upstreamOptions(t)
	docs, err := openRepo("pingcap/docs-cn", o.docs)
	if err != nil {
		t.Fatal(err)
	}
	defer docs.close()
	page, err := docs.show("release-8.5", "dynamic-config.md")
	if err != nil {
		t.Fatal(err)
	}
	keys := docsOnlineTiKVKeys(string(page))
	if len(keys) < 150 {
		t.Fatalf("only %d TiKV keys read from dynamic-config.md: table layout changed?", len(keys))
	}
	tbl := upstream.MustLoad()
	last := ""
	for _, v := range tbl.Versions[upstream.TiKV] {
		if strings.HasPrefix(v, "v8.5.") {
			last = v
		}
	}
	missing := 0
	for _, k := range keys {
		s, ok := tbl.Setting(upstream.TiKV, k)
		if !ok {
			t.Logf("documented online key %s is not in the code at %s (docs out of date?)", k, last)
			missing++
			continue
		}
		if sp := tbl.At(s, last); sp == nil || !sp.Online {
			t.Errorf("documented online key %s is not online in the walk at %s", k, last)
		}
	}
	if missing*50 > len(keys) {
		t.Errorf("%d of %d documented keys are missing from the walk: more than 2%%", missing, len(keys))
	}
}

// docsOnlineTiKVKeys reads the TiKV table of dynamic-config.md ("| 配置项 |
// 简介 |" rows) and expands its templates.
func docsOnlineTiKVKeys(page string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "### ") {
			in = strings.Contains(strings.ToLower(l), "tikv")
			continue
		}
		if !in || !strings.HasPrefix(l, "| ") {
			continue
		}
		cells := strings.Split(l, "|")
		if len(cells) < 3 {
			continue
		}
		k := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if k == "配置项" || strings.HasPrefix(k, "---") || !strings.Contains(k, ".") {
			continue
		}
		for _, db := range expand(k, "{db-name}", "rocksdb", "raftdb") {
			out = append(out, expand(db, "{cf-name}", "defaultcf", "writecf", "lockcf", "raftcf")...)
		}
	}
	return out
}

func expand(k, tmpl string, with ...string) []string {
	if !strings.Contains(k, tmpl) {
		return []string{k}
	}
	var out []string
	for _, w := range with {
		x := strings.ReplaceAll(k, tmpl, w)
		if strings.HasPrefix(x, "raftdb.") && w != "defaultcf" && tmpl == "{cf-name}" {
			continue // raftdb has only defaultcf
		}
		out = append(out, x)
	}
	return out
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/upstream"
)

// TestReleaseNotesCoverageIsCommitted: the report built from the docs-cn
// copy, the committed table and the committed reasons is the committed
// docs/release-notes-coverage.md, every item has a rule, the catalog's
// facts or a reason, and no reason is stale (what `make catalog-check`
// checks, without regenerating the table). -update rewrites the report.
func TestReleaseNotesCoverageIsCommitted(t *testing.T) {
	o := upstreamOptions(t)
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "internal", "upstream", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := upstream.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	doc, uncovered, stale, err := releaseNotesCoverage(o.docs, tbl, filepath.Join(root, reasonsFile))
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("TIFORM_DUMP_UNCOVERED") != "" {
		t.Logf("uncovered:\n%s", strings.Join(uncovered, "\n"))
	}
	for _, id := range uncovered {
		t.Errorf("release-note item %s has neither a rule nor a reason (%s)", id, reasonsFile)
	}
	for _, s := range stale {
		t.Errorf("reason %s matches no release-note item", s)
	}
	path := filepath.Join(root, coverageFile)
	if *update {
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, doc) {
		t.Errorf("%s is stale (%s): run make catalog", coverageFile, firstDifference(committed, doc))
	}
}

// The parser on a release note shaped like docs-cn's: which entries are in
// scope, what each names, its references and the ID reasons use.
func TestParseReleaseNoteItems(t *testing.T) {
	def := func(s string) *string { return &s }
	tbl := &upstream.Table{Versions: map[string][]string{upstream.SysVar: {"v8.5.5", "v8.5.6"}, upstream.TiKV: {"v8.5.5", "v8.5.6"}},
		Settings: []*upstream.Setting{
			{Component: upstream.SysVar, Key: "tidb_ignore_inlist_plan_digest", Spans: []*upstream.Span{
				{From: "v8.5.5", To: "v8.5.5", Kind: "bool", Default: def("OFF")}, {From: "v8.5.6", To: "v8.5.6", Kind: "bool", Default: def("ON")}}},
			{Component: upstream.SysVar, Key: "timestamp"},
			{Component: upstream.TiKV, Key: "raftstore.periodic-full-compact-start-times"},
			{Component: upstream.TiKV, Key: "coprocessor.region-split-size"},
			{Component: upstream.PD, Key: "schedule.max-merge-region-size"},
		}}
	md := strings.Join([]string{
		"# TiDB 8.5.6 Release Notes",
		"## 兼容性变更",
		"### 系统变量",
		"| 变量名 | 修改类型 | 描述 |",
		"|---|---|---|",
		"| [`tidb_ignore_inlist_plan_digest`](/system-variables.md) | 修改 | 默认值从 `OFF` 修改为 `ON`。 |",
		"### 配置参数",
		"| 配置文件或组件 | 配置项 | 修改类型 | 描述 |",
		"| TiCDC | [`region-split-size`](/x.md) | 新增 | 不是 TiKV 的 |",
		"| TiKV | [`periodic-full-compact-start-times`](/tikv.md) | 修改 | 说明 |",
		"- 一个不提设置 `foo`、也不提功能的条目",
		"## 错误修复",
		"+ TiDB",
		"",
		"    - 修复 `DATETIME` 或 `TIMESTAMP` 列比较的问题 [#38361](https://github.com/pingcap/tidb/issues/38361) @[a](https://github.com/a)",
		"    - 修复 Plan Cache 导致结果出错的问题 [#43311](https://github.com/pingcap/tidb/issues/43311) @[a](https://github.com/a)",
		"+ PD",
		"",
		"    - 修复将 TiKV 配置项 [`coprocessor.region-split-size`](/tikv.md) 设置过小导致 PD panic 的问题 [#8323](https://github.com/tikv/pd/issues/8323) [#1](https://github.com/tikv/pd/pull/1)",
		"+ TiFlash",
		"",
		"    - 修复 GC 问题 [#9](https://github.com/pingcap/tiflash/issues/9)",
	}, "\n")
	type brief struct {
		ID, Section, Component, Change string
		Names                          []string
		Features                       []string
		Refs                           []string
	}
	var got []brief
	for _, it := range parseReleaseNotes("v8.5.6", md, newKeyIndex(tbl)) {
		var ns []string
		for _, n := range it.Names {
			ns = append(ns, n.String())
		}
		got = append(got, brief{it.ID(), it.Section, it.Component, it.Change, ns, it.Features, it.Refs})
	}
	want := []brief{
		{"v8.5.6 tidb_ignore_inlist_plan_digest", sectionCompat, "TiDB", changeModified, []string{"tidb_ignore_inlist_plan_digest"}, nil, nil},
		{"v8.5.6 tikv raftstore.periodic-full-compact-start-times", sectionCompat, "TiKV", changeModified,
			[]string{"tikv raftstore.periodic-full-compact-start-times"}, nil, nil},
		{"pingcap/tidb#43311", sectionBugFix, "TiDB", "", nil, []string{"plan cache"}, []string{"pingcap/tidb#43311"}},
		{"tikv/pd#8323", sectionBugFix, "PD", "", []string{"tikv coprocessor.region-split-size"}, []string{"region size"},
			[]string{"tikv/pd#8323", "tikv/pd#1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// The default change is the catalog's fact; the TiKV row is not (no
	// fact of it changed).
	items := parseReleaseNotes("v8.5.6", md, newKeyIndex(tbl))
	if f := catalogFact(tbl, items[0]); !strings.Contains(f, "the default (OFF → ON)") {
		t.Errorf("catalog fact of the default change: %q", f)
	}
	if f := catalogFact(tbl, items[1]); f != "" {
		t.Errorf("catalog fact of an unchanged item: %q", f)
	}
}

// TestReasonsFile: the format, labels, rule references and the order in
// which a rule, the catalog and a reason cover an item.
func TestReasonsFile(t *testing.T) {
	rs, err := parseReasons([]byte("# comment\n@defect: A defect.\n\ntikv/tikv#1 | @defect more words\n" +
		"v8.5.6 tidb_x | => TF127\npingcap/tidb#2 | plain reason\nold/repo#3 | @defect\n"))
	if err != nil {
		t.Fatal(err)
	}
	items := []noteItem{
		{Release: "v8.5.7", Section: sectionBugFix, Refs: []string{"tikv/tikv#1"}},
		{Release: "v8.5.6", Section: sectionCompat, Change: changeModified, Names: []catalogKey{{upstream.SysVar, "tidb_x"}}},
		{Release: "v8.1.1", Section: sectionBugFix, Refs: []string{"tikv/tikv#17066"}},
		{Release: "v8.1.1", Section: sectionBugFix, Refs: []string{"pingcap/tidb#2"}},
		{Release: "v8.1.1", Section: sectionBugFix, Refs: []string{"pingcap/tidb#4"}},
	}
	covs, uncovered, stale := coverageReport(&upstream.Table{Versions: map[string][]string{}}, items, rs)
	if covs[0].Reason != "A defect. more words" || strings.Join(covs[1].Rules, ",") != "TF127" ||
		strings.Join(covs[2].Rules, ",") != "TF144" || covs[3].Reason != "plain reason" || covs[4].covered() {
		t.Errorf("coverage: %+v", covs)
	}
	if strings.Join(uncovered, ",") != "pingcap/tidb#4" || len(stale) != 1 || !strings.HasPrefix(stale[0], "old/repo#3") {
		t.Errorf("uncovered %v, stale %v", uncovered, stale)
	}
	for _, bad := range []string{"x | => TF999\n", "x | => nothing\n", "x | @nolabel\n", "x\n", "x | a\nx | b\n", "@label\n"} {
		if _, err := parseReasons([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLexRust(t *testing.T) {
	src := `/* a /* nested */ comment */ let x = r#"raw "str""#; 'a' '\n' &'static str; x.0.1; 1_000u64 0.25 1e-3 // end`
	toks, err := lexRust(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.String())
	}
	want := []string{"let", "x", "=", `"raw \"str\""`, ";", "'a'", `'\n'`, "&", "'static", "str", ";", "x", ".", "0", ".", "1", ";", "1_000u64", "0.25", "1e-3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`"open`, `/* open`, `r#"open`} {
		if _, err := lexRust(bad); err == nil {
			t.Errorf("lexRust(%q): want an error", bad)
		}
	}
}

func TestEvalRust(t *testing.T) {
	env := &evalEnv{lookup: func(name string) ([]rtoken, *evalEnv, bool) {
		if name == "DEFAULT_X" {
			toks, _ := lexRust("30 * 1024 * 1024")
			return toks, &evalEnv{lookup: func(string) ([]rtoken, *evalEnv, bool) { return nil, nil, false }}, true
		}
		return nil, nil, false
	}}
	tests := []struct {
		expr string
		kind rvalKind
		want string
	}{
		{"ReadableSize::mb(96)", rvSize, "100663296"},
		{"ReadableSize(DEFAULT_X as u64)", rvSize, "31457280"},
		{"ReadableSize::gb(8).0", rvInt, "8589934592"},
		{"ReadableDuration::secs(10)", rvDuration, "10000000000"},
		{"ReadableDuration::millis(500)", rvDuration, "500000000"},
		{"Some(4 * MIB)", rvInt, "4194304"},
		{"-1", rvInt, "-1"},
		{"0.25", rvFloat, "0.25"},
		{`"mvcc".to_owned()`, rvString, "mvcc"},
		{"String::new()", rvString, ""},
		{"EngineType::RaftKv", rvVariant, "EngineType::RaftKv"},
	}
	for _, tt := range tests {
		toks, err := lexRust(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		v, err := env.eval(toks)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		got := v.s
		if v.i != nil {
			got = v.i.String()
		}
		if v.kind == rvFloat {
			got = formatJSONFloat(v.f)
		}
		if v.kind != tt.kind || got != tt.want {
			t.Errorf("%s = (%v, %s), want (%v, %s)", tt.expr, v.kind, got, tt.kind, tt.want)
		}
	}
	for _, notLiteral := range []string{"cmp::max(1, 2)", "SysQuota::cpu_cores_quota()", "x + y", "vec![0; 7]"} {
		toks, _ := lexRust(notLiteral)
		if _, err := env.eval(toks); err == nil {
			t.Errorf("%s: want not a literal", notLiteral)
		}
	}
}

func TestParseSysVarsFacts(t *testing.T) {
	minVariables = 1
	defer func() { minVariables = 100 }()
	src := strings.Join([]string{
		"## 变量参考",
		"",
		"### `tidb_a` <span class=\"version-mark\">从 v8.1 版本开始引入</span>",
		"",
		"- 作用域：SESSION | GLOBAL",
		"- 是否持久化到集群：是",
		"- 类型：枚举型",
		"- 默认值：`ON`。在 v8.0.0 之前，默认值为 `OFF`。",
		"- 可选值：`OFF`，`ON`，`AUTO`",
		"- 从 v8.5.3 开始，默认值由 `OFF` 改为 `ON`。",
		"",
		"### `tidb_b`",
		"",
		"- 作用域：GLOBAL",
		"- 默认值：在 v6.6.0 之前版本中为 `OFF`，在 v6.6.0 及之后的版本中为 `ON`。",
		"",
		"## 其他",
		"### `not_a_variable`",
	}, "\n")
	got, err := parseSysVars(src)
	if err != nil {
		t.Fatal(err)
	}
	a := got["tidb_a"]
	if a == nil || a.introduced != "v8.1.0" || a.scope != "GLOBAL" || !a.persisted || a.kind != "enum" || *a.def != "ON" ||
		strings.Join(a.values, ",") != "OFF,ON,AUTO" || len(a.patchDefaults) != 2 || a.patchDefaults[1].version != "v8.5.3" {
		t.Errorf("tidb_a = %+v", a)
	}
	b := got["tidb_b"]
	if b == nil || !b.persisted || b.kind != "bool" || *b.def != "ON" {
		t.Errorf("tidb_b = %+v (GLOBAL without a persistence line is persisted; kind from the default)", b)
	}
	if _, ok := got["not_a_variable"]; ok {
		t.Error("a heading outside 变量参考 was read")
	}
}

func TestParseReleaseNote(t *testing.T) {
	src := "| 变量名 | 修改类型 | 描述 |\n|---|---|---|\n" +
		"| [`tidb_x`](https://docs.pingcap.com/x) | 修改 | 默认值从 `1` 修改为 `3`，… |\n" +
		"| `tidb_y` | 新增 | … |\n\n| 配置文件或组件 | 配置项 | 修改类型 | 描述 |\n| TiKV | [`a.b`](x) | 新增 | … |\n"
	got := parseReleaseNote("releases/release-8.5.7.md", "v8.5.7", src)
	want := []relNoteChange{
		{name: "tidb_x", change: "修改", old: "1", new: "3", version: "v8.5.7", path: "releases/release-8.5.7.md", line: 3},
		{name: "tidb_y", change: "新增", version: "v8.5.7", path: "releases/release-8.5.7.md", line: 4},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(relNoteChange{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzLexRust(f *testing.F) {
	for _, s := range []string{`fn f() { "a" }`, `r#"x"#`, `'a' 'b`, "/* /* */", "1.0.max(2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := lexRust(s)
		if err != nil {
			return
		}
		f := &rustFile{structs: map[string]*rustStruct{}, enums: map[string]*rustEnum{}, defaults: map[string]*rustDefault{},
			consts: map[string][]rtoken{}, uses: map[string]string{}, macros: map[string]*rustMacro{}, aliases: map[string][]rtoken{}, prefixes: map[string]string{}}
		_ = f.scanItems(toks, 0) // must not panic or hang
	})
}

func FuzzParseSysVars(f *testing.F) {
	f.Add("## 变量参考\n### `a`\n- 作用域：GLOBAL\n- 默认值：`1`\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseSysVars(s)
		_ = parseReleaseNote("p", "v1.0.1", s)
	})
}

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/upstream"
)

var update = flag.Bool("update", false, "rewrite golden files")

// gitRepo builds a repository from testdata/fixture/<name>: each ref
// commits the previous ref's tree with the files of <ref>/ copied over it
// and the edits of <ref>.edits.json applied (each old text must occur
// once), so a fixture states only what changes between versions. A ref
// that looks like a version becomes a tag, any other a branch.
func gitRepo(t *testing.T, name string, refs ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run("init", "-q", "-b", "scratch")
	for _, ref := range refs {
		base := filepath.Join("testdata", "fixture", name, ref)
		if _, err := os.Stat(base); err == nil {
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
		}
		applyEdits(t, dir, base+".edits.json")
		run("add", "-A")
		run("commit", "-q", "--allow-empty", "-m", ref)
		if _, ok := parseTag(ref); ok {
			run("tag", ref)
		} else {
			run("branch", "-f", ref)
		}
	}
	// tags the generator must ignore: a pre-release, a dated hot fix, a
	// later versioning scheme
	for _, extra := range []string{"v6.5.1-alpha", "v6.5.1-20240101-abcdef0", "v26.3.0"} {
		run("tag", extra)
	}
	return dir
}

func applyEdits(t *testing.T, dir, editsFile string) {
	t.Helper()
	data, err := os.ReadFile(editsFile)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var edits []struct{ File, Old, New string }
	if err := json.Unmarshal(data, &edits); err != nil {
		t.Fatalf("%s: %v", editsFile, err)
	}
	for _, e := range edits {
		path := filepath.Join(dir, e.File)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), e.Old); n != 1 {
			t.Fatalf("%s: %q occurs %d times in %s", editsFile, e.Old, n, e.File)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(src), e.Old, e.New, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fixtureOptions(t *testing.T) options {
	minVariables = 5
	t.Cleanup(func() { minVariables = 100 })
	return options{
		tikv: gitRepo(t, "tikv", "v6.5.0", "v6.5.1", "master"),
		pd:   gitRepo(t, "pd", "v6.5.0", "v6.5.1", "master"),
		docs: gitRepo(t, "docs", "release-6.5", "master"),
	}
}

// TestGenerateFixture runs the whole generator over small synthetic
// repositories and compares the result with testdata/fixture.golden.json
// (regenerate with -update and review the diff), then checks the facts
// each walk rule must produce.
func TestGenerateFixture(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	data, warnings, err := generate(fixtureOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	data = stripCommits(data)
	golden := filepath.Join("testdata", "fixture.golden.json")
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("generated table differs from %s (run go test ./tools/catalogen -run Fixture -update and review):\n%s", golden, cmp.Diff(string(want), string(data)))
	}
	if len(warnings) != 0 {
		t.Errorf("unexpected warnings: %q", warnings)
	}
	tbl, err := upstream.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	checkFixtureFacts(t, tbl)
}

// stripCommits blanks commit ids, which depend on git's object format.
func stripCommits(data []byte) []byte {
	return commitRE.ReplaceAll(data, []byte(`"commit": "-"`))
}

var commitRE = regexp.MustCompile(`"commit": "[0-9a-f]{40,64}"`)

type spanWant struct {
	from, to string
	kind     string
	online   bool
	def      string // "-" for none
	scope    string
}

func checkFixtureFacts(t *testing.T, tbl *upstream.Table) {
	t.Helper()
	tests := []struct {
		component, key string
		want           []spanWant
	}{
		// a literal const default that changes in a patch release
		{"tikv", "raftstore.split-balance-score", []spanWant{
			{"v6.5.0", "v6.5.0", "float", true, "0.25", ""}, {"v6.5.1", "master", "float", true, "0.8", ""}}},
		// becomes #[online_config(skip)] in v6.5.1
		{"tikv", "raftstore.max-inflight", []spanWant{
			{"v6.5.0", "v6.5.0", "int", true, "256", ""}, {"v6.5.1", "master", "int", false, "256", ""}}},
		{"tikv", "raftstore.new-knob", []spanWant{{"v6.5.1", "master", "bool", true, "true", ""}}},
		// Option<ReadableSize> = None: no literal default
		{"tikv", "raftstore.region-split-size", []spanWant{{"v6.5.0", "master", "size", true, "-", ""}}},
		{"tikv", "raftstore.gc-interval", []spanWant{{"v6.5.0", "master", "duration", true, "1m30s", ""}}},
		// serde rename on a variant; hand-written as_str spellings
		{"tikv", "raftstore.mode", []spanWant{{"v6.5.0", "master", "enum", true, "safe-mode", ""}}},
		{"tikv", "raftstore.priority", []spanWant{{"v6.5.0", "master", "enum", true, "high", ""}}},
		{"tikv", "raftstore.data-dir", []spanWant{{"v6.5.0", "master", "string", false, "./", ""}}},
		{"tikv", "raftstore.labels", []spanWant{{"v6.5.0", "master", "list", true, `["zone"]`, ""}}},
		// a submodule renamed by serde, generated by a macro_rules
		{"tikv", "raftstore.apply.pool-size", []spanWant{{"v6.5.0", "master", "int", true, "2", ""}}},
		{"tikv", "raftstore.apply.stack-size", []spanWant{{"v6.5.0", "master", "size", false, "10MiB", ""}}},
		// a skipped struct field: walked, restart-only
		{"tikv", "engine.enable", []spanWant{{"v6.5.0", "master", "bool", false, "true", ""}}},
		// #[serde(with = "…compression_type_serde")]: spellings and the
		// default's from the module's serialize fn
		{"tikv", "engine.compression", []spanWant{{"v6.5.0", "master", "enum", false, "zstd", ""}}},
		{"tikv", "memory-limit", []spanWant{{"v6.5.0", "master", "size", false, "1GiB", ""}}},
		{"pd", "schedule.max-merge-region-size", []spanWant{
			{"v6.5.0", "v6.5.0", "int", true, "20", ""}, {"v6.5.1", "master", "int", true, "54", ""}}},
		{"pd", "schedule.split-merge-interval", []spanWant{{"v6.5.0", "master", "duration", true, "1h0m0s", ""}}},
		{"pd", "schedule.tolerant-size-ratio", []spanWant{{"v6.5.0", "master", "float", true, "0.5", ""}}},
		// a nested key of an AddKeyValue section is not accepted online
		{"pd", "schedule.nested.depth", []spanWant{{"v6.5.0", "master", "int", false, "0", ""}}},
		// a renamed flag: parseDeprecatedFlag makes enable-X true when unset
		{"pd", "schedule.enable-make-up-replica", []spanWant{{"v6.5.0", "master", "bool", true, "true", ""}}},
		{"pd", "schedule.disable-make-up-replica", []spanWant{{"v6.5.0", "master", "bool", true, "false", ""}}},
		{"pd", "pd-server.key-type", []spanWant{{"v6.5.0", "master", "string", true, "table", ""}}},
		// a typeutil.StringSlice shows one comma-joined string
		{"pd", "pd-server.runtime-services", []spanWant{{"v6.5.0", "master", "list", true, "", ""}}},
		{"pd", "quota-backend-bytes", []spanWant{{"v6.5.0", "master", "size", false, "8GiB", ""}}},
		// a struct shown as text: no zero text to state
		{"pd", "cluster-version", []spanWant{{"v6.5.0", "master", "string", true, "-", ""}}},
		{"pd", "label-property", []spanWant{{"v6.5.0", "master", "map", false, "-", ""}}},
		{"pd", "log.level", []spanWant{{"v6.5.0", "master", "string", true, "-", ""}}},
		// a type with its own MarshalJSON (tikv/pd@v8.5.7:pkg/utils/logutil/log.go,
		// RedactInfoLogType int printed as false, true or "MARKER"): text,
		// and no default read from its Go value
		{"pd", "pd-server.redact-mode", []spanWant{{"v6.5.0", "master", "string", true, "-", ""}}},
		{"sysvar", "tidb_enable_collect_execution_info", []spanWant{{"v6.5.0", "master", "bool", true, "ON", "INSTANCE"}}},
		{"sysvar", "tidb_low_resolution_tso", []spanWant{
			{"v6.5.0", "v6.5.1", "bool", false, "OFF", "SESSION"}, {"master", "master", "bool", true, "OFF", "GLOBAL"}}},
		{"sysvar", "tidb_auto_analyze_concurrency", []spanWant{
			{"v6.5.0", "v6.5.0", "int", true, "1", "GLOBAL"}, {"v6.5.1", "master", "int", true, "3", "GLOBAL"}}},
		{"sysvar", "tidb_new_in_patch", []spanWant{{"v6.5.1", "master", "bool", true, "OFF", "GLOBAL"}}},
		// no 类型 line: inferred from the default
		{"sysvar", "tidb_gc_life_time", []spanWant{{"v6.5.0", "master", "duration", true, "10m0s", "GLOBAL"}}},
		// "在 v6.5.1 之前，默认值为 `ON`"
		{"sysvar", "tidb_patch_default", []spanWant{
			{"v6.5.0", "v6.5.0", "bool", true, "ON", "GLOBAL"}, {"v6.5.1", "master", "bool", true, "OFF", "GLOBAL"}}},
		// the v6.5.0 release note wins over a docs branch that still says 128;
		// no type, a decimal example: a number; a heading without backticks
		{"sysvar", "tidb_stale_branch", []spanWant{
			{"v6.5.0", "v6.5.1", "float", true, "8192", "GLOBAL"}, {"master", "master", "float", true, "128", "GLOBAL"}}},
		// an integer number of bytes the docs say may be written with a unit
		{"sysvar", "tidb_bytes", []spanWant{{"v6.5.0", "master", "size", true, "1024", "GLOBAL"}}},
		// "在 v6.4.0 及之后版本中为 `ON`": the later default
		{"sysvar", "tidb_later_default", []spanWant{{"v6.5.0", "master", "bool", true, "ON", "GLOBAL"}}},
		// "在 v6.5.0 中为 `ON`，在 v6.5.1 及后续的 6.5 补丁版本中为 `OFF`"
		// (pingcap/docs-cn@release-8.1:system-variables.md, tidb_enable_parallel_hashagg_spill)
		{"sysvar", "tidb_patch_line_default", []spanWant{
			{"v6.5.0", "v6.5.0", "bool", true, "ON", "GLOBAL"}, {"v6.5.1", "master", "bool", true, "OFF", "GLOBAL"}}},
	}
	for _, tt := range tests {
		s, ok := tbl.Setting(tt.component, tt.key)
		if !ok {
			t.Errorf("%s %s: missing", tt.component, tt.key)
			continue
		}
		var got []spanWant
		for _, sp := range s.Spans {
			d := "-"
			if sp.Default != nil {
				d = *sp.Default
			}
			got = append(got, spanWant{sp.From, sp.To, sp.Kind, sp.Online, d, sp.Scope})
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(spanWant{})); diff != "" {
			t.Errorf("%s %s spans (-want +got):\n%s", tt.component, tt.key, diff)
		}
	}
	for _, absent := range []string{"raftstore.old-name", "raftstore.dev-assert", "not-a-setting"} {
		if s, ok := tbl.Setting("tikv", absent); ok && absent != "raftstore.dev-assert" {
			t.Errorf("tikv %s should not be listed: %+v", absent, s)
		}
	}
	if s, ok := tbl.Setting("tikv", "raftstore.dev-assert"); !ok || !s.Spans[0].Hidden || s.Spans[0].Online {
		t.Errorf("raftstore.dev-assert: want a hidden, not online key")
	}
	if s, ok := tbl.Setting("pd", "log-file"); ok {
		t.Errorf("a deprecated omitempty field is listed: %+v", s)
	}
	if s, ok := tbl.Setting("sysvar", "tidb_old_switch"); !ok || s.Spans[0].Deprecated || !s.Newest().Deprecated {
		t.Errorf("tidb_old_switch: want not deprecated in v6.5.0, deprecated from v6.5.1")
	}
	prefixes := map[string]bool{}
	for _, p := range tbl.Prefixes {
		prefixes[p.Component+":"+p.Key] = true
	}
	for _, p := range []string{"tikv:engine.", "pd:log."} {
		if !prefixes[p] {
			t.Errorf("prefix %s not recorded (have %v)", p, prefixes)
		}
	}
	// what is not a setting: a command-line key is the instance's identity
	// (a path when it names one), the path rule covers the rest
	for _, c := range []struct{ component, key, class string }{
		{"tikv", "raftstore.data-dir", upstream.ClassPath}, {"tikv", "raftstore.labels", upstream.ClassIdentity},
		{"pd", "name", upstream.ClassIdentity}, {"tikv", "raftstore.max-inflight", ""}, {"pd", "quota-backend-bytes", ""},
	} {
		if s, ok := tbl.Setting(c.component, c.key); !ok || s.Spans[0].Class != c.class {
			t.Errorf("%s %s: class %q, want %q", c.component, c.key, s.Spans[0].Class, c.class)
		}
	}
	// a numeric_enum_serializing_mod! field: printed as its number, an enum
	// of kebab-case names with their codes
	if s, ok := tbl.Setting("tikv", "engine.compaction-pri"); !ok || s.Spans[0].Kind != upstream.KindEnum ||
		strings.Join(s.Spans[0].Values, ",") != "by-compensated-size,min-overlapping-ratio" ||
		strings.Join(s.Spans[0].Codes, ",") != "0,3" || s.Spans[0].Default == nil || *s.Spans[0].Default != "3" {
		t.Errorf("engine.compaction-pri: want an enum of names with codes 0,3 and the default 3, got %+v", s.Spans[0])
	}
	if got := tbl.Versions["tikv"]; strings.Join(got, ",") != "v6.5.0,v6.5.1,master" {
		t.Errorf("tikv versions = %v: pre-releases, hot fixes and later schemes must be left out", got)
	}
}

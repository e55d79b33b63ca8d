package upstream

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/version"
)

func TestEmbeddedTableLoads(t *testing.T) {
	tbl, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{TiKV, PD, SysVar} {
		if len(tbl.Component(c)) < 100 {
			t.Errorf("%s: only %d settings", c, len(tbl.Component(c)))
		}
		if tbl.Last(c) != "master" || !strings.HasPrefix(tbl.First(c), "v6.5.") {
			t.Errorf("%s: versions %s … %s, want v6.5.x … master", c, tbl.First(c), tbl.Last(c))
		}
	}
	for _, s := range tbl.Settings {
		for _, sp := range s.Spans {
			if sp.Kind == "" || sp.Source.Repo == "" || sp.Source.Path == "" || sp.Source.Ref == "" {
				t.Errorf("%s %s %s–%s: kind or source missing: %+v", s.Component, s.Key, sp.From, sp.To, sp)
			}
			if sp.Kind == KindEnum && len(sp.Values) == 0 {
				t.Errorf("%s %s: enum without values", s.Component, s.Key)
			}
			seen := map[string]bool{}
			for _, v := range sp.Values {
				if seen[strings.ToLower(v)] {
					t.Errorf("%s %s: enum value %q listed twice", s.Component, s.Key, v)
				}
				seen[strings.ToLower(v)] = true
			}
			if s.Component == SysVar && sp.Scope == "" {
				t.Errorf("%s: variable without scope", s.Key)
			}
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"not json":       "{",
		"other format":   `{"format": 99}`,
		"duplicate":      `{"format":1,"versions":{"tikv":["v1.0.0"]},"settings":[{"component":"tikv","key":"a","spans":[{"from":"v1.0.0","to":"v1.0.0"}]},{"component":"tikv","key":"a","spans":[{"from":"v1.0.0","to":"v1.0.0"}]}]}`,
		"no spans":       `{"format":1,"settings":[{"component":"tikv","key":"a","spans":[]}]}`,
		"unknown bounds": `{"format":1,"versions":{"tikv":["v1.0.0"]},"settings":[{"component":"tikv","key":"a","spans":[{"from":"v0.9.0","to":"v1.0.0"}]}]}`,
	} {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("%s: Decode accepted it", name)
		}
	}
}

func testTable(t *testing.T) *Table {
	t.Helper()
	tbl, err := Decode([]byte(`{"format":1,
	 "versions":{"tikv":["v7.5.0","v7.5.1","v8.1.0","v8.5.0","v8.5.7","master"]},
	 "master":{"tikv":"9.0.0-beta.2"},
	 "settings":[
	  {"component":"tikv","key":"a.b","spans":[
	    {"from":"v7.5.0","to":"v7.5.1","kind":"int","online":true,"source":{"repo":"tikv/tikv","path":"p","ref":"v7.5.1"}},
	    {"from":"v8.5.0","to":"master","kind":"int","online":false,"source":{"repo":"tikv/tikv","path":"p","ref":"master"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func TestResolveAndAt(t *testing.T) {
	tbl := testTable(t)
	s, ok := tbl.Setting("tikv", "A.B")
	if !ok {
		t.Fatal("lookup is case-insensitive")
	}
	tests := []struct {
		v        string
		resolved string // "" = none
		online   string // "yes", "no", "absent"
	}{
		{"v7.5.0", "v7.5.0", "yes"},
		{"v7.5.9", "v7.5.1", "yes"},    // a later patch of an observed line
		{"v8.1.3", "v8.1.0", "absent"}, // the setting skips v8.1
		{"v8.5.3", "v8.5.0", "no"},
		{"v8.5.8", "v8.5.7", "no"},
		{"v9.0.0", "master", "no"},
		{"v9.1.0", "", "no"},  // newer than master's line: not covered, master's facts are the nearest
		{"v6.1.0", "", "yes"}, // older than every observed line: In uses the oldest (v7.5.0)
		{"v7.6.0", "", "yes"}, // a line never observed: In uses the newest before it (v7.5.1)
	}
	for _, tt := range tests {
		got, ok := tbl.Resolve("tikv", version.MustParse(tt.v))
		if !ok {
			got = ""
		}
		if got != tt.resolved {
			t.Errorf("Resolve(%s) = %q, want %q", tt.v, got, tt.resolved)
		}
		on := "absent"
		if sp := tbl.In(s, version.MustParse(tt.v)); sp != nil {
			on = map[bool]string{true: "yes", false: "no"}[sp.Online]
		}
		if on != tt.online {
			t.Errorf("In(%s).Online = %s, want %s", tt.v, on, tt.online)
		}
	}
	for v, want := range map[string]string{"v6.1.0": "v7.5.0", "v7.6.0": "v7.5.1", "v8.6.0": "v8.5.7", "v8.5.3": "v8.5.0", "v9.1.0": "master", "v26.3.0": "master"} {
		if got, _ := tbl.Nearest("tikv", version.MustParse(v)); got != want {
			t.Errorf("Nearest(%s) = %s, want %s", v, got, want)
		}
	}
	if diff := cmp.Diff("v7.5.0–v7.5.1, v8.5.0+", tbl.Ranges(s)); diff != "" {
		t.Errorf("Ranges: %s", diff)
	}
}

func TestSourceRendering(t *testing.T) {
	s := Source{Repo: "tikv/tikv", Path: "components/raftstore/src/store/worker/split_config.rs", Ref: "v8.5.7", Line: 25}
	if got := s.String(); got != "tikv/tikv@v8.5.7:components/raftstore/src/store/worker/split_config.rs#L25" {
		t.Errorf("String = %s", got)
	}
	if got := s.URL(); got != "https://github.com/tikv/tikv/blob/v8.5.7/components/raftstore/src/store/worker/split_config.rs#L25" {
		t.Errorf("URL = %s", got)
	}
}

func TestRenderers(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{TiKVSize(0), "0KiB"}, {TiKVSize(1 << 20), "1MiB"}, {TiKVSize(3 << 29), "1536MiB"}, {TiKVSize(1000), "1000B"}, {TiKVSize(1 << 40), "1TiB"},
		{TiKVDuration(0), "0s"}, {TiKVDuration(90 * time.Second), "1m30s"}, {TiKVDuration(36 * time.Hour), "1d12h"}, {TiKVDuration(20 * time.Microsecond), "20us"},
		{PDByteSize(8 << 30), "8GiB"}, {PDByteSize(1536), "1.5KiB"}, {PDByteSize(0), "0B"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}

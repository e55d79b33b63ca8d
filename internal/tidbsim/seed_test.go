package tidbsim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadSeed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"version": "v8.5.3", "versions": {"tikv": "v8.5.1"}, "instance_versions": {"tikv-0": "v8.5.3"},
		"config": [{"type": "pd", "name": "schedule.max-merge-region-size", "value": "20"}], "sql": ["SELECT 1"]}`)
	s, err := LoadSeed(good)
	if err != nil {
		t.Fatal(err)
	}
	o := s.Options()
	want := Options{Version: "v8.5.3", TiKVVersion: "v8.5.1", InstanceVersions: map[string]string{"tikv-0": "v8.5.3"},
		Config: []ConfigOverride{{Type: "pd", Name: "schedule.max-merge-region-size", Value: "20"}}, SQL: []string{"SELECT 1"}}
	if d := cmp.Diff(want, o); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	srv := startServer(t, o)
	if n := len(srv.QueryLog()); n != 0 {
		t.Errorf("seed statements must not be in the query log: %+v", srv.QueryLog())
	}
	got := queryRows(t, openDB(t, srv), "SELECT instance, version FROM information_schema.cluster_info WHERE type = 'tikv'")
	if d := cmp.Diff([][]string{{"127.0.0.1:20160", "8.5.3"}, {"127.0.0.1:20161", "8.5.1"}, {"127.0.0.1:20162", "8.5.1"}}, got); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}
	for _, bad := range []string{`{"verison": "v8.5.1"}`, `{"versions": {"tidbx": "v1.0.0"}}`, `not json`} {
		if _, err := LoadSeed(write("bad.json", bad)); err == nil {
			t.Errorf("LoadSeed(%s) succeeded", bad)
		}
	}
}

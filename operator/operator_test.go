package operator

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/state"
)

type brief struct {
	Resource, Path string
	Component      state.Component
	TOML           bool
	Values         map[string]string
}

func briefs(cs []*Config) []brief {
	var out []brief
	for _, c := range cs {
		out = append(out, brief{c.Resource(), c.Path, c.Component, c.TOML, c.Values})
	}
	return out
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseV1(t *testing.T) {
	cs, err := Parse(read(t, "tidbcluster-v1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{"TidbCluster/basic", "spec.pd.config", state.PD, true, map[string]string{"schedule.max-merge-region-size": "54", "replication.max-replicas": "3"}},
		{"TidbCluster/basic", "spec.tikv.config", state.TiKV, false, map[string]string{"storage.reserve-space": "0MB",
			"coprocessor.region-split-size": "256MiB", "split.qps-threshold": "3000"}},
		{"TidbCluster/basic", "spec.tidb.config", state.TiDB, false, map[string]string{}},
		{"TidbCluster/basic", "spec.tiflash.config.proxy", state.TiFlash, true, map[string]string{"raftstore-proxy.server.snap-io-max-bytes-per-sec": "300MiB"}},
	}
	if diff := cmp.Diff(want, briefs(cs)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if cs[1].Namespace != "tidb-cluster" || cs[1].V2() {
		t.Errorf("namespace %q, v2 %v", cs[1].Namespace, cs[1].V2())
	}
}

func TestParseV2(t *testing.T) {
	cs, err := Parse(read(t, "groups-v2.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{"PDGroup/pd", "spec.template.spec.config", state.PD, true, map[string]string{"schedule.max-merge-region-size": "54"}},
		{"TiKVGroup/tikv", "spec.template.spec.config", state.TiKV, true, map[string]string{"coprocessor.region-split-size": "256MiB",
			"raftstore.store-io-pool-size": "1", "server.labels.zone": "a"}},
		{"TiFlashGroup/tiflash", "spec.template.spec.proxyConfig", state.TiFlash, true, map[string]string{"raftstore-proxy.server.snap-io-max-bytes-per-sec": "300MiB"}},
	}
	if diff := cmp.Diff(want, briefs(cs)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	p := cs[1].Place("groups.yaml")
	if p.Where != "TiKVGroup tikv: spec.template.spec.config (groups.yaml)" || p.Instance != "" || p.Resource != "TiKVGroup/tikv" {
		t.Errorf("place %+v", p)
	}
}

func TestParseRefuses(t *testing.T) {
	group := func(config string) string {
		return "apiVersion: core.pingcap.com/v1alpha1\nkind: TiKVGroup\nmetadata:\n  name: g\nspec:\n  template:\n    spec:\n      config: " + config + "\n"
	}
	tests := []struct {
		name, in, want string
		line           int
	}{
		{"not YAML", "kind: [", "not YAML", 1},
		{"a list", "- a\n", "not a Kubernetes resource", 1},
		{"no resource read", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n", "no TidbCluster", 0},
		{"no name", "apiVersion: core.pingcap.com/v1alpha1\nkind: TiKVGroup\nspec: {}\n", "without metadata.name", 1},
		{"v2 config a map", group("{a: 1}"), "not a TOML string", 8},
		{"bad TOML in a block", group("|\n        a = = 1"), "not valid TOML", 9},
		{"bad TOML, column in the file", group("|\n        a = 1\n        b = = 1"), "not valid TOML", 10},
		{"bad TOML inline", group(`"a = = 1"`), "not valid TOML", 8},
		{"too large", "#" + strings.Repeat("x", MaxManifestBytes), "more than", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			e, ok := err.(*Error)
			if !ok || !strings.Contains(e.Msg, tt.want) || e.Line != tt.line || e.Hint == "" {
				t.Errorf("err %#v, want %q at line %d with a hint", err, tt.want, tt.line)
			}
			if ok && tt.name == "bad TOML, column in the file" && e.Column != 13 {
				t.Errorf("column %d, want 13 (the second = of `        b = = 1`)", e.Column)
			}
		})
	}
}

// TestParseHostile: alias bombs and deep nesting end with an error or a
// bounded result, never a hang or a crash.
func TestParseHostile(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
		"apiVersion: pingcap.com/v1alpha1\nkind: TidbCluster\nmetadata:\n  name: x\nspec:\n  tikv:\n    config:\n      x: *f\n"
	if cs, err := Parse([]byte(bomb)); err == nil {
		for _, c := range cs {
			for _, v := range c.Values {
				if len(v) > 1<<20 {
					t.Errorf("alias bomb expanded to %d bytes", len(v))
				}
			}
		}
	}
	deep := "apiVersion: pingcap.com/v1alpha1\nkind: TidbCluster\nmetadata:\n  name: x\nspec:\n  tikv:\n    config:\n" + strings.Repeat("  ", 1) + strings.Repeat("{a: ", 3000) + "1" + strings.Repeat("}", 3000) + "\n"
	_, _ = Parse([]byte(deep))
	toml := "apiVersion: core.pingcap.com/v1alpha1\nkind: TiKVGroup\nmetadata:\n  name: g\nspec:\n  template:\n    spec:\n      config: |\n        " + strings.Repeat("[", 10000) + "\n"
	_, _ = Parse([]byte(toml))
}

func cfg(comp state.Component, key, text string, typ state.LiteralType) state.ConfigSetting {
	return state.ConfigSetting{Component: comp, Key: key, Value: state.Value{Text: text, Type: typ}}
}

func TestLacksAndPatch(t *testing.T) {
	cs, err := Parse(read(t, "groups-v2.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	declared := []state.ConfigSetting{
		cfg(state.TiKV, "coprocessor.region-split-size", "268435456", state.LiteralNumber), // held, other spelling
		cfg(state.TiKV, "gc.ratio-threshold", "1.5", state.LiteralNumber),
		cfg(state.TiKV, "raftstore.store-io-pool-size", "2", state.LiteralNumber),
		cfg(state.PD, "schedule.max-merge-region-keys", "540000", state.LiteralNumber), // PD keeps it in etcd
		{Component: state.TiKV, Instance: "basic-tikv-0:20160", Key: "split.qps-threshold", Value: state.Value{Text: "1"}},
	}
	var lacks []string
	for _, c := range cs {
		for _, s := range c.Lacks(declared) {
			lacks = append(lacks, c.Resource()+" "+s.Key)
		}
	}
	if diff := cmp.Diff([]string{"TiKVGroup/tikv gc.ratio-threshold", "TiKVGroup/tikv raftstore.store-io-pool-size"}, lacks); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	p, err := MakePatch(cs[1], cs[1].Lacks(declared))
	if err != nil {
		t.Fatal(err)
	}
	want := `spec:
  template:
    spec:
      config: |
        [coprocessor]
        region-split-size = "256MiB"

        [gc]
        ratio-threshold = 1.5

        [raftstore]
        store-io-pool-size = 2

        [server]
        [server.labels]
        zone = "a"
`
	if diff := cmp.Diff(want, string(p.YAML)); diff != "" {
		t.Errorf("patch (-want +got)\n%s", diff)
	}
	if got := p.Command("p.yaml"); got != "kubectl patch tikvgroup tikv -n db --type merge --patch-file p.yaml" {
		t.Errorf("command %q", got)
	}
	if !strings.Contains(p.Rollout(), "rolling restart of TiKVGroup/tikv") {
		t.Errorf("rollout %q", p.Rollout())
	}
	// The patched TOML reads back with every value, the old ones kept.
	back, err := Parse([]byte("apiVersion: core.pingcap.com/v1alpha1\nkind: TiKVGroup\nmetadata:\n  name: tikv\n" + string(p.YAML)))
	if err != nil {
		t.Fatal(err)
	}
	if l := back[0].Lacks(declared); len(l) != 0 {
		t.Errorf("after the patch, still lacks %v", l)
	}
	if back[0].Values["server.labels.zone"] != "a" {
		t.Errorf("the patch lost server.labels: %v", back[0].Values)
	}
}

// TestPatchV1Map: a v1 map config gets only the declared values (a merge
// patch merges maps).
func TestPatchV1Map(t *testing.T) {
	cs, err := Parse(read(t, "tidbcluster-v1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := MakePatch(cs[1], []state.ConfigSetting{cfg(state.TiKV, "gc.ratio-threshold", "1.5", state.LiteralNumber),
		cfg(state.TiKV, "storage.block-cache.capacity", "8GiB", state.LiteralString)})
	if err != nil {
		t.Fatal(err)
	}
	want := "spec:\n  tikv:\n    config:\n      gc:\n        ratio-threshold: 1.5\n      storage:\n        block-cache:\n          capacity: 8GiB\n"
	if diff := cmp.Diff(want, string(p.YAML)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if !strings.Contains(p.Rollout(), "rolling update of the tikv pods of TidbCluster/basic") {
		t.Errorf("rollout %q", p.Rollout())
	}
	// The TiFlash proxy: the raftstore-proxy. prefix is the file's root.
	pp, err := MakePatch(cs[3], []state.ConfigSetting{cfg(state.TiFlash, "raftstore-proxy.server.snap-io-max-bytes-per-sec", "200MiB", state.LiteralString)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pp.YAML), "snap-io-max-bytes-per-sec = \"200MiB\"") || strings.Contains(string(pp.YAML), "raftstore-proxy") {
		t.Errorf("proxy patch:\n%s", pp.YAML)
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"tidbcluster-v1.yaml", "groups-v2.yaml"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tm := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("slow input %q", b)) })
		defer tm.Stop()
		cs, err := Parse(b)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		for _, c := range cs {
			if _, err := MakePatch(c, []state.ConfigSetting{cfg(c.Component, "x.y", "1", state.LiteralNumber)}); err != nil && !strings.Contains(err.Error(), "not a table") {
				t.Fatalf("patch: %v", err)
			}
		}
	})
}

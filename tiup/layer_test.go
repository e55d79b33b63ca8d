package tiup

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/state"
)

// TestPlaces: the topology as a persisted layer — server_configs per
// component, each host with its own config, TiFlash proxy keys named as
// SHOW CONFIG names them — and what an instance takes from it.
func TestPlaces(t *testing.T) {
	top, err := Parse([]byte(showConfig + "  - host: 10.0.1.18\nserver_configs_unused: {}\ntiflash_servers:\n  - host: 10.0.1.30\n    learner_config:\n      server.snap-io-max-bytes-per-sec: 300MiB\n"))
	if err != nil {
		t.Fatal(err)
	}
	type brief struct{ Comp, Instance, Where string }
	var got []brief
	places := top.Places("show.yaml")
	for _, p := range places {
		got = append(got, brief{string(p.Component), p.Instance, p.Where})
	}
	want := []brief{
		{"pd", "", "server_configs.pd (show.yaml)"},
		{"tikv", "", "server_configs.tikv (show.yaml)"},
		{"tikv", "10.0.1.17:20160", "tikv_servers 10.0.1.17:20160 config (show.yaml)"},
		{"tiflash", "", "server_configs.tiflash-learner (show.yaml)"},
		{"tiflash", "10.0.1.30:3930", "tiflash_servers 10.0.1.30:3930 learner_config (show.yaml)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	p := &state.Persisted{Tool: state.PersistTiUP, Places: places}
	lookup := func(c state.Component, inst, key string) []string {
		var out []string
		for _, v := range p.Lookup(c, inst, key) {
			out = append(out, v.Place.Where+"="+v.Value)
		}
		return out
	}
	if got := lookup(state.TiKV, "10.0.1.17:20160", "coprocessor.region-split-size"); !cmp.Equal(got, []string{"tikv_servers 10.0.1.17:20160 config (show.yaml)=512MiB"}) {
		t.Errorf("host's own value: %v", got)
	}
	if got := lookup(state.TiKV, "10.0.1.16:20160", "Coprocessor.Region-Split-Size"); !cmp.Equal(got, []string{"server_configs.tikv (show.yaml)=268435456"}) {
		t.Errorf("server_configs: %v", got)
	}
	if got := lookup(state.TiFlash, "10.0.1.30:3930", "raftstore-proxy.server.snap-io-max-bytes-per-sec"); !cmp.Equal(got, []string{"tiflash_servers 10.0.1.30:3930 learner_config (show.yaml)=300MiB"}) {
		t.Errorf("TiFlash proxy: %v", got)
	}
	if p.Holds(state.TiDB) || !p.Holds(state.TiFlash) {
		t.Errorf("Holds")
	}
}

package tiup

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/state"
)

// showConfig is `tiup cluster show-config` output for a cluster whose
// topology holds the declared values in both spellings TiUP accepts (dotted
// and nested keys), sizes in another unit.
const showConfig = `global:
  user: tidb
server_configs:
  tikv:
    coprocessor:
      region-split-size: 268435456
      region-max-size: 384MiB
    coprocessor.split-region-on-table: true
    split.qps-threshold: 5000
  pd:
    schedule.max-merge-region-size: 54
tikv_servers:
  - host: 10.0.1.16
  - host: 10.0.1.17
    port: 20160
    config:
      coprocessor.region-split-size: 512MiB
`

var checked = []state.ConfigSetting{
	cfg(state.TiKV, "", "coprocessor.region-split-size", "256MiB", state.LiteralString),
	cfg(state.TiKV, "", "coprocessor.region-max-size", "384MiB", state.LiteralString),
	cfg(state.TiKV, "", "coprocessor.split-region-on-table", "true", state.LiteralBool),
	cfg(state.TiKV, "", "split.qps-threshold", "5000", state.LiteralNumber),
	cfg(state.TiKV, "10.0.1.17:20160", "coprocessor.region-split-size", "512MiB", state.LiteralString),
	cfg(state.PD, "", "schedule.max-merge-region-size", "54", state.LiteralNumber),
	cfg(state.PD, "", "schedule.max-merge-region-keys", "540000", state.LiteralNumber),
}

type brief struct {
	Key, Where, Topology string
	Missing, Reverted    bool
}

func briefs(ds []Difference) []brief {
	var out []brief
	for _, d := range ds {
		out = append(out, brief{address(d.Setting), d.Where, d.Topology, d.Missing, d.Reverted})
	}
	return out
}

func TestCheck(t *testing.T) {
	meta := "user: tidb\ntiup_version: v1.16.5\ntopology:\n" + indent(showConfig)
	tests := []struct {
		name string
		topo string
		want []brief
	}{
		{"in step", showConfig, nil},
		{"meta.yaml", meta, nil},
		{"two TiKV keys missing", strings.Replace(strings.Replace(showConfig, "    split.qps-threshold: 5000\n", "", 1),
			"      region-max-size: 384MiB\n", "", 1), []brief{
			{"tikv.coprocessor.region-max-size", "server_configs.tikv", "", true, true},
			{"tikv.split.qps-threshold", "server_configs.tikv", "", true, true},
		}},
		{"another value", strings.Replace(showConfig, "split.qps-threshold: 5000", "split.qps-threshold: 3000", 1), []brief{
			{"tikv.split.qps-threshold", "server_configs.tikv", "3000", false, true},
		}},
		{"one host overrides", strings.Replace(showConfig, "  - host: 10.0.1.16\n", "  - host: 10.0.1.16\n    config:\n      split.qps-threshold: 4000\n", 1), []brief{
			{"tikv.split.qps-threshold", "tikv_servers 10.0.1.16:20160 config", "4000", false, true},
		}},
		{"per-instance value missing", strings.Replace(showConfig, "    config:\n      coprocessor.region-split-size: 512MiB\n", "", 1), []brief{
			{`tikv["10.0.1.17:20160"].coprocessor.region-split-size`, "server_configs.tikv, which 10.0.1.17:20160 takes", "268435456", false, true},
		}},
		// The host renamed keeps its 512MiB, now against the type-wide 256MiB.
		{"host not in the topology", strings.Replace(showConfig, "10.0.1.17", "10.0.1.18", 1), []brief{
			{"tikv.coprocessor.region-split-size", "tikv_servers 10.0.1.18:20160 config", "512MiB", false, true},
			{`tikv["10.0.1.17:20160"].coprocessor.region-split-size`, "tikv_servers: no host 10.0.1.17:20160", "", true, true},
		}},
		{"PD value contradicted: misleads, not reverted", strings.Replace(showConfig, "max-merge-region-size: 54", "max-merge-region-size: 20", 1), []brief{
			{"pd.schedule.max-merge-region-size", "server_configs.pd", "20", false, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top, err := Parse([]byte(tt.topo))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, briefs(Check(top, checked))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestCheckPDNotPersisted: a PD item PD does not keep in etcd (log.level) is
// reverted by a restart when the topology lacks it.
func TestCheckPDNotPersisted(t *testing.T) {
	top, err := Parse([]byte(showConfig))
	if err != nil {
		t.Fatal(err)
	}
	got := briefs(Check(top, []state.ConfigSetting{cfg(state.PD, "", "log.level", "warn", state.LiteralString)}))
	want := []brief{{"pd.log.level", "server_configs.pd", "", true, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestMessage(t *testing.T) {
	d := Difference{Setting: cfg(state.TiKV, "", "split.qps-threshold", "5000\n", state.LiteralNumber), Where: "server_configs.tikv", Topology: "3000", Reverted: true}
	want := `tikv.split.qps-threshold is 3000 in the topology (server_configs.tikv); the configuration declares "5000\n": the next ` + "`tiup cluster reload` or `upgrade`" + ` reverts the online value`
	if got := d.Message(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not YAML", "server_configs: [", "not a YAML topology"},
		{"not a mapping", "- a\n- b\n", "not a mapping"},
		{"no topology", "user: tidb\n", "neither server_configs nor *_servers"},
		{"servers not a list", "tikv_servers: {host: a}\n", "tikv_servers is not a list"},
		{"host without address", "tikv_servers:\n  - port: 20160\n", "an entry without host"},
		{"bad port", "tikv_servers:\n  - host: a\n    port: 99999\n", `port "99999" is not a port`},
		{"too large", "tikv_servers: []\n" + strings.Repeat("#", MaxTopologyBytes), "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// TestParseHostile: alias bombs and deep nesting end with an error or a
// bounded result, never a hang or a crash.
func TestParseHostile(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
		"server_configs:\n  tikv:\n    x: *f\n"
	if top, err := Parse([]byte(bomb)); err == nil && len(top.Global["tikv"]["x"]) > 1<<20 {
		t.Errorf("alias bomb expanded to %d bytes", len(top.Global["tikv"]["x"]))
	}
	deep := "server_configs:\n  tikv:\n" + strings.Repeat("  a:\n", 5000) + "  b: 1\n"
	if _, err := Parse([]byte(deep)); err != nil && !strings.Contains(err.Error(), "YAML") {
		t.Errorf("deep nesting: %v", err)
	}
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	return b.String()
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(showConfig))
	f.Add([]byte("topology:\n  tikv_servers:\n    - host: a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		top, err := Parse(b)
		if err != nil {
			return
		}
		Check(top, checked)
	})
}

package tiup

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v4"

	"github.com/tiform/tiform/state"
)

var update = flag.Bool("update", false, "rewrite golden files")

func cfg(comp state.Component, inst, key, text string, typ state.LiteralType) state.ConfigSetting {
	return state.ConfigSetting{Component: comp, Instance: inst, Key: key, Value: state.Value{Text: text, Type: typ}}
}

// declared is a cluster's TiKV, PD and TiFlash settings, type-wide and per
// instance, of every value kind.
var declared = []state.ConfigSetting{
	cfg(state.TiKV, "", "coprocessor.region-split-size", "256MiB", state.LiteralString),
	cfg(state.TiKV, "", "coprocessor.region-max-size", "384MiB", state.LiteralString),
	cfg(state.TiKV, "", "coprocessor.split-region-on-table", "true", state.LiteralBool),
	cfg(state.TiKV, "", "split.qps-threshold", "5000", state.LiteralNumber),
	cfg(state.TiKV, "", "split.split-balance-score", "0.3", state.LiteralNumber),
	cfg(state.TiKV, "", "raftstore.raft-log-gc-size-limit", "201326592", state.LiteralNumber),
	cfg(state.TiKV, "10.0.1.17:20160", "coprocessor.region-split-size", "512MiB", state.LiteralString),
	cfg(state.TiKV, "10.0.1.17:20160", "coprocessor.region-max-size", "768MiB", state.LiteralString),
	cfg(state.PD, "", "schedule.max-merge-region-size", "54", state.LiteralNumber),
	cfg(state.PD, "", "schedule.split-merge-interval", "30m", state.LiteralString),
	cfg(state.PD, "", "replication.location-labels", "zone,host", state.LiteralString),
	cfg(state.PD, "", "log.level", "warn", state.LiteralString),
	cfg(state.TiFlash, "", "raftstore-proxy.server.snap-io-max-bytes-per-sec", "300MiB", state.LiteralString),
	cfg(state.TiFlash, "10.0.1.30:3930", "raftstore-proxy.server.snap-io-max-bytes-per-sec", "100MiB", state.LiteralString),
	cfg(state.TiKV, "", "backup.some-new-flag", "yes: #no", state.LiteralString), // not in the catalog, YAML-hostile
}

func TestRenderGolden(t *testing.T) {
	out, skipped := Render("tidb-prod-01", declared)
	if len(skipped) != 0 {
		t.Errorf("skipped %v", skipped)
	}
	golden := filepath.Join("testdata", "render.yaml")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(out)); diff != "" {
		t.Errorf("render differs from %s (go test ./tiup -update):\n%s", golden, diff)
	}
}

// The part of TiUP's topology schema Render writes
// (pingcap/tiup@v1.16.5:pkg/cluster/spec/spec.go ServerConfigs, tikv.go
// TiKVSpec, pd.go PDSpec, tiflash.go TiFlashSpec), decoded with unknown
// fields refused, as TiUP's own yaml.UnmarshalStrict does.
type tiupSpec struct {
	ServerConfigs struct {
		TiDB           map[string]any `yaml:"tidb"`
		TiKV           map[string]any `yaml:"tikv"`
		PD             map[string]any `yaml:"pd"`
		TiFlash        map[string]any `yaml:"tiflash"`
		TiFlashLearner map[string]any `yaml:"tiflash-learner"`
	} `yaml:"server_configs"`
	TiKVServers []struct {
		Host   string         `yaml:"host"`
		Port   int            `yaml:"port"`
		Config map[string]any `yaml:"config"`
	} `yaml:"tikv_servers"`
	PDServers []struct {
		Host       string         `yaml:"host"`
		ClientPort int            `yaml:"client_port"`
		Config     map[string]any `yaml:"config"`
	} `yaml:"pd_servers"`
	TiFlashServers []struct {
		Host             string         `yaml:"host"`
		FlashServicePort int            `yaml:"flash_service_port"`
		Config           map[string]any `yaml:"config"`
		LearnerConfig    map[string]any `yaml:"learner_config"`
	} `yaml:"tiflash_servers"`
}

// TestRenderMatchesTiUPSchema: the output parses as YAML into TiUP's
// topology types, with the values typed as the components' TOML needs them.
func TestRenderMatchesTiUPSchema(t *testing.T) {
	out, _ := Render("tidb-prod-01", declared)
	var spec tiupSpec
	dec := yaml.NewDecoder(bytes.NewReader(out))
	dec.KnownFields(true)
	if err := dec.Decode(&spec); err != nil {
		t.Fatalf("not a TiUP topology: %v\n%s", err, out)
	}
	sc := spec.ServerConfigs
	want := map[string]any{
		"tikv.coprocessor.region-split-size":                              "256MiB",
		"tikv.coprocessor.split-region-on-table":                          true,
		"tikv.split.qps-threshold":                                        5000,
		"tikv.split.split-balance-score":                                  0.3,
		"tikv.raftstore.raft-log-gc-size-limit":                           "192MiB",
		"tikv.backup.some-new-flag":                                       "yes: #no",
		"pd.schedule.max-merge-region-size":                               54,
		"pd.schedule.split-merge-interval":                                "30m0s",
		"pd.replication.location-labels":                                  []any{"zone", "host"},
		"tiflash-learner.server.snap-io-max-bytes-per-sec":                "300MiB",
		"tikv_servers 10.0.1.17:20160 coprocessor.region-split-size":      "512MiB",
		"tiflash_servers 10.0.1.30:3930 server.snap-io-max-bytes-per-sec": "100MiB",
	}
	got := map[string]any{}
	for k, v := range sc.TiKV {
		got["tikv."+k] = v
	}
	for k, v := range sc.PD {
		got["pd."+k] = v
	}
	for k, v := range sc.TiFlashLearner {
		got["tiflash-learner."+k] = v
	}
	for _, h := range spec.TiKVServers {
		for k, v := range h.Config {
			got["tikv_servers "+h.Host+":"+strconv.Itoa(h.Port)+" "+k] = v
		}
	}
	for _, h := range spec.TiFlashServers {
		for k, v := range h.LearnerConfig {
			got["tiflash_servers "+h.Host+":"+strconv.Itoa(h.FlashServicePort)+" "+k] = v
		}
	}
	for k, v := range want {
		if diff := cmp.Diff(v, got[k]); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", k, diff)
		}
	}
	if len(sc.TiDB) != 0 || len(sc.TiFlash) != 0 || len(spec.PDServers) != 0 {
		t.Errorf("wrote sections tiform does not own: %+v", spec)
	}
}

// TestRenderSkips: settings TiUP cannot hold for tiform are named, not
// written.
func TestRenderSkips(t *testing.T) {
	_, skipped := Render("x", []state.ConfigSetting{
		cfg(state.TiDB, "", "performance.max-procs", "8", state.LiteralNumber),
		cfg(state.TiFlash, "", "logger.level", "debug", state.LiteralString),
		cfg(state.PD, "10.0.1.5:2379", "schedule.max-merge-region-size", "54", state.LiteralNumber),
		cfg(state.TiKV, "not-an-address", "split.qps-threshold", "5000", state.LiteralNumber),
	})
	want := []string{`tidb.performance.max-procs`, `tiflash.logger.level`, `tikv["not-an-address"].split.qps-threshold`, `pd["10.0.1.5:2379"].schedule.max-merge-region-size`}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestSnippet(t *testing.T) {
	got := Snippet("tidb-prod-01", cfg(state.TiKV, "10.0.1.17:20160", "split.qps-threshold", "5000", state.LiteralNumber))
	want := "tiup cluster edit-config tidb-prod-01\n  tikv_servers:\n    - host: 10.0.1.17\n      port: 20160\n      config:\n        split.qps-threshold: 5000"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Snippet("", cfg(state.TiKV, "", "split.qps-threshold", "5000", state.LiteralNumber)); !strings.HasPrefix(got, "tiup cluster edit-config <tiup-cluster>\n  server_configs:") {
		t.Errorf("placeholder: %s", got)
	}
}

// A value from a sensitive input variable is never printed: the topology
// shows (sensitive) with a note, like every other view.
func TestRenderMasksSensitive(t *testing.T) {
	s := cfg(state.TiKV, "", "backup.s3-uri", "s3://bucket/?secret=hunter2", state.LiteralString)
	s.Value.Sensitive = true
	out, _ := Render("prod", []state.ConfigSetting{s, cfg(state.TiKV, "10.0.1.17:20160", "log.level", "warn", state.LiteralString)})
	text := string(out)
	if strings.Contains(text, "hunter2") {
		t.Fatalf("the sensitive value is printed:\n%s", text)
	}
	if !strings.Contains(text, "(sensitive)") || !strings.Contains(text, "from a sensitive variable") {
		t.Errorf("no mask or note:\n%s", text)
	}
}

// A difference on a sensitive setting names it without either value.
func TestCheckMessageMasksSensitive(t *testing.T) {
	s := cfg(state.TiKV, "", "backup.s3-uri", "s3://bucket/?secret=hunter2", state.LiteralString)
	s.Value.Sensitive = true
	for _, d := range []Difference{
		{Setting: s, Where: "server_configs.tikv", Topology: "s3://bucket/?secret=old-hunter1", Reverted: true},
		{Setting: s, Where: "server_configs.tikv", Missing: true, Reverted: true},
	} {
		msg := d.Message()
		if strings.Contains(msg, "hunter") || !strings.Contains(msg, "tikv.backup.s3-uri") {
			t.Errorf("message: %s", msg)
		}
	}
}

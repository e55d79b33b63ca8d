package catalog

import (
	"testing"

	"github.com/tiform/tiform/version"
)

// TestClasses pins what is not a setting, one key per class and rule: a
// command-line key of each component, a path by the naming rule, a key
// under a prefix the table does not list, a read-only variable, and
// settings that only look like them.
func TestClasses(t *testing.T) {
	v := version.MustParse("v8.5.1")
	for _, c := range []struct {
		comp, key string
		want      Class
	}{
		{"tikv", "server.advertise-addr", ClassIdentity},
		{"tikv", "server.status-addr", ClassIdentity},
		{"tikv", "pd.endpoints", ClassIdentity},
		{"tikv", "server.labels", ClassIdentity},
		{"tikv", "storage.data-dir", ClassPath},
		{"tikv", "raftstore.raftdb-path", ClassPath},
		{"tikv", "log.file.filename", ClassPath},
		{"tikv", "raft-engine.dir", ClassPath}, // under the raft-engine. prefix
		{"pd", "name", ClassIdentity},
		{"pd", "client-urls", ClassIdentity},
		{"pd", "initial-cluster", ClassIdentity},
		{"pd", "join", ClassIdentity},
		{"pd", "metric.job", ClassIdentity}, // Adjust defaults it to the name
		{"pd", "data-dir", ClassPath},
		{"pd", "log.file.filename", ClassPath}, // under the log. prefix
		// settings: the log level is a flag too, but tunes; a dashboard
		// address and a labels list for placement rules are cluster-wide
		{"tikv", "log.level", ClassSetting},
		{"tikv", "raftstore.capacity", ClassSetting},
		{"pd", "initial-cluster-state", ClassIdentity}, // "existing" on a member that joined (server/join/join.go)
		{"pd", "initial-cluster-token", ClassSetting},
		{"pd", "log.level", ClassSetting},
		{"pd", "pd-server.dashboard-address", ClassSetting},
		{"pd", "replication.location-labels", ClassSetting},
		{"tikv", "coprocessor.region-split-size", ClassSetting},
	} {
		e, ok := Config(c.comp, c.key)
		if !ok {
			t.Errorf("%s %s: not in the catalog", c.comp, c.key)
			continue
		}
		if got := e.ClassIn(v); got != c.want {
			t.Errorf("%s: class %s at %s, want %s", e.Address(), got, v.Short(), c.want)
		}
		if e.Class != c.want {
			t.Errorf("%s: Class %s, want %s", e.Address(), e.Class, c.want)
		}
	}
	ro, _ := Variable("version")
	if ro.ClassIn(v) != ClassReadOnly || ro.Class.Setting() {
		t.Errorf("variable version: class %s, want read-only", ro.ClassIn(v))
	}
	for c := ClassSetting; c <= ClassReadOnly; c++ {
		if c != ClassSetting && (c.Why() == "" || c.Hint() == "" || c.Setting()) {
			t.Errorf("class %s: a non-setting needs Why and Hint", c)
		}
	}
}

// TestNumericEnum: TiKV prints compaction-pri as its number and accepts
// the number or the name (numeric_enum_serializing_mod!), so both are one
// value, rendered as the number.
func TestNumericEnum(t *testing.T) {
	e, ok := Config("tikv", "rocksdb.defaultcf.compaction-pri")
	if !ok || e.Kind != KindEnum || len(e.Codes) != len(e.Enum) {
		t.Fatalf("compaction-pri: want an enum with codes, got %+v", e)
	}
	for _, text := range []string{"3", "min-overlapping-ratio", "Min-Overlapping-Ratio"} {
		c, err := e.Canonical(text)
		if err != nil || c != "min-overlapping-ratio" {
			t.Errorf("Canonical(%q) = %q, %v; want min-overlapping-ratio", text, c, err)
		}
	}
	if r := e.Render("min-overlapping-ratio"); r != "3" {
		t.Errorf("Render = %q, want the number TiKV prints, 3", r)
	}
	if d, _ := e.DefaultIn(version.MustParse("v8.5.1")); !SettingFor(TargetConfig, "tikv", e.Key).Equal(d, "min-overlapping-ratio") {
		t.Errorf("the default %q is not min-overlapping-ratio", d)
	}
	if _, err := e.Canonical("7"); err == nil {
		t.Errorf("a code no variant has must not parse")
	}
}

package tiup

import (
	"strings"
	"testing"

	yaml11 "gopkg.in/yaml.v2"

	"github.com/tiform/tiform/state"
)

// readBack11 writes s as tiform writes a string (str, encode) and reads it
// back the way TiUP does (gopkg.in/yaml.v2, YAML 1.1), as a value and as a
// key: true when both come back as the string s.
func readBack11(t *testing.T, s string) bool {
	t.Helper()
	doc := mapping()
	addPair(doc, "k", str(s))
	addPair(doc, s, str("v"))
	var m map[any]any
	if err := yaml11.Unmarshal(encode(doc), &m); err != nil {
		return false
	}
	v, ok := m["k"].(string)
	return ok && v == s && m[s] == "v"
}

// Every string a YAML 1.1 reader takes for another type is one yaml11Typed
// quotes: the YAML 1.1 type repository's examples, and every string of up to
// four characters over the alphabet these types are made of, read back with
// yaml.v2.
func TestYAML11TypedCoversWhatYAML11Reads(t *testing.T) {
	for _, s := range []string{
		"on", "On", "ON", "off", "yes", "no", "y", "N", "true", "False", "~", "null", "",
		"1:20", "190:20:30", "-1:30", "0755", "0o17", "0x1F", "0b101", "1_000", "+12", "-0",
		"1e3", "6.8523015e+5", "685.230_15e+03", "190:20:30.15", ".inf", "-.Inf", ".NaN", ".5", "1.",
		"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "<<", "=",
	} {
		if !yaml11Typed(s) {
			t.Errorf("yaml11Typed(%q) = false; YAML 1.1 does not read it as a string", s)
		}
	}
	const alphabet = "0123456789.:_-+eExobyYnNOo~"
	words := []string{""}
	for n, last := 0, []string{""}; n < 3; n++ {
		var next []string
		for _, p := range last {
			for _, c := range alphabet {
				next = append(next, p+string(c))
			}
		}
		words, last = append(words, next...), next
	}
	for _, s := range words {
		if !readBack11(t, s) {
			t.Errorf("%q: written by tiform, yaml.v2 does not read it back as the string", s)
		}
	}
	// Not over-quoted: values TiUP topologies are full of stay plain.
	for _, s := range []string{"256MiB", "10.0.1.17", "30m0s", "zone", "warn", "host", "v8.5.1", "1.2.3", "10m"} {
		if yaml11Typed(s) {
			t.Errorf("yaml11Typed(%q) = true; it is a string in YAML 1.1", s)
		}
	}
}

// export tiup's output read back with a YAML 1.1 reader yields exactly the
// declared strings: on, no, yes, 1:20 and their kin, in keys too.
func TestRenderReadsBackInYAML11(t *testing.T) {
	values := []string{"on", "no", "yes", "Y", "off", "1:20", "0755", "1e3", "2025-01-02", "null", "~", "<<", "0x10", "256MiB", "a: b", "#x"}
	var settings []state.ConfigSetting
	for i, v := range values {
		// Keys the catalog does not know keep the declared string; one key
		// is itself YAML-1.1-typed.
		key := "backup.x-new-" + string(rune('a'+i))
		settings = append(settings, cfg(state.TiKV, "", key, v, state.LiteralString))
	}
	settings = append(settings, cfg(state.TiKV, "", "on", "off", state.LiteralString))
	settings = append(settings, cfg(state.TiKV, "10.0.1.17:20160", "backup.x-new-a", "yes", state.LiteralString))
	out, skipped := Render("prod", settings)
	if len(skipped) != 0 {
		t.Fatalf("skipped %v", skipped)
	}
	var doc struct {
		ServerConfigs map[string]map[string]any `yaml:"server_configs"`
		TiKVServers   []struct {
			Host   string         `yaml:"host"`
			Config map[string]any `yaml:"config"`
		} `yaml:"tikv_servers"`
	}
	if err := yaml11.Unmarshal(out, &doc); err != nil {
		t.Fatalf("yaml.v2: %v\n%s", err, out)
	}
	for i, v := range values {
		key := "backup.x-new-" + string(rune('a'+i))
		if got, ok := doc.ServerConfigs["tikv"][key].(string); !ok || got != v {
			t.Errorf("%s: read back %#v, declared %q\n%s", key, doc.ServerConfigs["tikv"][key], v, out)
		}
	}
	if got, ok := doc.ServerConfigs["tikv"]["on"].(string); !ok || got != "off" {
		t.Errorf("the key on: read back %#v\n%s", doc.ServerConfigs["tikv"], out)
	}
	if len(doc.TiKVServers) != 1 || doc.TiKVServers[0].Host != "10.0.1.17" || doc.TiKVServers[0].Config["backup.x-new-a"] != "yes" {
		t.Errorf("host entry read back as %+v\n%s", doc.TiKVServers, out)
	}
	if strings.Contains(string(out), "\"10.0.1.17\"") {
		t.Errorf("an address is quoted for nothing:\n%s", out)
	}
}

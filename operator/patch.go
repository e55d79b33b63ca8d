package operator

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	yaml "go.yaml.in/yaml/v4"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
)

// Patch is a JSON merge patch (RFC 7386) of one resource, in YAML, that
// makes it hold the given settings of its component, with the command
// that applies it and the rollout it causes.
type Patch struct {
	Config *Config
	// YAML is the patch document.
	YAML []byte
	// Sensitive is set when a value from a sensitive variable stands as
	// state.SensitiveText in it: the operator writes the value in.
	Sensitive bool
}

// Command is the kubectl command that applies the patch saved as file.
func (p *Patch) Command(file string) string {
	ns := ""
	if p.Config.Namespace != "" {
		ns = " -n " + p.Config.Namespace
	}
	return fmt.Sprintf("kubectl patch %s %s%s --type merge --patch-file %s", strings.ToLower(p.Config.Kind), p.Config.Name, ns, file)
}

// Rollout says what applying the patch does to the pods: the Operator
// renders the new config file and rolls the component's pods one by one
// (v1: pingcap/tidb-operator docs, "Configure a TiDB Cluster on
// Kubernetes": a config change triggers a rolling update; v2: a change of
// spec.template rolls the group's instances).
func (p *Patch) Rollout() string {
	if p.Config.V2() {
		return fmt.Sprintf("rolling restart of %s (every instance of the group, one at a time)", p.Config.Resource())
	}
	return fmt.Sprintf("rolling update of the %s pods of %s (one at a time)", p.Config.Component, p.Config.Resource())
}

// MakePatch builds the patch that sets settings (of c's component) in c.
// A TOML config (every v2 group, a v1 config written as a string) is
// replaced whole by the merged TOML — a merge patch replaces a string, it
// cannot merge into it —; a v1 map config gets only the settings.
func MakePatch(c *Config, settings []state.ConfigSetting) (*Patch, error) {
	p := &Patch{Config: c}
	var tree map[string]any
	if c.TOML {
		tree = deepCopy(c.Tree)
	} else {
		tree = map[string]any{}
	}
	for _, s := range settings {
		if s.Value.Sensitive {
			p.Sensitive = true
		}
		key := strings.TrimPrefix(strings.ToLower(s.Key), c.Prefix)
		if err := set(tree, strings.Split(key, "."), value(s)); err != nil {
			return nil, fmt.Errorf("%s: %w", state.ConfigAddress(s.Component, s.Instance, s.Key), err)
		}
	}
	var field *yaml.Node
	if c.TOML {
		var b bytes.Buffer
		enc := toml.NewEncoder(&b)
		enc.Indent = ""
		if err := enc.Encode(tree); err != nil {
			return nil, err
		}
		field = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: b.String(), Style: yaml.LiteralStyle}
	} else {
		field = &yaml.Node{}
		if err := field.Encode(tree); err != nil {
			return nil, err
		}
	}
	// Nest the field under its path (spec.template.spec.config).
	parts := strings.Split(c.Path, ".")
	doc := field
	for i := len(parts) - 1; i >= 0; i-- {
		m := &yaml.Node{Kind: yaml.MappingNode}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: parts[i]}, doc)
		doc = m
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	_ = enc.Close()
	p.YAML = b.Bytes()
	return p, nil
}

// value is a declared value as the component's TOML file takes it: the
// type tiup.Scalar gives it (the one owner of how a value is written into
// a component's config file).
func value(s state.ConfigSetting) any {
	if s.Value.Sensitive {
		return state.SensitiveText
	}
	n := tiup.Scalar(s.Component, s.Key, s.Value)
	return nodeValue(n)
}

func nodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.SequenceNode:
		out := make([]string, 0, len(n.Content))
		for _, it := range n.Content {
			out = append(out, it.Value)
		}
		return out
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!bool":
			b, err := strconv.ParseBool(n.Value)
			if err == nil {
				return b
			}
		case "!!int":
			if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
				return i
			}
		case "!!float":
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return f
			}
		}
	}
	return n.Value
}

// set puts v at path in tree, making tables on the way.
func set(tree map[string]any, path []string, v any) error {
	for i, k := range path {
		if i == len(path)-1 {
			tree[k] = v
			return nil
		}
		next, ok := tree[k].(map[string]any)
		if !ok {
			if _, taken := tree[k]; taken {
				return fmt.Errorf("%s holds a value, not a table", strings.Join(path[:i+1], "."))
			}
			next = map[string]any{}
			tree[k] = next
		}
		tree = next
	}
	return nil
}

func deepCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if t, ok := v.(map[string]any); ok {
			out[k] = deepCopy(t)
			continue
		}
		out[k] = v
	}
	return out
}

// Lacks returns the type-wide settings of c's component that c does not
// hold as declared (absent, or another value by the catalog's equality):
// what a patch must set. Per-instance settings are left out: a resource
// configures every instance of the group alike. A PD item PD keeps in etcd
// that c lacks is no difference (PD keeps it whatever the file says); one
// c contradicts is, as it misleads its reader.
func (c *Config) Lacks(settings []state.ConfigSetting) []state.ConfigSetting {
	var out []state.ConfigSetting
	for _, s := range settings {
		if s.Component != c.Component || s.Instance != "" {
			continue
		}
		v, ok := c.Values[strings.ToLower(s.Key)]
		if !ok && s.Component == state.PD && catalog.PDKeepsInEtcd(s.Key) {
			continue // PD keeps it in etcd whatever the file says (as tiup.Check)
		}
		if !ok || !catalog.SettingFor(catalog.TargetConfig, string(s.Component), s.Key).Equal(s.Value.Text, v) {
			out = append(out, s)
		}
	}
	return out
}

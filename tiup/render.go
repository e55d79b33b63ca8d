package tiup

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// Render returns the topology sections that declare settings, ready to merge
// with `tiup cluster edit-config NAME`: server_configs for type-wide values,
// and one host entry (host and port, then config or learner_config) per
// instance with its own values. Settings TiUP cannot hold for tiform (TiDB
// config, TiFlash items outside raftstore-proxy.*) and per-instance
// settings on an address that is not host:port are returned in skipped.
// cluster is the TiUP cluster name for the header comment ("" when not
// declared).
func Render(cluster string, settings []state.ConfigSetting) (out []byte, skipped []string) {
	global := map[string]*yaml.Node{} // section → mapping
	hosts := map[string]map[string]*hostEntry{}
	var sections, lists []string
	for _, s := range sortSettings(settings) {
		p, key, ok := locate(s.Component, s.Key)
		if !ok || s.Instance != "" && s.Component == state.PD {
			skipped = append(skipped, address(s))
			continue
		}
		val := Scalar(s.Component, s.Key, s.Value)
		if s.Value.Sensitive {
			val = sensitiveScalar()
		}
		if s.Instance == "" {
			if global[p.section] == nil {
				global[p.section] = mapping()
				sections = append(sections, p.section)
			}
			addPair(global[p.section], key, val)
			continue
		}
		h, port, ok := splitInstance(s.Instance)
		if !ok {
			skipped = append(skipped, address(s))
			continue
		}
		if hosts[p.servers] == nil {
			hosts[p.servers] = map[string]*hostEntry{}
			lists = append(lists, p.servers)
		}
		e := hosts[p.servers][s.Instance]
		if e == nil {
			e = &hostEntry{host: h, port: port, place: p, config: mapping()}
			hosts[p.servers][s.Instance] = e
		}
		addPair(e.config, key, val)
	}
	doc := mapping()
	if len(sections) > 0 {
		sc := mapping()
		for _, sec := range sections {
			addPair(sc, sec, global[sec])
		}
		addPair(doc, "server_configs", sc)
	}
	for _, l := range lists {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, inst := range sortedInstances(hosts[l]) {
			seq.Content = append(seq.Content, hosts[l][inst].node())
		}
		addPair(doc, l, seq)
	}
	doc.HeadComment = header(cluster)
	return encode(doc), skipped
}

// Snippet is Render of settings, indented under the edit-config command:
// the exact YAML a guard finding shows. "" when TiUP holds none of them.
func Snippet(cluster string, settings ...state.ConfigSetting) string {
	y, skipped := Render("", settings)
	if len(skipped) == len(settings) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tiup cluster edit-config %s", clusterOrPlaceholder(cluster))
	for _, l := range strings.Split(strings.TrimRight(string(y), "\n"), "\n") {
		b.WriteString("\n  " + l)
	}
	return b.String()
}

// Placeholder stands for the TiUP cluster name when the configuration does
// not declare tiup_cluster.
const Placeholder = "<tiup-cluster>"

func clusterOrPlaceholder(c string) string {
	if c == "" {
		return Placeholder
	}
	return c
}

func header(cluster string) string {
	if cluster == "" {
		return ""
	}
	return fmt.Sprintf("tiup cluster edit-config %s\nMerge these sections into the topology: server_configs applies to every instance,\na host's config to that instance only.", cluster)
}

// hostEntry is one host of a *_servers list with its own values.
type hostEntry struct {
	host   string
	port   int
	place  place
	config *yaml.Node
}

func (e *hostEntry) node() *yaml.Node {
	n := mapping()
	addPair(n, "host", str(e.host))
	addPair(n, e.place.portField, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(e.port)})
	addPair(n, e.place.hostField, e.config)
	return n
}

// Scalar is a declared value as the YAML TiUP writes into the component's
// TOML file: booleans and numbers unquoted, sizes and durations as the
// component shows them ("256MiB", "10m"), lists as sequences. Keys the
// catalog does not know keep the type they were written with.
func Scalar(comp state.Component, key string, v state.Value) *yaml.Node {
	text := strings.TrimSpace(v.Text)
	e, known := catalog.Config(string(comp), key)
	if !known {
		switch v.Type {
		case state.LiteralBool:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: text}
		case state.LiteralNumber:
			return number(text)
		}
		return str(text)
	}
	c, err := e.Canonical(text)
	if err != nil {
		return str(text)
	}
	switch e.Kind {
	case catalog.KindBool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: c}
	case catalog.KindInt, catalog.KindFloat:
		return number(c)
	case catalog.KindSize:
		if e.Unit == "B" {
			return number(c)
		}
		return str(e.Render(c))
	case catalog.KindDuration, catalog.KindEnum:
		return str(e.Render(c))
	case catalog.KindList:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		if c != "" {
			for _, it := range strings.Split(c, ",") {
				seq.Content = append(seq.Content, str(it))
			}
		}
		return seq
	}
	return str(text)
}

func number(text string) *yaml.Node {
	tag := "!!int"
	if strings.ContainsAny(text, ".eE") {
		tag = "!!float"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

// str is a string scalar, quoted when a YAML 1.1 reader (TiUP's) would
// otherwise take it for a boolean, a number, a null or a timestamp
// (yaml11Typed).
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Typed(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func addPair(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

func encode(n *yaml.Node) []byte {
	if len(n.Content) == 0 && n.HeadComment == "" {
		return nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		// Nodes built above from strings always encode.
		return []byte("# " + err.Error() + "\n")
	}
	_ = enc.Close()
	return b.Bytes()
}

// sortSettings orders settings: type-wide first, by component then key.
func sortSettings(in []state.ConfigSetting) []state.ConfigSetting {
	out := append([]state.ConfigSetting(nil), in...)
	order := map[state.Component]int{state.TiKV: 0, state.PD: 1, state.TiFlash: 2}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Instance == "") != (b.Instance == "") {
			return a.Instance == ""
		}
		if a.Component != b.Component {
			return order[a.Component] < order[b.Component]
		}
		if a.Instance != b.Instance {
			return a.Instance < b.Instance
		}
		return a.Key < b.Key
	})
	return out
}

func sortedInstances(m map[string]*hostEntry) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// address names a setting the way plans do: tikv.key, tikv["host:port"].key.
func address(s state.ConfigSetting) string {
	return state.ConfigAddress(s.Component, s.Instance, s.Key).String()
}

// sensitiveScalar stands for a value from a sensitive input variable: like
// every view, the topology never shows it; the operator writes it in.
func sensitiveScalar() *yaml.Node {
	n := str(state.SensitiveText)
	n.LineComment = "# from a sensitive variable: tiform does not print it; write the value here"
	return n
}

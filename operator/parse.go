package operator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	yaml "go.yaml.in/yaml/v4"

	"github.com/tiform/tiform/state"
)

// MaxManifestBytes bounds one manifest file: a TidbCluster or a group is a
// few kilobytes.
const MaxManifestBytes = 16 << 20

// maxDocuments bounds the documents of one file.
const maxDocuments = 1000

// maxDepth bounds how deep a config tree is flattened.
const maxDepth = 32

// API versions and kinds (see the package documentation).
const (
	APIv1 = "pingcap.com/v1alpha1"
	APIv2 = "core.pingcap.com/v1alpha1"
)

// Error is a problem in a manifest at a line and column (1-based; 0 when
// unknown) with a hint.
type Error struct {
	Line, Column int
	Msg, Hint    string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
}

// Config is one component's config in one resource.
type Config struct {
	// APIVersion, Kind, Name, Namespace name the resource.
	APIVersion, Kind, Name, Namespace string
	Component                         state.Component
	// Path is the field that holds the config ("spec.tikv.config",
	// "spec.template.spec.config").
	Path string
	// TOML is set when the field is a TOML string (v2 always; v1 when
	// written so); otherwise it is a YAML map.
	TOML bool
	// Tree is the config as decoded, Values its leaves by dotted
	// lower-case key with the text as SHOW CONFIG compares it.
	Tree   map[string]any
	Values map[string]string
	// Line is where the field is (1-based; the resource's line when the
	// field is absent).
	Line int
	// Prefix is put before every key to name it as SHOW CONFIG does
	// ("raftstore-proxy." for the TiFlash proxy).
	Prefix string
}

// Resource is "Kind/name" as kubectl names it.
func (c *Config) Resource() string { return c.Kind + "/" + c.Name }

// V2 reports whether c is an Operator v2 group.
func (c *Config) V2() bool { return c.APIVersion == APIv2 }

// Parse reads the TiDB Operator resources of one manifest file and returns
// the config of every component they hold, in file order. A resource of a
// kind the package does not read is skipped; a file that holds none is an
// error, as is a config field that is neither TOML nor a map.
func Parse(b []byte) ([]*Config, error) {
	if len(b) > MaxManifestBytes {
		return nil, &Error{Msg: fmt.Sprintf("the manifest is %d bytes, more than the %d a manifest can be", len(b), MaxManifestBytes),
			Hint: "name the files that hold the TidbCluster or the groups, not a whole cluster dump"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var out []*Config
	seen := 0
	for n := 0; ; n++ {
		if n >= maxDocuments {
			return nil, &Error{Msg: fmt.Sprintf("more than %d YAML documents", maxDocuments), Hint: "split the manifest"}
		}
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlError(err)
		}
		root := &doc
		if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
			root = root.Content[0]
		}
		if root.Kind != yaml.MappingNode {
			if root.Kind == yaml.DocumentNode || root.Kind == 0 || root.Tag == "!!null" {
				continue // an empty document (a trailing ---)
			}
			return nil, &Error{Line: root.Line, Column: root.Column, Msg: "a YAML document that is not a Kubernetes resource (not a mapping)",
				Hint: "give the TidbCluster or the TiKVGroup/PDGroup/TiDBGroup/TiFlashGroup manifests (kubectl get -o yaml)"}
		}
		cs, known, err := resource(root, b)
		if err != nil {
			return nil, err
		}
		if known {
			seen++
		}
		out = append(out, cs...)
	}
	if seen == 0 {
		return nil, &Error{Msg: "no TidbCluster (" + APIv1 + ") nor PDGroup, TiKVGroup, TiDBGroup or TiFlashGroup (" + APIv2 + ") in the file",
			Hint: "give the manifests the Operator reconciles: kubectl get tidbcluster NAME -o yaml, or kubectl get tikvgroup,pdgroup -o yaml"}
	}
	return out, nil
}

// v2Kinds maps a v2 group kind to its component.
var v2Kinds = map[string]state.Component{"PDGroup": state.PD, "TiKVGroup": state.TiKV, "TiDBGroup": state.TiDB, "TiFlashGroup": state.TiFlash}

// resource reads one document; known is false for a kind not read.
func resource(root *yaml.Node, src []byte) (out []*Config, known bool, err error) {
	api, kind := scalar(get(root, "apiVersion")), scalar(get(root, "kind"))
	meta := get(root, "metadata")
	base := Config{APIVersion: api, Kind: kind, Name: scalar(get(meta, "name")), Namespace: scalar(get(meta, "namespace")), Line: root.Line}
	spec := get(root, "spec")
	switch {
	case api == APIv1 && kind == "TidbCluster":
		if base.Name == "" {
			return nil, true, &Error{Line: root.Line, Column: root.Column, Msg: "a TidbCluster without metadata.name", Hint: "give the manifest as kubectl get -o yaml prints it"}
		}
		for _, c := range []struct {
			comp   state.Component
			path   []string
			prefix string
		}{{state.PD, []string{"pd", "config"}, ""}, {state.TiKV, []string{"tikv", "config"}, ""},
			{state.TiDB, []string{"tidb", "config"}, ""}, {state.TiFlash, []string{"tiflash", "config", "proxy"}, "raftstore-proxy."}} {
			if get(spec, c.path[0]) == nil {
				continue // the cluster has no such component
			}
			cfg := base
			cfg.Component, cfg.Path, cfg.Prefix = c.comp, "spec."+strings.Join(c.path, "."), c.prefix
			if err := cfg.read(path(spec, c.path...), false, src); err != nil {
				return nil, true, err
			}
			out = append(out, &cfg)
		}
		return out, true, nil
	case api == APIv2 && v2Kinds[kind] != "":
		if base.Name == "" {
			return nil, true, &Error{Line: root.Line, Column: root.Column, Msg: "a " + kind + " without metadata.name", Hint: "give the manifest as kubectl get -o yaml prints it"}
		}
		tspec := path(spec, "template", "spec")
		cfg := base
		cfg.Component, cfg.Path = v2Kinds[kind], "spec.template.spec.config"
		field := "config"
		if kind == "TiFlashGroup" {
			// tiform's TiFlash keys are the proxy's (raftstore-proxy.*).
			cfg.Path, cfg.Prefix, field = "spec.template.spec.proxyConfig", "raftstore-proxy.", "proxyConfig"
		}
		if err := cfg.read(get(tspec, field), true, src); err != nil {
			return nil, true, err
		}
		return []*Config{&cfg}, true, nil
	}
	return nil, false, nil
}

// read decodes the config field n (nil: absent, an empty config); src is
// the file, for the column of a TOML error.
func (c *Config) read(n *yaml.Node, tomlOnly bool, src []byte) error {
	c.Tree, c.Values = map[string]any{}, map[string]string{}
	if n == nil {
		c.TOML = tomlOnly
		return nil
	}
	c.Line = n.Line
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		c.TOML = tomlOnly
		return nil
	case n.Kind == yaml.ScalarNode:
		c.TOML = true
		if _, err := toml.Decode(n.Value, &c.Tree); err != nil {
			return tomlError(err, n, c.Path, src)
		}
	case n.Kind == yaml.MappingNode && !tomlOnly:
		if err := n.Decode(&c.Tree); err != nil {
			return yamlError(err)
		}
	default:
		want := "a TOML string or a map"
		if tomlOnly {
			want = "a TOML string (config: |, then the TOML)"
		}
		return &Error{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("%s of %s %s is not %s", c.Path, c.Kind, c.Name, want),
			Hint: "write the component's config as the Operator takes it: " + want}
	}
	flatten(c.Values, c.Prefix, c.Tree, 0)
	return nil
}

// Place is c as a section of the persisted layer: every instance of the
// component takes it. file names the manifest.
func (c *Config) Place(file string) state.PersistedPlace {
	return state.PersistedPlace{Component: c.Component, Where: fmt.Sprintf("%s %s: %s (%s)", c.Kind, c.Name, c.Path, file),
		Resource: c.Resource(), File: file, Values: c.Values}
}

func tomlError(err error, n *yaml.Node, field string, src []byte) error {
	line, col := n.Line, n.Column
	var pe toml.ParseError
	if errors.As(err, &pe) {
		col = pe.Position.Col
		// A block scalar's text starts on the line after its indicator,
		// indented as its first line is.
		line = n.Line + pe.Position.Line - 1
		if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle {
			line++
			col += indentOf(src, n.Line+1)
		}
		return &Error{Line: line, Column: col, Msg: fmt.Sprintf("%s is not valid TOML: %s", field, firstLine(pe.Message)),
			Hint: "fix the TOML (the Operator would refuse it too); tiform reads it as the Operator does, with BurntSushi/toml"}
	}
	return &Error{Line: line, Column: col, Msg: fmt.Sprintf("%s is not valid TOML: %s", field, firstLine(err.Error())), Hint: "fix the TOML"}
}

// indentOf is how many spaces start line (1-based) of src.
func indentOf(src []byte, line int) int {
	for i := 1; i < line && len(src) > 0; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return 0
		}
		src = src[j+1:]
	}
	n := 0
	for n < len(src) && src[n] == ' ' {
		n++
	}
	return n
}

// yamlError is a YAML error with the line yaml reports ("yaml: line 3: …").
func yamlError(err error) error {
	msg := firstLine(err.Error())
	e := &Error{Msg: "not YAML: " + strings.TrimPrefix(msg, "yaml: "), Hint: "the manifest must be the YAML kubectl get -o yaml prints"}
	var ye *yaml.ParserError
	if errors.As(err, &ye) {
		e.Line, e.Column = ye.Line, ye.Column
		e.Msg = "not YAML: " + ye.Message
		return e
	}
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		if j := strings.IndexAny(rest, ":, "); j > 0 {
			if l, err := strconv.Atoi(rest[:j]); err == nil {
				e.Line, e.Column = l, 1
			}
		}
	}
	return e
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// flatten adds the leaves of tree under prefix with dotted lower-case keys;
// a list becomes a comma list (how SHOW CONFIG values of lists compare).
func flatten(kv map[string]string, prefix string, v any, depth int) {
	if depth > maxDepth {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name := strings.ToLower(k)
			if prefix != "" && !strings.HasSuffix(prefix, ".") {
				name = prefix + "." + name
			} else {
				name = prefix + name
			}
			flatten(kv, name, t[k], depth+1)
		}
	default:
		if prefix != "" && !strings.HasSuffix(prefix, ".") {
			kv[prefix] = text(v, depth)
		}
	}
}

// text is a leaf as SHOW CONFIG compares it.
func text(v any, depth int) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case int:
		return strconv.Itoa(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case uint64:
		return strconv.FormatUint(t, 10)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case time.Time:
		return t.Format(time.RFC3339Nano)
	case []any:
		if depth > maxDepth {
			return ""
		}
		items := make([]string, 0, len(t))
		for _, it := range t {
			items = append(items, text(it, depth+1))
		}
		return strings.Join(items, ",")
	case []map[string]any:
		return fmt.Sprintf("[%d tables]", len(t))
	case map[string]any:
		return "{…}"
	}
	return fmt.Sprint(v)
}

// get is the value of key in mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func path(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = get(n, k)
	}
	return n
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

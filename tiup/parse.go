package tiup

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// MaxTopologyBytes bounds the topology file Parse reads: a topology of a
// thousand hosts is well under a megabyte.
const MaxTopologyBytes = 16 << 20

// Topology is what tiform reads from a TiUP topology: each component's
// server_configs and the config of each host, as flattened dotted keys
// ("coprocessor.region-split-size") with the YAML scalar text as value.
type Topology struct {
	// Global maps a server_configs section ("tikv", "pd", "tiflash-learner")
	// to its keys.
	Global map[string]map[string]string
	// Hosts maps a *_servers list ("tikv_servers") to its hosts by instance
	// address (host:port, the port TiDB names the instance by).
	Hosts map[string]map[string]map[string]string
}

// Parse reads a topology: `tiup cluster show-config NAME` output (the
// topology itself) or the cluster's meta.yaml (the topology under
// `topology:`). Config maps may be written with dotted keys or nested, as
// TiUP accepts both.
func Parse(b []byte) (*Topology, error) {
	if len(b) > MaxTopologyBytes {
		return nil, fmt.Errorf("tiup: the topology is %d bytes, more than the %d a topology can be", len(b), MaxTopologyBytes)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("tiup: not a YAML topology: %w", err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("tiup: not a TiUP topology: the document is not a mapping (expected server_configs, tikv_servers, …)")
	}
	if t := get(root, "topology"); t != nil && get(root, "server_configs") == nil && get(root, "tikv_servers") == nil {
		root = t // meta.yaml: user, tiup_version, topology
	}
	if root.Kind != yaml.MappingNode || get(root, "server_configs") == nil && get(root, "tikv_servers") == nil && get(root, "pd_servers") == nil {
		return nil, errors.New("tiup: not a TiUP topology: it has neither server_configs nor *_servers (give `tiup cluster show-config NAME` output or the cluster's meta.yaml)")
	}
	t := &Topology{Global: map[string]map[string]string{}, Hosts: map[string]map[string]map[string]string{}}
	if sc := get(root, "server_configs"); sc != nil && sc.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(sc.Content); i += 2 {
			kv := map[string]string{}
			flatten(kv, "", sc.Content[i+1], 0)
			t.Global[sc.Content[i].Value] = kv
		}
	}
	for _, p := range []place{tikvPlace, pdPlace, learnerPlace} {
		if err := t.readHosts(root, p); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// readHosts reads one *_servers list: each host's address and config.
func (t *Topology) readHosts(root *yaml.Node, p place) error {
	list := get(root, p.servers)
	if list == nil {
		return nil
	}
	if list.Kind != yaml.SequenceNode {
		return fmt.Errorf("tiup: %s is not a list (line %d)", p.servers, list.Line)
	}
	hosts := map[string]map[string]string{}
	for _, h := range list.Content {
		host := get(h, "host")
		if h.Kind != yaml.MappingNode || host == nil || host.Value == "" {
			return fmt.Errorf("tiup: %s: an entry without host (line %d)", p.servers, h.Line)
		}
		port := p.port
		if pn := get(h, p.portField); pn != nil {
			n, err := strconv.Atoi(pn.Value)
			if err != nil || n < 1 || n > 65535 {
				return fmt.Errorf("tiup: %s: host %s: %s %q is not a port (line %d)", p.servers, host.Value, p.portField, pn.Value, pn.Line)
			}
			port = n
		}
		kv := map[string]string{}
		if c := get(h, p.hostField); c != nil {
			flatten(kv, "", c, 0)
		}
		hosts[strings.ToLower(net.JoinHostPort(host.Value, strconv.Itoa(port)))] = kv
	}
	t.Hosts[p.servers] = hosts
	return nil
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

// maxDepth bounds how deep config maps are flattened (TOML tables of the
// components are a few levels deep).
const maxDepth = 32

// flatten adds the leaves of n to kv with dotted keys; a sequence becomes a
// comma list (how SHOW CONFIG values of lists are compared).
func flatten(kv map[string]string, prefix string, n *yaml.Node, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
		if n == nil {
			return
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := strings.ToLower(n.Content[i].Value)
			if prefix != "" {
				k = prefix + "." + k
			}
			flatten(kv, k, n.Content[i+1], depth+1)
		}
	case yaml.SequenceNode:
		var items []string
		for _, it := range n.Content {
			items = append(items, it.Value)
		}
		kv[prefix] = strings.Join(items, ",")
	case yaml.ScalarNode:
		if prefix != "" {
			kv[prefix] = n.Value
		}
	}
}

package cmd

import (
	"bytes"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	yaml "go.yaml.in/yaml/v4"
)

// yamlMergeCmd merges a YAML patch into a YAML file, as a person merging
// `tiform export tiup` into `tiup cluster edit-config`, or kubectl applying
// a merge patch (RFC 7386) from `tiform export operator`, would:
//
//	yamlmerge FILE[:KEY] PATCH
//
// With :KEY the patch merges into the mapping under KEY (topology: in a
// meta.yaml, which `tiup cluster edit-config` edits).
// Mappings merge key by key; a list of hosts (entries with host) merges by
// host, as TiUP's host lists are edited; any other value is replaced. FILE
// holds one document.
func yamlMergeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: yamlmerge FILE PATCH")
	}
	file, key, _ := strings.Cut(args[0], ":")
	var dst, patch yaml.Node
	ts.Check(yaml.Unmarshal([]byte(ts.ReadFile(file)), &dst))
	ts.Check(yaml.Unmarshal([]byte(ts.ReadFile(args[1])), &patch))
	if len(dst.Content) != 1 || len(patch.Content) != 1 {
		ts.Fatalf("yamlmerge: %s and %s must hold one YAML document each", args[0], args[1])
	}
	target := dst.Content[0]
	if key != "" {
		target = nil
		for i := 0; i+1 < len(dst.Content[0].Content); i += 2 {
			if dst.Content[0].Content[i].Value == key {
				target = dst.Content[0].Content[i+1]
			}
		}
		if target == nil {
			ts.Fatalf("yamlmerge: %s has no %s", file, key)
		}
	}
	merge(target, patch.Content[0])
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	ts.Check(enc.Encode(&dst))
	ts.Check(enc.Close())
	ts.Check(os.WriteFile(ts.MkAbs(file), b.Bytes(), 0o600))
}

func merge(dst, patch *yaml.Node) {
	switch {
	case dst.Kind == yaml.MappingNode && patch.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(patch.Content); i += 2 {
			k, v := patch.Content[i], patch.Content[i+1]
			found := false
			for j := 0; j+1 < len(dst.Content); j += 2 {
				if dst.Content[j].Value == k.Value {
					merge(dst.Content[j+1], v)
					found = true
					break
				}
			}
			if !found {
				dst.Content = append(dst.Content, k, v)
			}
		}
	case dst.Kind == yaml.SequenceNode && patch.Kind == yaml.SequenceNode && hostList(patch):
		for _, p := range patch.Content {
			found := false
			for _, d := range dst.Content {
				if field(d, "host") == field(p, "host") {
					merge(d, p)
					found = true
					break
				}
			}
			if !found {
				dst.Content = append(dst.Content, p)
			}
		}
	default:
		*dst = *patch
	}
}

func hostList(n *yaml.Node) bool {
	for _, e := range n.Content {
		if field(e, "host") == "" {
			return false
		}
	}
	return true
}

func field(n *yaml.Node, key string) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Value
		}
	}
	return ""
}

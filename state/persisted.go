package state

import (
	"strings"

	"github.com/tiform/tiform/diag"
)

// PersistTool names where a cluster's settings persist for its next start.
type PersistTool string

const (
	// PersistTiUP: a TiUP topology (tiup_topology): `tiup cluster reload`
	// and `upgrade` regenerate every instance's config file from it.
	PersistTiUP PersistTool = "tiup"
	// PersistOperator: TiDB Operator resources (operator_manifests): the
	// Operator renders each pod's config file from them at a rolling update.
	PersistOperator PersistTool = "operator"
)

// Persisted is the persisted layer of one cluster, read from the files its
// cluster block names (tiup_topology, operator_manifests): per component,
// the places a config value is kept for the next start. Nil when the
// configuration names none.
type Persisted struct {
	Tool PersistTool
	// Files are the files read, as the configuration names them.
	Files []string
	// Range is the attribute that names them.
	Range diag.SourceRange
	// Places are the component sections the files hold, in file order.
	Places []PersistedPlace
}

// PersistedPlace is one section of the persisted layer that holds config
// values of one component: a TiUP server_configs section or host entry, an
// Operator v1 TidbCluster's spec.<component>.config, a v2 group's
// spec.template.spec.config.
type PersistedPlace struct {
	Component Component
	// Instance is "" for a section every instance of Component takes, or
	// the instance address (host:port) of a TiUP host entry.
	Instance string
	// Where names the section for a reader: "server_configs.tikv (meta.yaml)",
	// "TiKVGroup basic: spec.template.spec.config (tikv.yaml)".
	Where string
	// Resource names the Operator resource ("TiKVGroup/basic",
	// "TidbCluster/basic"); "" for TiUP.
	Resource string
	// File is the file the section was read from.
	File string
	// Values are the section's config items by flattened lower-case key as
	// SHOW CONFIG names them ("coprocessor.region-split-size"), with the
	// text the file holds.
	Values map[string]string
}

// PersistedValue is what one place of the persisted layer holds for a key.
type PersistedValue struct {
	Place *PersistedPlace
	// Value is the text the place holds; Present is false when it holds
	// nothing for the key (the built-in default applies at the next start).
	Value   string
	Present bool
}

// Holds reports whether the layer has any place for component c: a layer
// that says nothing about a component (Operator manifests without a
// TiFlashGroup) says nothing about its settings.
func (p *Persisted) Holds(c Component) bool {
	if p == nil {
		return false
	}
	for i := range p.Places {
		if p.Places[i].Component == c {
			return true
		}
	}
	return false
}

// Lookup is what the layer gives instance (a host:port; "" for none in
// particular) of component c for key at its next start: the instance's own
// section when it holds the key, else every section the component's
// instances take (several Operator v2 groups of one component: one value
// each). Nil when the layer holds no place for c.
func (p *Persisted) Lookup(c Component, instance, key string) []PersistedValue {
	if p == nil {
		return nil
	}
	key = strings.ToLower(key)
	if instance != "" {
		for i := range p.Places {
			pl := &p.Places[i]
			if pl.Component == c && pl.Instance != "" && strings.EqualFold(pl.Instance, instance) {
				if v, ok := pl.Values[key]; ok {
					return []PersistedValue{{Place: pl, Value: v, Present: true}}
				}
			}
		}
	}
	var out []PersistedValue
	for i := range p.Places {
		pl := &p.Places[i]
		if pl.Component != c || pl.Instance != "" {
			continue
		}
		v, ok := pl.Values[key]
		out = append(out, PersistedValue{Place: pl, Value: v, Present: ok})
	}
	return out
}

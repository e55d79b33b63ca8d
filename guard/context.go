package guard

import (
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
	"github.com/tiform/tiform/version"
)

// context is what a rule's check sees: the input with nil parts replaced by
// empty values, and lookups over it. Rules never mutate it.
type context struct {
	in Input
	// d is the desired cluster; an empty one when the input has none
	// (CheckCluster). hcl says whether there was one.
	d   *state.DesiredCluster
	hcl bool
	// l is the live state; an empty one when the input has none.
	l *state.Live

	// Catalog lookups; tests replace them to pin entries the rule logic needs.
	configEntry   func(component, key string) (*catalog.Entry, bool)
	variableEntry func(name string) (*catalog.Entry, bool)

	// liveIndex holds l.Config by component, instance and lower-case key,
	// built on first use (liveConfigOn); declaredIndex the same of d.Config
	// (declaredOn).
	liveIndex     map[liveKey]string
	declaredIndex map[liveKey]*state.ConfigSetting
	// versions caches version per component: rules ask for it once per
	// change, and MinVersion scans every instance.
	versions map[state.Component]componentVersion
}

// componentVersion is one answer of context.version.
type componentVersion struct {
	v  version.Version
	ok bool
}

// declaredOn returns the declaration of comp/key on instance ("" for a
// type-wide one); the last one when declared twice.
func (c *context) declaredOn(comp state.Component, instance, key string) (*state.ConfigSetting, bool) {
	if c.declaredIndex == nil {
		c.declaredIndex = make(map[liveKey]*state.ConfigSetting, len(c.d.Config))
		for i := range c.d.Config {
			d := &c.d.Config[i]
			c.declaredIndex[liveKey{d.Component, d.Instance, strings.ToLower(d.Key)}] = d
		}
	}
	d, ok := c.declaredIndex[liveKey{comp, instance, strings.ToLower(key)}]
	return d, ok
}

type liveKey struct {
	component state.Component
	instance  string
	key       string
}

func newContext(in Input) *context {
	c := &context{
		in:            in,
		d:             in.Desired,
		hcl:           in.Desired != nil,
		l:             in.Live,
		configEntry:   catalog.Config,
		variableEntry: catalog.Variable,
	}
	if c.d == nil {
		c.d = &state.DesiredCluster{}
	}
	if c.l == nil {
		c.l = &state.Live{}
	}
	return c
}

// version returns the lowest version of comp's instances (PD's cluster-version
// is likewise the lowest TiKV version: https://docs.pingcap.com/tidb/stable/pd-control). For TiDB it falls back to VERSION() of the connected
// instance. ok is false when no version is known: version-bound rules then
// stay silent rather than guess.
func (c *context) version(comp state.Component) (version.Version, bool) {
	if cv, ok := c.versions[comp]; ok {
		return cv.v, cv.ok
	}
	v, ok := c.lowestVersion(comp)
	if c.versions == nil {
		c.versions = map[state.Component]componentVersion{}
	}
	c.versions[comp] = componentVersion{v, ok}
	return v, ok
}

// lowestVersion is version without the cache.
func (c *context) lowestVersion(comp state.Component) (version.Version, bool) {
	if v, ok := c.l.MinVersion(comp); ok {
		return v, true
	}
	if comp == state.TiDB && !c.l.ServerVersionParsed.IsZero() {
		return c.l.ServerVersionParsed, true
	}
	if comp == state.TiDB && c.l.ServerVersion != "" {
		if v, err := version.Parse(c.l.ServerVersion); err == nil {
			return v, true
		}
	}
	return version.Version{}, false
}

// hasInstances reports whether the live cluster has at least one instance of comp.
func (c *context) hasInstances(comp state.Component) bool {
	for _, in := range c.l.Instances {
		if in.Component == comp {
			return true
		}
	}
	return false
}

// settings returns every declared setting of comp/key: the type-wide one
// first, then per-instance ones in declaration order.
func (c *context) settings(comp state.Component, key string) []state.ConfigSetting {
	var wide, per []state.ConfigSetting
	for _, s := range c.d.Config {
		if s.Component != comp || !strings.EqualFold(s.Key, key) {
			continue
		}
		if s.Instance == "" {
			wide = append(wide, s)
		} else {
			per = append(per, s)
		}
	}
	return append(wide, per...)
}

// setting returns the declared setting of comp/key for instance ("" =
// type-wide), or nil.
func (c *context) setting(comp state.Component, instance, key string) *state.ConfigSetting {
	for i := range c.d.Config {
		s := &c.d.Config[i]
		if s.Component == comp && s.Instance == instance && strings.EqualFold(s.Key, key) {
			return s
		}
	}
	return nil
}

// variable returns the declared variable name (case-insensitive), or nil.
func (c *context) variable(name string) *state.VariableSetting {
	for i := range c.d.Variables {
		if strings.EqualFold(c.d.Variables[i].Name, name) {
			return &c.d.Variables[i]
		}
	}
	return nil
}

// liveVariable returns the live GLOBAL value of name, if it was read.
func (c *context) liveVariable(name string) (string, bool) {
	if c.l.Variables == nil {
		return "", false
	}
	v, ok := c.l.Variables[strings.ToLower(name)]
	return v, ok
}

// liveConfigKeys are the config keys rules read from the live state, beyond
// the declared ones: a plan reads them with the declared keys (LiveConfigKeys).
// liveConfig and liveConfigOn refuse any other key, so that a rule cannot
// depend on a value no plan reads.
var liveConfigKeys = map[state.Component][]string{
	state.TiKV: {keyIMEEnable, keySplitSize, keyMaxSize, keySplitKeys, keyMaxKeys, "resource-control.enabled"},
	state.PD:   {keyMergeSize, keyMergeKeys},
}

// liveVariables are the system variables rules read from the live state
// beyond the declared ones: a plan that reads variables at all reads these in
// the same statement (LiveVariables, live.RequestFor); check reads every
// variable.
var liveVariables = []string{"tidb_enable_resource_control", varInlistDigest}

// LiveVariables returns the system variables guards read from the live
// state besides the declared ones.
func LiveVariables() []string { return append([]string(nil), liveVariables...) }

// LiveConfigKeys returns the config keys of comp that guards read from the
// live state besides the declared ones (live.RequestFor reads them too).
func LiveConfigKeys(comp state.Component) []string {
	return append([]string(nil), liveConfigKeys[comp]...)
}

// readByRules reports whether LiveConfigKeys lists comp/key.
func readByRules(comp state.Component, key string) bool {
	for _, k := range liveConfigKeys[comp] {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// mustRead panics when a rule reads a live config key LiveConfigKeys does
// not list: a programming error, caught by the rule's tests.
func mustRead(comp state.Component, key string) {
	if readByRules(comp, key) {
		return
	}
	panic("guard: a rule reads the live value of " + string(comp) + " " + key + ", which LiveConfigKeys does not list (so no plan reads it)")
}

// liveConfig returns the live rows of comp/key (one per instance that has it).
func (c *context) liveConfig(comp state.Component, key string) []state.ConfigRow {
	mustRead(comp, key)
	return c.liveRows(comp, key)
}

// liveDeclaredConfig is liveConfig for a key the configuration declares: a
// plan reads every declared key, so LiveConfigKeys need not list it.
func (c *context) liveDeclaredConfig(s state.ConfigSetting) []state.ConfigRow {
	return c.liveRows(s.Component, s.Key)
}

func (c *context) liveRows(comp state.Component, key string) []state.ConfigRow {
	var out []state.ConfigRow
	for _, r := range c.l.Config {
		if r.Component == comp && strings.EqualFold(r.Key, key) {
			out = append(out, r)
		}
	}
	return out
}

// liveConfigOn returns the live value of comp/key on instance.
func (c *context) liveConfigOn(comp state.Component, instance, key string) (string, bool) {
	mustRead(comp, key)
	if c.liveIndex == nil {
		// Only the keys a rule may read (mustRead): a plan declaring the
		// whole catalog has hundreds of thousands of rows.
		c.liveIndex = make(map[liveKey]string)
		for _, r := range c.l.Config {
			if !readByRules(r.Component, r.Key) {
				continue
			}
			k := liveKey{r.Component, r.Instance, strings.ToLower(r.Key)}
			if _, dup := c.liveIndex[k]; !dup { // the first row wins, as the scan it replaces
				c.liveIndex[k] = r.Value
			}
		}
	}
	v, ok := c.liveIndex[liveKey{comp, instance, strings.ToLower(key)}]
	return v, ok
}

// clusterName is the TiUP cluster name used in TiUP advice: the cluster
// block's tiup_cluster (TiUP's name often differs from tiform's), else a
// placeholder.
func (c *context) clusterName() string {
	if c.d != nil && c.d.TiUPCluster != "" {
		return c.d.TiUPCluster
	}
	return tiup.Placeholder
}

// topologyEdit is the exact TiUP topology edit that records settings
// (package tiup owns the topology's shape: server_configs for every
// instance, the host's config for one), under the edit-config command with
// the cluster's tiup_cluster; without it, a placeholder and how to declare it.
func (c *context) topologyEdit(settings ...state.ConfigSetting) string {
	out := tiup.Snippet(c.clusterName(), settings...)
	if out != "" && (c.d == nil || c.d.TiUPCluster == "") {
		out += "\n(" + tiup.Placeholder + ": the name `tiup cluster list` shows; declare it with tiup_cluster = \"NAME\" in the cluster block)"
	}
	return out
}

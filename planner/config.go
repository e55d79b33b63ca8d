package planner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// configKey groups the declarations of one component key.
type configKey struct {
	component state.Component
	key       string // lower-case, as SHOW CONFIG prints it
}

// declaredConfig is every declaration of one key: type-wide and per instance.
type declaredConfig struct {
	typeWide  *state.ConfigSetting
	instances map[string]*state.ConfigSetting
}

// unread reports whether the live state could not read key on instance inst
// of component c: the instance returned no config rows (down, unreachable),
// or it returned rows but none for key that the catalog can explain (a
// config-key gap). Such a value is unknown, not absent: the plan neither
// compares nor changes it, and Incomplete lists it (a partial plan covers
// only what could be read; issue 5).
func (b *builder) unread(c state.Component, inst, key string) bool {
	for _, g := range b.l.Gaps {
		if g.Component != c || g.Instance != inst {
			continue
		}
		switch g.Kind {
		case state.GapInstance:
			if g.Key == "" || strings.EqualFold(g.Key, key) {
				return true
			}
		case state.GapConfigKey:
			if strings.EqualFold(g.Key, key) {
				return true
			}
		}
	}
	return false
}

// leftAlone describes instances that could not be read, for a change's reason.
func leftAlone(insts []string) string {
	verb := "is"
	if len(insts) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s could not be read and %s left alone", strings.Join(insts, ", "), verb)
}

// groupConfig collects declarations per key, rejecting duplicates.
func groupConfig(settings []state.ConfigSetting) (map[configKey]*declaredConfig, []configKey, error) {
	out := map[configKey]*declaredConfig{}
	var keys []configKey
	for i := range settings {
		s := &settings[i]
		k := configKey{s.Component, strings.ToLower(strings.TrimSpace(s.Key))}
		d := out[k]
		if d == nil {
			d = &declaredConfig{instances: map[string]*state.ConfigSetting{}}
			out[k] = d
			keys = append(keys, k)
		}
		if s.Instance == "" {
			if d.typeWide != nil {
				return nil, nil, inputError(s.Range, fmt.Sprintf("%s is declared twice", state.ConfigAddress(s.Component, "", k.key)),
					"remove one of the two declarations", declaredHere(d.typeWide.Range))
			}
			d.typeWide = s
			continue
		}
		if prev := d.instances[s.Instance]; prev != nil {
			return nil, nil, inputError(s.Range, fmt.Sprintf("%s is declared twice", state.ConfigAddress(s.Component, s.Instance, k.key)),
				"remove one of the two declarations", declaredHere(prev.Range))
		}
		d.instances[s.Instance] = s
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].component != keys[j].component {
			return keys[i].component < keys[j].component
		}
		return keys[i].key < keys[j].key
	})
	return out, keys, nil
}

func persistenceOf(c state.Component) plans.Persistence {
	switch c {
	case state.PD:
		return plans.PersistPDEtcd
	case state.TiFlash:
		return plans.PersistTiFlashProxy
	}
	return plans.PersistTiKVFile
}

// instanceTarget is the SET CONFIG target of one instance: a string literal
// holding CLUSTER_INFO.INSTANCE (pingcap/tidb@v8.5.1:pkg/executor/set_config.go,
// isValidInstance).
func instanceTarget(addr string) string { return quote.String(addr) }

// setConfig renders SET CONFIG <target> `key` = <literal>
// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tikv-configuration-dynamically).
func setConfig(target, key, literal string) string {
	return "SET CONFIG " + target + " " + quote.Ident(key) + " = " + literal
}

// config plans every declared component config item, key by key.
func (b *builder) config() error {
	decl, keys, err := groupConfig(b.dc.Config)
	if err != nil {
		return err
	}
	cs := &configScope{live: b.live, read: map[state.Component]bool{}, reported: map[state.Component]bool{}}
	for _, c := range b.l.ConfigRead {
		cs.read[c] = true
	}
	for _, k := range keys {
		if err := b.configKey(cs, k, decl[k]); err != nil {
			return err
		}
	}
	return nil
}

// configScope is what planning every config key shares.
type configScope struct {
	live *liveIndex
	// read: components whose config was read; reported: components already
	// listed as not read.
	read, reported map[state.Component]bool
}

// configKey plans one key: where it can be set, whether it could be read,
// whether the declared values are valid, then PD's shared config or the
// instances' own.
func (b *builder) configKey(cs *configScope, k configKey, d *declaredConfig) error {
	instances, overrides, err := b.configTargets(k, d)
	if err != nil {
		return err
	}
	if len(instances) == 0 {
		b.note("%s.%s is declared but the cluster has no %s instance; nothing to change", k.component, k.key, k.component)
		return nil
	}
	if !cs.read[k.component] {
		if !cs.reported[k.component] {
			comp := k.component
			b.incomplete(fmt.Sprintf("%s config was not read; its declared items were not compared", comp),
				func(g state.Gap) bool { return g.Kind == state.GapComponent && g.Component == comp && g.Instance == "" })
			cs.reported[k.component] = true
		}
		return nil
	}
	set := settingOf(state.KindConfig, k.component, k.key)
	for _, s := range append([]*state.ConfigSetting{d.typeWide}, mapValues(d.instances, overrides)...) {
		if s == nil {
			continue
		}
		if err := set.Check(s.Value.Text); err != nil {
			return refusedAt(s.Range, err)
		}
		if err := quotedForTiKV(k.component, s.Value.Text); err != nil {
			return refusedAt(s.Range, err)
		}
	}
	// The canonical live values: the region-size ordering rule reads TiKV's,
	// the fingerprint every component's.
	cs.live.canonical(k)
	if k.component == state.PD {
		return b.pdConfig(k, d, set, instances, cs.live)
	}
	if d.typeWide != nil {
		if err := b.typeWideConfig(k, d, set, instances, cs.live); err != nil {
			return err
		}
	}
	return b.instanceOverrides(k, d, set, overrides, cs.live)
}

// quotedForTiKV refuses a value TiKV (and the TiFlash proxy, which shares its
// config code) cannot take online: its online-change path trims every double
// quote from both ends of the value before parsing it
// (tikv/tikv@v8.5.1:src/config/mod.rs, to_change_value:
// `v.trim_matches('"')`), so `say "hi"` would be stored as `say "hi` and fail
// its read-back.
func quotedForTiKV(c state.Component, text string) error {
	t := strings.TrimSpace(text)
	if (c == state.TiKV || c == state.TiFlash) && (strings.HasPrefix(t, `"`) || strings.HasSuffix(t, `"`)) {
		return fmt.Errorf("%s cannot set a value that starts or ends with a double quote online: it trims them before parsing "+
			"(tikv/tikv@v8.5.1:src/config/mod.rs, to_change_value); set it in the %s config file instead", c, c)
	}
	return nil
}

// configTargets decides where a key can be set: SET CONFIG must support it
// (TiDB config has no online path, TiFlash only raftstore-proxy.* items:
// https://docs.pingcap.com/tidb/stable/dynamic-config), PD config is shared
// by every PD member, and every instance declared on its own must exist. It
// returns the component's instances and the instances with their own
// declaration, sorted. instances is shared: callers must not modify it.
func (b *builder) configTargets(k configKey, d *declaredConfig) (instances, overrides []string, err error) {
	first := d.typeWide
	if first == nil {
		for _, s := range d.instances {
			if first == nil || s.Range.Start.Byte < first.Range.Start.Byte {
				first = s
			}
		}
	}
	if err := catalog.SetConfigSupported(string(k.component), k.key); err != nil {
		return nil, nil, refusedAt(first.Range, err)
	}
	if k.component == state.PD && len(d.instances) > 0 {
		for _, s := range d.instances {
			return nil, nil, inputError(s.Range, fmt.Sprintf("%s: PD config is shared by all PD instances "+
				"(https://docs.pingcap.com/tidb/stable/dynamic-config)", state.ConfigAddress(state.PD, s.Instance, k.key)),
				fmt.Sprintf("declare %s in the pd block, not for one instance", k.key))
		}
	}
	instances = b.live.component(k.component).instances
	for inst := range d.instances {
		overrides = append(overrides, inst)
	}
	sort.Strings(overrides)
	for _, inst := range overrides {
		if _, known := slices.BinarySearch(instances, inst); !known {
			s := d.instances[inst]
			return nil, nil, inputError(s.Range, fmt.Sprintf("%s: the cluster has no %s instance %q", state.ConfigAddress(k.component, inst, k.key), k.component, inst),
				fmt.Sprintf("use one of the cluster's %s instances: %s", k.component, strings.Join(instances, ", ")))
		}
	}
	return instances, overrides, nil
}

func mapValues(m map[string]*state.ConfigSetting, order []string) []*state.ConfigSetting {
	out := make([]*state.ConfigSetting, 0, len(order))
	for _, k := range order {
		out = append(out, m[k])
	}
	return out
}

// pdConfig: PD config is shared by all PD members and SET CONFIG pd reaches
// every member (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-pd-configuration-dynamically),
// so one statement covers it. Every
// instance is compared; any difference makes an update. instances is
// live.component(k.component).instances (configTargets).
func (b *builder) pdConfig(k configKey, d *declaredConfig, set catalog.Setting, instances []string, live *liveIndex) error {
	s := d.typeWide
	want := set.Canonical(s.Value.Text)
	var before []plans.InstanceValue
	var skipped []string
	vals, same := live.printed(k), newEqualTo(set, s.Value.Text)
	for i, inst := range instances {
		if b.unread(k.component, inst, k.key) {
			skipped = append(skipped, inst)
			continue
		}
		v := vals[i]
		if !v.printed {
			before = append(before, plans.InstanceValue{Instance: inst, Value: plans.Absent})
			continue
		}
		if !same.equal(v.text) {
			before = append(before, plans.InstanceValue{Instance: inst, Value: v.text})
		}
	}
	if len(before) == 0 {
		return nil
	}
	if _, err := set.SQLValue(s.Value.Text, firstPresent(before), literalKind(s.Value.Type)); err != nil {
		return refusedAt(s.Range, err)
	}
	c := b.configChange(k, "", s, set)
	c.Action = plans.Update
	c.Before = before
	c.Spec.Set = []plans.Assignment{{Target: "pd", Value: s.Value, Rendered: firstPresent(before)}}
	c.Verify = []plans.Check{{Addr: state.ConfigAddress(state.PD, "", k.key), Want: want}}
	if _, ok := set.RestoreSQL(firstPresent(before)); ok && firstPresent(before) != "" {
		c.Spec.Unset = []plans.Assignment{{Target: "pd", Value: state.Value{Text: firstPresent(before)}, Restore: true}}
	}
	if err := derived(c); err != nil {
		return err
	}
	c.Reason = fmt.Sprintf("PD reports %s; PD config is shared, one statement reaches every PD member", describeBefore(before))
	if len(skipped) > 0 {
		c.Reason += fmt.Sprintf(" (%s could not be read)", strings.Join(skipped, ", "))
	}
	b.add(c)
	return nil
}

func firstPresent(vs []plans.InstanceValue) string {
	for _, v := range vs {
		if v.Value != plans.Absent {
			return v.Value
		}
	}
	return ""
}

func describeBefore(vs []plans.InstanceValue) string {
	seen := map[string]bool{}
	var vals []string
	for _, v := range vs {
		if !seen[v.Value] {
			seen[v.Value] = true
			vals = append(vals, v.Value)
		}
	}
	return strings.Join(vals, ", ")
}

func (b *builder) configChange(k configKey, inst string, s *state.ConfigSetting, set catalog.Setting) *plans.Change {
	c := &plans.Change{
		Addr:        state.ConfigAddress(k.component, inst, k.key),
		After:       set.Render(s.Value.Text),
		Persistence: persistenceOf(k.component),
		Range:       s.Range,
		// A credential is shown as a sensitive value wherever it came from.
		Sensitive: s.Value.Sensitive || set.Secret() != "",
	}
	if set.Entry != nil && !set.Entry.Online {
		c.RestartRequired = true
		c.Persistence = plans.PersistDeployment
	}
	// in-memory-engine.enable: false→true is accepted online but only takes
	// effect after a restart (https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine#usage).
	if set.Entry != nil && set.Entry.RestartIfEnabled && set.Canonical(s.Value.Text) == "true" {
		c.RestartRequired = true
	}
	return c
}

// typeWideConfig plans the type-wide declaration of a TiKV or TiFlash key
// (instanceOverrides the per-instance ones). It covers
// every instance without its own declaration:
//
//   - every covered instance differs, and no instance has a different
//     per-instance value: one Update with a type-wide statement;
//   - every covered instance differs but some instance has its own value: one
//     Update with a statement per covered instance (a type-wide statement would
//     overwrite the per-instance values);
//   - only some covered instances differ: Drift, with statements for exactly
//     the drifted instances (reviewers see which nodes move).
//
// A per-instance declaration that differs is its own Update at the address
// tikv["host:port"].key with one statement for that instance.
func (b *builder) typeWideConfig(k configKey, d *declaredConfig, set catalog.Setting, instances []string, live *liveIndex) error {
	s := d.typeWide
	cov := b.typeWideCoverage(k, d, set, instances, live)
	if len(cov.before) == 0 {
		return nil
	}
	rendered := firstPresent(cov.before)
	if _, err := set.SQLValue(s.Value.Text, rendered, literalKind(s.Value.Type)); err != nil {
		return refusedAt(s.Range, err)
	}
	comp, want := string(k.component), set.Canonical(s.Value.Text)
	c := b.configChange(k, "", s, set)
	c.Action, c.Before = plans.Update, cov.before
	all := len(cov.before) == len(cov.covered)
	typeWide := all && !cov.otherValues && len(cov.skipped) == 0
	if typeWide {
		c.Spec.Set = []plans.Assignment{{Target: comp, Value: s.Value, Rendered: rendered}}
		c.Verify = []plans.Check{{Addr: state.ConfigAddress(k.component, "", k.key), Want: want}}
		c.Reason = fmt.Sprintf("every %s instance (%d) reports %s", comp, len(cov.covered), describeBefore(cov.before))
	} else {
		if !all {
			c.Action = plans.Drift
		}
		for _, bv := range cov.before {
			c.Spec.Set = append(c.Spec.Set, plans.Assignment{Target: bv.Instance, Value: s.Value, Rendered: rendered})
			c.Verify = append(c.Verify, plans.Check{Addr: state.ConfigAddress(k.component, bv.Instance, k.key), Want: want})
		}
		c.Reason = cov.reason(comp)
	}
	c.Spec.Unset = rollbackConfig(comp, set, cov.before, typeWide && len(cov.before) > 0)
	if err := derived(c); err != nil {
		return err
	}
	b.add(c)
	return nil
}

// coverage is what a type-wide declaration finds on the instances it covers
// (every instance without its own declaration).
type coverage struct {
	covered, skipped []string // instances compared; instances that could not be read
	before           []plans.InstanceValue
	otherValues      bool // some instance declares a value of its own that differs
	own              int  // instances that declare their own value
}

// typeWideCoverage compares the type-wide value with every instance it
// covers. instances is live.component(k.component).instances (configTargets).
func (b *builder) typeWideCoverage(k configKey, d *declaredConfig, set catalog.Setting, instances []string, live *liveIndex) coverage {
	s := d.typeWide
	cov := coverage{covered: make([]string, 0, len(instances))}
	vals, same := live.printed(k), newEqualTo(set, s.Value.Text)
	for i, inst := range instances {
		if o := d.instances[inst]; o != nil {
			cov.own++
			cov.otherValues = cov.otherValues || !set.Equal(o.Value.Text, s.Value.Text)
			continue
		}
		if b.unread(k.component, inst, k.key) {
			cov.skipped = append(cov.skipped, inst)
			continue
		}
		cov.covered = append(cov.covered, inst)
		switch v := vals[i]; {
		case !v.printed:
			cov.before = append(cov.before, plans.InstanceValue{Instance: inst, Value: plans.Absent})
		case !same.equal(v.text):
			cov.before = append(cov.before, plans.InstanceValue{Instance: inst, Value: v.text})
		}
	}
	return cov
}

// equalTo compares live texts of one key with a declared value
// (catalog.Setting.Equal), deciding each distinct text once: a component's
// instances mostly print a key's value in the same text, and Equal may parse
// both values.
type equalTo struct {
	set      catalog.Setting
	declared string
	seen     map[string]bool
}

func newEqualTo(set catalog.Setting, declared string) *equalTo {
	return &equalTo{set: set, declared: declared, seen: make(map[string]bool, 4)}
}

// equal reports set.Equal(declared, text).
func (e *equalTo) equal(text string) bool {
	r, ok := e.seen[text]
	if !ok {
		r = e.set.Equal(e.declared, text)
		e.seen[text] = r
	}
	return r
}

// reason says why a type-wide declaration is set instance by instance.
func (cov coverage) reason(comp string) string {
	var r string
	switch {
	case len(cov.before) != len(cov.covered):
		r = fmt.Sprintf("%d of %d %s instances drifted from the declared value; only they are changed", len(cov.before), len(cov.covered), comp)
	case cov.otherValues:
		keeps := fmt.Sprintf("the %d with their own value keep it", cov.own)
		if cov.own == 1 {
			keeps = "the one with its own value keeps it"
		}
		r = fmt.Sprintf("the %d %s instances without their own value differ; set one by one so that %s", len(cov.covered), comp, keeps)
	default:
		r = fmt.Sprintf("every %s instance that could be read (%d) reports %s", comp, len(cov.covered), describeBefore(cov.before))
	}
	if len(cov.skipped) > 0 {
		r += "; " + leftAlone(cov.skipped)
	}
	return r
}

// instanceOverrides plans each instance's own declaration where it differs,
// at the address tikv["host:port"].key with one statement for that instance.
func (b *builder) instanceOverrides(k configKey, d *declaredConfig, set catalog.Setting, overrides []string, live *liveIndex) error {
	for _, inst := range overrides {
		s := d.instances[inst]
		if b.unread(k.component, inst, k.key) {
			continue // listed under Incomplete; not compared
		}
		v, ok := live.get(k.component, inst, k.key)
		if ok && set.Equal(s.Value.Text, v) {
			continue
		}
		rendered := v
		if !ok {
			v, rendered = plans.Absent, ""
		}
		if _, err := set.SQLValue(s.Value.Text, rendered, literalKind(s.Value.Type)); err != nil {
			return refusedAt(s.Range, err)
		}
		c := b.configChange(k, inst, s, set)
		c.Action = plans.Update
		c.Before = []plans.InstanceValue{{Instance: inst, Value: v}}
		c.Spec.Set = []plans.Assignment{{Target: inst, Value: s.Value, Rendered: rendered}}
		c.Verify = []plans.Check{{Addr: state.ConfigAddress(k.component, inst, k.key), Want: set.Canonical(s.Value.Text)}}
		c.Spec.Unset = rollbackConfig(string(k.component), set, c.Before, false)
		if err := derived(c); err != nil {
			return err
		}
		c.Reason = fmt.Sprintf("%s declares its own value; it reports %s", inst, v)
		b.add(c)
	}
	return nil
}

// rollbackConfig restores the live values: one type-wide assignment when the
// change was type-wide and every instance had the same value, else one per
// instance. Absent values cannot be restored and are skipped.
func rollbackConfig(comp string, set catalog.Setting, before []plans.InstanceValue, typeWide bool) []plans.Assignment {
	same := true
	for _, bv := range before {
		if bv.Value == plans.Absent || !set.Equal(before[0].Value, bv.Value) {
			same = false
		}
	}
	if typeWide && same && len(before) > 0 {
		if _, ok := set.RestoreSQL(before[0].Value); ok {
			return []plans.Assignment{{Target: comp, Value: state.Value{Text: before[0].Value}, Restore: true}}
		}
	}
	var out []plans.Assignment
	for _, bv := range before {
		if bv.Value == plans.Absent {
			continue
		}
		if _, ok := set.RestoreSQL(bv.Value); ok {
			out = append(out, plans.Assignment{Target: bv.Instance, Value: state.Value{Text: bv.Value}, Restore: true})
		}
	}
	return out
}

package schema

import (
	"fmt"
	"math/big"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// layer is what one scope declares: the top level (the baseline every
// cluster gets) or one cluster block (its overrides).
type layer struct {
	name string

	config      map[configKey]*configDecl
	configOrder []configKey
	vars        map[string]*varSetting
	varOrder    []string
	groups      map[string]*groupDecl
	groupOrder  []string

	unmanaged    *policyDecl // unmanaged_resource_groups
	instanceVars *policyDecl // instance_variables
	// unmanagedSettings is unmanaged_settings: drift reports list the
	// undeclared settings whose value is not the default.
	unmanagedSettings *policyDecl
	acks              map[string]*ackDecl
	ackOrder          []string
	ignores           map[state.AddressPattern]*ignoreDecl
	ignoreOrder       []state.AddressPattern
}

type configKey struct {
	component state.Component
	instance  string
	key       string
}

type configDecl struct {
	setting  state.ConfigSetting
	keyRange hcl.Range
}

type varSetting struct {
	setting  state.VariableSetting
	keyRange hcl.Range
}

type policyDecl struct {
	on  bool // drop / allow
	rng hcl.Range
}

type ignoreDecl struct {
	ignore state.Ignore
	rng    hcl.Range
}

type ackDecl struct {
	ack state.Acknowledgement
	rng hcl.Range
}

func newLayer(name string) *layer {
	return &layer{
		name:    name,
		config:  map[configKey]*configDecl{},
		vars:    map[string]*varSetting{},
		groups:  map[string]*groupDecl{},
		acks:    map[string]*ackDecl{},
		ignores: map[state.AddressPattern]*ignoreDecl{},
	}
}

// Names of the language's blocks and attributes, for suggestions.
var (
	layerBlocks       = []string{"tikv", "pd", "tiflash", "variables", "resource_group", "acknowledge", "ignore"}
	layerAttrs        = []string{"unmanaged_resource_groups", "instance_variables", "unmanaged_settings"}
	topOnlyBlocks     = []string{"variable", "locals", "cluster", "rollout", "window"}
	clusterAttrs      = []string{"dsn", "labels", "tiup_cluster", "tiup_topology", "operator_manifests"}
	topLevelNames     = append(append(append([]string{}, layerBlocks...), layerAttrs...), topOnlyBlocks...)
	clusterLevelNames = append(append(append([]string{}, layerBlocks...), layerAttrs...), clusterAttrs...)
)

// layerAttr handles an attribute at the top level or in a cluster block
// (dsn and labels are taken by clusterBlock before this).
func (l *loader) layerAttr(ly *layer, a *hclsyntax.Attribute, inCluster bool) {
	switch a.Name {
	case "unmanaged_resource_groups":
		l.policy(ly, a, &ly.unmanaged, "report", "drop",
			`unmanaged_resource_groups says what to do with resource groups that exist in the cluster but are not declared: "report" (the default) lists them in the plan, "drop" plans DROP RESOURCE GROUP for them.`)
	case "instance_variables":
		l.policy(ly, a, &ly.instanceVars, "deny", "allow",
			`instance_variables = "allow" (or true) opts in to INSTANCE-scoped variables, which SET GLOBAL applies only to the TiDB instance tiform is connected to (https://docs.pingcap.com/tidb/stable/system-variables).`)
	case "unmanaged_settings":
		l.policy(ly, a, &ly.unmanagedSettings, "off", "report",
			`unmanaged_settings = "report" (or true) makes drift reports (tiform plan --drift) list the settings the configuration does not declare whose live value is not the default of the cluster's version; "off" (the default) leaves them out unless plan runs with --unmanaged.`)
	case "dsn", "labels", "tiup_cluster", "tiup_topology", "operator_manifests":
		l.b.errorf(a.NameRange, fmt.Sprintf("%s belongs in a cluster block", a.Name),
			fmt.Sprintf("dsn, labels, tiup_cluster, tiup_topology and operator_manifests describe one cluster: cluster \"NAME\" { %s = … }. Without cluster blocks, tiform uses --dsn or TIFORM_DSN.", a.Name),
			fmt.Sprintf("move it into cluster \"NAME\" { %s = … }", a.Name))
	default:
		names := topLevelNames
		where := "at the top level"
		if inCluster {
			names, where = clusterLevelNames, "in a cluster block"
		}
		if slices.Contains(layerBlocks, a.Name) || (!inCluster && slices.Contains(topOnlyBlocks, a.Name)) {
			// variables = { … }: the name is right, the "=" is not.
			l.b.errorf(a.NameRange, fmt.Sprintf("%s is a block, not an attribute", a.Name),
				fmt.Sprintf("Blocks are written without an equals sign: %s { … }.", a.Name),
				fmt.Sprintf("remove the = after %s", a.Name))
			return
		}
		l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q %s", a.Name, where),
			"Expected one of: "+strings.Join(names, ", ")+".", didYouMean(a.Name, names, ""))
	}
}

// policy decodes a two-valued policy written as a keyword or a boolean.
func (l *loader) policy(ly *layer, a *hclsyntax.Attribute, dst **policyDecl, off, on, detail string) {
	if *dst != nil {
		l.b.duplicate(a.NameRange, (*dst).rng, fmt.Sprintf("%s is set twice", a.Name), "Set it once per scope.")
		return
	}
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return
	}
	p := &policyDecl{rng: a.NameRange}
	switch {
	case !v.IsNull() && v.Type() == cty.Bool:
		p.on = v.True()
	case !v.IsNull() && v.Type() == cty.String && strings.EqualFold(v.AsString(), on):
		p.on = true
	case !v.IsNull() && v.Type() == cty.String && strings.EqualFold(v.AsString(), off):
		p.on = false
	default:
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid value for %s", a.Name),
			detail, fmt.Sprintf("write %s = %q or %s = %q", a.Name, off, a.Name, on))
		return
	}
	*dst = p
}

// layerBlock handles a block at the top level or in a cluster block.
func (l *loader) layerBlock(ly *layer, blk *hclsyntax.Block, inCluster bool) {
	switch blk.Type {
	case "tikv", "pd", "tiflash":
		l.componentBlock(ly, blk)
	case "variables":
		l.variablesBlock(ly, blk)
	case "resource_group":
		l.resourceGroupBlock(ly, blk)
	case "acknowledge":
		l.acknowledgeBlock(ly, blk)
	case "ignore":
		l.ignoreBlock(ly, blk)
	case "tidb":
		l.b.errorf(blk.TypeRange, "TiDB config cannot be changed online",
			"SET CONFIG accepts only tikv, pd and tiflash (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tidb-configuration-dynamically); TiDB behaviour is changed through system variables or tidb.toml.",
			"declare TiDB system variables in variables { … }")
	case "variable", "locals", "cluster", "rollout", "window":
		if inCluster {
			l.b.errorf(blk.TypeRange, fmt.Sprintf("%s blocks belong at the top level", blk.Type),
				"A cluster block holds overrides (tikv, pd, tiflash, variables, resource_group, acknowledge, ignore) and dsn/labels.",
				"move it out of the cluster block")
		}
	default:
		names := topLevelNames
		where := "at the top level"
		if inCluster {
			names, where = clusterLevelNames, "in a cluster block"
		}
		l.b.errorf(blk.TypeRange, fmt.Sprintf("unknown block %q %s", blk.Type, where),
			"Expected one of: "+strings.Join(names, ", ")+".", didYouMean(blk.Type, names, ""))
	}
}

// ---------------------------------------------------------------------------
// Component blocks

// componentBlock decodes tikv/pd/tiflash { … } and their per-instance form
// tikv "10.0.1.17:20160" { … }. Nested blocks mirror the component's TOML
// tables; keys are flattened with "." as SHOW CONFIG prints them.
func (l *loader) componentBlock(ly *layer, blk *hclsyntax.Block) {
	comp := state.Component(blk.Type)
	instance := ""
	switch len(blk.Labels) {
	case 0:
	case 1:
		inst, err := checkInstance(blk.Labels[0])
		if err != "" {
			l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("invalid %s instance address %q", comp, blk.Labels[0]), err,
				fmt.Sprintf(`write the instance's address as CLUSTER_INFO.INSTANCE prints it: %s "10.0.1.17:%s" { … }`, comp, defaultPort(comp)))
			return
		}
		if comp == state.PD {
			// All PD instances share one config (kept in etcd); SET CONFIG on
			// one member changes it for every member
			// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-pd-configuration-dynamically).
			l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("PD config cannot differ per instance (%s)", blk.Labels[0]),
				"All PD instances share one configuration, persisted in etcd (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-pd-configuration-dynamically): a value set through one PD member applies to every member.",
				"declare it for all PD instances: pd { … }")
			return
		}
		instance = inst
	default:
		l.b.errorf(blk.LabelRanges[1], fmt.Sprintf("%s block takes at most one label", comp),
			fmt.Sprintf(`Write %s { … } for every instance, or %s "host:port" { … } for one instance.`, comp, comp), "")
		return
	}
	l.componentBody(ly, comp, instance, "", blk.Body, true)
}

func defaultPort(c state.Component) string {
	switch c {
	case state.PD:
		return "2379"
	case state.TiFlash:
		return "3930"
	}
	return "20160"
}

// checkInstance validates a host:port instance address and returns it
// lower-cased (TiDB lower-cases instance strings:
// pingcap/tidb@v8.5.1:pkg/executor/set_config.go, SetConfigExec.Open).
func checkInstance(s string) (string, string) {
	if strings.Contains(s, "://") {
		return "", "An instance is host:port without a scheme."
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil || host == "" {
		return "", "An instance is host:port, for example \"10.0.1.17:20160\"."
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", fmt.Sprintf("The port %q is not a number between 1 and 65535.", port)
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_:", r)) {
			return "", fmt.Sprintf("The host %q contains %q; use an IP address or a host name.", host, r)
		}
	}
	return strings.ToLower(s), ""
}

func (l *loader) componentBody(ly *layer, comp state.Component, instance, prefix string, body *hclsyntax.Body, top bool) {
	for _, it := range bodyItems(body) {
		if it.block != nil {
			nb := it.block
			if len(nb.Labels) > 0 {
				l.b.errorf(nb.LabelRanges[0], fmt.Sprintf("config section %q takes no label", prefix+nb.Type),
					"Nested blocks name TOML sections: coprocessor { region-split-size = \"256MiB\" }.",
					fmt.Sprintf("write %s { … }", nb.Type))
				continue
			}
			l.componentBody(ly, comp, instance, prefix+nb.Type+".", nb.Body, false)
			continue
		}
		a := it.attr
		if top && a.Name == "settings" {
			l.flatSettings(ly, comp, instance, a)
			continue
		}
		v, ok := l.eval(a.Expr)
		if !ok {
			continue
		}
		l.addConfigValue(ly, comp, instance, prefix+a.Name, v, a.NameRange, a.SrcRange)
	}
}

// flatSettings decodes settings = { "storage.block-cache.capacity" = "24GiB" }.
func (l *loader) flatSettings(ly *layer, comp state.Component, instance string, a *hclsyntax.Attribute) {
	if oc, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok {
		// Decode item by item, so that each key keeps its own source range.
		for _, it := range oc.Items {
			kv, ok := l.eval(it.KeyExpr)
			if !ok {
				continue
			}
			if !kv.IsKnown() || kv.IsNull() || kv.Type() != cty.String {
				l.b.errorf(it.KeyExpr.Range(), "settings keys must be strings", `Write "section.key" = value.`, "")
				continue
			}
			v, ok := l.eval(it.ValueExpr)
			if !ok {
				continue
			}
			rng := hcl.RangeBetween(it.KeyExpr.Range(), it.ValueExpr.Range())
			l.addConfigValue(ly, comp, instance, kv.AsString(), v, it.KeyExpr.Range(), rng)
		}
		return
	}
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		l.b.errorf(a.Expr.Range(), "settings must be a map of flattened keys",
			"settings maps each dotted config key, as SHOW CONFIG prints it, to its value.",
			`write settings = { "storage.block-cache.capacity" = "24GiB" }`)
		return
	}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		l.addConfigValue(ly, comp, instance, k.AsString(), ev, a.NameRange, a.SrcRange)
	}
}

// addConfigValue flattens an object value into keys, or records one setting.
func (l *loader) addConfigValue(ly *layer, comp state.Component, instance, key string, v cty.Value, keyRange, rng hcl.Range) {
	if v.IsKnown() && !v.IsNull() && (v.Type().IsObjectType() || v.Type().IsMapType()) {
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			l.addConfigValue(ly, comp, instance, key+"."+k.AsString(), ev, keyRange, rng)
		}
		return
	}
	key = strings.ToLower(strings.TrimSpace(key))
	if !validKey(key) {
		l.b.errorf(keyRange, fmt.Sprintf("invalid %s config key %q", comp, key),
			"A config key is a dot-separated path of names, as SHOW CONFIG prints it: \"coprocessor.region-split-size\".",
			"write the key as SHOW CONFIG names it (tiform catalog lists the known ones)")
		return
	}
	if err := catalogSetConfigSupported(string(comp), key); err != nil {
		l.b.errorf(keyRange, fmt.Sprintf("%s %s cannot be changed with SET CONFIG", comp, key), trimPkg(err.Error()),
			"remove it here and set it in the TiFlash config file (tiflash.toml; with TiUP: tiup cluster edit-config)")
		return
	}
	k := configKey{component: comp, instance: instance, key: key}
	if first, dup := ly.config[k]; dup {
		l.b.duplicate(keyRange, first.keyRange, fmt.Sprintf("%s is set twice", configAddress(k)),
			"Each config key may be set once per scope (top level, or one cluster block).")
		return
	}
	if e, known := catalog.Config(string(comp), key); known && l.listForScalar(e, v, rng) {
		return
	}
	val, ok := l.toValue(v, rng, configAddress(k))
	if !ok {
		return
	}
	l.checkConfig(comp, key, val, keyRange, rng)
	l.checkSecretValue(catalog.SettingFor(catalog.TargetConfig, string(comp), key), configAddress(k), val, rng)
	ly.config[k] = &configDecl{
		setting:  state.ConfigSetting{Component: comp, Instance: instance, Key: key, Value: val, Range: rangeOf(rng)},
		keyRange: keyRange,
	}
	ly.configOrder = append(ly.configOrder, k)
}

// configAddress names a config setting in messages: tikv.coprocessor.region-split-size,
// tikv["10.0.1.17:20160"].coprocessor.region-split-size.
func configAddress(k configKey) string {
	return state.ConfigAddress(k.component, k.instance, k.key).String()
}

func validKey(k string) bool { return state.ValidConfigKey(k) }

// toValue converts an evaluated HCL value to a setting value. ok is false
// when a diagnostic was added (or the value is unknown offline).
// listForScalar reports a list written for a known setting of a single-value
// kind: toValue joins list items with commas, so a one-item list would pass
// as its item. Settings compared as text (KindString) may hold comma lists.
func (l *loader) listForScalar(e *catalog.Entry, v cty.Value, rng hcl.Range) bool {
	if e.Kind == catalog.KindList || e.Kind == catalog.KindString || !v.IsKnown() || v.IsNull() {
		return false
	}
	if ty := v.Type(); !(ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		return false
	}
	l.b.errorf(rng, fmt.Sprintf("%s takes one value, not a list", e.Address()),
		fmt.Sprintf("It takes %s.", kindNoun(e)), exampleHint(e))
	return true
}

// kindNoun names what a setting of e's kind takes ("an integer").
func kindNoun(e *catalog.Entry) string {
	switch e.Kind {
	case catalog.KindSize:
		return "a size"
	case catalog.KindDuration:
		return "a duration"
	case catalog.KindBool:
		return "a boolean"
	case catalog.KindInt:
		return "an integer"
	case catalog.KindFloat:
		return "a number"
	case catalog.KindEnum:
		return "one of " + strings.Join(e.Enum, ", ")
	}
	return "a value"
}

func (l *loader) toValue(v cty.Value, rng hcl.Range, what string) (state.Value, bool) {
	val, ok := l.plainValue(v, rng, what)
	if !strings.HasPrefix(what, "label ") && l.sensitiveWithin(rng) {
		// A setting's value: shown as "(sensitive)" from here on, and
		// allowed even when it is not known offline (it is then left out
		// and shown nowhere). A label is not allowed (checkSensitiveUses
		// reports it).
		val.Sensitive = true
		l.allowSensitive(rng)
	}
	return val, ok
}

// plainValue is toValue without the sensitivity.
func (l *loader) plainValue(v cty.Value, rng hcl.Range, what string) (state.Value, bool) {
	if !v.IsWhollyKnown() {
		if !l.opts.Offline {
			return state.Value{}, false // an error was reported where the unknown came from
		}
		l.b.warnf(rng, fmt.Sprintf("%s is not known offline", what),
			"Its value depends on an environment variable that is not set now, or on a sensitive variable given no value; it was not checked and is left out of this validation.", "")
		return state.Value{}, false
	}
	if v.IsNull() {
		l.b.errorf(rng, fmt.Sprintf("%s is null", what), "A setting needs a value; remove the line to stop managing it.",
			"give it a value, or remove the line")
		return state.Value{}, false
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return state.Value{Text: v.AsString(), Type: state.LiteralString}, true
	case ty == cty.Number:
		f := v.AsBigFloat()
		if f.Sign() != 0 && (f.MantExp(nil) > maxNumberExp || f.MantExp(nil) < -maxNumberExp) {
			l.b.errorf(rng, fmt.Sprintf("%s: number out of range", what),
				"No TiDB setting takes a number this large or this close to zero.",
				"write the value the setting takes (tiform catalog shows each setting's default and range)")
			return state.Value{}, false
		}
		return state.Value{Text: numberText(f), Type: state.LiteralNumber}, true
	case ty == cty.Bool:
		return state.Value{Text: strconv.FormatBool(v.True()), Type: state.LiteralBool}, true
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var items []string
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if ev.IsNull() || !ev.Type().IsPrimitiveType() {
				l.b.errorf(rng, fmt.Sprintf("%s: list items must be strings, numbers or booleans", what), "",
					`write a flat list, for example ["zone", "host"]`)
				return state.Value{}, false
			}
			s, _ := l.plainValue(ev, rng, what)
			items = append(items, s.Text)
		}
		return state.Value{Text: strings.Join(items, ","), Type: state.LiteralString}, true
	}
	l.b.errorf(rng, fmt.Sprintf("%s has an unsupported value", what),
		"A setting's value is a string, a number, a boolean or a list of them.",
		`write a string, a number, true/false or a list such as ["zone", "host"]`)
	return state.Value{}, false
}

// maxNumberExp bounds the binary exponent of a number value (about 1e308,
// float64's range): beyond it no setting makes sense, and printing such a
// number in full would take unbounded time and memory.
const maxNumberExp = 1024

// numberText is the shortest decimal form of an HCL number: integers in
// full ("268435456"), fractions as short as float64 allows ("0.5").
func numberText(f *big.Float) string {
	if f.IsInt() {
		i, _ := f.Int(nil)
		return i.String()
	}
	x, _ := f.Float64()
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// ---------------------------------------------------------------------------
// variables { … }

func (l *loader) variablesBlock(ly *layer, blk *hclsyntax.Block) {
	if len(blk.Labels) > 0 {
		l.b.errorf(blk.LabelRanges[0], "variables block takes no label", "Write variables { tidb_enable_non_prepared_plan_cache = true }.", "")
		return
	}
	for _, nb := range blk.Body.Blocks {
		l.variableGroup(ly, nb)
	}
	l.variableAttrs(ly, blk.Body, "")
}

// variableGroup reads a block inside variables as the variables whose names
// share its name and a dot: validate_password { length = 12 } is
// validate_password.length (the password policy variables:
// https://docs.pingcap.com/tidb/stable/password-management). One level only.
func (l *loader) variableGroup(ly *layer, nb *hclsyntax.Block) {
	if len(nb.Labels) > 0 {
		l.b.errorf(nb.LabelRanges[0], fmt.Sprintf("block %s in variables takes no label", nb.Type),
			"A block in variables groups the variables whose names start with its name and a dot: validate_password { length = 12 }.", "")
		return
	}
	for _, inner := range nb.Body.Blocks {
		l.b.errorf(inner.TypeRange, fmt.Sprintf("unexpected block %q in variables.%s", inner.Type, nb.Type),
			"System variable names have at most one dot: write "+nb.Type+" { name = value }.", "")
	}
	l.variableAttrs(ly, nb.Body, strings.ToLower(nb.Type)+".")
}

// variableAttrs reads body's attributes as system variables, each name
// prefixed with prefix.
func (l *loader) variableAttrs(ly *layer, body *hclsyntax.Body, prefix string) {
	for _, a := range sortedAttrs(body) {
		name := prefix + strings.ToLower(a.Name)
		if first, dup := ly.vars[name]; dup {
			l.b.duplicate(a.NameRange, first.keyRange, fmt.Sprintf("variable %s is set twice", name),
				"Each system variable may be set once per scope (top level, or one cluster block).")
			continue
		}
		v, ok := l.eval(a.Expr)
		if !ok {
			continue
		}
		if e, known := catalog.Variable(name); known && l.listForScalar(e, v, a.SrcRange) {
			continue
		}
		val, ok := l.toValue(v, a.SrcRange, "variable "+name)
		if !ok {
			continue
		}
		l.checkVariable(name, val, a.NameRange, a.SrcRange)
		l.checkSecretValue(catalog.SettingFor(catalog.TargetVariable, "tidb", name), "variable "+name, val, a.SrcRange)
		ly.vars[name] = &varSetting{
			setting:  state.VariableSetting{Name: name, Value: val, Range: rangeOf(a.SrcRange)},
			keyRange: a.NameRange,
		}
		ly.varOrder = append(ly.varOrder, name)
	}
}

// ---------------------------------------------------------------------------
// acknowledge "TF101" { reason, until }

var ackCodeRe = regexp.MustCompile(`^[A-Z]{2}[0-9]{3}$`)

func (l *loader) acknowledgeBlock(ly *layer, blk *hclsyntax.Block) {
	if len(blk.Labels) != 1 {
		l.b.errorf(blk.TypeRange, "acknowledge needs the finding code as its label",
			`Write acknowledge "TF101" { reason = "…", until = "2027-03-31" }.`, "")
		return
	}
	code := strings.ToUpper(blk.Labels[0])
	if !ackCodeRe.MatchString(code) {
		l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("invalid finding code %q", blk.Labels[0]),
			"A finding code is two letters and three digits, as printed in the plan (\"TF101\").", `write the code as the plan prints it, for example acknowledge "TF101"`)
		return
	}
	if first, dup := ly.acks[code]; dup {
		l.b.duplicate(blk.LabelRanges[0], first.rng, fmt.Sprintf("%s is acknowledged twice", code), "Acknowledge each code once per scope.")
		return
	}
	d := &ackDecl{ack: state.Acknowledgement{Code: code, Range: rangeOf(blk.Range())}, rng: blk.LabelRanges[0]}
	reason, until, ok := l.reasonUntil(blk, silencer{kind: "acknowledge", noun: "acknowledgement", subject: "finding",
		what: fmt.Sprintf("acknowledge %q", code), why: "An acknowledgement silences a guard; the reason is shown in every plan instead."})
	if !ok {
		return
	}
	d.ack.Reason, d.ack.Until = reason, until
	ly.acks[code] = d
	ly.ackOrder = append(ly.ackOrder, code)
}

// silencer names, for the diagnostics of reasonUntil, the block that
// silences something: its keyword, what it is called, what it silences, the
// block as written, and why it needs a reason.
type silencer struct{ kind, noun, subject, what, why string }

// reasonUntil decodes the body shared by acknowledge and ignore: reason
// (required, not blank) and until (optional, YYYY-MM-DD), nothing else. ok
// is false when the reason is missing (the block is then dropped: nothing is
// silenced without a reason).
func (l *loader) reasonUntil(blk *hclsyntax.Block, b silencer) (reason string, until time.Time, ok bool) {
	for _, nb := range blk.Body.Blocks {
		l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in %s", nb.Type, b.kind), b.kind+" takes reason and until.", "remove the block")
	}
	hasReason := false
	for _, a := range sortedAttrs(blk.Body) {
		switch a.Name {
		case "reason":
			s, ok := l.evalString(a)
			if !ok {
				continue
			}
			if strings.TrimSpace(s) == "" {
				l.b.errorf(a.Expr.Range(), "reason is empty", "Say why the "+b.subject+" is acceptable; reviewers read it in the plan.",
					`write reason = "…" (for example a ticket and who accepted it)`)
				continue
			}
			reason, hasReason = s, true
		case "until":
			s, ok := l.evalString(a)
			if !ok {
				continue
			}
			t, err := time.Parse("2006-01-02", s)
			if err != nil {
				l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid date %q", s),
					"until is the last day the "+b.noun+" holds, written YYYY-MM-DD.", `write until = "2027-03-31"`)
				continue
			}
			until = t
		default:
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in %s", a.Name, b.kind),
				b.kind+" takes reason (required) and until (optional date).", didYouMean(a.Name, []string{"reason", "until"}, ""))
		}
	}
	if !hasReason && !l.hasAttr(blk.Body, "reason") {
		l.b.errorf(blk.TypeRange, b.what+" needs a reason", b.why, `add reason = "…"`)
		return "", time.Time{}, false
	}
	return reason, until, hasReason
}

// ---------------------------------------------------------------------------
// ignore "PATTERN" { reason, until }

// ignoreBlock decodes an ignore block: accepted, known drift on the addresses
// PATTERN matches (state.AddressPattern).
func (l *loader) ignoreBlock(ly *layer, blk *hclsyntax.Block) {
	if len(blk.Labels) != 1 {
		l.b.errorf(blk.TypeRange, "ignore needs an address pattern as its label",
			`Write ignore "tikv.raftstore.*" { reason = "…", until = "2027-03-31" }: the pattern matches the addresses the plan prints.`, "")
		return
	}
	p, err := state.ParseAddressPattern(blk.Labels[0])
	if err != nil {
		l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("invalid ignore pattern %q", blk.Labels[0]),
			err.Error()+`. A pattern is an address as the plan prints it, where * matches any run of characters.`,
			ignorePatternHint(blk.Labels[0]))
		return
	}
	if first, dup := ly.ignores[p]; dup {
		l.b.duplicate(blk.LabelRanges[0], first.rng, fmt.Sprintf("%q is ignored twice", string(p)), "Ignore each pattern once per scope.")
		return
	}
	d := &ignoreDecl{ignore: state.Ignore{Pattern: p, Range: rangeOf(blk.Range())}, rng: blk.LabelRanges[0]}
	reason, until, ok := l.reasonUntil(blk, silencer{kind: "ignore", noun: "ignore", subject: "drift",
		what: fmt.Sprintf("ignore %q", string(p)), why: "An ignore keeps a difference out of plan and apply; the reason is shown in every plan and drift report instead."})
	if !ok {
		return
	}
	d.ignore.Reason, d.ignore.Until = reason, until
	ly.ignores[p] = d
	ly.ignoreOrder = append(ly.ignoreOrder, p)
}

// ignorePatternHint suggests a valid pattern for a bad one: the kind the
// user probably meant, or an example.
func ignorePatternHint(s string) string {
	kind := state.AddressKind(strings.TrimSpace(s))
	if kind == "tidb" || kind == "variables" {
		return `TiDB settings are system variables: write ignore "variable.NAME"`
	}
	if h := didYouMean(kind, state.AddressKinds, ""); h != "" && !strings.Contains(kind, "*") {
		return h
	}
	return `start with the kind of the address, for example ignore "tikv.gc.*" or ignore "variable.tidb_mem_quota_query"`
}

func (l *loader) hasAttr(body *hclsyntax.Body, name string) bool {
	_, ok := body.Attributes[name]
	return ok
}

// evalString evaluates an attribute that must be a known string.
func (l *loader) evalString(a *hclsyntax.Attribute) (string, bool) {
	v, ok := l.eval(a.Expr)
	if !ok {
		return "", false
	}
	if !v.IsWhollyKnown() {
		return "", false
	}
	if v.IsNull() || v.Type() != cty.String {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("%s must be a string", a.Name), "", fmt.Sprintf(`write %s = "…"`, a.Name))
		return "", false
	}
	return v.AsString(), true
}

// ---------------------------------------------------------------------------
// cluster "NAME" { dsn, labels, overrides… }

type clusterDecl struct {
	name       string
	labelRange hcl.Range
	rng        hcl.Range
	dsn        string
	dsnEnv     string // the NAME of dsn = env("NAME")
	labels     map[string]string
	tiup       string
	persisted  *state.Persisted
	// persistedRng is the attribute that named it.
	persistedRng hcl.Range
	layer        *layer
}

var clusterNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// tiupNameRe is the form TiUP accepts for a cluster name
// (pingcap/tiup@v1.16.5:pkg/cluster/clusterutil/cluster_name.go,
// ValidateClusterNameOrError).
var tiupNameRe = regexp.MustCompile(`^[a-zA-Z0-9\-_\.]+$`)

// tiupCluster decodes tiup_cluster = "NAME": the name `tiup cluster`
// commands take, which guard advice and `tiform export tiup` use.
func (l *loader) tiupCluster(a *hclsyntax.Attribute) string {
	s, ok := l.evalString(a)
	if !ok {
		return ""
	}
	if !tiupNameRe.MatchString(s) {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid TiUP cluster name %q", s),
			"TiUP cluster names hold only letters, digits, '-', '_' and '.' (tiup cluster list shows them).",
			`write tiup_cluster = "prod-tokyo", the name tiup cluster list shows`)
		return ""
	}
	return s
}

func (l *loader) clusterBlock(blk *hclsyntax.Block) *clusterDecl {
	if len(blk.Labels) != 1 {
		l.b.errorf(blk.TypeRange, "cluster block needs exactly one name",
			`Write cluster "prod" { dsn = env("PROD_DSN") }.`, "")
		return nil
	}
	name := blk.Labels[0]
	if !clusterNameRe.MatchString(name) {
		l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("invalid cluster name %q", name),
			"A cluster name starts with a letter or digit and holds letters, digits, '.', '_' and '-'.", `rename it, for example cluster "prod-tokyo"`)
		return nil
	}
	if len(l.opts.Clusters) > 0 && !l.opts.Offline && !slices.Contains(l.opts.Clusters, name) {
		// Not selected: its env() values are not needed (Options.Clusters).
		saved := l.ctx.Functions["env"]
		off := l.opts
		off.Offline = true
		l.ctx.Functions["env"] = envFunc(off, l.envAllowed)
		defer func() { l.ctx.Functions["env"] = saved }()
	}
	c := &clusterDecl{name: name, labelRange: blk.LabelRanges[0], rng: blk.Range(), layer: newLayer(name)}
	for _, it := range bodyItems(blk.Body) {
		if it.block != nil {
			l.layerBlock(c.layer, it.block, true)
			continue
		}
		a := it.attr
		switch a.Name {
		case "dsn":
			c.dsn = l.clusterDSN(a)
			if call, ok := a.Expr.(*hclsyntax.FunctionCallExpr); ok {
				c.dsnEnv, _ = envCallName(call) // dsn = env("NAME"): the name, never the value
			}
		case "tiup_cluster":
			c.tiup = l.tiupCluster(a)
		case "tiup_topology", "operator_manifests":
			l.persistedLayer(c, a)
		case "labels":
			v, ok := l.eval(a.Expr)
			if !ok || !v.IsWhollyKnown() {
				continue
			}
			if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
				l.b.errorf(a.Expr.Range(), "labels must be a map of strings", `Write labels = { env = "prod" }.`, "")
				continue
			}
			c.labels = map[string]string{}
			for it := v.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				if ev.IsNull() || !ev.Type().IsPrimitiveType() {
					l.b.errorf(a.Expr.Range(), fmt.Sprintf("label %q must be a string", k.AsString()), "", `write labels = { env = "prod" }`)
					continue
				}
				s, _ := l.toValue(ev, a.Expr.Range(), "label "+k.AsString())
				c.labels[k.AsString()] = s.Text
			}
		default:
			l.layerAttr(c.layer, a, true)
		}
	}
	return c
}

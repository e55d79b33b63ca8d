package importer

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// configComponents are the components whose config tiform manages (SET
// CONFIG accepts tikv, pd and tiflash; TiDB is managed through variables).
var configComponents = []state.Component{state.PD, state.TiKV, state.TiFlash}

// extract reads what one cluster holds into the values its configuration
// declares.
func extract(c Cluster, o Options) *clusterValues {
	cv := &clusterValues{
		name: c.Name, labels: c.Labels, tiup: c.TiUPCluster,
		config: map[configKey]value{}, common: map[configKey]value{}, vars: map[string]value{}, groups: map[string]*group{},
		report: &Report{Name: c.Name},
	}
	l := c.Live
	if !l.ServerVersionParsed.IsZero() {
		cv.report.Version = l.ServerVersionParsed.Short()
	}
	for _, comp := range configComponents {
		extractComponent(cv, l, comp, o)
	}
	completeFamilies(cv)
	extractVariables(cv, l, o)
	extractGroups(cv, l, o)
	return cv
}

func extractComponent(cv *clusterValues, l *state.Live, comp state.Component, o Options) {
	v, _ := l.MinVersion(comp)
	if l.Mixed(comp) {
		cv.report.Notes = append(cv.report.Notes, fmt.Sprintf("%s instances run different versions: defaults are those of %s, the lowest", comp, v.Short()))
	}
	keys, by := l.ConfigByKey(comp)
	for _, key := range keys {
		e, known := catalog.Config(string(comp), key)
		why := catalog.NotInVersion
		if known {
			why = e.Declarable(v)
		}
		switch {
		case why == catalog.NotOnline || !known && catalog.SetConfigSupported(string(comp), key) != nil:
			continue // TiFlash outside raftstore-proxy.*: not manageable online
		case why == catalog.NotInVersion:
			cv.report.Unknown++
			cv.report.leftOut(WhyUnknown, string(comp)+"."+key, false)
			continue
		case !schema.ValidConfigKey(key):
			cv.report.leftOut("not a key the language can hold", fmt.Sprintf("%s %q", comp, clip(key)), false)
			continue
		case why == catalog.NotASetting:
			cv.report.leftOut("not settings: "+e.ClassIn(v).Why(), e.Address(), false)
			continue
		case why == catalog.DeprecatedIn:
			cv.report.leftOut(WhyDeprecated, e.Address(), false)
			continue
		}
		extractKey(cv, l, comp, key, e, v, by, o)
	}
}

// extractKey imports one config key of comp: type-wide when every instance
// shows the same value, otherwise the most common value type-wide and a
// per-instance value for each instance that differs (PD has one config for
// all members, so only the type-wide value).
func extractKey(cv *clusterValues, l *state.Live, comp state.Component, key string, e *catalog.Entry, v version.Version,
	by map[string]map[string]string, o Options) {
	perInst := by[key]
	if extractSecretKey(cv, comp, key, e, perInst) {
		return
	}
	vals := map[string]value{} // instance → value
	var insts, bad []string
	var badErr error
	for _, in := range instanceOrder(perInst, l.InstancesOf(comp)) {
		lit, canon, err := literal(e, perInst[in])
		if err == nil {
			err = e.Check(perInst[in])
		}
		if errors.Is(err, errUnset) {
			continue
		}
		if err != nil {
			bad, badErr = append(bad, in), err
			continue
		}
		d := defaultFor(e, v, perInst[in], planner.InstanceHost(l, in, by))
		vals[in] = value{lit: lit, canon: canon, dflt: d}
		insts = append(insts, in)
	}
	if len(bad) > 0 {
		cv.report.leftOut("values tiform cannot declare", fmt.Sprintf("%s (%s: %v)", e.Address(), plural(len(bad), "instance"), badErr), false)
	}
	if len(insts) == 0 {
		return
	}
	common := mostCommon(insts, vals)
	cv.common[configKey{comp: comp, key: key}] = vals[common]
	if comp == state.PD {
		for _, in := range insts {
			if vals[in].canon != vals[common].canon {
				// PD config is declared once for every member; members that
				// differ cannot be declared without a plan that changes one
				cv.report.leftOut(WhyPDMembers, e.Address(), false)
				return
			}
		}
	}
	wanted := func(x value) bool { return o.All || x.dflt.known && !x.dflt.atDflt || x.dflt.computedUnknown != "" }
	if !vals[common].dflt.known && vals[common].dflt.computedUnknown == "" && !o.All {
		cv.report.leftOut(WhyNoDefault, e.Address(), true)
		return
	}
	for _, in := range insts {
		if why := vals[in].dflt.computedUnknown; why != "" && !vals[in].dflt.atDflt {
			cv.report.imported("imported although TiKV may have computed them from its host: "+why, e.Address())
		}
	}
	if wanted(vals[common]) {
		cv.config[configKey{comp: comp, key: key}] = vals[common]
	} else {
		cv.report.AtDefault++
	}
	for _, in := range insts {
		x := vals[in]
		if x.canon == vals[common].canon {
			continue
		}
		// An instance that differs from the type-wide value needs its own
		// value, even at the default, when the type-wide value is declared.
		if wanted(x) || wanted(vals[common]) {
			cv.config[configKey{comp: comp, inst: in, key: key}] = x
		}
	}
}

// instanceOrder lists the instances of perInst in CLUSTER_INFO order, then
// any others sorted.
func instanceOrder(perInst map[string]string, order []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, in := range order {
		in = strings.ToLower(in)
		if _, ok := perInst[in]; ok && !seen[in] {
			out = append(out, in)
			seen[in] = true
		}
	}
	var rest []string
	for in := range perInst {
		if !seen[in] {
			rest = append(rest, in)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// mostCommon is the instance whose value most instances share; on a tie
// between values the default wins, then the first instance in order. Of
// the instances that share the value, one where it is not at its default
// stands for them (a default computed per host can make the same value the
// default on one instance and tuned on another: set in the file for all,
// it is declared).
func mostCommon(insts []string, vals map[string]value) string {
	count := map[string]int{}
	for _, in := range insts {
		count[vals[in].canon]++
	}
	best := insts[0]
	for _, in := range insts[1:] {
		c, b := count[vals[in].canon], count[vals[best].canon]
		same := vals[in].canon == vals[best].canon
		switch {
		case !same && c > b,
			!same && c == b && vals[in].dflt.atDflt && !vals[best].dflt.atDflt,
			same && vals[best].dflt.atDflt && !vals[in].dflt.atDflt:
			best = in
		}
	}
	return best
}

// completeFamilies declares, for every family a cluster declares any key
// of, the family's other keys too, type-wide, at the value most instances
// show: a family declared in part is what guard TF102 warns about (the
// region-size keys are managed as a set, tikv/tikv#18503).
func completeFamilies(cv *clusterValues) {
	declared := map[string]bool{}
	for k := range cv.config {
		if e, ok := catalog.Config(string(k.comp), k.key); ok && e.Family != "" {
			declared[e.Family] = true
		}
	}
	for fam := range declared {
		for _, e := range catalog.Family(fam) {
			k := configKey{comp: state.Component(e.Component), key: strings.ToLower(e.Key)}
			if _, ok := cv.config[k]; ok {
				continue
			}
			if x, ok := cv.common[k]; ok {
				cv.config[k] = x
			}
		}
	}
}

// extractVariables imports the GLOBAL variables. INSTANCE-scoped variables
// are left out: SET GLOBAL reaches only the connected TiDB, so the language
// refuses them unless instance_variables = "allow" (docs/language.md).
func extractVariables(cv *clusterValues, l *state.Live, o Options) {
	v := l.ServerVersionParsed
	instance := map[string]bool{}
	for _, n := range l.InstanceVariables {
		instance[strings.ToLower(n)] = true
	}
	names := make([]string, 0, len(l.Variables))
	for n := range l.Variables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, raw := range names {
		name := strings.ToLower(raw)
		e, known := catalog.Variable(name)
		if !known {
			cv.report.Unknown++
			cv.report.leftOut(WhyUnknown, "variable."+name, false)
			continue
		}
		switch why := e.Declarable(v); {
		case why == catalog.NotInVersion:
			cv.report.Unknown++
			cv.report.leftOut(WhyUnknown, e.Address(), false)
			continue
		case instance[name] || why == catalog.InstanceScoped:
			cv.report.leftOut("INSTANCE-scoped: SET GLOBAL reaches only the connected TiDB (docs/language.md)", e.Address(), false)
			continue
		case why == catalog.NotGlobal || why == catalog.NotASetting:
			cv.report.leftOut("SESSION-only or read-only: SET GLOBAL cannot manage them", e.Address(), false)
			continue
		case why == catalog.DeprecatedIn:
			cv.report.leftOut(WhyDeprecated, e.Address(), false)
			continue
		}
		text := l.Variables[raw]
		if x, secret, isSet := secretValue(catalog.SettingFor(catalog.TargetVariable, "tidb", name), secretVarName("", name), e.Address(), text); secret {
			if isSet {
				cv.vars[name] = x
				cv.report.Notes = append(cv.report.Notes, secretNote(e.Address()))
			} else {
				cv.report.AtDefault++
			}
			continue
		}
		lit, canon, err := literal(e, text)
		if err == nil {
			err = e.Check(text)
		}
		if errors.Is(err, errUnset) {
			continue
		}
		if err != nil {
			cv.report.leftOut("values tiform cannot declare", fmt.Sprintf("%s (%v)", e.Address(), err), false)
			continue
		}
		x := value{lit: lit, canon: canon, dflt: defaultFor(e, v, text, catalog.Host{Store: l.Store()})}
		switch {
		case !x.dflt.known && !o.All:
			cv.report.leftOut(WhyNoDefault, e.Address(), true)
		case x.dflt.atDflt && !o.All:
			cv.report.AtDefault++
		default:
			cv.vars[name] = x
		}
	}
}

// extractSecretKey imports a config key that holds a credential (true) as a
// type-wide reference to its sensitive variable, when any instance has it
// set; instances that differ are noted, never imported per instance.
func extractSecretKey(cv *clusterValues, comp state.Component, key string, e *catalog.Entry, perInst map[string]string) bool {
	set := catalog.SettingFor(catalog.TargetConfig, string(comp), key)
	if set.Secret() == "" {
		return false
	}
	var x value
	found, differ := false, false
	for _, in := range instanceOrder(perInst, nil) {
		v, _, isSet := secretValue(set, secretVarName(string(comp), key), e.Address(), perInst[in])
		if !isSet {
			continue
		}
		if found && v.canon != x.canon {
			differ = true
		}
		if !found {
			x, found = v, true
		}
	}
	if !found {
		cv.report.AtDefault++
		return true
	}
	cv.config[configKey{comp: comp, key: key}] = x
	cv.report.Notes = append(cv.report.Notes, secretNote(e.Address()))
	if differ {
		cv.report.Notes = append(cv.report.Notes, e.Address()+" differs between instances: one credential is declared for all; declare the others per instance by hand")
	}
	return true
}

// plural is "1 instance", "3 instances".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

package planner

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// variableName is what tiform writes unquoted after SET GLOBAL. System
// variable names are plain identifiers, with at most one dot between two
// (validate_password.length: https://docs.pingcap.com/tidb/stable/password-management,
// which TiDB's parser reads unquoted after SET GLOBAL); anything else is
// rejected, so no user text reaches SQL unchecked.
var variableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// setGlobal renders SET GLOBAL name = literal.
func setGlobal(name, literal string) string {
	return "SET GLOBAL " + name + " = " + literal
}

// variables plans every declared TiDB system variable (SET GLOBAL). Every
// declaration that cannot be planned is reported, not only the first: a
// configuration with several values the server would refuse shows them all.
func (b *builder) variables() error {
	vars := append([]state.VariableSetting(nil), b.dc.Variables...)
	sort.SliceStable(vars, func(i, j int) bool { return strings.ToLower(vars[i].Name) < strings.ToLower(vars[j].Name) })
	seen := map[string]*state.VariableSetting{}
	noopHidden := b.noopVariablesHidden(vars)
	var ds diag.Diagnostics
	for i := range vars {
		v := &vars[i]
		name := strings.ToLower(strings.TrimSpace(v.Name))
		if !variableName.MatchString(name) {
			ds = ds.Append(inputError(v.Range, fmt.Sprintf("variable %q: not a system variable name", v.Name), "a system variable name holds letters, digits and _ (and at most one dot)"))
			continue
		}
		if prev := seen[name]; prev != nil {
			ds = ds.Append(inputError(v.Range, fmt.Sprintf("variable %s is declared twice", name), "remove one of the two declarations", declaredHere(prev.Range)))
			continue
		}
		seen[name] = v
		if !b.l.VariablesRead || b.unreadVariable(name) {
			continue // listed under Incomplete; not compared
		}
		if err := b.variable(v, name, noopHidden); err != nil {
			ds = ds.Append(err)
		}
	}
	if !ds.HasErrors() {
		ds = ds.Append(b.variableConstraints(seen))
	}
	if ds.HasErrors() {
		ds.Sort() // in the order of the files, not of the names
		return ds.Err()
	}
	if len(vars) > 0 && !b.l.VariablesRead {
		b.incomplete("system variables were not read; declared variables were not compared",
			func(g state.Gap) bool { return g.Kind == state.GapVariable && g.Key == "" })
	}
	return nil
}

// variable plans one declared variable that the cluster's read covers: no
// change when it holds the value, else the SET GLOBAL, unless the
// variable or the value is one TiDB would refuse (an error at v.Range).
func (b *builder) variable(v *state.VariableSetting, name string, noopHidden bool) error {
	set := settingOf(state.KindVariable, state.TiDB, name)
	tidb := b.tidbVersion
	if noopHidden && catalog.VariableNoop(tidb, name) {
		return inputError(v.Range, fmt.Sprintf("variable %s has no effect in TiDB %s, and SHOW VARIABLES hides such variables while tidb_enable_noop_variables is OFF: its value can be neither read nor verified",
			name, versionText(tidb)), "remove it, or keep tidb_enable_noop_variables ON")
	}
	if set.Entry != nil && (set.Entry.ScopeIn(tidb) == catalog.ScopeSession || set.Entry.ReadOnlyIn(tidb)) {
		return inputError(v.Range, fmt.Sprintf("variable %s cannot be set with SET GLOBAL on TiDB %s (it is session-only or read-only there; it exists in %s%s)",
			name, versionText(tidb), set.Entry.VersionsText(), globalText(set.Entry)), "remove it from the configuration")
	}
	if err := set.Check(v.Value.Text); err != nil {
		return refusedAt(v.Range, err)
	}
	want := set.Canonical(v.Value.Text)
	cur, ok := b.l.Variables[name]
	if ok && set.Equal(v.Value.Text, cur) {
		if o := set.Opaque(); o != "" && cur != "" {
			b.note("variable %s holds a credential: %s", name, o)
		}
		return nil
	}
	if r, refused := catalog.VariableRefusal(tidb, name, v.Value.Text,
		catalog.Connection{Secure: b.l.Secure, TiDBInstances: len(b.l.InstancesOf(state.TiDB))}); refused {
		return refusedVariable(v, name, tidb, r)
	}
	rendered := cur
	if !ok {
		cur, rendered = plans.Absent, ""
	}
	if _, err := set.SQLValue(v.Value.Text, rendered, literalKind(v.Value.Type)); err != nil {
		return refusedAt(v.Range, err)
	}
	c := &plans.Change{
		Addr:        state.VariableAddress(name),
		Action:      plans.Update,
		Before:      []plans.InstanceValue{{Value: cur}},
		After:       set.Render(v.Value.Text),
		Spec:        plans.Spec{Set: []plans.Assignment{{Value: v.Value, Rendered: rendered}}},
		Verify:      []plans.Check{{Addr: state.VariableAddress(name), Want: want}},
		Persistence: plans.PersistCluster,
		Range:       v.Range,
		Reason:      "the cluster reports " + cur,
		// A credential is shown as a sensitive value wherever it came from.
		Sensitive: v.Value.Sensitive || set.Secret() != "",
	}
	if cur == plans.Absent {
		c.Reason = "the connected TiDB does not report this variable"
	} else if _, ok := set.RestoreSQL(cur); ok {
		c.Spec.Unset = []plans.Assignment{{Value: state.Value{Text: cur}, Restore: true}}
	}
	if err := derived(c); err != nil {
		return err
	}
	if set.Entry != nil {
		if set.Entry.ScopeIn(tidb) == catalog.ScopeInstance {
			// INSTANCE scope reaches only the connected TiDB and is lost on
			// its restart (https://docs.pingcap.com/tidb/stable/system-variables,
			// "Persists to cluster: No"); ClusterPlan.Reach names it.
			c.Persistence = plans.PersistInstanceOnly
			c.Before[0].Instance = b.l.ConnectedInstance
		}
		c.RestartRequired = !set.Entry.OnlineIn(tidb)
	}
	b.add(c)
	return nil
}

// variableConstraints refuses a plan whose variables would end in a
// combination TiDB accepts one SET at a time but fails on afterwards
// (catalog.Constraint): the values after the plan are the declared ones,
// else the cluster's. A combination the cluster already has and the plan
// does not change is not the plan's doing.
func (b *builder) variableConstraints(declared map[string]*state.VariableSetting) error {
	if !b.l.VariablesRead {
		return nil
	}
	final := map[string]string{}
	for n, v := range b.l.Variables {
		final[strings.ToLower(n)] = v
	}
	changed := func(name string) bool {
		d := declared[name]
		return d != nil && !settingOf(state.KindVariable, state.TiDB, name).Equal(d.Value.Text, b.l.Variables[name])
	}
	for n, d := range declared {
		final[n] = d.Value.Text
	}
	var ds diag.Diagnostics
	for _, c := range catalog.ConstraintsIn(b.tidbVersion) {
		if !c.Broken(final) || !changed(c.Variable) && !changed(c.Requires) {
			continue
		}
		at := declared[c.Variable]
		if !changed(c.Variable) {
			at = declared[c.Requires]
		}
		ds = ds.Append(inputError(at.Range, fmt.Sprintf("variables %s = %s and %s = %s cannot both hold on TiDB %s: %s (%s)",
			c.Variable, final[c.Variable], c.Requires, final[c.Requires], versionText(b.tidbVersion), c.Why, c.Source),
			fmt.Sprintf("set %s = %s too, or leave %s at its current value", c.Requires, c.Value, c.Variable)))
	}
	return ds.Err()
}

// noopVariablesHidden reports whether tidb_enable_noop_variables is OFF after
// the plan: as declared, else as the cluster has it.
func (b *builder) noopVariablesHidden(vars []state.VariableSetting) bool {
	const name = "tidb_enable_noop_variables"
	set := settingOf(state.KindVariable, state.TiDB, name)
	for _, v := range vars {
		if strings.EqualFold(strings.TrimSpace(v.Name), name) {
			return set.Equal(v.Value.Text, "OFF")
		}
	}
	cur, ok := b.l.Variables[name]
	return ok && set.Equal(cur, "OFF")
}

// refusedVariable is the plan-time error for a value TiDB would refuse or
// store as another (catalog.VariableRefusal): sending it would fail half-way
// through an apply, or fail its read-back.
func refusedVariable(v *state.VariableSetting, name string, tidb version.Version, r catalog.Refusal) error {
	return inputError(v.Range, fmt.Sprintf("variable %s = %s cannot be applied on TiDB %s: %s (%s)",
		name, v.Value.Text, versionText(tidb), r.Reason, r.Source), r.Hint)
}

// globalText says where SET GLOBAL reaches a variable whose scope changed
// ("; settable with SET GLOBAL in v8.3.0+…"), "" when it never changed.
func globalText(e *catalog.Entry) string {
	if t := e.OnlineText(); t != "" {
		return "; " + t
	}
	return ""
}

func versionText(v version.Version) string {
	if v.IsZero() {
		return "(version unknown)"
	}
	return v.Short()
}

// unreadVariable reports whether the server did not report name and the
// catalog cannot explain it (a variable gap): its value is unknown, not
// absent, so a partial plan does not change it.
func (b *builder) unreadVariable(name string) bool {
	for _, g := range b.l.Gaps {
		if g.Kind == state.GapVariable && strings.EqualFold(g.Key, name) {
			return true
		}
	}
	return false
}

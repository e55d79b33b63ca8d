package planner

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// variableName is what tiform writes unquoted after SET GLOBAL. System
// variable names are plain identifiers; anything else is rejected, so no user
// text reaches SQL unchecked.
var variableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// setGlobal renders SET GLOBAL name = literal.
func setGlobal(name, literal string) string {
	return "SET GLOBAL " + name + " = " + literal
}

// variables plans every declared TiDB system variable (SET GLOBAL).
func (b *builder) variables() error {
	vars := append([]state.VariableSetting(nil), b.dc.Variables...)
	sort.SliceStable(vars, func(i, j int) bool { return strings.ToLower(vars[i].Name) < strings.ToLower(vars[j].Name) })
	seen := map[string]*state.VariableSetting{}
	for i := range vars {
		v := &vars[i]
		name := strings.ToLower(strings.TrimSpace(v.Name))
		if !variableName.MatchString(name) {
			return inputError(v.Range, fmt.Sprintf("variable %q: not a system variable name", v.Name), "a system variable name holds letters, digits and _ only")
		}
		if prev := seen[name]; prev != nil {
			return inputError(v.Range, fmt.Sprintf("variable %s is declared twice", name), "remove one of the two declarations", declaredHere(prev.Range))
		}
		seen[name] = v
		if !b.l.VariablesRead || b.unreadVariable(name) {
			continue // listed under Incomplete; not compared
		}
		set := settingOf(state.KindVariable, state.TiDB, name)
		tidb := b.tidbVersion
		if set.Entry != nil && (set.Entry.ScopeIn(tidb) == catalog.ScopeSession || set.Entry.ReadOnly) {
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
			continue
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
	}
	if len(vars) > 0 && !b.l.VariablesRead {
		b.incomplete("system variables were not read; declared variables were not compared",
			func(g state.Gap) bool { return g.Kind == state.GapVariable && g.Key == "" })
	}
	return nil
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

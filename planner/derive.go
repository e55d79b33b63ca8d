package planner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// The one statement builder. Every change's Statements and Rollback are
// derived from its address, action, values and Spec by Derive: the planner
// fills them with it, and apply re-derives a saved plan's with it
// (CheckDerivable) and refuses the plan when one differs. So the only SQL
// tiform sends is SQL this function writes, from structured values through
// quote and the catalog, whatever a plan file says.

// Derive returns the statements and rollback statements of c, from c.Addr,
// c.Action, c.Before, c.After and c.Spec alone. It refuses (an error) a
// change whose parts do not make a statement: an address or key tiform would
// not write, a missing value, a target that is neither the component nor an
// instance the change reads.
func Derive(c *plans.Change) (stmts, rollback []plans.Statement, err error) {
	a := c.Addr
	switch a.Kind {
	case state.KindVariable:
		stmts, rollback, err = deriveVariable(c)
	case state.KindConfig:
		stmts, rollback, err = deriveConfig(c)
	case state.KindResourceGroup:
		stmts, rollback, err = deriveGroup(c)
	case state.KindUser:
		stmts, rollback, err = deriveUser(c)
	default:
		err = fmt.Errorf("a %s change makes no statement", a.Kind)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", a, err)
	}
	if c.Spec.Inverse {
		stmts, rollback = rollback, stmts
	}
	return stmts, rollback, nil
}

// deriveVariable: SET GLOBAL name = literal, for the one assignment of Set
// (and of Unset for the rollback).
func deriveVariable(c *plans.Change) (stmts, rollback []plans.Statement, err error) {
	name := c.Addr.Key
	if !variableName.MatchString(name) {
		return nil, nil, fmt.Errorf("not a system variable name: %q", name)
	}
	if len(c.Spec.Set) != 1 || len(c.Spec.Unset) > 1 {
		return nil, nil, fmt.Errorf("a variable change sets one value and restores at most one (%d, %d)", len(c.Spec.Set), len(c.Spec.Unset))
	}
	set := settingOf(state.KindVariable, state.TiDB, name)
	assign := func(as plans.Assignment) (plans.Statement, error) {
		if as.Target != "" {
			return plans.Statement{}, fmt.Errorf("a variable has no target (%q)", as.Target)
		}
		lit, err := literal(set, as)
		if err != nil {
			return plans.Statement{}, err
		}
		return plans.Statement{SQL: setGlobal(name, lit)}, nil
	}
	s, err := assign(c.Spec.Set[0])
	if err != nil {
		return nil, nil, err
	}
	stmts = []plans.Statement{s}
	for _, u := range c.Spec.Unset {
		s, err := assign(u)
		if err != nil {
			return nil, nil, err
		}
		rollback = append(rollback, s)
	}
	return stmts, rollback, nil
}

// deriveConfig: SET CONFIG <target> `key` = literal, one per assignment.
func deriveConfig(c *plans.Change) (stmts, rollback []plans.Statement, err error) {
	comp, key := c.Addr.Component, c.Addr.Key
	if !state.ValidConfigKey(key) {
		return nil, nil, fmt.Errorf("not a config key: %q", key)
	}
	if comp != state.TiKV && comp != state.PD && comp != state.TiFlash {
		return nil, nil, fmt.Errorf("SET CONFIG does not reach %q", comp)
	}
	if len(c.Spec.Set) == 0 {
		return nil, nil, errors.New("a config change sets at least one value")
	}
	set := settingOf(state.KindConfig, comp, key)
	lit := literalsOf(set)
	assign := func(as plans.Assignment) (plans.Statement, error) {
		target := as.Target
		switch {
		case target == string(comp):
		case c.Addr.Instance != "" && target != c.Addr.Instance:
			return plans.Statement{}, fmt.Errorf("target %q is not the instance %s the change is about", as.Target, c.Addr.Instance)
		case strings.Contains(target, ":"): // an instance's host:port (CLUSTER_INFO.INSTANCE)
			target = instanceTarget(as.Target)
		default:
			return plans.Statement{}, fmt.Errorf("target %q is neither %s nor an instance address", as.Target, comp)
		}
		l, err := lit(as)
		if err != nil {
			return plans.Statement{}, err
		}
		return plans.Statement{SQL: setConfig(target, key, l), Target: as.Target}, nil
	}
	for _, as := range c.Spec.Set {
		s, err := assign(as)
		if err != nil {
			return nil, nil, err
		}
		stmts = append(stmts, s)
	}
	for _, as := range c.Spec.Unset {
		s, err := assign(as)
		if err != nil {
			return nil, nil, err
		}
		rollback = append(rollback, s)
	}
	return stmts, rollback, nil
}

// literalsOf returns literal for set, deriving each distinct assignment
// value once: a config change mostly sets (and restores) one value on many
// instances, and parsing it for each was a tenth of planning a drifted
// 300-instance cluster.
func literalsOf(set catalog.Setting) func(plans.Assignment) (string, error) {
	type valueOf struct {
		text, rendered string
		typ            state.LiteralType
		restore        bool
	}
	seen := map[valueOf]string{}
	return func(as plans.Assignment) (string, error) {
		k := valueOf{as.Value.Text, as.Rendered, as.Value.Type, as.Restore}
		if l, ok := seen[k]; ok {
			return l, nil
		}
		l, err := literal(set, as)
		if err == nil {
			seen[k] = l
		}
		return l, err
	}
}

// literal is the SQL literal of an assignment's value: as declared
// (catalog SQLValue) or, for a value read from the cluster, as the catalog
// restores it (RestoreSQL).
func literal(set catalog.Setting, as plans.Assignment) (string, error) {
	if as.Restore {
		lit, ok := set.RestoreSQL(as.Value.Text)
		if !ok {
			return "", fmt.Errorf("the value read (%q) cannot be written back", as.Value.Text)
		}
		return lit, nil
	}
	return set.SQLValue(as.Value.Text, as.Rendered, literalKind(as.Value.Type))
}

// deriveGroup: CREATE, ALTER or DROP RESOURCE GROUP from the declared and
// live groups of the spec, for the change's action (the action undone when
// the spec is inverse).
func deriveGroup(c *plans.Change) (stmts, rollback []plans.Statement, err error) {
	n := c.Addr.Key
	if n == "" || GroupName(n) != n {
		return nil, nil, fmt.Errorf("not a resource group name: %q", n)
	}
	v, err := version.Parse(c.Spec.Version)
	if err != nil {
		return nil, nil, fmt.Errorf("the TiDB version the options are spelt for: %w", err)
	}
	action := c.Action
	if c.Spec.Inverse {
		action = inverseAction(action)
	}
	d := dialectOf(c.Spec.BurstSyntax, v)
	have := map[string]groupOption{}
	if c.Spec.Live != nil {
		have = liveOptions(c.Spec.Live, d)
	}
	switch action {
	case plans.Create, plans.Update:
		if c.Spec.Group == nil {
			return nil, nil, errors.New("no declared group to create or alter to")
		}
		want, err := desiredOptions(c.Spec.Group, d)
		if err != nil {
			return nil, nil, err
		}
		if action == plans.Create {
			// The rollback is guarded, so that the rollback of a CREATE whose
			// effect is unknown (its connection was lost) applies whether or
			// not it ran.
			return []plans.Statement{{SQL: createGroupSQL(n, want, nil)}}, []plans.Statement{{SQL: "DROP RESOURCE GROUP IF EXISTS " + quote.Ident(n)}}, nil
		}
		changed := changedOptions(want, have)
		if len(changed) == 0 {
			return nil, nil, errors.New("an alter that changes no option")
		}
		stmts = []plans.Statement{{SQL: "ALTER RESOURCE GROUP " + quote.Ident(n) + " " + optionsSQL(want, sentOptions(want, changed))}}
		// ALTER is incremental; QUERY_LIMIT and BACKGROUND are replaced whole
		// (https://docs.pingcap.com/tidb/stable/sql-statement-alter-resource-group),
		// so restoring them restores the whole option.
		if rb := optionsSQL(have, sentOptions(have, changed)); rb != "" {
			rollback = []plans.Statement{{SQL: "ALTER RESOURCE GROUP " + quote.Ident(n) + " " + rb}}
		}
		return stmts, rollback, nil
	case plans.Delete:
		if c.Spec.Live == nil {
			return nil, nil, errors.New("no live group to drop")
		}
		return []plans.Statement{{SQL: dropGroupSQL(n)}}, []plans.Statement{{SQL: recreateSQL(n, have)}}, nil
	}
	return nil, nil, fmt.Errorf("a resource group change cannot %s", action)
}

// changedOptions are the declared options whose value the live group does
// not have.
func changedOptions(want, have map[string]groupOption) map[string]bool {
	changed := map[string]bool{}
	for _, name := range groupOptionOrder {
		if o, ok := want[name]; ok && (have[name].Value != o.Value || have[name].Name == "") {
			changed[name] = true
		}
	}
	return changed
}

func createGroupSQL(n string, opts map[string]groupOption, only map[string]bool) string {
	return strings.TrimSpace("CREATE RESOURCE GROUP " + quote.Ident(n) + " " + optionsSQL(opts, only))
}

func dropGroupSQL(n string) string { return "DROP RESOURCE GROUP " + quote.Ident(n) }

// deriveUser: ALTER USER … RESOURCE GROUP to After, and back to Before.
func deriveUser(c *plans.Change) (stmts, rollback []plans.Statement, err error) {
	u := c.Addr.User
	if u.User == "" || len(c.Before) != 1 {
		return nil, nil, errors.New("a user change names one account and the group it was bound to")
	}
	to, from := c.After, c.Before[0].Value
	for _, g := range []string{to, from} {
		if g == "" || GroupName(g) != g {
			return nil, nil, fmt.Errorf("not a resource group name: %q", g)
		}
	}
	return []plans.Statement{{SQL: alterUser(u, to)}}, []plans.Statement{{SQL: alterUser(u, from)}}, nil
}

func inverseAction(a plans.Action) plans.Action {
	switch a {
	case plans.Create:
		return plans.Delete
	case plans.Delete:
		return plans.Create
	}
	return a
}

// derived fills c's Statements and Rollback from its spec (the planner's
// builders call it once the spec is set).
func derived(c *plans.Change) error {
	s, rb, err := Derive(c)
	if err != nil {
		return fmt.Errorf("planner: %w", err)
	}
	c.Statements, c.Rollback = s, rb
	return nil
}

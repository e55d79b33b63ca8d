package planner

import (
	"strconv"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Value meaning. The catalog owns it (catalog.Setting: how two values of a
// config item or variable compare, render and become SQL literals, whether
// the catalog knows the key or not); the planner reaches it only through the
// functions below, and so do the applier and the stale-plan check
// (docs/decisions/0007-one-owner-of-value-comparison.md).

// settingOf returns the value semantics of a config item or a variable.
func settingOf(kind state.Kind, component state.Component, key string) catalog.Setting {
	if kind == state.KindVariable {
		return catalog.SettingFor(catalog.TargetVariable, string(state.TiDB), key)
	}
	return catalog.SettingFor(catalog.TargetConfig, string(component), key)
}

// literalKind is the catalog kind of an HCL literal: the form a value of a
// setting that neither the catalog nor the cluster types is sent in.
func literalKind(t state.LiteralType) catalog.Kind {
	switch t {
	case state.LiteralBool:
		return catalog.KindBool
	case state.LiteralNumber:
		return catalog.KindFloat
	}
	return catalog.KindString
}

// SameValue reports whether value and read mean the same value at a: a
// dependency's planned value and its value now, a check's Want and what was
// read back, or a value before and after a change. read is what the cluster
// printed. Absent equals only Absent. Config items and variables compare
// through the catalog (catalog.Setting.Equal); resource groups compare their
// canonical option lists exactly; user bindings compare group names
// case-insensitively (TiDB lower-cases them); versions and instances compare
// exactly.
func SameValue(a state.Address, value, read string) bool {
	if value == plans.Absent || read == plans.Absent {
		return value == read
	}
	switch a.Kind {
	case state.KindConfig, state.KindVariable:
		return settingOf(a.Kind, a.Component, a.Key).Equal(value, read)
	case state.KindUser:
		return GroupName(value) == GroupName(read)
	}
	return value == read
}

// DisplayValue renders a value at a the way the component shows it
// ("100663296" → "96MiB" on TiKV, "true" → "ON" for a variable), for reports
// only: comparisons use SameValue.
func DisplayValue(a state.Address, text string) string {
	switch a.Kind {
	case state.KindConfig, state.KindVariable:
		if text == plans.Absent || text == "" {
			return text
		}
		return settingOf(a.Kind, a.Component, a.Key).Render(text)
	}
	return text
}

// numeric returns a canonical size or count (decimal text) as a number, for
// ordering rules.
func numeric(canonical string) (float64, bool) {
	f, err := strconv.ParseFloat(canonical, 64)
	return f, err == nil
}

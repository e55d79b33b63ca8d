package tidbsim

import (
	"fmt"
	"math"
	"strings"

	"github.com/tiform/tiform/version"
)

// Settings of a newer release. A real cluster is often newer than the tool
// that manages it: each TiDB release adds system variables (the "New in vX"
// notes of https://docs.pingcap.com/tidb/stable/system-variables) and each
// TiKV and PD release adds config items. Options.NewerVariables and
// Options.NewerConfig add such settings to the emulated cluster, beyond the
// tables this package models, so that tests can exercise a client against
// settings it has never heard of.
//
// A newer setting is declared by its type only, and the emulator treats it
// exactly as the modelled settings of that type: a newer boolean variable is
// validated by the same checkBoolSystemVar rules, rendered ON/OFF by SHOW
// VARIABLES and 1/0 by SELECT @@; a newer TiKV size is parsed by the same
// ReadableSize rules and printed "256MiB" by SHOW CONFIG; a newer PD boolean
// is a `json:",string"` field like PD's own. Nothing here knows what tiform
// expects.

// NewerVariable is a system variable of a newer TiDB.
type NewerVariable struct {
	Name string `json:"name"`
	// Type is one of TiDB's variable types (pkg/sessionctx/variable TypeFlag):
	// bool, int, unsigned, float, enum, duration, string.
	Type string `json:"type"`
	// Scope is "global" (the default), "global,session" or "instance".
	Scope   string `json:"scope,omitempty"`
	Default string `json:"default"`
	// Possible lists an enum's values in TiDB's spelling.
	Possible []string `json:"possible,omitempty"`
	// Min and Max bound int, unsigned, float and duration (nanoseconds)
	// values; both zero means the type's whole range.
	Min int64  `json:"min,omitempty"`
	Max uint64 `json:"max,omitempty"`
}

// NewerConfigItem is a config item of a newer TiKV, PD or TiFlash proxy.
type NewerConfigItem struct {
	// Type is the component: tikv, pd or tiflash (raftstore-proxy.* items).
	Type string `json:"type"`
	Name string `json:"name"`
	// Kind is the field's type. TiKV and the TiFlash proxy: size
	// (ReadableSize), duration (ReadableDuration), int (u64), float (f64),
	// bool, string, enum. PD: int, float, bool (a `json:",string"` field),
	// duration (typeutil.Duration), string.
	Kind    string   `json:"kind"`
	Default string   `json:"default"`
	Enum    []string `json:"enum,omitempty"`
}

var newerVarTypes = map[string]VarType{
	"bool": TypeBool, "int": TypeInt, "unsigned": TypeUnsigned, "float": TypeFloat,
	"enum": TypeEnum, "duration": TypeDuration, "string": TypeStr,
}

var newerScopes = map[string]VarScope{
	"": ScopeGlobal, "global": ScopeGlobal, "global,session": ScopeGlobal | ScopeSession,
	"session,global": ScopeGlobal | ScopeSession, "instance": ScopeInstance,
}

// newerVariableDefs validates the newer variables and returns their
// definitions keyed by name. A name the emulator already models is an error:
// a newer release's variable is one this package does not have.
func newerVariableDefs(vs []NewerVariable) (map[string]*SysVarDef, error) {
	out := map[string]*SysVarDef{}
	for _, v := range vs {
		name := strings.ToLower(strings.TrimSpace(v.Name))
		if name == "" {
			return nil, fmt.Errorf("tidbsim: newer variable without a name")
		}
		if modelledVariable(name) || out[name] != nil {
			return nil, fmt.Errorf("tidbsim: newer variable %s: already defined", name)
		}
		typ, ok := newerVarTypes[strings.ToLower(v.Type)]
		if !ok {
			return nil, fmt.Errorf("tidbsim: newer variable %s: type %q is not one of bool, int, unsigned, float, enum, duration, string", name, v.Type)
		}
		scope, ok := newerScopes[strings.ToLower(strings.ReplaceAll(v.Scope, " ", ""))]
		if !ok {
			return nil, fmt.Errorf("tidbsim: newer variable %s: scope %q is not global, global,session or instance", name, v.Scope)
		}
		d := &SysVarDef{Name: name, Scope: scope, Type: typ, Default: v.Default, Possible: v.Possible,
			Min: v.Min, Max: v.Max} // no Source: the caller declared it
		if v.Min == 0 && v.Max == 0 {
			d.Min, d.Max = typeRange(typ)
		}
		if typ == TypeEnum && len(v.Possible) == 0 {
			return nil, fmt.Errorf("tidbsim: newer variable %s: an enum needs its possible values", name)
		}
		c := &varCtx{}
		norm, err := d.validateType(c, v.Default)
		if err != nil || len(c.warnings) > 0 {
			return nil, fmt.Errorf("tidbsim: newer variable %s: default %q is not a valid %s value", name, v.Default, v.Type)
		}
		d.Default = norm
		out[name] = d
	}
	return out, nil
}

// typeRange is the whole range of a numeric variable type.
func typeRange(t VarType) (int64, uint64) {
	switch t {
	case TypeUnsigned:
		return 0, math.MaxUint64
	case TypeDuration:
		return 0, math.MaxInt64
	}
	return math.MinInt64, math.MaxInt64
}

// modelledVariable reports whether any modelled version has the variable.
func modelledVariable(name string) bool {
	if known, _ := upstreamHas(name, version.Version{}); known {
		return true
	}
	for _, d := range sysVarDefs {
		if d.Name == name {
			return true
		}
	}
	return false
}

var newerTiKVKinds = map[string]valueKind{
	"size": kSize, "duration": kDuration, "int": kU64, "float": kF64, "bool": kBool, "string": kString, "enum": kEnum,
}

var newerPDKinds = map[string]valueKind{
	"int": pInt, "float": pFloat, "bool": pBoolString, "duration": pDuration, "string": pString,
}

// newerConfigItems validates the newer config items and returns them by
// component type.
func newerConfigItems(items []NewerConfigItem) (map[string][]configItem, error) {
	out := map[string][]configItem{}
	defined := map[string]bool{} // type \x00 name
	for _, n := range items {
		typ, name := strings.ToLower(n.Type), strings.ToLower(strings.TrimSpace(n.Name))
		var kinds map[string]valueKind
		switch typ {
		case TypeTiKV, TypeTiFlash:
			kinds = newerTiKVKinds
		case TypePD:
			kinds = newerPDKinds
		default:
			return nil, fmt.Errorf("tidbsim: newer config item %s: type %q is not tikv, pd or tiflash", name, n.Type)
		}
		k, ok := kinds[strings.ToLower(n.Kind)]
		if !ok {
			return nil, fmt.Errorf("tidbsim: newer %s config item %s: kind %q is not one of %s", typ, name, n.Kind, kindNames(kinds))
		}
		if typ == TypeTiFlash && !strings.HasPrefix(name, "raftstore-proxy.") {
			return nil, fmt.Errorf("tidbsim: newer tiflash config item %s: only raftstore-proxy.* items are modelled", name)
		}
		if k == kEnum && len(n.Enum) == 0 {
			return nil, fmt.Errorf("tidbsim: newer %s config item %s: an enum needs its values", typ, name)
		}
		it := configItem{name: name, kind: k, enum: n.Enum}
		if modelledConfigItem(typ, name) || defined[typ+"\x00"+name] {
			return nil, fmt.Errorf("tidbsim: newer %s config item %s: already defined", typ, name)
		}
		def, err := canonicalValue(&it, n.Default)
		if err != nil {
			return nil, fmt.Errorf("tidbsim: newer %s config item %s: default: %w", typ, name, err)
		}
		it.def = def
		out[typ] = append(out[typ], it)
		defined[typ+"\x00"+name] = true
	}
	return out, nil
}

func kindNames(kinds map[string]valueKind) string {
	var names []string
	for _, n := range []string{"size", "duration", "int", "float", "bool", "string", "enum"} {
		if _, ok := kinds[n]; ok {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

func modelledConfigItem(typ, name string) bool {
	return hasItem(itemsFor(typ), name) || upstreamKey(typ, name)
}

func hasItem(items []configItem, name string) bool {
	for _, it := range items {
		if it.name == name {
			return true
		}
	}
	return false
}

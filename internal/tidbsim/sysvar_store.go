package tidbsim

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tiform/tiform/version"
)

// VarTarget identifies the tidb instance a statement runs on: its service
// address (INSTANCE-scope values are kept per address, https://docs.pingcap.com/tidb/stable/system-variables)
// and its version (which variables exist and their defaults, each SysVarDef's
// Source).
type VarTarget struct {
	Instance string
	Version  version.Version
	// VersionText is the value of the `version` variable (VERSION(), https://docs.pingcap.com/tidb/stable/system-variables#version);
	// empty means "<mysql-prefix>-TiDB-<Version>".
	VersionText string
	// Newer holds the variables of a newer release the cluster has
	// (Options.NewerVariables), by name.
	Newer map[string]*SysVarDef
	// Secure reports whether the connection issuing a change uses TLS
	// (require_secure_transport refuses ON otherwise); the emulator's
	// connections never do.
	Secure bool
	// SEM is Security Enhanced Mode (Options.SEM).
	SEM bool
	// TiDBInstances is how many TiDB instances the cluster has.
	TiDBInstances int
}

// defs returns the variables that exist on t: those of its version and the
// newer ones. The map is shared: callers must not modify it.
func (t VarTarget) defs() map[string]*SysVarDef {
	if len(t.Newer) == 0 {
		return sysVarDefsAt(t.Version)
	}
	m := SysVarDefsFor(t.Version)
	for name, d := range t.Newer {
		m[name] = d
	}
	return m
}

// def returns the variable name (lower case) that exists on t (defs()[name]
// without building the map).
func (t VarTarget) def(name string) (*SysVarDef, bool) {
	if d, ok := t.Newer[name]; ok {
		return d, true
	}
	d, ok := sysVarDefsAt(t.Version)[name]
	return d, ok
}

// matching returns the variables of t whose name m keeps, looking up the
// names m allows rather than testing every variable (names are lower case,
// TestSysVarNamesLowerCase, so a lower-cased name is looked up as it is).
func (t VarTarget) matching(m *Match) map[string]*SysVarDef {
	vals, _ := m.Lookups()
	out := map[string]*SysVarDef{}
	for _, v := range vals {
		if d, ok := t.def(v); ok && m.Keep(d.Name) {
			out[d.Name] = d
		}
	}
	return out
}

func (t VarTarget) versionText() string {
	if t.VersionText != "" {
		return t.VersionText
	}
	return versionString(t.Version)
}

// SysVarOptions configures a SysVarStore.
type SysVarOptions struct {
	// UpgradedFrom is the version the cluster was bootstrapped with when it has
	// since been upgraded; zero means a freshly bootstrapped cluster. It selects
	// the upgrade defaults TiDB writes at upgrade time:
	// tidb_resource_control_strict_mode OFF when upgraded from < v8.2.0
	// (https://docs.pingcap.com/tidb/stable/system-variables#tidb_resource_control_strict_mode-new-in-v820),
	// tidb_plan_cache_invalidation_on_fresh_stats OFF when upgraded from
	// < v7.1.0 (https://docs.pingcap.com/tidb/stable/system-variables#tidb_plan_cache_invalidation_on_fresh_stats-new-in-v710).
	// Both states are also reachable with SET GLOBAL.
	UpgradedFrom version.Version
}

// SysVarStore holds the values of system variables for a whole cluster:
// GLOBAL values (persisted cluster-wide) and INSTANCE values (per tidb).
// It is safe for concurrent use.
type SysVarStore struct {
	mu       sync.Mutex
	opts     SysVarOptions
	global   map[string]string            // explicitly set GLOBAL values
	instance map[string]map[string]string // tidb address → name → value
}

// NewSysVarStore returns a store where every variable has its default.
func NewSysVarStore(opts SysVarOptions) *SysVarStore {
	return &SysVarStore{opts: opts, global: map[string]string{}, instance: map[string]map[string]string{}}
}

// SessionVars are the SESSION-scope values of one connection. A new session
// starts from the GLOBAL values current at its creation; later SET GLOBAL does
// not change it (https://docs.pingcap.com/tidb/stable/system-variables).
type SessionVars struct {
	mu sync.Mutex
	// values holds what SET changed in the session.
	values map[string]string
	// start is the store as the session began (its own copy of the values
	// set before, never changed) and the target: the value every other
	// session variable started with is computed from them when read.
	start  *SysVarStore
	target VarTarget
}

// NewSession snapshots the session-scope variables for a new connection on t:
// it copies the GLOBAL and INSTANCE values set so far (a few), not every
// variable, and lookupLocked derives a variable's starting value from them.
func (s *SysVarStore) NewSession(t VarTarget) *SessionVars {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := &SysVarStore{opts: s.opts, global: maps.Clone(s.global), instance: map[string]map[string]string{}}
	if m := s.instance[t.Instance]; m != nil {
		start.instance[t.Instance] = maps.Clone(m)
	}
	return &SessionVars{values: map[string]string{}, start: start, target: t}
}

// lookupLocked returns the session value of name: what SET changed, else
// the value the session started with, for a session-scope variable
// (GLOBAL-scope ones from the GLOBAL value then, the others their default).
// Call with sv.mu held.
func (sv *SessionVars) lookupLocked(name string) (string, bool) {
	if v, ok := sv.values[name]; ok {
		return v, true
	}
	d, ok := sv.target.def(name)
	if !ok || !d.Scope.has(ScopeSession) {
		return "", false
	}
	if d.Scope.has(ScopeGlobal) {
		return sv.start.storedGlobalLocked(d, sv.target), true // start never changes: no lock
	}
	return d.DefaultFor(sv.target.Version), true
}

// lookup finds a variable by name (case-insensitive) for t's version.
func lookupSysVar(t VarTarget, name string) (*SysVarDef, error) {
	d, ok := t.def(strings.ToLower(name))
	if !ok {
		return nil, errUnknownSysVar(strings.ToLower(name))
	}
	return d, nil
}

// initialGlobal is the GLOBAL value of d before anyone set it: the upgrade
// default when the cluster was upgraded (SysVarOptions.UpgradedFrom), else the
// default of t's version.
func (s *SysVarStore) initialGlobal(d *SysVarDef, t VarTarget) string {
	if d.Name == "version" {
		return t.versionText()
	}
	up := s.opts.UpgradedFrom
	if !up.IsZero() {
		switch d.Name {
		case "tidb_resource_control_strict_mode": // see SysVarOptions.UpgradedFrom
			if up.Before(8, 2, 0) {
				return "OFF"
			}
		case "tidb_plan_cache_invalidation_on_fresh_stats":
			if up.Before(7, 1, 0) {
				return "OFF"
			}
		}
	}
	return d.DefaultFor(t.Version)
}

// storedGlobalLocked returns the stored GLOBAL/INSTANCE/NONE value of d as
// seen from t, before any read hook.
func (s *SysVarStore) storedGlobalLocked(d *SysVarDef, t VarTarget) string {
	if d.Scope.has(ScopeInstance) {
		if v, ok := s.instance[t.Instance][d.Name]; ok {
			return v
		}
		return s.initialGlobal(d, t)
	}
	if d.Scope.has(ScopeGlobal) {
		if v, ok := s.global[d.Name]; ok {
			return v
		}
	}
	return s.initialGlobal(d, t)
}

func (s *SysVarStore) readGlobalLocked(d *SysVarDef, t VarTarget) string {
	v := s.storedGlobalLocked(d, t)
	if d.readGlobal != nil {
		v = d.readGlobal(t.Version, v)
	}
	if d.readServer != nil {
		v = d.readServer(t)
	}
	return v
}

// setValueString converts the right-hand side of SET to the string TiDB
// validates: NULL → "" (corpus messages.tsv: `set @@SQL_WARNINGS=NULL` → 1231
// with the empty value), TRUE/FALSE → 1/0, decimals as written ('1.1100' stays '1.1100' in
// warning 1292, corpus), floats in shortest form, strings unchanged.
func setValueString(v Value) string {
	switch v.Kind {
	case KindNull:
		return ""
	case KindInt:
		return strconv.FormatInt(v.I, 10)
	case KindFloat:
		return strconv.FormatFloat(v.F, 'f', -1, 64)
	}
	return v.S
}

// validate runs type validation then the variable's own validation.
func validateSysVar(d *SysVarDef, c *varCtx, raw string) (string, error) {
	norm, err := d.validateType(c, raw)
	if err != nil {
		return norm, err
	}
	if d.validate != nil {
		return d.validate(c, norm, raw)
	}
	return norm, nil
}

// SetGlobal executes `SET GLOBAL name = val` (also `SET @@global.name = val`)
// on t. It returns the statement's warnings, or an *SQLError: 1193 unknown,
// 1238 read-only, 1228 session-only, 1231/1232 bad value. INSTANCE variables
// change only t's instance (https://docs.pingcap.com/tidb/stable/system-variables). Privileges are checked by the
// caller (CheckSetGlobalPrivilege).
func (s *SysVarStore) SetGlobal(t VarTarget, name string, val Value) ([]Warning, error) {
	d, err := lookupSysVar(t, name)
	if err != nil {
		return nil, err
	}
	if d.ReadOnly || d.Scope == ScopeNone {
		return nil, errIncorrectScope(d.Name, "read only")
	}
	if !d.Scope.has(ScopeGlobal) && !d.Scope.has(ScopeInstance) {
		return nil, errLocalVariable(d.Name)
	}
	return s.setGlobalDef(t, d, val)
}

// varCtx is the validation context of a statement on t.
func (s *SysVarStore) varCtx(t VarTarget) *varCtx {
	return &varCtx{ver: t.Version, target: t, global: func(name string) string {
		v, _ := s.GlobalValue(t, name)
		return v
	}}
}

func (s *SysVarStore) setGlobalDef(t VarTarget, d *SysVarDef, val Value) ([]Warning, error) {
	c := s.varCtx(t)
	raw := ""
	if val.Kind == KindDefault {
		// SET GLOBAL x = DEFAULT restores the compiled-in default.
		raw = d.DefaultFor(t.Version)
	} else {
		raw = setValueString(val)
	}
	// A failing change keeps the warnings appended before it failed: TiDB
	// appends them to the statement's context (SHOW WARNINGS lists them
	// before the error).
	norm, err := validateSysVar(d, c, raw)
	if err != nil {
		return c.warnings, err
	}
	if d.onSetGlobal != nil {
		if err := d.onSetGlobal(c, norm); err != nil {
			return c.warnings, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.storeGlobalLocked(t, d, norm)
	defs := t.defs()
	for _, alias := range d.Aliases {
		if ad, ok := defs[alias]; ok {
			s.storeGlobalLocked(t, ad, norm)
		}
	}
	for _, a := range c.also {
		if ad, ok := defs[a.name]; ok {
			s.storeGlobalLocked(t, ad, a.value)
		}
	}
	return c.warnings, nil
}

func (s *SysVarStore) storeGlobalLocked(t VarTarget, d *SysVarDef, val string) {
	if d.Scope.has(ScopeInstance) {
		m := s.instance[t.Instance]
		if m == nil {
			m = map[string]string{}
			s.instance[t.Instance] = m
		}
		m[d.Name] = val
		return
	}
	s.global[d.Name] = val
}

// SetSession executes `SET [SESSION] name = val` / `SET @@name = val` on
// session sv. A SESSION-less variable gives 1229, except INSTANCE variables
// while tidb_enable_legacy_instance_scope is ON: TiDB then applies SET GLOBAL
// and warns 8142 (TiDB TestEnableLegacyInstanceScope).
func (s *SysVarStore) SetSession(sv *SessionVars, t VarTarget, name string, val Value) ([]Warning, error) {
	d, err := lookupSysVar(t, name)
	if err != nil {
		return nil, err
	}
	if d.ReadOnly || d.Scope == ScopeNone {
		return nil, errIncorrectScope(d.Name, "read only")
	}
	if !d.Scope.has(ScopeSession) {
		if d.Scope.has(ScopeInstance) && sv.get("tidb_enable_legacy_instance_scope") != "OFF" {
			warns, err := s.setGlobalDef(t, d, val)
			if err != nil {
				return nil, err
			}
			w := Warning{Level: "Warning", Code: 8142, Message: "modifying " + d.Name + " will require SET GLOBAL in a future version of TiDB"}
			return append([]Warning{w}, warns...), nil
		}
		return nil, errGlobalVariable(d.Name)
	}
	c := s.varCtx(t)
	var raw string
	if val.Kind == KindDefault {
		// SET SESSION x = DEFAULT takes the current GLOBAL value.
		s.mu.Lock()
		raw = s.readGlobalLocked(d, t)
		s.mu.Unlock()
		if !d.Scope.has(ScopeGlobal) {
			raw = d.DefaultFor(t.Version)
		}
	} else {
		raw = setValueString(val)
	}
	norm, err := validateSysVar(d, c, raw)
	if err != nil {
		return c.warnings, err
	}
	sv.mu.Lock()
	defer sv.mu.Unlock()
	sv.values[d.Name] = norm
	defs := t.defs()
	for _, alias := range d.Aliases {
		if _, ok := defs[alias]; ok {
			sv.values[alias] = norm
		}
	}
	return c.warnings, nil
}

func (sv *SessionVars) get(name string) string {
	if sv == nil {
		return ""
	}
	sv.mu.Lock()
	defer sv.mu.Unlock()
	v, _ := sv.lookupLocked(name)
	return v
}

// GlobalValue returns the GLOBAL (or INSTANCE, or NONE) value of name as seen
// from t: what SHOW GLOBAL VARIABLES and SELECT @@global.name show. A
// SESSION-only variable gives 1238 "is a SESSION variable".
func (s *SysVarStore) GlobalValue(t VarTarget, name string) (string, error) {
	d, err := lookupSysVar(t, name)
	if err != nil {
		return "", err
	}
	if d.Scope != ScopeNone && !d.Scope.has(ScopeGlobal) && !d.Scope.has(ScopeInstance) {
		return "", errIncorrectScope(d.Name, "SESSION")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readGlobalLocked(d, t), nil
}

// Value returns the session value of a SESSION variable, else the GLOBAL,
// INSTANCE or NONE value: what SHOW [SESSION] VARIABLES and SELECT @@name show.
func (s *SysVarStore) Value(sv *SessionVars, t VarTarget, name string) (string, error) {
	d, err := lookupSysVar(t, name)
	if err != nil {
		return "", err
	}
	return s.valueDef(sv, t, d), nil
}

func (s *SysVarStore) valueDef(sv *SessionVars, t VarTarget, d *SysVarDef) string {
	if d.Scope.has(ScopeSession) && sv != nil {
		sv.mu.Lock()
		v, ok := sv.lookupLocked(d.Name)
		sv.mu.Unlock()
		if ok {
			return v
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.Scope.has(ScopeSession) && !d.Scope.has(ScopeGlobal) {
		return d.DefaultFor(t.Version)
	}
	return s.readGlobalLocked(d, t)
}

// SelectVar evaluates @@name, @@global.name, @@session.name or @@local.name
// (scope "", "global", "session", "local") as SELECT does: booleans and
// unsigned integers are returned as integers (catalog/testdata/corpus/
// variables.tsv: `@@tidb_enable_instance_plan_cache` → 0), everything else as a
// string. An explicit scope the variable lacks gives 1238 (TiDB expression
// rewriter: "is a SESSION variable" / "is a GLOBAL variable").
func (s *SysVarStore) SelectVar(sv *SessionVars, t VarTarget, scope, name string) (Value, error) {
	d, err := lookupSysVar(t, name)
	if err != nil {
		return Null, err
	}
	var val string
	switch strings.ToLower(scope) {
	case "global":
		if d.Scope != ScopeNone && !d.Scope.has(ScopeGlobal) && !d.Scope.has(ScopeInstance) {
			return Null, errIncorrectScope(d.Name, "SESSION")
		}
		s.mu.Lock()
		val = s.readGlobalLocked(d, t)
		s.mu.Unlock()
	case "session", "local":
		if d.Scope != ScopeNone && !d.Scope.has(ScopeSession) {
			return Null, errIncorrectScope(d.Name, "GLOBAL")
		}
		val = s.valueDef(sv, t, d)
	case "":
		val = s.valueDef(sv, t, d)
	default:
		return Null, errUnknownSysVar(strings.ToLower(scope + "." + name))
	}
	return d.nativeValue(val), nil
}

// VariableRow is one row of SHOW [GLOBAL] VARIABLES (Variable_name, Value) or
// of INFORMATION_SCHEMA.GLOBAL_VARIABLES / performance_schema.global_variables
// (VARIABLE_NAME, VARIABLE_VALUE).
type VariableRow struct {
	Name  string
	Value string
}

// ShowVariables returns the rows of SHOW [SESSION] VARIABLES (global=false) or
// SHOW GLOBAL VARIABLES (global=true), before any LIKE/WHERE filter. SHOW
// GLOBAL VARIABLES lists every variable that is not SESSION-only with its
// GLOBAL/INSTANCE value (TiDB executor fetchShowVariables). TiDB emits rows in
// the iteration order of its variable map, i.e. unspecified; tidbsim sorts by
// name (the order of the docs examples) so output is reproducible — clients
// must not depend on either.
func (s *SysVarStore) ShowVariables(sv *SessionVars, t VarTarget, global bool) []VariableRow {
	return s.showVariables(sv, t, global, nil)
}

// showVariables is ShowVariables of the variables whose name m keeps (nil:
// all).
func (s *SysVarStore) showVariables(sv *SessionVars, t VarTarget, global bool, m *Match) []VariableRow {
	defs := t.defs()
	if m != nil {
		defs = t.matching(m)
	}
	rows := make([]VariableRow, 0, len(defs))
	for _, d := range defs {
		if global {
			if d.Scope == ScopeSession {
				continue
			}
			s.mu.Lock()
			v := s.readGlobalLocked(d, t)
			s.mu.Unlock()
			rows = append(rows, VariableRow{Name: d.Name, Value: v})
			continue
		}
		rows = append(rows, VariableRow{Name: d.Name, Value: s.valueDef(sv, t, d)})
	}
	// names are unique (map keys): any sort gives the one order
	slices.SortFunc(rows, func(a, b VariableRow) int { return strings.Compare(a.Name, b.Name) })
	return rows
}

// VariablesInfoRow is one row of INFORMATION_SCHEMA.VARIABLES_INFO (v6.2.0+,
// https://docs.pingcap.com/tidb/stable/information-schema-variables-info):
// MIN_VALUE/MAX_VALUE are set only for numeric types and
// POSSIBLE_VALUES only for enums (TiDB setDataForVariablesInfo); nil means
// NULL.
type VariablesInfoRow struct {
	Name           string
	Scope          string
	Default        string
	Current        string
	Min            *int64
	Max            *uint64
	PossibleValues *string
	IsNoop         string
}

// VariablesInfo returns INFORMATION_SCHEMA.VARIABLES_INFO for a session on t,
// sorted by name.
func (s *SysVarStore) VariablesInfo(sv *SessionVars, t VarTarget) []VariablesInfoRow {
	defs := t.defs()
	rows := make([]VariablesInfoRow, 0, len(defs))
	for _, d := range defs {
		def := d.DefaultFor(t.Version)
		switch {
		case d.Name == "version":
			def = t.versionText()
		case d.readServer != nil:
			// the server sets it at start: SetSysVar changes the
			// definition's value, which VARIABLES_INFO reports
			def = d.readServer(t)
		}
		r := VariablesInfoRow{
			Name:    d.Name,
			Scope:   d.Scope.String(),
			Default: def,
			Current: s.valueDef(sv, t, d),
			IsNoop:  "NO",
		}
		if d.Type == TypeInt || d.Type == TypeUnsigned || d.Type == TypeFloat {
			lo, hi := d.Min, d.Max
			r.Min, r.Max = &lo, &hi
		}
		if d.Type == TypeEnum {
			p := strings.Join(d.Possible, ",")
			r.PossibleValues = &p
		}
		rows = append(rows, r)
	}
	// names are unique (map keys): any sort gives the one order
	slices.SortFunc(rows, func(a, b VariablesInfoRow) int { return strings.Compare(a.Name, b.Name) })
	return rows
}

// SetGlobalRaw stores a GLOBAL value without privilege checks, validating it
// as SET GLOBAL does; for Go-side seeding (SeedStatements is preferred).
func (s *SysVarStore) SetGlobalRaw(t VarTarget, name, value string) ([]Warning, error) {
	return s.SetGlobal(t, name, Str(value))
}

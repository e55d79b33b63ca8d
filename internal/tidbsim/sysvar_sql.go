package tidbsim

import (
	"strconv"
	"strings"
)

// SQL surface of the system-variable domain (issue 2 point 5):
//
//	SET [GLOBAL|SESSION|LOCAL] name = expr [, ...]
//	SET @@[global.|session.|local.]name = expr, SET @user = expr
//	SET NAMES charset [COLLATE collation]         (accepted, no state modelled)
//	SHOW [GLOBAL|SESSION] VARIABLES [LIKE 'pat' | WHERE expr]
//	SELECT @@name, @@global.name, @@session.name  (the engine's @@ reader)
//	INFORMATION_SCHEMA.VARIABLES_INFO             (https://docs.pingcap.com/tidb/stable/information-schema-variables-info)
//	INFORMATION_SCHEMA.GLOBAL_VARIABLES           (always empty, see below)

type sysVarStoreKey struct{}
type sessionVarsKey struct{}

// clusterVars returns the cluster's variable store.
func clusterVars(c *Cluster) *SysVarStore {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Ext(sysVarStoreKey{}).(*SysVarStore)
}

// varTarget is the connected tidb instance of s.
func varTarget(s *Session) VarTarget {
	return VarTarget{Instance: s.Instance.Address, Version: s.Instance.Version, VersionText: tidbVersionString(s.Instance), Newer: s.Cluster.newerVars,
		SEM: s.Cluster.SEM, TiDBInstances: tidbCount(s.Cluster)}
}

// diagnosticsCount reads @@warning_count and @@error_count (SESSION
// variables the session keeps itself: sysvar.go WarningCount, ErrorCount
// GetSession).
func diagnosticsCount(s *Session, scope RefScope, name string) (Value, bool) {
	if scope == RefGlobal {
		return Null, false
	}
	switch name {
	case "warning_count":
		return Str(strconv.Itoa(s.sysWarningCount)), true
	case "error_count":
		return Str(strconv.Itoa(s.sysErrorCount)), true
	}
	return Null, false
}

// tidbCount is how many TiDB instances c has.
func tidbCount(c *Cluster) int {
	n := 0
	for _, in := range c.Instances {
		if in.Type == TypeTiDB {
			n++
		}
	}
	return n
}

// sessionVars returns the session's SESSION-scope values, created on first
// use from the GLOBAL values current then (https://docs.pingcap.com/tidb/stable/system-variables: a GLOBAL change
// does not affect existing sessions).
func sessionVars(s *Session) *SessionVars {
	if sv, ok := s.Ext(sessionVarsKey{}).(*SessionVars); ok {
		return sv
	}
	sv := clusterVars(s.Cluster).NewSession(varTarget(s))
	s.SetExt(sessionVarsKey{}, sv)
	return sv
}

func init() {
	RegisterClusterInit(func(c *Cluster) {
		// BootstrappedFrom selects the upgrade defaults (SysVarOptions); for a
		// fresh cluster it equals the current version and changes nothing.
		c.SetExt(sysVarStoreKey{}, NewSysVarStore(SysVarOptions{UpgradedFrom: c.BootstrappedFrom}))
	})
	RegisterSessionInit(func(s *Session) { sessionVars(s) })
	RegisterSysVarReader(func(s *Session, scope RefScope, name string) (Value, error) {
		if v, ok := diagnosticsCount(s, scope, name); ok {
			return v, nil
		}
		sc := ""
		switch scope {
		case RefGlobal:
			sc = "global"
		case RefSession:
			sc = "session"
		}
		return clusterVars(s.Cluster).SelectVar(sessionVars(s), varTarget(s), sc, name)
	})
	RegisterSysVarType(func(s *Session, name string) ColumnType {
		d, err := lookupSysVar(varTarget(s), name)
		if err != nil {
			return ColVarchar
		}
		return d.columnType()
	})
	RegisterStatement("SET", execSet)
	RegisterStatement("SHOW VARIABLES", func(s *Session, p *Parser) (*Result, error) { return execShowVariables(s, p, false) })
	RegisterStatement("SHOW SESSION VARIABLES", func(s *Session, p *Parser) (*Result, error) { return execShowVariables(s, p, false) })
	RegisterStatement("SHOW GLOBAL VARIABLES", func(s *Session, p *Parser) (*Result, error) { return execShowVariables(s, p, true) })
	RegisterTable(&Table{
		Schema: "information_schema", Name: "variables_info",
		// pingcap/tidb@e4e814fdc0af:pkg/infoschema/tables.go tableVariablesInfoCols
		Columns: []Column{
			{Name: "VARIABLE_NAME", NotNull: true}, {Name: "VARIABLE_SCOPE", NotNull: true},
			{Name: "DEFAULT_VALUE", NotNull: true}, {Name: "CURRENT_VALUE", NotNull: true},
			{Name: "MIN_VALUE", Type: ColBigInt}, {Name: "MAX_VALUE", Type: ColUnsignedBigInt}, {Name: "POSSIBLE_VALUES"},
			{Name: "IS_NOOP", NotNull: true},
		},
		Rows: func(s *Session, _ *Filter) ([][]Value, error) {
			var rows [][]Value
			for _, r := range clusterVars(s.Cluster).VariablesInfo(sessionVars(s), varTarget(s)) {
				row := []Value{Str(r.Name), Str(r.Scope), Str(r.Default), Str(r.Current), Null, Null, Null, Str(r.IsNoop)}
				if r.Min != nil {
					row[4] = Int(*r.Min)
				}
				if r.Max != nil {
					row[5] = uintValue(*r.Max)
				}
				if r.PossibleValues != nil {
					row[6] = Str(*r.PossibleValues)
				}
				rows = append(rows, row)
			}
			return rows, nil
		},
	})
	// TiDB defines INFORMATION_SCHEMA.GLOBAL_VARIABLES but never fills it
	// (tidb#9154: "These tables are empty in TiDB with the exception of
	// session_variables"); tidb PR #56569 (2024-10) later moved it to
	// performance_schema, in a release not identified (unconfirmed). tidbsim
	// keeps the empty table for every version: read variables with SHOW
	// GLOBAL VARIABLES or VARIABLES_INFO.
	RegisterTable(&Table{
		Schema: "information_schema", Name: "global_variables",
		Columns: []Column{{Name: "VARIABLE_NAME", NotNull: true}, {Name: "VARIABLE_VALUE"}}, // tables.go tableGlobalVariablesCols
		Rows:    func(*Session, *Filter) ([][]Value, error) { return nil, nil },
	})
}

// uintValue returns n as an integer value, or as a decimal when it exceeds
// int64 (MAX_VALUE 18446744073709551615).
func uintValue(n uint64) Value {
	if n > 1<<63-1 {
		return Value{Kind: KindDecimal, S: strconv.FormatUint(n, 10)}
	}
	return Int(int64(n))
}

// setStatementWords start SET statements other than variable assignment.
var setStatementWords = map[string]bool{"PASSWORD": true, "ROLE": true, "TRANSACTION": true, "CHARACTER": true, "CHARSET": true, "DEFAULT": true}

// setScope is the scope of one SET assignment.
type setScope int

const (
	setDefault setScope = iota // no keyword: SESSION
	setGlobal
	setSession
	setUser // @user
)

// execSet runs SET. Assignments run left to right; an error stops the
// statement, earlier assignments stay applied (TiDB SetExecutor).
func execSet(s *Session, p *Parser) (*Result, error) {
	if p.AcceptKeyword("NAMES") {
		return nil, parseSetNames(p)
	}
	var list []setAssignment
	err := p.CommaList(func() error {
		a, err := parseSetAssignment(p)
		list = append(list, a)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	sv := sessionVars(s) // the session's values exist before the statement runs
	for _, a := range list {
		if err := applySetAssignment(s, p, sv, a); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// parseSetNames reads SET NAMES charset [COLLATE collation]: valid TiDB
// syntax; character-set variables are not modelled, so it changes nothing.
func parseSetNames(p *Parser) error {
	if _, err := p.IdentOrString(); err != nil {
		if !p.AcceptKeyword("DEFAULT") {
			return err
		}
	}
	if p.AcceptKeyword("COLLATE") {
		if _, err := p.IdentOrString(); err != nil {
			return err
		}
	}
	return p.End()
}

// setAssignment is one "[scope] name = value" of a SET statement: value
// for a bare word or a literal keyword, expr otherwise.
type setAssignment struct {
	scope setScope
	name  string
	expr  Expr
	value *Value
}

// parseSetAssignment reads one assignment: the scope (GLOBAL, SESSION,
// LOCAL, @@global., @@session., or a @user variable), the name and the value.
func parseSetAssignment(p *Parser) (setAssignment, error) {
	var a setAssignment
	switch {
	case p.AcceptKeyword("GLOBAL"):
		a.scope = setGlobal
	case p.AcceptKeyword("SESSION"), p.AcceptKeyword("LOCAL"):
		a.scope = setSession
	}
	t := p.Peek()
	switch {
	case a.scope == setDefault && t.Kind == TokSysVar:
		p.Next()
		ref := parseSysVarRef(t.Text)
		a.name = ref.Name
		switch ref.Scope {
		case RefGlobal:
			a.scope = setGlobal
		case RefSession:
			a.scope = setSession
		}
	case a.scope == setDefault && t.Kind == TokUserVar:
		p.Next()
		a.scope, a.name = setUser, strings.ToLower(t.Text)
	case t.Kind == TokIdent && setStatementWords[strings.ToUpper(t.Text)]:
		// SET PASSWORD / ROLE / TRANSACTION / CHARACTER SET ... are other
		// statements, not modelled: TiDB's grammar reads them as such, so
		// they must not become "Unknown system variable".
		return a, p.Errorf()
	case t.Kind == TokIdent || t.Kind == TokQuoted:
		p.Next()
		a.name = strings.ToLower(t.Text)
		// a name with one dot: SET GLOBAL validate_password.length = 12
		// (TiDB's grammar: VariableName is Identifier | Identifier '.'
		// Identifier, pingcap/tidb@e4e814fdc0af:pkg/parser/parser.y)
		if p.AcceptOp(".") {
			sub := p.Peek()
			if sub.Kind != TokIdent && sub.Kind != TokQuoted {
				return a, p.Errorf()
			}
			p.Next()
			a.name += "." + strings.ToLower(sub.Text)
		}
	default:
		return a, p.Errorf()
	}
	if !p.AcceptOp("=") && !p.AcceptOp(":=") {
		return a, p.Errorf()
	}
	return a, parseSetValue(p, &a)
}

// parseSetValue reads the value: a column name as the whole value is a
// string in SET (SET GLOBAL x = ON, SET tidb_txn_mode = optimistic, and a
// quoted name, `15m` or, under ANSI_QUOTES, "15m": TiDB's SetExecutor takes
// a ColumnNameExpr's name), except the literal keywords; anything else is
// an expression.
func parseSetValue(p *Parser, a *setAssignment) error {
	next := p.PeekN(1)
	if v := p.Peek(); (v.Kind == TokIdent || v.Kind == TokQuoted) && (next.Kind == TokEOF || (next.Kind == TokOp && (next.Text == "," || next.Text == ";"))) {
		switch kw := strings.ToUpper(v.Text); {
		case v.Kind == TokIdent && (kw == "TRUE" || kw == "FALSE" || kw == "NULL" || kw == "DEFAULT"):
			lit, err := p.Literal()
			if err != nil {
				return err
			}
			a.value = &lit
		default:
			p.Next()
			str := Str(v.Text)
			a.value = &str
		}
		return nil
	}
	e, err := p.Expr()
	if err != nil {
		return err
	}
	a.expr = e
	return nil
}

// applySetAssignment evaluates and stores one assignment: a user variable,
// or a system variable at its scope after TiDB's privilege checks, then
// mirrors instance-config variables and reports the store's warnings.
func applySetAssignment(s *Session, p *Parser, sv *SessionVars, a setAssignment) error {
	var val Value
	if a.value != nil {
		val = *a.value
	} else {
		v, err := a.expr.Eval(&EvalContext{Session: s, Clause: "field list"})
		if err != nil {
			return err
		}
		val = v
	}
	if a.scope == setUser {
		if val.Kind == KindDefault {
			return p.Errorf()
		}
		s.UserVars[a.name] = val
		return nil
	}
	store, t := clusterVars(s.Cluster), varTarget(s)
	d, err := lookupSysVar(t, a.name)
	if err != nil {
		return err
	}
	var warns []Warning
	if a.scope == setGlobal {
		if err := checkSetGlobalPrivilege(s, d); err != nil {
			return err
		}
		warns, err = store.SetGlobal(t, a.name, val)
	} else {
		// The legacy-instance-scope path is a SET GLOBAL (TiDB sets
		// IsGlobal before its privilege check).
		if !d.Scope.has(ScopeSession) && d.Scope.has(ScopeInstance) {
			if err := checkSetGlobalPrivilege(s, d); err != nil {
				return err
			}
		}
		warns, err = store.SetSession(sv, t, a.name, val)
	}
	for _, w := range warns {
		if w.Level == "Note" {
			s.AppendNote(w.Code, "%s", w.Message)
		} else {
			s.AppendWarning(w.Code, "%s", w.Message)
		}
	}
	if err != nil {
		return err
	}
	mirrorInstanceConfig(s, store, t, a.name)
	return nil
}

// checkSetGlobalPrivilege: SET GLOBAL needs SUPER or SYSTEM_VARIABLES_ADMIN
// (TiDB SetExecutor: ErrSpecificAccessDenied "SUPER or
// SYSTEM_VARIABLES_ADMIN"), checked after the variable is known to exist and
// before its value is validated.
func checkSetGlobalPrivilege(s *Session, _ *SysVarDef) error {
	if !s.HasPrivilege("SUPER", "SYSTEM_VARIABLES_ADMIN") {
		return ErrSpecificAccessDenied("SUPER", "SYSTEM_VARIABLES_ADMIN")
	}
	return nil
}

// execShowVariables runs SHOW [GLOBAL|SESSION] VARIABLES [LIKE | WHERE]. LIKE
// matches Variable_name ignoring case; WHERE sees the columns Variable_name
// and Value.
func execShowVariables(s *Session, p *Parser, global bool) (*Result, error) {
	var like *string
	var where Expr
	switch {
	case p.AcceptKeyword("LIKE"):
		pat, err := p.StringLit()
		if err != nil {
			return nil, err
		}
		like = &pat
	case p.AcceptKeyword("WHERE"):
		e, err := p.Expr()
		if err != nil {
			return nil, err
		}
		where = e
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	res := &Result{Columns: []Column{{Name: "Variable_name"}, {Name: "Value"}}}
	cols := []string{"VARIABLE_NAME", "VALUE"}
	// Names an exact WHERE rules out are not read at all (Filter.Keep).
	keep := extractFilter(where, cols).Keep("VARIABLE_NAME")
	for _, r := range clusterVars(s.Cluster).showVariables(sessionVars(s), varTarget(s), global, keep) {
		if like != nil && !MatchLike(r.Name, *like, '\\', true) {
			continue
		}
		row := []Value{Str(r.Name), Str(r.Value)}
		if where != nil {
			v, err := where.Eval(&EvalContext{Session: s, Columns: cols, Row: row, Clause: "where clause"})
			if err != nil {
				return nil, err
			}
			if ok, known := v.Truthy(); !ok || !known {
				continue
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// mirrorInstanceConfig copies the value of an INSTANCE-scoped variable into the
// TiDB config item that mirrors it (instance.<name>) on the connected tidb, so
// SHOW CONFIG / CLUSTER_CONFIG of that tidb show it. The docs pair them
// (`instance.tidb_slow_log_threshold` ↔ `tidb_slow_log_threshold`,
// https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tidb-configuration-dynamically);
// that SHOW CONFIG reflects the change is unconfirmed and modelled on
// TiDB's INSTANCE variables writing through to the global config that its
// /config endpoint serves. Variables without such an item are left alone.
func mirrorInstanceConfig(s *Session, store *SysVarStore, t VarTarget, name string) {
	d, err := lookupSysVar(t, name)
	if err != nil || !d.Scope.has(ScopeInstance) || s.Instance == nil {
		return
	}
	v, err := store.GlobalValue(t, d.Name)
	if err != nil {
		return
	}
	c := s.Cluster
	c.Mu.Lock()
	defer c.Mu.Unlock()
	_ = c.SetTiDBConfigLocked(s.Instance, "instance."+d.Name, v) // no such item: nothing to mirror
}

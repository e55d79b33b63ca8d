package tidbsim

import (
	"math/big"
	"strconv"
	"strings"
)

// RefScope is the scope named in a system-variable reference.
type RefScope int

// Scopes of @@ references: @@x is RefDefault (session value if the variable
// has one, else global), @@global.x, @@session.x / @@local.x.
const (
	RefDefault RefScope = iota
	RefGlobal
	RefSession
)

// Expr is a parsed SQL expression.
type Expr interface {
	Eval(ctx *EvalContext) (Value, error)
}

// EvalContext carries what an expression may refer to: the session (for
// @@variables, @user variables and functions) and, inside a query over a
// table, the current row.
type EvalContext struct {
	Session *Session
	// Columns are the upper-cased names of the row's columns; Row the values.
	Columns []string
	Row     []Value
	// Clause names the clause for "Unknown column" errors ("field list",
	// "where clause", "order clause").
	Clause string
	// Group holds the rows of the current group when aggregates are evaluated
	// (nil outside an aggregate query).
	Group [][]Value
}

func (c *EvalContext) column(name string) (Value, bool) {
	if !isASCII(name) {
		u := strings.ToUpper(name)
		for i, col := range c.Columns {
			if col == u {
				return c.Row[i], true
			}
		}
		return Null, false
	}
	for i, col := range c.Columns {
		if upperEqualsASCII(name, col) {
			return c.Row[i], true
		}
	}
	return Null, false
}

// upperEqualsASCII reports whether strings.ToUpper(name) == upper for an
// ASCII name (ToUpper then maps exactly a-z to A-Z), without building it.
func upperEqualsASCII(name, upper string) bool {
	if len(name) != len(upper) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[i] {
			return false
		}
	}
	return true
}

// Literal is a constant.
type Literal struct{ V Value }

// Eval implements Expr.
func (e *Literal) Eval(*EvalContext) (Value, error) { return e.V, nil }

// ColumnRef is a (possibly qualified) column name; the last part is the column.
type ColumnRef struct{ Parts []string }

// Name returns the column name (last part).
func (e *ColumnRef) Name() string { return e.Parts[len(e.Parts)-1] }

// Eval implements Expr.
func (e *ColumnRef) Eval(ctx *EvalContext) (Value, error) {
	if v, ok := ctx.column(e.Name()); ok {
		return v, nil
	}
	clause := ctx.Clause
	if clause == "" {
		clause = "field list"
	}
	return Null, errUnknownColumn(e, clause)
}

// errUnknownColumn is 1054. The field list and WHERE name the column as
// ColumnName.String() prints it, lower-cased
// (pingcap/tidb@e4e814fdc0af:pkg/planner/core/expression_rewriter.go
// toColumn); ORDER BY as written.
func errUnknownColumn(e *ColumnRef, clause string) *SQLError {
	name := strings.Join(e.Parts, ".")
	if clause != "order clause" {
		name = strings.ToLower(name)
	}
	return NewError(1054, "42S22", "Unknown column '%s' in '%s'", name, clause)
}

// SysVarRef is @@x, @@global.x or @@session.x. Reads go through the hook
// registered with RegisterSysVarReader.
type SysVarRef struct {
	Scope RefScope
	Name  string // lower-cased
	Text  string // as written, e.g. "@@global.tidb_enable_resource_control"
}

// Eval implements Expr.
func (e *SysVarRef) Eval(ctx *EvalContext) (Value, error) {
	return readSysVar(ctx.Session, e.Scope, e.Name)
}

// UserVarRef is @name.
type UserVarRef struct{ Name string }

// Eval implements Expr.
func (e *UserVarRef) Eval(ctx *EvalContext) (Value, error) {
	if ctx.Session == nil {
		return Null, nil
	}
	if v, ok := ctx.Session.UserVars[e.Name]; ok {
		return v, nil
	}
	return Null, nil
}

// CallExpr is a scalar function call; Name is upper-cased.
type CallExpr struct {
	Name string
	Args []Expr

	// fn is the function Name resolved on the first evaluation (functions
	// are registered at init, so the answer never changes).
	fn ScalarFunc
}

// Eval implements Expr.
func (e *CallExpr) Eval(ctx *EvalContext) (Value, error) {
	fn, ok := e.fn, e.fn != nil
	if !ok {
		fn, ok = lookupFunction(e.Name)
		e.fn = fn
	}
	if !ok {
		db := ""
		if ctx.Session != nil {
			db = ctx.Session.CurrentDB
		}
		if db == "" {
			return Null, NewError(1046, "3D000", "No database selected")
		}
		return Null, NewError(1305, "42000", "FUNCTION %s.%s does not exist", db, strings.ToLower(e.Name))
	}
	args := make([]Value, len(e.Args))
	for i, a := range e.Args {
		v, err := a.Eval(ctx)
		if err != nil {
			return Null, err
		}
		args[i] = v
	}
	v, err := fn(ctx.Session, args)
	if err != nil {
		// A wrong argument count is found while the statement is planned;
		// anything else while its rows are produced.
		if se := asSQLError(err); se.Code != 1582 {
			return v, executionError{se}
		}
	}
	return v, err
}

// ParenExpr is a parenthesised expression.
type ParenExpr struct{ X Expr }

// Eval implements Expr.
func (e *ParenExpr) Eval(ctx *EvalContext) (Value, error) { return e.X.Eval(ctx) }

// NotExpr is NOT x / !x.
type NotExpr struct{ X Expr }

// Eval implements Expr.
func (e *NotExpr) Eval(ctx *EvalContext) (Value, error) {
	v, err := e.X.Eval(ctx)
	if err != nil {
		return Null, err
	}
	b, known := v.Truthy()
	if !known {
		return Null, nil
	}
	return BoolValue(!b), nil
}

// NegExpr is -x for a non-literal x.
type NegExpr struct{ X Expr }

// Eval implements Expr.
func (e *NegExpr) Eval(ctx *EvalContext) (Value, error) {
	v, err := e.X.Eval(ctx)
	if err != nil || v.IsNull() {
		return v, err
	}
	if v.Kind == KindInt {
		return Int(-v.I), nil
	}
	return Float(-v.ToFloat()), nil
}

// BinaryExpr is a comparison, logical or arithmetic operator. Op is one of
// = != < <= > >= <=> AND OR + - * /.
type BinaryExpr struct {
	Op   string
	L, R Expr
}

// Eval implements Expr.
func (e *BinaryExpr) Eval(ctx *EvalContext) (Value, error) {
	l, err := e.L.Eval(ctx)
	if err != nil {
		return Null, err
	}
	switch e.Op {
	case "AND":
		lb, lk := l.Truthy()
		if lk && !lb {
			return Int(0), nil
		}
		r, err := e.R.Eval(ctx)
		if err != nil {
			return Null, err
		}
		rb, rk := r.Truthy()
		if rk && !rb {
			return Int(0), nil
		}
		if !lk || !rk {
			return Null, nil
		}
		return Int(1), nil
	case "OR":
		lb, lk := l.Truthy()
		if lk && lb {
			return Int(1), nil
		}
		r, err := e.R.Eval(ctx)
		if err != nil {
			return Null, err
		}
		rb, rk := r.Truthy()
		if rk && rb {
			return Int(1), nil
		}
		if !lk || !rk {
			return Null, nil
		}
		return Int(0), nil
	}
	r, err := e.R.Eval(ctx)
	if err != nil {
		return Null, err
	}
	if e.Op == "<=>" {
		if l.IsNull() || r.IsNull() {
			return BoolValue(l.IsNull() && r.IsNull()), nil
		}
		return BoolValue(compareValues(l, r) == 0), nil
	}
	if l.IsNull() || r.IsNull() {
		return Null, nil
	}
	switch e.Op {
	case "=":
		return BoolValue(compareValues(l, r) == 0), nil
	case "!=":
		return BoolValue(compareValues(l, r) != 0), nil
	case "<":
		return BoolValue(compareValues(l, r) < 0), nil
	case "<=":
		return BoolValue(compareValues(l, r) <= 0), nil
	case ">":
		return BoolValue(compareValues(l, r) > 0), nil
	case ">=":
		return BoolValue(compareValues(l, r) >= 0), nil
	case "+", "-", "*":
		if l.Kind == KindInt && r.Kind == KindInt {
			switch e.Op {
			case "+":
				return Int(l.I + r.I), nil
			case "-":
				return Int(l.I - r.I), nil
			default:
				return Int(l.I * r.I), nil
			}
		}
		a, b := l.ToFloat(), r.ToFloat()
		switch e.Op {
		case "+":
			return Float(a + b), nil
		case "-":
			return Float(a - b), nil
		default:
			return Float(a * b), nil
		}
	case "/":
		b := r.ToFloat()
		if b == 0 {
			return Null, nil
		}
		if q, ok := decimalDivide(l, r); ok {
			return q, nil
		}
		return Float(l.ToFloat() / b), nil
	}
	return Null, ErrGeneric("tidbsim: unsupported operator %s", e.Op)
}

// IsNullExpr is x IS [NOT] NULL.
type IsNullExpr struct {
	X   Expr
	Not bool
}

// Eval implements Expr.
func (e *IsNullExpr) Eval(ctx *EvalContext) (Value, error) {
	v, err := e.X.Eval(ctx)
	if err != nil {
		return Null, err
	}
	return BoolValue(v.IsNull() != e.Not), nil
}

// InExpr is x [NOT] IN (list).
type InExpr struct {
	X    Expr
	List []Expr
	Not  bool

	// strings is the list as a set when every item is a string literal
	// (built on first use): a string is then in the list in one lookup, as
	// the linear comparison below would find it, whatever the list's length.
	strings     map[string]bool
	stringsDone bool
}

// stringSet returns the list as a set of strings, nil when an item is not a
// string literal.
func (e *InExpr) stringSet() map[string]bool {
	if e.stringsDone {
		return e.strings
	}
	e.stringsDone = true
	set := make(map[string]bool, len(e.List))
	for _, item := range e.List {
		lit, ok := item.(*Literal)
		if !ok || lit.V.Kind != KindString {
			return nil
		}
		set[lit.V.S] = true
	}
	e.strings = set
	return set
}

// Eval implements Expr.
func (e *InExpr) Eval(ctx *EvalContext) (Value, error) {
	v, err := e.X.Eval(ctx)
	if err != nil || v.IsNull() {
		return Null, err
	}
	if set := e.stringSet(); set != nil && v.Kind == KindString {
		// compareValues of two strings is strings.Compare: equal strings.
		return BoolValue(set[v.S] != e.Not), nil
	}
	sawNull := false
	for _, item := range e.List {
		w, err := item.Eval(ctx)
		if err != nil {
			return Null, err
		}
		if w.IsNull() {
			sawNull = true
			continue
		}
		if compareValues(v, w) == 0 {
			return BoolValue(!e.Not), nil
		}
	}
	if sawNull {
		return Null, nil
	}
	return BoolValue(e.Not), nil
}

// LikeExpr is x [NOT] LIKE pattern [ESCAPE c].
type LikeExpr struct {
	X, Pattern Expr
	Escape     Expr // nil: backslash
	Not        bool
}

// Eval implements Expr.
func (e *LikeExpr) Eval(ctx *EvalContext) (Value, error) {
	v, err := e.X.Eval(ctx)
	if err != nil {
		return Null, err
	}
	pat, err := e.Pattern.Eval(ctx)
	if err != nil {
		return Null, err
	}
	if v.IsNull() || pat.IsNull() {
		return Null, nil
	}
	esc := byte('\\')
	if e.Escape != nil {
		ev, err := e.Escape.Eval(ctx)
		if err != nil {
			return Null, err
		}
		s := ev.String()
		if len(s) != 1 {
			return Null, NewError(1210, "HY000", "Incorrect arguments to ESCAPE")
		}
		esc = s[0]
	}
	return BoolValue(MatchLike(v.String(), pat.String(), esc, false) != e.Not), nil
}

// MatchLike matches s against a LIKE pattern (% any run, _ one character, esc
// quotes the next character). With foldCase the match ignores ASCII case (as
// SHOW ... LIKE does for names); otherwise it is byte-exact (utf8mb4_bin).
func MatchLike(s, pattern string, esc byte, foldCase bool) bool {
	if foldCase {
		s, pattern = strings.ToLower(s), strings.ToLower(pattern)
	}
	// tokens: literal runes, '%' wildcard, '_' wildcard
	type tok struct {
		kind byte // 'l', '%', '_'
		r    rune
	}
	var toks []tok
	pr := []rune(pattern)
	for i := 0; i < len(pr); i++ {
		c := pr[i]
		switch {
		case c == rune(esc) && i+1 < len(pr):
			i++
			toks = append(toks, tok{'l', pr[i]})
		case c == '%':
			toks = append(toks, tok{'%', 0})
		case c == '_':
			toks = append(toks, tok{'_', 0})
		default:
			toks = append(toks, tok{'l', c})
		}
	}
	sr := []rune(s)
	// dynamic programming over (token, rune)
	prev := make([]bool, len(sr)+1)
	prev[0] = true
	for _, t := range toks {
		cur := make([]bool, len(sr)+1)
		switch t.kind {
		case '%':
			any := false
			for j := 0; j <= len(sr); j++ {
				any = any || prev[j]
				cur[j] = any
			}
		default:
			for j := 1; j <= len(sr); j++ {
				cur[j] = prev[j-1] && (t.kind == '_' || sr[j-1] == t.r)
			}
		}
		prev = cur
	}
	return prev[len(sr)]
}

// AggExpr is an aggregate: COUNT(*) (Arg nil), COUNT/MIN/MAX/SUM(x).
type AggExpr struct {
	Fn       string
	Arg      Expr
	Distinct bool
}

// Eval implements Expr over ctx.Group.
func (e *AggExpr) Eval(ctx *EvalContext) (Value, error) {
	if ctx.Group == nil {
		return Null, NewError(1111, "HY000", "Invalid use of group function")
	}
	vals := make([]Value, 0, len(ctx.Group))
	seen := map[string]bool{}
	row := &EvalContext{Session: ctx.Session, Columns: ctx.Columns, Clause: ctx.Clause}
	for _, r := range ctx.Group {
		if e.Arg == nil {
			vals = append(vals, Int(1))
			continue
		}
		row.Row = r
		v, err := e.Arg.Eval(row)
		if err != nil {
			return Null, err
		}
		if v.IsNull() {
			continue
		}
		if e.Distinct {
			k := v.String()
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		vals = append(vals, v)
	}
	switch e.Fn {
	case "COUNT":
		return Int(int64(len(vals))), nil
	case "MIN", "MAX":
		if len(vals) == 0 {
			return Null, nil
		}
		best := vals[0]
		for _, v := range vals[1:] {
			c := compareValues(v, best)
			if (e.Fn == "MIN" && c < 0) || (e.Fn == "MAX" && c > 0) {
				best = v
			}
		}
		return best, nil
	case "SUM":
		if len(vals) == 0 {
			return Null, nil
		}
		allInt := true
		var si int64
		var sf float64
		for _, v := range vals {
			if v.Kind != KindInt {
				allInt = false
			}
			si += v.I
			sf += v.ToFloat()
		}
		if allInt {
			return Value{Kind: KindDecimal, S: strconv.FormatInt(si, 10)}, nil
		}
		return Float(sf), nil
	}
	return Null, ErrGeneric("tidbsim: unsupported aggregate %s", e.Fn)
}

// subExprs are the operands of e (nil for a leaf: a literal, a column or a
// variable reference). Escape of a LIKE is among them when given.
func subExprs(e Expr) []Expr {
	switch x := e.(type) {
	case *ParenExpr:
		return []Expr{x.X}
	case *NotExpr:
		return []Expr{x.X}
	case *NegExpr:
		return []Expr{x.X}
	case *BinaryExpr:
		return []Expr{x.L, x.R}
	case *IsNullExpr:
		return []Expr{x.X}
	case *LikeExpr:
		if x.Escape != nil {
			return []Expr{x.X, x.Pattern, x.Escape}
		}
		return []Expr{x.X, x.Pattern}
	case *InExpr:
		return append([]Expr{x.X}, x.List...)
	case *CallExpr:
		return x.Args
	case *AggExpr:
		if x.Arg != nil {
			return []Expr{x.Arg}
		}
	}
	return nil
}

// hasAggregate reports whether e contains an aggregate.
func hasAggregate(e Expr) bool {
	if _, ok := e.(*AggExpr); ok {
		return true
	}
	for _, c := range subExprs(e) {
		if hasAggregate(c) {
			return true
		}
	}
	return false
}

// divPrecisionIncrement is div_precision_increment's default: the digits a
// decimal division adds to its dividend's scale.
const divPrecisionIncrement = 4

// decimalDivide is / of two exact numbers (integers or decimals): a DECIMAL
// whose scale is the dividend's plus div_precision_increment, rounded half
// away from zero (7 / 2 = 3.5000; pingcap/tidb@e4e814fdc0af:pkg/types/mydecimal.go
// DecimalDiv with pkg/expression/builtin_arithmetic.go
// arithmeticDivideFunctionClass setType4DivDecimal). ok is false for a
// float operand.
func decimalDivide(l, r Value) (Value, bool) {
	lr, ls, ok1 := exactNumber(l)
	rr, _, ok2 := exactNumber(r)
	if !ok1 || !ok2 || rr.Sign() == 0 {
		return Null, false
	}
	q := new(big.Rat).Quo(lr, rr)
	return Value{Kind: KindDecimal, S: formatRat(q, ls+divPrecisionIncrement)}, true
}

// exactNumber reads an integer or a decimal, with its scale (digits after
// the point).
func exactNumber(v Value) (*big.Rat, int, bool) {
	switch v.Kind {
	case KindInt:
		return new(big.Rat).SetInt64(v.I), 0, true
	case KindDecimal:
		r, ok := new(big.Rat).SetString(v.S)
		if !ok {
			return nil, 0, false
		}
		scale := 0
		if i := strings.IndexByte(v.S, '.'); i >= 0 {
			scale = len(v.S) - i - 1
		}
		return r, scale, true
	}
	return nil, 0, false
}

// formatRat renders r with scale digits after the point, rounded half away
// from zero.
func formatRat(r *big.Rat, scale int) string {
	neg := r.Sign() < 0
	abs := new(big.Rat).Abs(r)
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	scaled := new(big.Rat).Mul(abs, new(big.Rat).SetInt(pow))
	n := new(big.Int).Quo(scaled.Num(), scaled.Denom())
	rem := new(big.Rat).Sub(scaled, new(big.Rat).SetInt(n))
	if rem.Cmp(big.NewRat(1, 2)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	digits := n.String()
	if scale > 0 {
		for len(digits) <= scale {
			digits = "0" + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg && n.Sign() != 0 {
		digits = "-" + digits
	}
	return digits
}

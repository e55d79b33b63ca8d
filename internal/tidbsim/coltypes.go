package tidbsim

import "strconv"

// The type and nullability of a SELECT's result columns, as TiDB infers them
// for the expressions the engine evaluates (what database/sql reports as
// DatabaseTypeName and Nullable):
//
//   - a literal has its own type (an integer BIGINT, one beyond int64
//     UNSIGNED BIGINT, a number with a point DECIMAL, with an exponent
//     DOUBLE, a string VARCHAR, NULL the NULL type) and is NOT NULL unless it
//     is NULL;
//   - a table column has its declared type and flag;
//   - @@var is BIGINT for a boolean, UNSIGNED BIGINT for an unsigned
//     integer, VARCHAR otherwise (SysVar.GetNativeValType,
//     pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/variable.go), and
//     nullable;
//   - a function of constants is folded to a constant, NOT NULL unless its
//     value is NULL (pingcap/tidb@e4e814fdc0af:pkg/expression/constant_fold.go
//     foldConstant); a function of columns is nullable, except IS NULL and
//     <=> (always NOT NULL), + - * (NOT NULL when every operand is),
//     COALESCE (when one operand is) and IFNULL (when either is)
//     (pkg/expression/builtin.go adjustNullFlagForReturnType,
//     builtin_compare.go coalesceFunctionClass, builtin_control.go
//     InferType4ControlFuncs);
//   - COUNT is BIGINT NOT NULL; MIN and MAX have their argument's type and
//     are nullable; SUM of integers is DECIMAL, of anything else DOUBLE
//     (pkg/expression/aggregation/base_func.go typeInfer).

// sysVarTypeOf returns the column type of @@name for s (set by the system
// variable domain; VARCHAR when none is registered).
var sysVarTypeOf = func(*Session, string) ColumnType { return ColVarchar }

// RegisterSysVarType installs the function giving the column type SELECT
// @@name has.
func RegisterSysVarType(fn func(s *Session, name string) ColumnType) { sysVarTypeOf = fn }

// functionTypes is the result type of each scalar function the engine has
// (pingcap/tidb@e4e814fdc0af:pkg/expression: the getFunction of each
// function class sets its return type); a function not listed returns
// VARCHAR.
var functionTypes = map[string]ColumnType{
	"CONNECTION_ID":     ColUnsignedBigInt, // builtin_info.go connectionIDFunctionClass: unsigned
	"LENGTH":            ColBigInt,
	"GET_LOCK":          ColBigInt, // builtin_miscellaneous.go lockFunctionClass
	"RELEASE_LOCK":      ColBigInt,
	"IS_USED_LOCK":      ColBigInt,
	"IS_FREE_LOCK":      ColBigInt,
	"RELEASE_ALL_LOCKS": ColBigInt,
	"NOW":               ColDatetime, // builtin_time.go nowFunctionClass
	"UNIX_TIMESTAMP":    ColBigInt,   // without arguments: an integer
	"FROM_UNIXTIME":     ColDatetime,
	"JSON_EXTRACT":      ColJSON,
	"JSON_UNQUOTE":      ColText, // builtin_json.go jsonUnquoteFunctionClass: a text of the argument's length
}

// nullableFunctions are never folded to a NOT NULL column: the JSON
// functions return a nullable column even over constants (observed on the
// real server by the differential suite: JSON_EXTRACT('{"a":1}', '$.a') is
// a nullable JSON column).
var nullableFunctions = map[string]bool{"JSON_EXTRACT": true, "JSON_UNQUOTE": true}

// columnOf is the result column of a select item: its type, and whether it
// is NOT NULL. first is the item's value in the first output row (nil when
// there is none): a constant expression is folded, and its flag follows its
// value.
func columnOf(s *Session, name string, e Expr, tcols []Column, first *Value) Column {
	c := Column{Name: name, Type: exprType(s, e, tcols)}
	if isConstant(e) {
		// a constant function of a NULL argument is not folded to a NOT
		// NULL constant (foldConstant: hasNullArg): it keeps the flag its
		// own type gives it (COALESCE(NULL, 'x') is NOT NULL)
		c.NotNull = first == nil || !first.IsNull()
		if hasNullArgument(e) {
			c.NotNull = exprNotNull(e, tcols)
		}
		if c.Type == ColVarchar && first != nil && first.IsNull() && isNullLiteral(e) {
			c.Type = ColNull
		}
		if call, ok := e.(*CallExpr); ok && nullableFunctions[call.Name] {
			c.NotNull = false
		}
		return c
	}
	c.NotNull = exprNotNull(e, tcols)
	return c
}

// hasNullArgument reports whether a function or operator has a NULL
// literal among its direct operands (IS NULL and <=> are NOT NULL whatever
// their operands).
func hasNullArgument(e Expr) bool {
	var args []Expr
	switch x := e.(type) {
	case *CallExpr:
		args = x.Args
	case *BinaryExpr:
		if x.Op == "<=>" {
			return false
		}
		args = []Expr{x.L, x.R}
	case *InExpr:
		args = append([]Expr{x.X}, x.List...)
	case *LikeExpr:
		args = []Expr{x.X, x.Pattern}
	case *NotExpr:
		args = []Expr{x.X}
	case *ParenExpr:
		return hasNullArgument(x.X)
	}
	for _, a := range args {
		if isNullLiteral(a) {
			return true
		}
	}
	return false
}

func isNullLiteral(e Expr) bool {
	l, ok := e.(*Literal)
	return ok && l.V.IsNull()
}

// isConstant reports whether e refers to no column, variable or aggregate,
// so TiDB folds it to a constant.
func isConstant(e Expr) bool {
	switch e.(type) {
	case *Literal:
		return true
	case *ColumnRef, *SysVarRef, *UserVarRef, *AggExpr:
		return false
	}
	for _, c := range subExprs(e) {
		if !isConstant(c) {
			return false
		}
	}
	return true
}

// exprNotNull is the NOT NULL flag of an expression over columns.
func exprNotNull(e Expr, tcols []Column) bool {
	switch x := e.(type) {
	case *Literal:
		return !x.V.IsNull()
	case *ColumnRef:
		if c, ok := tableColumn(x, tcols); ok {
			return c.NotNull
		}
	case *ParenExpr:
		return exprNotNull(x.X, tcols)
	case *NegExpr:
		return exprNotNull(x.X, tcols)
	case *IsNullExpr:
		return true
	case *BinaryExpr:
		switch x.Op {
		case "<=>":
			return true
		case "+", "-", "*":
			return exprNotNull(x.L, tcols) && exprNotNull(x.R, tcols)
		}
	case *AggExpr:
		return x.Fn == "COUNT"
	case *CallExpr:
		switch x.Name {
		case "COALESCE":
			for _, a := range x.Args {
				if exprNotNull(a, tcols) {
					return true
				}
			}
		case "IFNULL":
			return len(x.Args) == 2 && (exprNotNull(x.Args[0], tcols) || exprNotNull(x.Args[1], tcols))
		}
	}
	return false
}

func tableColumn(r *ColumnRef, tcols []Column) (Column, bool) {
	for _, c := range tcols {
		if equalFoldASCII(c.Name, r.Name()) {
			return c, true
		}
	}
	return Column{}, false
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// exprType is the column type of an expression.
func exprType(s *Session, e Expr, tcols []Column) ColumnType {
	switch x := e.(type) {
	case *Literal:
		return literalType(x.V)
	case *ColumnRef:
		if c, ok := tableColumn(x, tcols); ok {
			return c.Type
		}
	case *SysVarRef:
		return sysVarTypeOf(s, x.Name)
	case *ParenExpr:
		return exprType(s, x.X, tcols)
	case *NegExpr:
		return exprType(s, x.X, tcols)
	case *NotExpr, *InExpr, *LikeExpr, *IsNullExpr:
		return ColBigInt
	case *BinaryExpr:
		return binaryType(s, x, tcols)
	case *AggExpr:
		switch x.Fn {
		case "COUNT":
			return ColBigInt
		case "SUM":
			if t := exprType(s, x.Arg, tcols); isIntegerType(t) || t == ColDecimal {
				return ColDecimal
			}
			return ColDouble
		}
		return exprType(s, x.Arg, tcols)
	case *CallExpr:
		return callType(s, x, tcols)
	}
	return ColVarchar
}

func literalType(v Value) ColumnType {
	switch v.Kind {
	case KindNull:
		return ColNull
	case KindInt:
		return ColBigInt
	case KindFloat:
		return ColDouble
	case KindDecimal:
		if _, err := strconv.ParseUint(v.S, 10, 64); err == nil {
			return ColUnsignedBigInt // an integer literal beyond int64 (pkg/parser/lexer: an unsigned integer)
		}
		return ColDecimal
	}
	return ColVarchar
}

func isIntegerType(t ColumnType) bool {
	switch t {
	case ColBigInt, ColUnsignedBigInt, ColUnsignedInt, ColUnsignedSmallInt, ColTinyInt:
		return true
	}
	return false
}

// binaryType: comparisons and logic are BIGINT; + - * of integers BIGINT,
// with a DECIMAL operand DECIMAL, else DOUBLE; / DECIMAL of exact operands,
// else DOUBLE (pkg/expression/builtin_arithmetic.go numericContextResultType).
func binaryType(s *Session, x *BinaryExpr, tcols []Column) ColumnType {
	switch x.Op {
	case "+", "-", "*", "/":
	default:
		return ColBigInt
	}
	l, r := exprType(s, x.L, tcols), exprType(s, x.R, tcols)
	// a NULL operand takes the other's type (NULL + 1 is a BIGINT)
	if l == ColNull {
		l = r
	}
	if r == ColNull {
		r = l
	}
	if l == ColNull {
		return ColDouble
	}
	exact := func(t ColumnType) bool { return isIntegerType(t) || t == ColDecimal }
	switch {
	case x.Op == "/" && exact(l) && exact(r):
		return ColDecimal
	case isIntegerType(l) && isIntegerType(r):
		if l == ColUnsignedBigInt || r == ColUnsignedBigInt {
			return ColUnsignedBigInt
		}
		return ColBigInt
	case exact(l) && exact(r):
		return ColDecimal
	case l == ColDatetime || l == ColTimestamp || r == ColDatetime || r == ColTimestamp:
		return ColDouble
	}
	return ColDouble
}

// callType: the function's result type; COALESCE, IFNULL and IF take the
// type of their value operands when those agree (InferType4ControlFuncs),
// else VARCHAR.
func callType(s *Session, x *CallExpr, tcols []Column) ColumnType {
	if t, ok := functionTypes[x.Name]; ok {
		return t
	}
	var operands []Expr
	switch x.Name {
	case "COALESCE", "IFNULL":
		operands = x.Args
	case "IF":
		if len(x.Args) == 3 {
			operands = x.Args[1:]
		}
	default:
		return ColVarchar
	}
	t := ColNull
	for _, a := range operands {
		at := exprType(s, a, tcols)
		switch {
		case at == ColNull:
		case t == ColNull:
			t = at
		case t != at:
			return ColVarchar
		}
	}
	if t == ColNull {
		return ColVarchar
	}
	return t
}

package tidbsim

import (
	"strconv"
	"strings"
)

// Common scalar functions of TiDB/MySQL that queries over the virtual tables
// may use. NULL handling follows MySQL: any NULL argument gives NULL unless
// the function is about NULLs (IFNULL, COALESCE, IF's branches).

func init() {
	unary := func(name string, f func(string) string) {
		RegisterFunction(name, func(s *Session, args []Value) (Value, error) {
			if len(args) != 1 {
				return Null, ErrWrongArgCount(name)
			}
			if args[0].IsNull() {
				return Null, nil
			}
			return Str(f(args[0].String())), nil
		})
	}
	unary("LOWER", strings.ToLower)
	unary("LCASE", strings.ToLower)
	unary("UPPER", strings.ToUpper)
	unary("UCASE", strings.ToUpper)
	unary("TRIM", func(s string) string { return strings.Trim(s, " ") })
	RegisterFunction("LENGTH", fnLength)
	RegisterFunction("CONCAT", fnConcat)
	RegisterFunction("REPLACE", fnReplace)
	RegisterFunction("SUBSTRING_INDEX", fnSubstringIndex)
	RegisterFunction("IFNULL", fnIfNull)
	RegisterFunction("COALESCE", fnCoalesce)
	RegisterFunction("IF", fnIf)
}

// anyNull reports whether an argument is NULL (most string functions then
// return NULL).
func anyNull(args []Value) bool {
	for _, a := range args {
		if a.IsNull() {
			return true
		}
	}
	return false
}

// fnLength is LENGTH(str): its length in bytes.
func fnLength(s *Session, args []Value) (Value, error) {
	if len(args) != 1 {
		return Null, ErrWrongArgCount("length")
	}
	if args[0].IsNull() {
		return Null, nil
	}
	return Int(int64(len(args[0].String()))), nil
}

// fnConcat is CONCAT(str, …): NULL when any argument is.
func fnConcat(s *Session, args []Value) (Value, error) {
	if len(args) == 0 {
		return Null, ErrWrongArgCount("concat")
	}
	if anyNull(args) {
		return Null, nil
	}
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.String())
	}
	return Str(b.String()), nil
}

// fnReplace is REPLACE(str, from, to).
func fnReplace(s *Session, args []Value) (Value, error) {
	if len(args) != 3 {
		return Null, ErrWrongArgCount("replace")
	}
	if anyNull(args) {
		return Null, nil
	}
	return Str(strings.ReplaceAll(args[0].String(), args[1].String(), args[2].String())), nil
}

// fnSubstringIndex is SUBSTRING_INDEX(str, delim, count): MySQL semantics
// for positive and negative counts.
func fnSubstringIndex(s *Session, args []Value) (Value, error) {
	if len(args) != 3 {
		return Null, ErrWrongArgCount("substring_index")
	}
	if anyNull(args) {
		return Null, nil
	}
	str, delim := args[0].String(), args[1].String()
	n, err := strconv.Atoi(args[2].String())
	if err != nil || delim == "" || n == 0 {
		return Str(""), nil
	}
	parts := strings.Split(str, delim)
	if n > 0 {
		if n >= len(parts) {
			return Str(str), nil
		}
		return Str(strings.Join(parts[:n], delim)), nil
	}
	if -n >= len(parts) {
		return Str(str), nil
	}
	return Str(strings.Join(parts[len(parts)+n:], delim)), nil
}

// fnIfNull is IFNULL(a, b).
func fnIfNull(s *Session, args []Value) (Value, error) {
	if len(args) != 2 {
		return Null, ErrWrongArgCount("ifnull")
	}
	if args[0].IsNull() {
		return args[1], nil
	}
	return args[0], nil
}

// fnCoalesce is COALESCE(a, …): the first non-NULL argument.
func fnCoalesce(s *Session, args []Value) (Value, error) {
	if len(args) == 0 {
		return Null, ErrWrongArgCount("coalesce")
	}
	for _, a := range args {
		if !a.IsNull() {
			return a, nil
		}
	}
	return Null, nil
}

// fnIf is IF(cond, then, else).
func fnIf(s *Session, args []Value) (Value, error) {
	if len(args) != 3 {
		return Null, ErrWrongArgCount("if")
	}
	if b, ok := args[0].Truthy(); ok && b {
		return args[1], nil
	}
	return args[2], nil
}

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
	RegisterFunction("LENGTH", func(s *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("length")
		}
		if args[0].IsNull() {
			return Null, nil
		}
		return Int(int64(len(args[0].String()))), nil
	})
	RegisterFunction("CONCAT", func(s *Session, args []Value) (Value, error) {
		if len(args) == 0 {
			return Null, ErrWrongArgCount("concat")
		}
		var b strings.Builder
		for _, a := range args {
			if a.IsNull() {
				return Null, nil
			}
			b.WriteString(a.String())
		}
		return Str(b.String()), nil
	})
	RegisterFunction("REPLACE", func(s *Session, args []Value) (Value, error) {
		if len(args) != 3 {
			return Null, ErrWrongArgCount("replace")
		}
		for _, a := range args {
			if a.IsNull() {
				return Null, nil
			}
		}
		return Str(strings.ReplaceAll(args[0].String(), args[1].String(), args[2].String())), nil
	})
	// SUBSTRING_INDEX(str, delim, count): MySQL semantics for positive and
	// negative counts.
	RegisterFunction("SUBSTRING_INDEX", func(s *Session, args []Value) (Value, error) {
		if len(args) != 3 {
			return Null, ErrWrongArgCount("substring_index")
		}
		for _, a := range args {
			if a.IsNull() {
				return Null, nil
			}
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
	})
	RegisterFunction("IFNULL", func(s *Session, args []Value) (Value, error) {
		if len(args) != 2 {
			return Null, ErrWrongArgCount("ifnull")
		}
		if args[0].IsNull() {
			return args[1], nil
		}
		return args[0], nil
	})
	RegisterFunction("COALESCE", func(s *Session, args []Value) (Value, error) {
		if len(args) == 0 {
			return Null, ErrWrongArgCount("coalesce")
		}
		for _, a := range args {
			if !a.IsNull() {
				return a, nil
			}
		}
		return Null, nil
	})
	RegisterFunction("IF", func(s *Session, args []Value) (Value, error) {
		if len(args) != 3 {
			return Null, ErrWrongArgCount("if")
		}
		if b, ok := args[0].Truthy(); ok && b {
			return args[1], nil
		}
		return args[2], nil
	})
}

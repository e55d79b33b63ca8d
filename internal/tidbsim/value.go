package tidbsim

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the type of a Value.
type Kind int

// Value kinds. KindInt with Bool set is a TRUE/FALSE literal (TiDB keeps the
// IsBoolean flag on such constants, which SET CONFIG uses:
// pingcap/tidb@v8.5.1:pkg/executor/set_config.go ConvertConfigItem2JSON).
const (
	KindNull Kind = iota
	KindInt
	KindFloat
	KindDecimal // S holds the decimal text as written, e.g. "0.50"
	KindString
	KindDefault // the DEFAULT keyword used as a value (SET ... = DEFAULT)
)

// Value is a SQL scalar.
type Value struct {
	Kind Kind
	I    int64
	F    float64
	S    string
	Bool bool // KindInt only: the literal was TRUE or FALSE
}

// Null is the SQL NULL value.
var Null = Value{Kind: KindNull}

// Str returns a string value.
func Str(s string) Value { return Value{Kind: KindString, S: s} }

// Int returns an integer value.
func Int(i int64) Value { return Value{Kind: KindInt, I: i} }

// Float returns a floating-point value.
func Float(f float64) Value { return Value{Kind: KindFloat, F: f} }

// BoolValue returns 1 or 0 as MySQL does for boolean results.
func BoolValue(b bool) Value {
	if b {
		return Int(1)
	}
	return Int(0)
}

// IsNull reports whether v is SQL NULL.
func (v Value) IsNull() bool { return v.Kind == KindNull }

// String renders v as the MySQL text protocol would send it. NULL renders as
// "NULL" (callers that need to distinguish NULL check IsNull first).
func (v Value) String() string {
	switch v.Kind {
	case KindNull:
		return "NULL"
	case KindInt:
		return strconv.FormatInt(v.I, 10)
	case KindFloat:
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case KindDecimal, KindString:
		return v.S
	case KindDefault:
		return "DEFAULT"
	}
	return ""
}

// IsNumeric reports whether v is an int, float or decimal.
func (v Value) IsNumeric() bool {
	return v.Kind == KindInt || v.Kind == KindFloat || v.Kind == KindDecimal
}

// ToFloat converts v to a float64 the way MySQL converts a string operand in a
// numeric context: the longest numeric prefix, 0 if there is none.
func (v Value) ToFloat() float64 {
	switch v.Kind {
	case KindInt:
		return float64(v.I)
	case KindFloat:
		return v.F
	case KindDecimal, KindString:
		s := strings.TrimSpace(v.S)
		end := 0
		for end < len(s) && strings.IndexByte("+-0123456789.eE", s[end]) >= 0 {
			end++
		}
		for end > 0 {
			if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
				return f
			}
			end--
		}
	}
	return 0
}

// Truthy reports whether v is true in a boolean context; the second result is
// false when v is NULL (unknown).
func (v Value) Truthy() (bool, bool) {
	if v.IsNull() {
		return false, false
	}
	if v.Kind == KindInt {
		return v.I != 0, true
	}
	return v.ToFloat() != 0, true
}

// compareValues compares a and b with MySQL-like rules: numbers numerically,
// strings byte-wise (TiDB's default collation utf8mb4_bin), a number against a
// string numerically. NULL handling is the caller's job.
func compareValues(a, b Value) int {
	if a.Kind == KindString && b.Kind == KindString {
		return strings.Compare(a.S, b.S)
	}
	if a.IsNumeric() || b.IsNumeric() {
		if a.Kind == KindInt && b.Kind == KindInt {
			switch {
			case a.I < b.I:
				return -1
			case a.I > b.I:
				return 1
			}
			return 0
		}
		fa, fb := a.ToFloat(), b.ToFloat()
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	return strings.Compare(a.String(), b.String())
}

// GoString is for test failure messages.
func (v Value) GoString() string {
	if v.Kind == KindString {
		return fmt.Sprintf("Str(%q)", v.S)
	}
	return v.String()
}

// keyPrefix distinguishes NULL from the string "NULL" in grouping keys.
func (k Kind) keyPrefix() string {
	if k == KindNull {
		return "N"
	}
	return "V"
}

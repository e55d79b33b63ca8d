package main

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Evaluation of the literal default expressions of TiKV's Default impls:
// ReadableSize::mb(96), ReadableDuration::secs(10), 30 * 1024 * 1024,
// DEFAULT_SPLIT_BALANCE_SCORE, "mvcc".to_owned(), Some(x), vec![..],
// EngineType::RaftKv. Anything else (a function of the host's memory, a
// call) is not a literal: the caller records the expression text instead.

type rvalKind int

const (
	rvInt rvalKind = iota
	rvFloat
	rvBool
	rvString
	rvSize     // bytes
	rvDuration // nanoseconds
	rvNone     // Option::None
	rvList
	rvVariant // Type::Variant
	rvZero    // Default::default(): the type's zero value
)

type rval struct {
	kind rvalKind
	i    *big.Int
	f    float64
	s    string // string contents; variant: "Type::Variant"
	list []rval
}

// evalEnv resolves identifiers: consts of the file and of files it imports,
// let bindings of the Default body.
type evalEnv struct {
	lookup func(name string) ([]rtoken, *evalEnv, bool)
	depth  int
}

var errNotLiteral = fmt.Errorf("not a literal")

func (env *evalEnv) eval(toks []rtoken) (rval, error) {
	if env.depth > 20 {
		return rval{}, errNotLiteral
	}
	p := &rparser{toks: toks, env: env}
	v, err := p.sum()
	if err != nil {
		return rval{}, err
	}
	if p.i != len(toks) {
		return rval{}, errNotLiteral
	}
	return v, nil
}

type rparser struct {
	toks []rtoken
	i    int
	env  *evalEnv
}

func (p *rparser) peek(s string) bool { return p.i < len(p.toks) && p.toks[p.i].is(s) }

// sum and product are the two precedence levels of + - and * /.
func (p *rparser) sum() (rval, error)     { return p.binary(p.product, "+", "-") }
func (p *rparser) product() (rval, error) { return p.binary(p.unary, "*", "/") }

func (p *rparser) binary(operand func() (rval, error), ops ...string) (rval, error) {
	v, err := operand()
	if err != nil {
		return v, err
	}
	for p.i < len(p.toks) && (p.peek(ops[0]) || p.peek(ops[1])) {
		op := p.toks[p.i].text
		p.i++
		w, err := operand()
		if err != nil {
			return w, err
		}
		if v, err = arith(op, v, w); err != nil {
			return v, err
		}
	}
	return v, nil
}

func (p *rparser) unary() (rval, error) {
	if p.peek("-") {
		p.i++
		v, err := p.unary()
		if err != nil {
			return v, err
		}
		switch v.kind {
		case rvInt:
			return rval{kind: rvInt, i: new(big.Int).Neg(v.i)}, nil
		case rvFloat:
			return rval{kind: rvFloat, f: -v.f}, nil
		}
		return v, errNotLiteral
	}
	v, err := p.primary()
	if err != nil {
		return v, err
	}
	return p.postfix(v)
}

// postfix handles .0 (the bytes of a ReadableSize), .to_owned() and friends,
// and `as T` casts.
func (p *rparser) postfix(v rval) (rval, error) {
	for {
		switch {
		case p.peek(".") && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tNumber && p.toks[p.i+1].text == "0":
			if v.kind != rvSize {
				return v, errNotLiteral
			}
			v = rval{kind: rvInt, i: v.i}
			p.i += 2
		case p.peek(".") && p.i+3 < len(p.toks) && p.toks[p.i+2].is("(") && p.toks[p.i+3].is(")"):
			switch p.toks[p.i+1].text {
			case "to_owned", "to_string", "into", "clone":
			default:
				return v, errNotLiteral
			}
			p.i += 4
		case p.peek("as") && p.i+1 < len(p.toks):
			t := p.toks[p.i+1].text
			p.i += 2
			switch {
			case strings.HasPrefix(t, "f") && v.kind == rvInt:
				f, _ := new(big.Float).SetInt(v.i).Float64()
				v = rval{kind: rvFloat, f: f}
			case (strings.HasPrefix(t, "u") || strings.HasPrefix(t, "i")) && v.kind == rvFloat:
				v = rval{kind: rvInt, i: big.NewInt(int64(v.f))}
			}
		default:
			return v, nil
		}
	}
}

func (p *rparser) args() ([][]rtoken, error) {
	if !p.peek("(") {
		return nil, errNotLiteral
	}
	end, err := matching(p.toks, p.i)
	if err != nil {
		return nil, errNotLiteral
	}
	inner := p.toks[p.i+1 : end]
	p.i = end + 1
	return splitTop(inner), nil
}

func (p *rparser) one() (rval, error) {
	a, err := p.args()
	if err != nil || len(a) != 1 {
		return rval{}, errNotLiteral
	}
	return p.env.eval(a[0])
}

var sizeUnits = map[string]int64{"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40, "pb": 1 << 50}

var durationUnits = map[string]int64{"micros": 1e3, "millis": 1e3 * 1e3, "secs": 1e9, "minutes": 60e9, "hours": 3600e9, "days": 86400e9,
	"from_micros": 1e3, "from_millis": 1e6, "from_secs": 1e9, "from_mins": 60e9}

// builtinInts are tikv_util::config's unit constants and integer limits.
var builtinInts = map[string]*big.Int{
	"KIB": big.NewInt(1 << 10), "MIB": big.NewInt(1 << 20), "GIB": big.NewInt(1 << 30),
	"TIB": big.NewInt(1 << 40), "PIB": big.NewInt(1 << 50),
	"u64::MAX":   new(big.Int).SetUint64(math.MaxUint64),
	"usize::MAX": new(big.Int).SetUint64(math.MaxUint64),
	"u32::MAX":   big.NewInt(math.MaxUint32),
	"i32::MAX":   big.NewInt(math.MaxInt32),
	"i64::MAX":   big.NewInt(math.MaxInt64),
	"u16::MAX":   big.NewInt(math.MaxUint16),
	"u8::MAX":    big.NewInt(math.MaxUint8),
}

func (p *rparser) primary() (rval, error) {
	if p.i >= len(p.toks) {
		return rval{}, errNotLiteral
	}
	t := p.toks[p.i]
	switch t.kind {
	case tNumber:
		p.i++
		return parseRustNumber(t.text)
	case tString:
		p.i++
		return rval{kind: rvString, s: t.text}, nil
	case tPunct:
		switch t.text {
		case "(":
			end, err := matching(p.toks, p.i)
			if err != nil {
				return rval{}, errNotLiteral
			}
			v, err := p.env.eval(p.toks[p.i+1 : end])
			p.i = end + 1
			return v, err
		case "&":
			p.i++
			return p.unary()
		}
		return rval{}, errNotLiteral
	}
	if t.kind != tIdent {
		return rval{}, errNotLiteral
	}
	// a path a::b::c
	path := []string{t.text}
	p.i++
	for p.peek("::") && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tIdent {
		path = append(path, p.toks[p.i+1].text)
		p.i += 2
	}
	if p.peek("::") && p.i+1 < len(p.toks) && p.toks[p.i+1].is("<") { // turbofish
		p.i = skipGenerics(p.toks, p.i+1)
	}
	if v, ok, err := p.builtin(path); ok {
		return v, err
	}
	return p.reference(path)
}

// builtin evaluates the literal forms TiKV's defaults use: true/false,
// None/Some, vec![], String::new(), ReadableSize::mb(n), ReadableDuration
// and Duration constructors, unit constants and integer limits.
func (p *rparser) builtin(path []string) (rval, bool, error) {
	name := strings.Join(path, "::")
	last := path[len(path)-1]
	switch {
	case name == "true" || name == "false":
		return rval{kind: rvBool, s: name}, true, nil
	case name == "None":
		return rval{kind: rvNone}, true, nil
	case name == "Some" || name == "String::from":
		v, err := p.one()
		return v, true, err
	case name == "vec" && p.peek("!"):
		p.i++
		if !p.peek("[") && !p.peek("(") {
			return rval{}, true, errNotLiteral
		}
		end, err := matching(p.toks, p.i)
		if err != nil {
			return rval{}, true, errNotLiteral
		}
		inner := p.toks[p.i+1 : end]
		p.i = end + 1
		v, err := p.env.list(inner)
		return v, true, err
	case name == "Vec::new" || name == "String::new" || name == "HashMap::new" || name == "HashSet::new" || name == "Default::default":
		if _, err := p.args(); err != nil {
			return rval{}, true, errNotLiteral
		}
		switch name {
		case "Vec::new", "HashSet::new":
			return rval{kind: rvList}, true, nil
		case "String::new":
			return rval{kind: rvString}, true, nil
		}
		return rval{kind: rvZero}, true, nil
	case len(path) == 2 && (path[0] == "ReadableSize" || path[0] == "RaftEngineReadableSize") && sizeUnits[last] != 0:
		v, err := p.one()
		if err != nil || v.kind != rvInt {
			return rval{}, true, errNotLiteral
		}
		return rval{kind: rvSize, i: new(big.Int).Mul(v.i, big.NewInt(sizeUnits[last]))}, true, nil
	case name == "ReadableSize" || name == "RaftEngineReadableSize":
		v, err := p.one()
		if err != nil || v.kind != rvInt {
			return rval{}, true, errNotLiteral
		}
		return rval{kind: rvSize, i: v.i}, true, nil
	case (path[0] == "ReadableDuration" || path[0] == "Duration" || name == "std::time::Duration::"+last || name == "time::Duration::"+last) && durationUnits[last] != 0:
		v, err := p.duration(last)
		return v, true, err
	case name == "ReadableDuration":
		v, err := p.one()
		if err != nil || v.kind != rvDuration {
			return rval{}, true, errNotLiteral
		}
		return v, true, nil
	case builtinInts[name] != nil:
		return rval{kind: rvInt, i: builtinInts[name]}, true, nil
	case last == "MAX" && len(path) == 2 && (path[0] == "f64" || path[0] == "f32"):
		return rval{kind: rvFloat, f: math.MaxFloat64}, true, nil
	}
	return rval{}, false, nil
}

// duration evaluates ReadableDuration::secs(n) and friends.
func (p *rparser) duration(unitName string) (rval, error) {
	v, err := p.one()
	if err != nil {
		return rval{}, errNotLiteral
	}
	unit := big.NewInt(durationUnits[unitName])
	switch v.kind {
	case rvInt:
		return rval{kind: rvDuration, i: new(big.Int).Mul(v.i, unit)}, nil
	case rvFloat:
		return rval{kind: rvDuration, i: big.NewInt(int64(v.f * float64(durationUnits[unitName])))}, nil
	}
	return rval{}, errNotLiteral
}

// reference evaluates a constant (resolved through the environment) or an
// enum variant Type::Variant; a call is not a literal.
func (p *rparser) reference(path []string) (rval, error) {
	last := path[len(path)-1]
	if p.peek("(") || p.peek("!") || p.peek("{") {
		if p.peek("(") && last == "default" && len(path) == 2 {
			if a, err := p.args(); err == nil && len(a) == 0 {
				return rval{kind: rvZero, s: path[0]}, nil
			}
		}
		return rval{}, errNotLiteral // a call
	}
	if len(path) == 1 || isConstName(last) {
		if toks, env, ok := p.env.lookup(last); ok {
			sub := &evalEnv{lookup: env.lookup, depth: p.env.depth + 1}
			return sub.eval(toks)
		}
		return rval{}, errNotLiteral
	}
	return rval{kind: rvVariant, s: path[len(path)-2] + "::" + last}, nil
}

func isConstName(s string) bool {
	return s != "" && strings.ToUpper(s) == s && isIdentStart(s[0])
}

func (env *evalEnv) list(inner []rtoken) (rval, error) {
	out := rval{kind: rvList}
	if exprEnd(inner, 0) < len(inner) {
		return rval{}, errNotLiteral // vec![x; n]
	}
	for _, part := range splitTop(inner) {
		if len(part) == 0 {
			continue
		}
		v, err := env.eval(part)
		if err != nil {
			return rval{}, err
		}
		out.list = append(out.list, v)
	}
	return out, nil
}

func parseRustNumber(s string) (rval, error) {
	s = strings.ReplaceAll(s, "_", "")
	isFloat := strings.ContainsAny(s, ".") || strings.HasSuffix(s, "f64") || strings.HasSuffix(s, "f32")
	for _, suf := range []string{"u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64"} {
		if strings.HasSuffix(s, suf) && !strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0x") && strings.HasSuffix(s, suf) && suf[0] != 'f' {
			s = strings.TrimSuffix(s, suf)
			break
		}
	}
	if !isFloat && !strings.HasPrefix(s, "0x") && strings.ContainsAny(s, "eE") {
		isFloat = true
	}
	if isFloat {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return rval{}, errNotLiteral
		}
		return rval{kind: rvFloat, f: f}, nil
	}
	n, ok := new(big.Int).SetString(s, 0)
	if !ok {
		return rval{}, errNotLiteral
	}
	return rval{kind: rvInt, i: n}, nil
}

func arith(op string, a, b rval) (rval, error) {
	num := func(v rval) (*big.Float, bool) {
		switch v.kind {
		case rvInt, rvSize, rvDuration:
			return new(big.Float).SetInt(v.i), true
		case rvFloat:
			return big.NewFloat(v.f), true
		}
		return nil, false
	}
	x, ok1 := num(a)
	y, ok2 := num(b)
	if !ok1 || !ok2 {
		return rval{}, errNotLiteral
	}
	kind := rvInt
	switch {
	case a.kind == rvSize || b.kind == rvSize:
		kind = rvSize
	case a.kind == rvDuration || b.kind == rvDuration:
		kind = rvDuration
	case a.kind == rvFloat || b.kind == rvFloat:
		kind = rvFloat
	}
	var r *big.Float
	switch op {
	case "+":
		r = new(big.Float).Add(x, y)
	case "-":
		r = new(big.Float).Sub(x, y)
	case "*":
		r = new(big.Float).Mul(x, y)
	case "/":
		if y.Sign() == 0 {
			return rval{}, errNotLiteral
		}
		r = new(big.Float).Quo(x, y)
		if kind != rvFloat {
			i, _ := r.Int(nil) // integer division truncates
			return rval{kind: kind, i: i}, nil
		}
	}
	if kind == rvFloat {
		f, _ := r.Float64()
		return rval{kind: rvFloat, f: f}, nil
	}
	i, _ := r.Int(nil)
	return rval{kind: kind, i: i}, nil
}

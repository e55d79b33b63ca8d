package tidbsim

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parser is a recursive-descent parser over the tokens of one statement.
// Statement handlers receive a Parser positioned just after the keyword prefix
// they were registered for (see EXTENDING.md). Every method that fails returns
// TiDB's syntax error 1064 pointing at the offending token.
type Parser struct {
	sql  string
	toks []Token
	pos  int
}

func newParser(sql string) (*Parser, error) { return newParserMode(sql, lexMode{}) }

// newParserMode is newParser under the lexing rules of a session's sql_mode.
func newParserMode(sql string, mode lexMode) (*Parser, error) {
	toks, err := lexWith(sql, mode)
	if err != nil {
		return nil, err
	}
	return &Parser{sql: sql, toks: toks}, nil
}

// reserved lists the words that cannot be used as unquoted identifiers (a
// subset of TiDB's reserved keywords large enough for the modelled statements;
// e.g. CLUSTER_CONFIG's column KEY must be back-quoted,
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-config).
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ADD ALL ALTER AND AS ASC BETWEEN BY CASE CHECK COLUMN CONSTRAINT CREATE CROSS
		DEFAULT DELETE DESC DISTINCT DIV DROP ELSE ESCAPE EXISTS FALSE FOR FROM GRANT GROUP HAVING IF IN INDEX
		INSERT INTERVAL INTO IS JOIN KEY KEYS KILL LIKE LIMIT LOCK MOD NOT NULL ON OR ORDER PRIMARY REGEXP REVOKE
		RLIKE SELECT SET SHOW TABLE THEN TO TRUE UNION UNIQUE UPDATE USE USING VALUES WHEN WHERE WITH XOR`) {
		reserved[w] = true
	}
}

// isReserved reports whether word, as an unquoted identifier, is reserved:
// reserved[strings.ToUpper(word)], without allocating. The buffer is small
// (parser frames are many): an ASCII word longer than it is no reserved
// word, since ToUpper keeps an ASCII word's length.
func isReserved(word string) bool {
	var buf [16]byte
	if len(word) > len(buf) && isASCII(word) {
		return false
	}
	return reserved[string(upperASCII(buf[:], word))]
}

// isLiteralWord reports whether strings.ToUpper(word) is TRUE, FALSE, NULL
// or DEFAULT, without allocating (an ASCII word longer than the buffer is
// none of them).
func isLiteralWord(word string) bool {
	var buf [8]byte
	if len(word) > len(buf) && isASCII(word) {
		return false
	}
	switch string(upperASCII(buf[:], word)) {
	case "TRUE", "FALSE", "NULL", "DEFAULT":
		return true
	}
	return false
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// upperASCII returns strings.ToUpper(s) as bytes: in buf, without
// allocating, when s is ASCII and fits (ToUpper then maps exactly a-z to
// A-Z); otherwise ToUpper's own answer (other letters, such as 'ı' → 'I',
// need Unicode's rules). Map lookups and comparisons of string(result) do not
// allocate.
func upperASCII(buf []byte, s string) []byte {
	if len(s) > len(buf) {
		return []byte(strings.ToUpper(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return []byte(strings.ToUpper(s))
		}
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return buf[:len(s)]
}

// SQL returns the statement text.
func (p *Parser) SQL() string { return p.sql }

// Peek returns the next token without consuming it.
func (p *Parser) Peek() Token { return p.toks[p.pos] }

// PeekN returns the token n positions ahead (0 = next).
func (p *Parser) PeekN(n int) Token {
	if p.pos+n >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[p.pos+n]
}

// Next consumes and returns the next token (EOF stays EOF).
func (p *Parser) Next() Token {
	t := p.toks[p.pos]
	if t.Kind != TokEOF {
		p.pos++
	}
	return t
}

// Pos returns the byte offset of the next token, for slicing source text.
func (p *Parser) Pos() int { return p.toks[p.pos].Start }

// lastEnd is the end offset of the last consumed token.
func (p *Parser) lastEnd() int {
	if p.pos == 0 {
		return 0
	}
	return p.toks[p.pos-1].End
}

// Errorf returns TiDB's 1064 syntax error at the next token.
func (p *Parser) Errorf() error {
	t := p.Peek()
	return ErrSyntax(p.sql, t.Start, t.End)
}

// isKeywordTok reports whether t is the unquoted word kw (case-insensitive).
func isKeywordTok(t Token, kw string) bool {
	return t.Kind == TokIdent && strings.EqualFold(t.Text, kw)
}

// IsKeyword reports whether the next tokens are the given words (not consumed).
func (p *Parser) IsKeyword(kws ...string) bool {
	for i, kw := range kws {
		if !isKeywordTok(p.PeekN(i), kw) {
			return false
		}
	}
	return true
}

// AcceptKeyword consumes the words if all of them come next.
func (p *Parser) AcceptKeyword(kws ...string) bool {
	if !p.IsKeyword(kws...) {
		return false
	}
	p.pos += len(kws)
	return true
}

// ExpectKeyword consumes the words or returns 1064.
func (p *Parser) ExpectKeyword(kws ...string) error {
	for _, kw := range kws {
		if !isKeywordTok(p.Peek(), kw) {
			return p.Errorf()
		}
		p.Next()
	}
	return nil
}

// IsOp reports whether the next token is the operator/punctuation op.
func (p *Parser) IsOp(op string) bool {
	t := p.Peek()
	return t.Kind == TokOp && t.Text == op
}

// AcceptOp consumes op if it comes next.
func (p *Parser) AcceptOp(op string) bool {
	if p.IsOp(op) {
		p.Next()
		return true
	}
	return false
}

// ExpectOp consumes op or returns 1064.
func (p *Parser) ExpectOp(op string) error {
	if !p.AcceptOp(op) {
		return p.Errorf()
	}
	return nil
}

// OptionalEq consumes an optional "=" (as in `RU_PER_SEC = 100` or
// `RU_PER_SEC 100`).
func (p *Parser) OptionalEq() { p.AcceptOp("=") }

// Ident consumes an identifier: a back-quoted name, or an unquoted word that is
// not reserved. It returns the name as written (without back-quotes).
func (p *Parser) Ident() (string, error) {
	t := p.Peek()
	switch {
	case t.Kind == TokQuoted:
		p.Next()
		return t.Text, nil
	case t.Kind == TokIdent && !isReserved(t.Text):
		p.Next()
		return t.Text, nil
	}
	return "", p.Errorf()
}

// StringLit consumes a string literal and returns its unescaped text.
func (p *Parser) StringLit() (string, error) {
	t := p.Peek()
	if t.Kind != TokString {
		return "", p.Errorf()
	}
	p.Next()
	return t.Text, nil
}

// IdentOrString consumes an identifier or a string literal (user names, group
// names, LIKE targets...).
func (p *Parser) IdentOrString() (string, error) {
	if p.Peek().Kind == TokString {
		return p.StringLit()
	}
	return p.Ident()
}

// Number consumes an optionally signed numeric literal.
func (p *Parser) Number() (Value, error) {
	neg := false
	if p.IsOp("-") && p.PeekN(1).Kind == TokNumber {
		p.Next()
		neg = true
	}
	t := p.Peek()
	if t.Kind != TokNumber {
		return Null, p.Errorf()
	}
	p.Next()
	v := numberValue(t.Text)
	if neg {
		v = negate(v)
	}
	return v, nil
}

// Literal consumes a literal: string, number (optionally signed), TRUE, FALSE,
// NULL, or DEFAULT (returned as KindDefault).
func (p *Parser) Literal() (Value, error) {
	t := p.Peek()
	switch {
	case t.Kind == TokString:
		p.Next()
		return Str(t.Text), nil
	case t.Kind == TokNumber || (t.Kind == TokOp && t.Text == "-"):
		return p.Number()
	case isKeywordTok(t, "TRUE"):
		p.Next()
		return Value{Kind: KindInt, I: 1, Bool: true}, nil
	case isKeywordTok(t, "FALSE"):
		p.Next()
		return Value{Kind: KindInt, I: 0, Bool: true}, nil
	case isKeywordTok(t, "NULL"):
		p.Next()
		return Null, nil
	case isKeywordTok(t, "DEFAULT"):
		p.Next()
		return Value{Kind: KindDefault}, nil
	}
	return Null, p.Errorf()
}

// CommaList calls item once, then again after every comma.
func (p *Parser) CommaList(item func() error) error {
	for {
		if err := item(); err != nil {
			return err
		}
		if !p.AcceptOp(",") {
			return nil
		}
	}
}

// End accepts an optional trailing ";" and requires the end of the statement.
func (p *Parser) End() error {
	p.AcceptOp(";")
	if p.Peek().Kind != TokEOF {
		return p.Errorf()
	}
	return nil
}

// AtEnd reports whether only an optional ";" remains.
func (p *Parser) AtEnd() bool {
	t := p.Peek()
	if t.Kind == TokEOF {
		return true
	}
	return t.Kind == TokOp && t.Text == ";" && p.PeekN(1).Kind == TokEOF
}

func numberValue(text string) Value {
	if strings.ContainsAny(text, "eE") {
		f, _ := strconv.ParseFloat(text, 64)
		return Float(f)
	}
	if strings.Contains(text, ".") {
		return Value{Kind: KindDecimal, S: text}
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		// larger than int64: MySQL makes it a DECIMAL
		return Value{Kind: KindDecimal, S: text}
	}
	return Int(i)
}

func negate(v Value) Value {
	switch v.Kind {
	case KindInt:
		v.I = -v.I
	case KindFloat:
		v.F = -v.F
	case KindDecimal:
		if strings.HasPrefix(v.S, "-") {
			v.S = v.S[1:]
		} else {
			v.S = "-" + v.S
		}
	}
	return v
}

// ---- expressions ----

// Expr parses an expression (OR has the lowest precedence).
func (p *Parser) Expr() (Expr, error) {
	if p.loneOperand() {
		return p.parsePrimary()
	}
	return p.parseOr()
}

// loneOperand reports whether the next token is an operand that no operator
// follows: a literal, name or variable (not NOT, which parseNot takes) and
// then ",", ")", ";", the end, FROM or AS, none of which any level of
// parseOr's descent consumes after an operand. parseOr would then descend to
// parsePrimary and return just what it parses, so Expr calls it directly
// (lists of names and literals are the common case).
func (p *Parser) loneOperand() bool {
	switch t := p.Peek(); t.Kind {
	case TokString, TokNumber, TokQuoted, TokSysVar, TokUserVar:
	case TokIdent:
		if isKeywordTok(t, "NOT") {
			return false
		}
	default:
		return false
	}
	switch next := p.PeekN(1); next.Kind {
	case TokEOF:
		return true
	case TokOp:
		return next.Text == "," || next.Text == ")" || next.Text == ";"
	case TokIdent:
		return isKeywordTok(next, "FROM") || isKeywordTok(next, "AS")
	}
	return false
}

func (p *Parser) parseOr() (Expr, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.AcceptKeyword("OR") || p.AcceptOp("||") {
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		l = &BinaryExpr{Op: "OR", L: l, R: r}
	}
	return l, nil
}

func (p *Parser) parseAnd() (Expr, error) {
	l, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	for p.AcceptKeyword("AND") || p.AcceptOp("&&") {
		r, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		l = &BinaryExpr{Op: "AND", L: l, R: r}
	}
	return l, nil
}

func (p *Parser) parseNot() (Expr, error) {
	if p.AcceptKeyword("NOT") {
		x, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &NotExpr{X: x}, nil
	}
	return p.parseComparison()
}

func (p *Parser) parseComparison() (Expr, error) {
	l, err := p.parseAdditive()
	if err != nil {
		return nil, err
	}
	for {
		t := p.Peek()
		switch {
		case t.Kind == TokOp && (t.Text == "=" || t.Text == "!=" || t.Text == "<>" || t.Text == "<" || t.Text == "<=" || t.Text == ">" || t.Text == ">=" || t.Text == "<=>"):
			p.Next()
			r, err := p.parseAdditive()
			if err != nil {
				return nil, err
			}
			op := t.Text
			if op == "<>" {
				op = "!="
			}
			l = &BinaryExpr{Op: op, L: l, R: r}
		case isKeywordTok(t, "IS"):
			p.Next()
			not := p.AcceptKeyword("NOT")
			if err := p.ExpectKeyword("NULL"); err != nil {
				return nil, err
			}
			l = &IsNullExpr{X: l, Not: not}
		case isKeywordTok(t, "LIKE") || isKeywordTok(t, "IN") || (isKeywordTok(t, "NOT") && (isKeywordTok(p.PeekN(1), "LIKE") || isKeywordTok(p.PeekN(1), "IN"))):
			not := p.AcceptKeyword("NOT")
			if p.AcceptKeyword("LIKE") {
				pat, err := p.parseAdditive()
				if err != nil {
					return nil, err
				}
				var esc Expr
				if p.AcceptKeyword("ESCAPE") {
					if esc, err = p.parsePrimary(); err != nil {
						return nil, err
					}
				}
				l = &LikeExpr{X: l, Pattern: pat, Escape: esc, Not: not}
				continue
			}
			p.Next() // IN
			if err := p.ExpectOp("("); err != nil {
				return nil, err
			}
			var list []Expr
			if err := p.CommaList(func() error {
				e, err := p.Expr()
				list = append(list, e)
				return err
			}); err != nil {
				return nil, err
			}
			if err := p.ExpectOp(")"); err != nil {
				return nil, err
			}
			l = &InExpr{X: l, List: list, Not: not}
		default:
			return l, nil
		}
	}
}

func (p *Parser) parseAdditive() (Expr, error) {
	l, err := p.parseMultiplicative()
	if err != nil {
		return nil, err
	}
	for p.IsOp("+") || p.IsOp("-") {
		op := p.Next().Text
		r, err := p.parseMultiplicative()
		if err != nil {
			return nil, err
		}
		l = &BinaryExpr{Op: op, L: l, R: r}
	}
	return l, nil
}

func (p *Parser) parseMultiplicative() (Expr, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for p.IsOp("*") || p.IsOp("/") {
		op := p.Next().Text
		r, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		l = &BinaryExpr{Op: op, L: l, R: r}
	}
	return l, nil
}

func (p *Parser) parseUnary() (Expr, error) {
	if p.IsOp("-") {
		p.Next()
		x, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		if lit, ok := x.(*Literal); ok && lit.V.IsNumeric() {
			return &Literal{V: negate(lit.V)}, nil
		}
		return &NegExpr{X: x}, nil
	}
	if p.AcceptOp("+") {
		return p.parseUnary()
	}
	if p.AcceptOp("!") {
		x, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		return &NotExpr{X: x}, nil
	}
	return p.parsePrimary()
}

func (p *Parser) parsePrimary() (Expr, error) {
	t := p.Peek()
	switch t.Kind {
	case TokString, TokNumber:
		v, err := p.Literal()
		return &Literal{V: v}, err
	case TokSysVar:
		p.Next()
		return parseSysVarRef(t.Text), nil
	case TokUserVar:
		p.Next()
		return &UserVarRef{Name: strings.ToLower(t.Text)}, nil
	case TokOp:
		if t.Text == "(" {
			p.Next()
			e, err := p.Expr()
			if err != nil {
				return nil, err
			}
			if err := p.ExpectOp(")"); err != nil {
				return nil, err
			}
			return &ParenExpr{X: e}, nil
		}
		return nil, p.Errorf()
	case TokIdent, TokQuoted:
		// charset introducer: _binary'..', _utf8mb4'..' (go-sql-driver's
		// interpolateParams writes []byte arguments as _binary'...').
		if t.Kind == TokIdent && strings.HasPrefix(t.Text, "_") && p.PeekN(1).Kind == TokString && p.PeekN(1).Start == t.End {
			p.Next()
			lit := p.Next()
			return &Literal{V: Str(lit.Text)}, nil
		}
		if t.Kind == TokIdent {
			if isLiteralWord(t.Text) {
				v, err := p.Literal()
				return &Literal{V: v}, err
			}
			// function call: word immediately followed by "("
			next := p.PeekN(1)
			if next.Kind == TokOp && next.Text == "(" {
				return p.parseCall()
			}
		}
		first, err := p.Ident()
		if err != nil {
			return nil, err
		}
		if !p.IsOp(".") {
			return singleColumnRef(first), nil
		}
		parts := []string{first}
		for len(parts) < 3 && p.IsOp(".") {
			p.Next()
			name, err := p.Ident()
			if err != nil {
				return nil, err
			}
			parts = append(parts, name)
		}
		return &ColumnRef{Parts: parts}, nil
	}
	return nil, p.Errorf()
}

// singleColumnRef is &ColumnRef{Parts: []string{name}} in one allocation.
func singleColumnRef(name string) *ColumnRef {
	r := &struct {
		ref  ColumnRef
		part [1]string
	}{}
	r.part[0] = name
	r.ref.Parts = r.part[:]
	return &r.ref
}

func (p *Parser) parseCall() (Expr, error) {
	name := p.Next().Text
	p.Next() // (
	upper := strings.ToUpper(name)
	if aggregates[upper] {
		return p.parseAggregate(upper)
	}
	call := &CallExpr{Name: upper}
	if p.AcceptOp(")") {
		return call, nil
	}
	if err := p.CommaList(func() error {
		e, err := p.Expr()
		call.Args = append(call.Args, e)
		return err
	}); err != nil {
		return nil, err
	}
	if err := p.ExpectOp(")"); err != nil {
		return nil, err
	}
	return call, nil
}

// parseSysVarRef splits "global.x", "session.x", "local.x" or "x".
func parseSysVarRef(text string) *SysVarRef {
	scope := RefDefault
	name := text
	if i := strings.IndexByte(text, '.'); i >= 0 {
		switch strings.ToLower(text[:i]) {
		case "global":
			scope, name = RefGlobal, text[i+1:]
		case "session", "local":
			scope, name = RefSession, text[i+1:]
		}
	}
	return &SysVarRef{Scope: scope, Name: strings.ToLower(name), Text: "@@" + text}
}

// aggregates are the aggregate functions of the SELECT engine.
var aggregates = map[string]bool{"COUNT": true, "MIN": true, "MAX": true, "SUM": true}

// parseAggregate parses the arguments of COUNT(*), COUNT([DISTINCT] x),
// MIN(x), MAX(x), SUM(x); the name and "(" are consumed.
func (p *Parser) parseAggregate(fn string) (Expr, error) {
	agg := &AggExpr{Fn: fn}
	if fn == "COUNT" && p.AcceptOp("*") {
		return agg, p.ExpectOp(")")
	}
	agg.Distinct = p.AcceptKeyword("DISTINCT")
	e, err := p.Expr()
	if err != nil {
		return nil, err
	}
	agg.Arg = e
	return agg, p.ExpectOp(")")
}

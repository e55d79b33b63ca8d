package main

import (
	"fmt"
	"strings"
)

// A small lexer for the subset of Rust that TiKV's config files use. It only
// has to find items (structs, enums, impls, consts, use declarations,
// macro_rules) and their attributes, so it keeps comments out, keeps string
// and number literals whole, and tells lifetimes from char literals.

type tokKind int

const (
	tIdent tokKind = iota
	tNumber
	tString // text holds the decoded contents
	tChar
	tLifetime
	tPunct
)

type rtoken struct {
	kind tokKind
	text string
	line int
}

func (t rtoken) is(s string) bool { return (t.kind == tPunct || t.kind == tIdent) && t.text == s }

func (t rtoken) String() string {
	if t.kind == tString {
		return fmt.Sprintf("%q", t.text)
	}
	return t.text
}

// lexRust tokenizes src. It returns an error for an unterminated literal or
// comment (a truncated blob), which the caller reports with the file path.
func lexRust(src string) ([]rtoken, error) {
	lx := &lexer{src: src, line: 1}
	for lx.i < len(src) {
		if err := lx.next(); err != nil {
			return nil, err
		}
	}
	return lx.toks, nil
}

type lexer struct {
	src  string
	i    int
	line int
	toks []rtoken
}

func (lx *lexer) emit(k tokKind, text string, line int) {
	lx.toks = append(lx.toks, rtoken{k, text, line})
}

// next consumes one token, comment or run of white space.
func (lx *lexer) next() error {
	src, i := lx.src, lx.i
	c := src[i]
	switch {
	case c == '\n':
		lx.line++
		lx.i++
	case c == ' ' || c == '\t' || c == '\r':
		lx.i++
	case strings.HasPrefix(src[i:], "//"):
		for lx.i < len(src) && src[lx.i] != '\n' {
			lx.i++
		}
	case strings.HasPrefix(src[i:], "/*"):
		return lx.blockComment()
	case c == '"' || (c == 'b' && i+1 < len(src) && src[i+1] == '"'):
		return lx.quoted()
	case isRawStringStart(src, i):
		return lx.rawString()
	case c == '\'':
		return lx.charOrLifetime()
	case isDigit(c):
		lx.number()
	case isIdentStart(c):
		j := i
		if strings.HasPrefix(src[i:], "r#") && i+2 < len(src) && isIdentStart(src[i+2]) {
			j += 2
		}
		for j < len(src) && isIdentChar(src[j]) {
			j++
		}
		lx.emit(tIdent, strings.TrimPrefix(src[i:j], "r#"), lx.line)
		lx.i = j
	default:
		lx.punct()
	}
	return nil
}

func (lx *lexer) blockComment() error {
	depth := 0
	for lx.i < len(lx.src) {
		switch {
		case strings.HasPrefix(lx.src[lx.i:], "/*"):
			depth++
			lx.i += 2
		case strings.HasPrefix(lx.src[lx.i:], "*/"):
			depth--
			lx.i += 2
			if depth == 0 {
				return nil
			}
		default:
			if lx.src[lx.i] == '\n' {
				lx.line++
			}
			lx.i++
		}
	}
	return fmt.Errorf("line %d: unterminated block comment", lx.line)
}

func (lx *lexer) quoted() error {
	start := lx.line
	if lx.src[lx.i] == 'b' {
		lx.i++
	}
	s, j, nl, err := lexQuoted(lx.src, lx.i+1)
	if err != nil {
		return fmt.Errorf("line %d: %v", start, err)
	}
	lx.emit(tString, s, start)
	lx.line += nl
	lx.i = j
	return nil
}

func (lx *lexer) rawString() error {
	start, j := lx.line, lx.i
	if lx.src[j] == 'b' {
		j++
	}
	j++ // r
	hashes := 0
	for j < len(lx.src) && lx.src[j] == '#' {
		hashes++
		j++
	}
	j++ // opening quote
	end := "\"" + strings.Repeat("#", hashes)
	k := strings.Index(lx.src[j:], end)
	if k < 0 {
		return fmt.Errorf("line %d: unterminated raw string", start)
	}
	s := lx.src[j : j+k]
	lx.line += strings.Count(s, "\n")
	lx.emit(tString, s, start)
	lx.i = j + k + len(end)
	return nil
}

// charOrLifetime reads 'a', '\n', '\u{1F600}' or the lifetime 'a.
func (lx *lexer) charOrLifetime() error {
	src, i := lx.src, lx.i
	if i+1 < len(src) && src[i+1] == '\\' {
		k := strings.IndexByte(src[i+2:], '\'')
		if k < 0 {
			return fmt.Errorf("line %d: unterminated char literal", lx.line)
		}
		lx.emit(tChar, src[i:i+3+k], lx.line)
		lx.i += 3 + k
		return nil
	}
	if j := i + 1 + runeLen(src[i+1:]); j < len(src) && src[j] == '\'' {
		lx.emit(tChar, src[i:j+1], lx.line)
		lx.i = j + 1
		return nil
	}
	j := i + 1
	for j < len(src) && isIdentChar(src[j]) {
		j++
	}
	lx.emit(tLifetime, src[i:j], lx.line)
	lx.i = j
	return nil
}

// number reads 42, 1_000u64, 0.25, 1e-3; not the ".0" of a tuple access
// (x.0.1) nor the dots of a range (1..2).
func (lx *lexer) number() {
	src, i, n := lx.src, lx.i, len(lx.src)
	j := i
	for j < n && isIdentChar(src[j]) {
		j++
	}
	prevDot := len(lx.toks) > 0 && lx.toks[len(lx.toks)-1].is(".")
	if !prevDot && j+1 < n && src[j] == '.' && isDigit(src[j+1]) {
		j++
		for j < n && isIdentChar(src[j]) {
			j++
		}
	}
	if j+1 < n && (src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && isDigit(src[j+1]) && !strings.HasPrefix(src[i:], "0x") {
		j++
		for j < n && isDigit(src[j]) {
			j++
		}
	}
	lx.emit(tNumber, src[i:j], lx.line)
	lx.i = j
}

func (lx *lexer) punct() {
	for _, p := range []string{"::", "->", "=>", "..=", "..", "==", "!=", "<=", ">=", "&&", "||"} {
		if strings.HasPrefix(lx.src[lx.i:], p) {
			lx.emit(tPunct, p, lx.line)
			lx.i += len(p)
			return
		}
	}
	if c := lx.src[lx.i]; c >= 0x80 {
		lx.i += runeLen(lx.src[lx.i:])
		return
	}
	lx.emit(tPunct, string(lx.src[lx.i]), lx.line)
	lx.i++
}

func isRawStringStart(src string, i int) bool {
	j := i
	if j < len(src) && src[j] == 'b' {
		j++
	}
	if j >= len(src) || src[j] != 'r' {
		return false
	}
	if i > 0 && isIdentChar(src[i-1]) {
		return false
	}
	j++
	for j < len(src) && src[j] == '#' {
		j++
	}
	return j < len(src) && src[j] == '"'
}

// lexQuoted reads a "..." literal from just after the opening quote; it
// returns the decoded text, the index after the closing quote and the number
// of newlines inside.
func lexQuoted(src string, i int) (string, int, int, error) {
	var b strings.Builder
	nl := 0
	for i < len(src) {
		c := src[i]
		switch c {
		case '"':
			return b.String(), i + 1, nl, nil
		case '\\':
			if i+1 >= len(src) {
				return "", 0, 0, fmt.Errorf("unterminated string")
			}
			switch e := src[i+1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '"', '\'':
				b.WriteByte(e)
			case '\n': // line continuation: skip the newline and leading space
				nl++
				i += 2
				for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
					if src[i] == '\n' {
						nl++
					}
					i++
				}
				continue
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			i += 2
		default:
			if c == '\n' {
				nl++
			}
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, 0, fmt.Errorf("unterminated string")
}

func runeLen(s string) int {
	for i, r := range s {
		if i == 0 {
			_ = r
			continue
		}
		return i
	}
	return len(s)
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }

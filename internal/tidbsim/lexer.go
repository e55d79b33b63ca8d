package tidbsim

import (
	"strings"
)

// TokKind classifies a token.
type TokKind int

// Token kinds.
const (
	TokEOF     TokKind = iota
	TokIdent           // unquoted word: keyword or identifier
	TokQuoted          // `back-quoted identifier`
	TokString          // 'single' or "double" quoted string literal (Text is unescaped)
	TokNumber          // 123, 1.5, 1e-7, .5
	TokOp              // punctuation/operator: = != <> < <= > >= ( ) , . ; * + - / @ @@ % || ? (placeholder)
	TokUserVar         // @name (Text is the name); also the unquoted host of user@host

	TokSysVar // @@name or @@global.name (Text is as written after @@)
	// TokInvalid is text that is no token (an unterminated string, a stray
	// character); lexAppend ends with it when it fails, so that a statement
	// fails at the first token its parser cannot take, as TiDB's parser,
	// which lexes as it parses, does.
	TokInvalid
)

// Token is one lexical unit. Start and End are byte offsets into the source.
type Token struct {
	Kind       TokKind
	Text       string
	Start, End int
}

// lexMode is what of the session's sql_mode changes how text splits into
// tokens, as in TiDB's lexer (pingcap/tidb@v8.5.1:pkg/parser/lexer.go:
// Scanner.scanString skips escape handling when
// sqlMode.HasNoBackslashEscapesMode(); Scanner.Lex turns a "…" string into an
// identifier when sqlMode.HasANSIQuotesMode()). MySQL's rules are the same:
// https://dev.mysql.com/doc/refman/8.0/en/string-literals.html and
// https://dev.mysql.com/doc/refman/8.0/en/sql-mode.html#sqlmode_ansi_quotes.
type lexMode struct {
	// noBackslashEscapes: a backslash inside a string literal is an ordinary
	// character (NO_BACKSLASH_ESCAPES).
	noBackslashEscapes bool
	// ansiQuotes: "text" is a quoted identifier, not a string (ANSI_QUOTES).
	ansiQuotes bool
}

// lexWith splits sql into tokens under mode. Comments (-- , #, /* */) are
// skipped; TiDB's executable comments /*!...*/ and /*T! ...*/ are treated as
// plain comments. On an unterminated literal it returns a 1064 error.
func lexWith(sql string, mode lexMode) ([]Token, error) {
	return lexAppend(nil, sql, mode)
}

// lexAppend is lexWith into buf's array (a buffer to reuse) when it can
// likely hold the statement's tokens. On an error the tokens read so far
// are returned too, ending with a TokInvalid whose position the error
// names.
func lexAppend(buf []Token, sql string, mode lexMode) ([]Token, error) {
	// Statements average six to eight bytes a token (quoted names and
	// literals are long): one allocation usually holds them all.
	toks := buf[:0]
	if want := len(sql)/6 + 4; cap(toks) < want {
		toks = make([]Token, 0, want)
	}
	n := len(sql)
	for i := 0; ; {
		j, err := skipSpace(sql, i)
		if err != nil {
			return append(toks, Token{Kind: TokInvalid, Start: j, End: n}), err
		}
		i = j
		if i >= n {
			return append(toks, Token{Kind: TokEOF, Start: n, End: n}), nil
		}
		tok, err := lexToken(sql, i, mode)
		toks = append(toks, tok)
		if err != nil {
			return toks, err // ends with the TokInvalid
		}
		i = tok.End
	}
}

// lexFail is the invalid token [start, end) and TiDB's 1064 at it.
func lexFail(sql string, start, end int) (Token, error) {
	return Token{Kind: TokInvalid, Start: start, End: end}, ErrSyntax(sql, start, end)
}

// skipSpace skips white space and comments (#, "-- ", /* */) from i and
// returns where the next token starts.
func skipSpace(sql string, i int) (int, error) {
	n := len(sql)
	for i < n {
		c := sql[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		if c == '#' || (c == '-' && i+2 < n && sql[i+1] == '-' && (sql[i+2] == ' ' || sql[i+2] == '\t')) || (c == '-' && i+2 == n && sql[i+1] == '-') {
			for i < n && sql[i] != '\n' {
				i++
			}
			continue
		}
		if c == '/' && i+1 < n && sql[i+1] == '*' {
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return i, ErrSyntax(sql, i, n) // where the comment starts
			}
			i = i + 2 + j + 2
			continue
		}
		break
	}
	return i, nil
}

// lexToken reads the token that starts at i; its End is where the next one
// may start.
func lexToken(sql string, i int, mode lexMode) (Token, error) {
	n := len(sql)
	start := i
	c := sql[i]
	switch {
	case isIdentStart(c):
		for i < n && isIdentChar(sql[i]) {
			i++
		}
		return Token{Kind: TokIdent, Text: sql[start:i], Start: start, End: i}, nil
	case c >= '0' && c <= '9' || (c == '.' && i+1 < n && sql[i+1] >= '0' && sql[i+1] <= '9'):
		return lexNumber(sql, i), nil
	case c == '\'' || c == '"':
		s, next, ok := scanString(sql, i, mode.noBackslashEscapes)
		if !ok {
			return lexFail(sql, start, n)
		}
		kind := TokString
		if c == '"' && mode.ansiQuotes {
			kind = TokQuoted
		}
		return Token{Kind: kind, Text: s, Start: start, End: next}, nil
	case c == '`':
		return lexBackquoted(sql, i)
	case c == '@':
		return lexAt(sql, i)
	}
	return lexOp(sql, i)
}

// lexNumber reads 1, 1.5, .5, 1e-7 from i. A number directly followed by
// identifier characters is an identifier, as in MySQL (1abc).
func lexNumber(sql string, i int) Token {
	n := len(sql)
	start := i
	for i < n && sql[i] >= '0' && sql[i] <= '9' {
		i++
	}
	if i < n && sql[i] == '.' {
		i++
		for i < n && sql[i] >= '0' && sql[i] <= '9' {
			i++
		}
	}
	if i < n && (sql[i] == 'e' || sql[i] == 'E') {
		j := i + 1
		if j < n && (sql[j] == '+' || sql[j] == '-') {
			j++
		}
		if j < n && sql[j] >= '0' && sql[j] <= '9' {
			i = j
			for i < n && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
		}
	}
	if i < n && isIdentChar(sql[i]) {
		for i < n && isIdentChar(sql[i]) {
			i++
		}
		return Token{Kind: TokIdent, Text: sql[start:i], Start: start, End: i}
	}
	return Token{Kind: TokNumber, Text: sql[start:i], Start: start, End: i}
}

// lexBackquoted reads a `back-quoted identifier` (“ is one backquote).
func lexBackquoted(sql string, i int) (Token, error) {
	n := len(sql)
	start := i
	if j := strings.IndexByte(sql[i+1:], '`'); j >= 0 && (i+1+j+1 >= n || sql[i+1+j+1] != '`') {
		// no doubled backquote: the name is the text between the quotes
		return Token{Kind: TokQuoted, Text: sql[i+1 : i+1+j], Start: start, End: i + 1 + j + 1}, nil
	}
	var b strings.Builder
	i++
	for i < n {
		if sql[i] == '`' {
			if i+1 < n && sql[i+1] == '`' {
				b.WriteByte('`')
				i += 2
				continue
			}
			return Token{Kind: TokQuoted, Text: b.String(), Start: start, End: i + 1}, nil
		}
		b.WriteByte(sql[i])
		i++
	}
	return lexFail(sql, start, n)
}

// lexAt reads @@name, @name, or the "@" of 'user'@'host'.
func lexAt(sql string, i int) (Token, error) {
	n := len(sql)
	start := i
	if i+1 < n && sql[i+1] == '@' {
		i += 2
		j := i
		for i < n && (isIdentChar(sql[i]) || sql[i] == '.') {
			i++
		}
		if j == i {
			return lexFail(sql, start, i)
		}
		return Token{Kind: TokSysVar, Text: sql[j:i], Start: start, End: i}, nil
	}
	if i+1 < n && (sql[i+1] == '\'' || sql[i+1] == '"' || sql[i+1] == '`') {
		// 'user'@'host': "@" is an operator before a quoted host
		return Token{Kind: TokOp, Text: "@", Start: start, End: i + 1}, nil
	}
	i++
	j := i
	for i < n && isIdentChar(sql[i]) {
		i++
	}
	if j == i {
		return lexFail(sql, start, i)
	}
	return Token{Kind: TokUserVar, Text: sql[j:i], Start: start, End: i}, nil
}

// lexOp reads an operator or punctuation, longest first: <=> != <> <= >=
// || && :=, else one of = < > ( ) , . ; * + - / % ! ?.
func lexOp(sql string, i int) (Token, error) {
	rest := sql[i:]
	n := 1
	switch {
	case strings.HasPrefix(rest, "<=>"):
		n = 3
	case len(rest) >= 2 && isTwoCharOp(rest[:2]):
		n = 2
	case strings.IndexByte("=<>(),.;*+-/%!?", rest[0]) < 0:
		return lexFail(sql, i, i+1)
	}
	return Token{Kind: TokOp, Text: rest[:n], Start: i, End: i + n}, nil
}

// isTwoCharOp reports whether s is one of the two-character operators.
func isTwoCharOp(s string) bool {
	switch s {
	case "!=", "<>", "<=", ">=", "||", "&&", ":=":
		return true
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

// scanString scans a quoted string starting at sql[i] (the quote). It handles
// doubled quotes and, unless noEscapes (NO_BACKSLASH_ESCAPES), MySQL's
// backslash escapes (TiDB Scanner.scanString and handleEscape).
func scanString(sql string, i int, noEscapes bool) (string, int, bool) {
	q := sql[i]
	i++
	if text, next, ok := plainString(sql, i, q, noEscapes); ok {
		return text, next, true
	}
	var b strings.Builder
	for i < len(sql) {
		c := sql[i]
		if c == '\\' && !noEscapes {
			if i+1 >= len(sql) {
				// TiDB: a backslash as the last byte leaves the literal open.
				break
			}
			e := sql[i+1]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'b':
				b.WriteByte('\b')
			case 'Z':
				b.WriteByte(26)
			case '%', '_':
				// MySQL keeps the backslash for \% and \_ (LIKE escapes).
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				b.WriteByte(e)
			}
			i += 2
			continue
		}
		if c == q {
			if i+1 < len(sql) && sql[i+1] == q {
				b.WriteByte(q)
				i += 2
				continue
			}
			return b.String(), i + 1, true
		}
		b.WriteByte(c)
		i++
	}
	return "", i, false
}

// plainString is scanString's answer, without copying, for a literal whose
// text (from i, after the opening quote q) holds no escape and no doubled
// quote: the text up to the closing quote. ok=false leaves the literal to
// scanString's general loop.
func plainString(sql string, i int, q byte, noEscapes bool) (string, int, bool) {
	for j := i; j < len(sql); j++ {
		switch c := sql[j]; {
		case c == '\\' && !noEscapes:
			return "", 0, false
		case c == q:
			if j+1 < len(sql) && sql[j+1] == q {
				return "", 0, false
			}
			return sql[i:j], j + 1, true
		}
	}
	return "", 0, false
}

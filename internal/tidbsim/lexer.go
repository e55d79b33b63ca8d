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
	var toks []Token
	i := 0
	n := len(sql)
	for {
		// skip space and comments
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
					return nil, ErrSyntax(sql, i, n)
				}
				i = i + 2 + j + 2
				continue
			}
			break
		}
		if i >= n {
			toks = append(toks, Token{Kind: TokEOF, Start: n, End: n})
			return toks, nil
		}
		start := i
		c := sql[i]
		switch {
		case isIdentStart(c):
			for i < n && isIdentChar(sql[i]) {
				i++
			}
			toks = append(toks, Token{Kind: TokIdent, Text: sql[start:i], Start: start, End: i})
		case c >= '0' && c <= '9' || (c == '.' && i+1 < n && sql[i+1] >= '0' && sql[i+1] <= '9'):
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
			// 1abc is an identifier in MySQL; keep it simple: a number directly
			// followed by identifier characters is a syntax error.
			if i < n && isIdentChar(sql[i]) {
				for i < n && isIdentChar(sql[i]) {
					i++
				}
				toks = append(toks, Token{Kind: TokIdent, Text: sql[start:i], Start: start, End: i})
				continue
			}
			toks = append(toks, Token{Kind: TokNumber, Text: sql[start:i], Start: start, End: i})
		case c == '\'' || c == '"':
			s, next, ok := scanString(sql, i, mode.noBackslashEscapes)
			if !ok {
				return nil, ErrSyntax(sql, start, n)
			}
			i = next
			kind := TokString
			if c == '"' && mode.ansiQuotes {
				kind = TokQuoted
			}
			toks = append(toks, Token{Kind: kind, Text: s, Start: start, End: i})
		case c == '`':
			var b strings.Builder
			i++
			closed := false
			for i < n {
				if sql[i] == '`' {
					if i+1 < n && sql[i+1] == '`' {
						b.WriteByte('`')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				b.WriteByte(sql[i])
				i++
			}
			if !closed {
				return nil, ErrSyntax(sql, start, n)
			}
			toks = append(toks, Token{Kind: TokQuoted, Text: b.String(), Start: start, End: i})
		case c == '@':
			if i+1 < n && sql[i+1] == '@' {
				i += 2
				j := i
				for i < n && (isIdentChar(sql[i]) || sql[i] == '.') {
					i++
				}
				if j == i {
					return nil, ErrSyntax(sql, start, i)
				}
				toks = append(toks, Token{Kind: TokSysVar, Text: sql[j:i], Start: start, End: i})
				continue
			}
			if i+1 < n && (sql[i+1] == '\'' || sql[i+1] == '"' || sql[i+1] == '`') {
				// 'user'@'host': "@" is an operator before a quoted host
				i++
				toks = append(toks, Token{Kind: TokOp, Text: "@", Start: start, End: i})
				continue
			}
			i++
			j := i
			for i < n && isIdentChar(sql[i]) {
				i++
			}
			if j == i {
				return nil, ErrSyntax(sql, start, i)
			}
			toks = append(toks, Token{Kind: TokUserVar, Text: sql[j:i], Start: start, End: i})
		default:
			op := ""
			for _, cand := range []string{"<=>", "!=", "<>", "<=", ">=", "||", "&&", ":="} {
				if strings.HasPrefix(sql[i:], cand) {
					op = cand
					break
				}
			}
			if op == "" {
				if strings.IndexByte("=<>(),.;*+-/%!?", c) < 0 {
					return nil, ErrSyntax(sql, start, start+1)
				}
				op = string(c)
			}
			i += len(op)
			toks = append(toks, Token{Kind: TokOp, Text: op, Start: start, End: i})
		}
	}
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

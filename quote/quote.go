package quote

import (
	"strings"
)

// Ident quotes an identifier with backticks, doubling any backtick inside it
// (MySQL/TiDB identifier quoting). Ident("a`b") == "`a“b`".
func Ident(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// String quotes s as a single-quoted string literal.
//
// A quote is doubled (two quotes stand for one whether or not the session
// has NO_BACKSLASH_ESCAPES), and every other byte except the backslash is written
// as it is (a newline, a NUL or an ESC inside a literal is that byte in
// every sql_mode), so for a value without a backslash the literal means the
// same in every sql_mode. A backslash is doubled: that is one backslash only
// while NO_BACKSLASH_ESCAPES is off, and no single-quoted text means one
// backslash in both modes (MySQL's rules, which TiDB's lexer follows:
// https://dev.mysql.com/doc/refman/8.0/en/string-literals.html,
// pingcap/tidb@v8.5.1:pkg/parser/lexer.go Scanner.scanString). Every
// connection tiform opens therefore runs with NO_BACKSLASH_ESCAPES off
// (live.Open checks each new session and turns it off, or refuses the
// connection): see docs/decisions/0005-sql-literals-and-sql-mode.md.
//
// The literal is also safe in every client character set tiform allows
// (utf8, utf8mb4: live.Open refuses others): in UTF-8 neither ' nor \ can
// be the trailing byte of a multi-byte character.
func String(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`''`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// Account renders 'user'@'host' for CREATE/ALTER USER.
func Account(user, host string) string {
	return String(user) + "@" + String(host)
}

// IsNumber reports whether s is a plain decimal number literal (optional sign,
// digits, optional fraction, optional exponent), safe to send unquoted.
func IsNumber(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[i] == '-' || s[i] == '+' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

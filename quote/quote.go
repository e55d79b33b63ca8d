package quote

import (
	"strings"
)

// Ident quotes an identifier with backticks, doubling any backtick inside it
// (MySQL/TiDB identifier quoting). Ident("a`b") == "`a“b`".
func Ident(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// String quotes a string literal with single quotes, escaping backslash, quote,
// NUL, newline, carriage return and Ctrl-Z as the MySQL client library does
// (mysql_real_escape_string), so the literal is safe in any sql_mode
// except NO_BACKSLASH_ESCAPES, which TiDB does not enable by default.
func String(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case 0:
			b.WriteString(`\0`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '"':
			b.WriteString(`\"`)
		case 0x1a:
			b.WriteString(`\Z`)
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

package secret

import (
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// Mask replaces a secret in every text tiform writes.
const Mask = "*****"

// DSNPassword returns the password of dsn, found as the first rule that
// applies says:
//
//  1. a URL (scheme://user:password@host/…): the URL's password;
//  2. a DSN go-sql-driver parses: its password (the text between the first
//     ':' and the last '@' before the last '/'); when it has none and its
//     network is not a network but user:password glued to one (the '@'
//     forgotten: root:PASSWORDtcp(host)/), everything after that ':' up to
//     the '(';
//  3. otherwise, a text with a ':' before its last '@': everything between
//     the first ':' and the last '@' (a '/' inside the password, a missing
//     '/', a mistyped address).
//
// ok is false when no password can be located (no '@', or nothing between
// ':' and '@'), which RedactDSN treats as "hide everything".
func DSNPassword(dsn string) (pw string, ok bool) {
	if i := strings.Index(dsn, "://"); i > 0 && i < strings.LastIndexByte(dsn, '@') {
		if u, err := url.Parse(dsn); err == nil && u.User != nil {
			if p, set := u.User.Password(); set && p != "" {
				return p, true
			}
		}
		// A URL that does not parse: rule 3 after the scheme.
		if p, ok := between(dsn[i+3:]); ok {
			return p, true
		}
		return "", false
	}
	if cfg, err := mysql.ParseDSN(dsn); err == nil {
		if cfg.Passwd == "" {
			// user:password glued to the network, the '@' forgotten
			// (root:PASSWORDtcp(host)/): the driver reads it all as the
			// network's name, and its "dial …: unknown network" error
			// repeats it.
			return glued(cfg.Net)
		}
		return cfg.Passwd, true
	}
	return between(dsn)
}

// Networks are the network names a DSN may give (go-sql-driver dials them
// with net.Dialer; tiform registers no other).
var Networks = []string{"tcp", "tcp4", "tcp6", "unix", "unixpacket"}

// glued is the password of a DSN whose network is not one of Networks but
// holds a ':' (no network name does): everything after the first ':'.
func glued(network string) (string, bool) {
	if slices.Contains(Networks, network) {
		return "", false
	}
	colon := strings.IndexByte(network, ':')
	if colon < 0 || colon+1 == len(network) {
		return "", false
	}
	return network[colon+1:], true
}

// between is rule 3 of DSNPassword.
func between(s string) (string, bool) {
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return "", false
	}
	colon := strings.IndexByte(s[:at], ':')
	if colon < 0 || colon+1 == at {
		return "", false
	}
	return s[colon+1 : at], true
}

// RedactDSN returns dsn with its password (every occurrence of its text, as
// written and, for a URL, decoded) replaced by Mask. A DSN go-sql-driver
// parses, with a network of Networks, and that has no password is returned
// unchanged; any other text whose password cannot be located is replaced
// whole (it may be a DSN in a form
// nobody foresaw), and "" stays "".
func RedactDSN(dsn string) string {
	if dsn == "" {
		return ""
	}
	if pws := passwordTexts(dsn); len(pws) > 0 {
		for _, p := range pws {
			dsn = strings.ReplaceAll(dsn, p, Mask)
		}
		return dsn
	}
	if !strings.Contains(dsn, "://") {
		if cfg, err := mysql.ParseDSN(dsn); err == nil && slices.Contains(Networks, cfg.Net) {
			return dsn // well-formed, no password
		}
	}
	return Mask
}

// DSNSecrets are the texts to mask for dsn's password, longest first: the
// password, and for a URL also its text as written (percent-escaped). Empty
// when no password can be located.
func DSNSecrets(dsn string) []string { return passwordTexts(dsn) }

func passwordTexts(dsn string) []string {
	pw, ok := DSNPassword(dsn)
	if !ok {
		return nil
	}
	out := []string{pw}
	if i := strings.Index(dsn, "://"); i > 0 {
		if raw, ok := between(dsn[i+3:]); ok && raw != pw {
			out = append(out, raw)
		}
	}
	sort.Slice(out, func(a, b int) bool { return len(out[a]) > len(out[b]) })
	return out
}

// RedactDSNsIn returns text with the password of every DSN-shaped word in
// it masked: a word (between spaces, quotes or brackets of the text around
// it) that LooksLikeDSN. For text that tiform did not write — a driver's or
// a server's message — that may quote a DSN nobody registered as a secret.
func RedactDSNsIn(text string) string {
	if !strings.ContainsAny(text, ":@") {
		return text
	}
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == '`' || r == ','
	})
	for _, f := range fields {
		for _, p := range passwordTexts(f) {
			if len(p) > 0 {
				text = strings.ReplaceAll(text, p, Mask)
			}
		}
	}
	return text
}

// LooksLikeDSN reports whether s may be a DSN given by mistake (as a
// positional argument or the value of another flag): it holds an '@' after a
// ':' (user:password@…), or a URL's "://" and an '@'.
func LooksLikeDSN(s string) bool {
	_, ok := DSNPassword(s)
	return ok
}

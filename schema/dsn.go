package schema

import (
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// A DSN is secret material (state.DesiredCluster.DSN). The rules here:
//
//   - A password written literally in the configuration (in the dsn string,
//     in the default of a variable the dsn uses, or in a local it uses) is an
//     error that points to env(): files are committed, passwords must not be.
//   - dsn = env("X"), or a variable (marked sensitive) given by -var,
//     --var-file or TIFORM_VAR_<name>, is fine.
//   - No diagnostic ever contains the DSN; passwords found in DSN-like
//     literals are masked in every snippet.

// placeholder stands for an interpolation inside a template while looking for
// a literal password.
const placeholder = "\x00"

// clusterDSN evaluates a cluster's dsn attribute. "" when unknown (offline)
// or invalid.
func (l *loader) clusterDSN(a *hclsyntax.Attribute) string {
	l.checkDSNLiterals(a.Expr, map[string]bool{})
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return ""
	}
	if v.IsNull() || v.Type() != cty.String {
		l.b.errorf(a.Expr.Range(), "dsn must be a string",
			`Write dsn = env("PROD_DSN"); the value has the go-sql-driver form user:password@tcp(host:4000)/.`, "")
		return ""
	}
	dsn := v.AsString()
	if dsn == "" {
		return ""
	}
	l.dsns = append(l.dsns, dsn)
	if _, err := mysql.ParseDSN(dsn); err != nil {
		// The driver's error may quote parts of the DSN: never print it.
		l.b.errorf(a.Expr.Range(), "dsn is not a valid DSN",
			"The DSN (not shown: it may hold a password) does not have the go-sql-driver form user:password@tcp(host:port)/[db][?params].",
			"check the value of the expression, for example: export PROD_DSN='app:…@tcp(10.0.1.5:4000)/'")
		return ""
	}
	return dsn
}

// checkDSNLiterals looks for a literal password in the dsn expression and in
// the variable defaults and locals it refers to.
func (l *loader) checkDSNLiterals(expr hclsyntax.Expression, seen map[string]bool) {
	// Every string literal or template anywhere in the expression counts:
	// the branches of a conditional, the default of env("X", "…").
	found := false
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if found {
			return nil
		}
		e, ok := n.(hclsyntax.Expression)
		if !ok {
			return nil
		}
		if pw, ok := literalPassword(e); ok {
			found = true
			l.secrets = append(l.secrets, pw...)
			l.b.errorf(e.Range(), "literal password in a DSN",
				"Configuration files are committed and reviewed; a password written in them leaks. The DSN is not shown here.",
				`read the DSN from the environment: dsn = env("PROD_DSN"), or use a variable marked sensitive given with -var or --var-file`)
		}
		return nil
	})
	if found {
		return
	}
	for _, tr := range hclsyntax.Variables(expr) {
		if len(tr) < 2 {
			continue
		}
		name, ok := traverserName(tr[1])
		if !ok {
			continue
		}
		key := tr.RootName() + "." + name
		if seen[key] {
			continue
		}
		seen[key] = true
		switch tr.RootName() {
		case "var":
			if v, found := l.vars[name]; found && v.defExpr != nil {
				l.checkDSNLiterals(v.defExpr, seen)
			}
		case "local":
			if la, found := l.locals[name]; found {
				l.checkDSNLiterals(la.Expr, seen)
			}
		}
	}
}

// literalPassword reports the literal parts of a password written in a DSN
// string or template. Interpolations count as not literal, so
// "app:${var.pw}@tcp(h:4000)/" is fine and "app:secret@tcp(h:4000)/" is not.
func literalPassword(expr hclsyntax.Expression) ([]string, bool) {
	var text strings.Builder
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.Type() != cty.String || !e.Val.IsKnown() || e.Val.IsNull() {
			return nil, false
		}
		text.WriteString(e.Val.AsString())
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			if lit, ok := p.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String && lit.Val.IsKnown() && !lit.Val.IsNull() {
				text.WriteString(lit.Val.AsString())
				continue
			}
			text.WriteString(placeholder)
		}
	default:
		return nil, false
	}
	pw, ok := dsnPassword(text.String())
	if !ok {
		return nil, false
	}
	var lits []string
	for _, part := range strings.Split(pw, placeholder) {
		if part != "" {
			lits = append(lits, part)
		}
	}
	return lits, len(lits) > 0
}

// dsnPassword extracts the password of a go-sql-driver DSN the way the driver
// does: the user info is before the last '@' that precedes the last '/', the
// password after the first ':' in it.
func dsnPassword(dsn string) (string, bool) {
	slash := strings.LastIndexByte(dsn, '/')
	if slash < 0 {
		return "", false
	}
	at := strings.LastIndexByte(dsn[:slash], '@')
	if at < 0 {
		return "", false
	}
	user := dsn[:at]
	colon := strings.IndexByte(user, ':')
	if colon < 0 {
		return "", false
	}
	pw := user[colon+1:]
	return pw, pw != ""
}

// dsnLikeRe finds user:password@proto( in any text, to mask passwords in
// snippets even where tiform does not expect a DSN (a var file, a label).
var dsnLikeRe = regexp.MustCompile(`[A-Za-z0-9_.%+-]*:([^\s"'@/]+)@(?:tcp|tcp6|unix)?\(`)

func dsnPasswordsInText(src []byte) []string {
	var out []string
	for _, m := range dsnLikeRe.FindAllSubmatch(src, -1) {
		if pw := string(m[1]); pw != "" && !strings.HasPrefix(pw, "${") {
			out = append(out, pw)
		}
	}
	return out
}

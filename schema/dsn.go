package schema

import (
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tiform/tiform/secret"
)

// A DSN is secret material (state.DesiredCluster.DSN). The rules here:
//
//   - A password written literally in the configuration (in the dsn string,
//     in the default of a variable the dsn uses, or in a local it uses), or
//     assembled from such values (checkDSNAssembled), is an error that points
//     to env(): files are committed, passwords must not be.
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
	if !l.checkDSNLiterals(a.Expr, map[string]bool{}) {
		l.checkDSNAssembled(a.Expr)
	}
	// dsn = env("NAME") may read NAME without --allow-env: the whole DSN,
	// host included, then comes from where tiform runs, not from the files.
	l.dsnEnv = dsnEnvNames(a.Expr)
	v, ok := l.eval(a.Expr)
	l.dsnEnv = nil
	l.allowSensitive(a.Expr.Range()) // a DSN is never shown
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

// dsnEnvNames returns the environment variables a dsn expression may read
// without --allow-env: those whose value is the whole DSN, host included, so
// that the files cannot send the value anywhere but where it says. That is an
// env("NAME") (or env("NAME", DEFAULT)) with a literal name standing for the
// whole expression, or for a whole branch of a conditional. A name that is
// also read anywhere else in the expression (inside a template, a function,
// a condition) is not allowed at all.
func dsnEnvNames(expr hclsyntax.Expression) map[string]bool {
	whole := map[string]bool{}
	var walk func(e hclsyntax.Expression)
	walk = func(e hclsyntax.Expression) {
		switch e := e.(type) {
		case *hclsyntax.ConditionalExpr:
			walk(e.TrueResult)
			walk(e.FalseResult)
		case *hclsyntax.ParenthesesExpr:
			walk(e.Expression)
		case *hclsyntax.TemplateWrapExpr:
			walk(e.Wrapped)
		case *hclsyntax.FunctionCallExpr:
			if name, ok := envCallName(e); ok {
				whole[name] = true
			}
		}
	}
	walk(expr)
	// Every env() call of the expression, whole or not: a name read in a
	// part (a template, a function argument, a condition) loses the exemption.
	calls := map[*hclsyntax.FunctionCallExpr]bool{}
	var mark func(e hclsyntax.Expression)
	mark = func(e hclsyntax.Expression) {
		switch e := e.(type) {
		case *hclsyntax.ConditionalExpr:
			mark(e.TrueResult)
			mark(e.FalseResult)
		case *hclsyntax.ParenthesesExpr:
			mark(e.Expression)
		case *hclsyntax.TemplateWrapExpr:
			mark(e.Wrapped)
		case *hclsyntax.FunctionCallExpr:
			calls[e] = true
		}
	}
	mark(expr)
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && !calls[call] && call.Name == "env" {
			if name, ok := envCallName(call); ok {
				delete(whole, name)
			} else {
				// env() of a computed name: nothing is exempt.
				for k := range whole {
					delete(whole, k)
				}
			}
		}
		return nil
	})
	return whole
}

// envCallName returns NAME when call is env("NAME") or env("NAME", DEFAULT)
// with a literal name.
func envCallName(call *hclsyntax.FunctionCallExpr) (string, bool) {
	if call.Name != "env" || len(call.Args) == 0 || len(call.Args) > 2 || call.ExpandFinal {
		return "", false
	}
	v, diags := call.Args[0].Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// checkDSNLiterals looks for a literal password in the dsn expression and in
// the variable defaults and locals it refers to. It reports whether it found
// one (and added the error).
func (l *loader) checkDSNLiterals(expr hclsyntax.Expression, seen map[string]bool) bool {
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
				`read the DSN from the environment: dsn = env("PROD_DSN"), or use a variable marked sensitive given with --var or --var-file`)
		}
		return nil
	})
	if found {
		return true
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
			if v, found := l.vars[name]; found && v.defExpr != nil && l.checkDSNLiterals(v.defExpr, seen) {
				return true
			}
		case "local":
			if la, found := l.locals[name]; found && l.checkDSNLiterals(la.Expr, seen) {
				return true
			}
		}
	}
	return false
}

// checkDSNAssembled catches a password that no single literal shows but the
// files still hold: "app:${local.pw}@tcp(h:4000)/" with locals { pw = "…" },
// a template or join() of literals, a variable default spliced in. It
// evaluates the dsn with only what the configuration files say (see
// filesOnlyContext); a password that is known then is written in the files,
// whatever the environment holds.
func (l *loader) checkDSNAssembled(expr hclsyntax.Expression) {
	pw, ok := l.filesOnlyPassword(expr)
	if !ok {
		return
	}
	if len([]rune(pw)) >= 4 { // shorter ones would garble ordinary words when masked
		l.secrets = append(l.secrets, pw)
	}
	l.b.errorf(expr.Range(), "literal password in a DSN",
		"The DSN's password is assembled from values written in the configuration files (a local, a variable's "+
			"default, a template or function of literals). Configuration files are committed and reviewed; a password "+
			"written in them leaks. The DSN is not shown here.",
		`read the DSN from the environment: dsn = env("PROD_DSN"), or use a variable marked sensitive (without a default) given with --var or --var-file`)
}

// filesOnlyPassword evaluates expr in the files-only context and returns the
// password of the resulting DSN when it is known. Evaluation problems are
// not reported here (the real evaluation reports them) and count as unknown.
func (l *loader) filesOnlyPassword(expr hclsyntax.Expression) (pw string, ok bool) {
	defer func() {
		if recover() != nil { // a library panic on unknown values: treat as unknown
			pw, ok = "", false
		}
	}()
	ctx := l.filesOnlyContext()
	if estimateSize(expr, sizeScope{ctx: ctx}) > MaxValueBytes {
		return "", false
	}
	v, hd := expr.Value(ctx)
	if hd.HasErrors() || !v.IsWhollyKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return dsnPassword(v.AsString())
}

// filesOnlyContext is an evaluation context holding only what the
// configuration files themselves say: an input variable is its default
// (unknown without one: its value comes from -var, --var-file or the
// environment), env("X", "default") is its default and env("X") unknown,
// file() is unknown (a mounted secret is not part of the configuration), and
// locals are evaluated from those. Built once per Load.
func (l *loader) filesOnlyContext() *hcl.EvalContext {
	if l.filesCtx != nil {
		return l.filesCtx
	}
	vars := map[string]cty.Value{}
	for name, v := range l.vars {
		if v.hasDefault && !v.broken {
			vars[name] = v.def
		} else {
			vars[name] = cty.UnknownVal(v.typ)
		}
	}
	fns := functions(l.dir, l.opts, nil)
	fns["env"] = function.New(&function.Spec{
		Params:   []function.Parameter{{Name: "name", Type: cty.String, AllowUnknown: true}},
		VarParam: &function.Parameter{Name: "default", Type: cty.String, AllowUnknown: true},
		Type:     function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if len(args) == 2 {
				return args[1], nil
			}
			return cty.UnknownVal(cty.String), nil
		},
	})
	fns["file"] = function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String, AllowUnknown: true}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.UnknownVal(cty.String), nil
		},
	})
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}, Functions: fns}
	// Locals in dependency order without a graph: start unknown and
	// re-evaluate until nothing changes (at most one pass per local, as a
	// chain of n locals settles in n passes; cycles are reported elsewhere).
	names := sortedKeys(l.locals)
	locals := map[string]cty.Value{}
	for _, n := range names {
		locals[n] = cty.DynamicVal
	}
	for pass := 0; pass <= len(names); pass++ {
		ctx.Variables["local"] = cty.ObjectVal(locals)
		changed := false
		for _, n := range names {
			if l.localFailed[n] {
				continue
			}
			// Bounded as the real evaluation is (budget.go): the values
			// here come from defaults and may differ from the real ones.
			v := cty.DynamicVal
			if estimateSize(l.locals[n].Expr, sizeScope{ctx: ctx}) <= MaxValueBytes {
				var hd hcl.Diagnostics
				if v, hd = l.locals[n].Expr.Value(ctx); hd.HasErrors() || valueSize(v, MaxValueBytes+1) > MaxValueBytes {
					v = cty.DynamicVal
				}
			}
			if !v.RawEquals(locals[n]) {
				locals[n], changed = v, true
			}
		}
		if !changed {
			break
		}
	}
	ctx.Variables["local"] = cty.ObjectVal(locals)
	l.filesCtx = ctx
	return ctx
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

// dsnPassword is the password of a DSN in any form (secret.DSNPassword).
func dsnPassword(dsn string) (string, bool) { return secret.DSNPassword(dsn) }

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

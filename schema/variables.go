package schema

import (
	"fmt"
	"hash"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// varDecl is a `variable "NAME" { type, default, description, sensitive }` block.
type varDecl struct {
	name        string
	rng         hcl.Range
	typ         cty.Type // cty.DynamicPseudoType when no type is given
	def         cty.Value
	hasDefault  bool
	defExpr     hclsyntax.Expression
	description string
	sensitive   bool
	// broken is set when the declaration itself is wrong (already reported),
	// so that no "missing value" error follows.
	broken bool
}

var variableAttrs = []string{"type", "default", "description", "sensitive"}

// envVarPrefix: TIFORM_VAR_<name> sets an input variable from the environment.
const envVarPrefix = "TIFORM_VAR_"

func (l *loader) declareVariables() {
	for _, body := range l.bodies {
		for _, blk := range body.Blocks {
			if blk.Type != "variable" {
				continue
			}
			if len(blk.Labels) != 1 {
				l.b.errorf(blk.TypeRange, "variable block needs exactly one name",
					`Declare an input variable as variable "name" { type = string }.`, `write variable "name" { … }`)
				continue
			}
			name := blk.Labels[0]
			if !hclsyntax.ValidIdentifier(name) {
				l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("invalid variable name %q", name),
					"A variable name starts with a letter and holds letters, digits, underscores and dashes.", `rename it, for example variable "split_size"`)
				continue
			}
			if first, dup := l.vars[name]; dup {
				l.b.duplicate(blk.LabelRanges[0], first.rng, fmt.Sprintf("duplicate variable %q", name),
					"Each input variable may be declared only once across all files.")
				continue
			}
			v := &varDecl{name: name, rng: blk.LabelRanges[0], typ: cty.DynamicPseudoType}
			for _, nb := range blk.Body.Blocks {
				l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in variable %q", nb.Type, name),
					"A variable block takes the attributes type, default, description and sensitive.", "")
			}
			for _, a := range sortedAttrs(blk.Body) {
				switch a.Name {
				case "type":
					ty, hd := typeexpr.TypeConstraint(a.Expr)
					l.b.hcl(hd)
					if !hd.HasErrors() {
						v.typ = ty
					}
				case "default":
					v.defExpr = a.Expr
					val, hd := constValue(a.Expr)
					if hd.HasErrors() {
						l.b.add(diag.Diagnostic{Severity: diag.Error, Summary: fmt.Sprintf("invalid default for variable %q", name),
							Detail: "A default must be a constant: no references or function calls (" + hd[0].Summary + ").",
							Hint:   "write a constant default, and compute from it in locals { … }",
							Range:  rangeOf(a.Expr.Range())})
						v.broken = true
						continue
					}
					v.def, v.hasDefault = val, true
				case "description":
					val, hd := constValue(a.Expr)
					if hd.HasErrors() || !val.IsKnown() || val.IsNull() || val.Type() != cty.String {
						l.b.errorf(a.Expr.Range(), "description must be a string", "", `write description = "…"`)
						continue
					}
					v.description = val.AsString()
				case "sensitive":
					val, hd := constValue(a.Expr)
					if hd.HasErrors() || !val.IsKnown() || val.IsNull() || val.Type() != cty.Bool {
						l.b.errorf(a.Expr.Range(), "sensitive must be true or false", "", "write sensitive = true")
						continue
					}
					v.sensitive = val.True()
				default:
					l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in variable %q", a.Name, name),
						"A variable block takes the attributes type, default, description and sensitive.",
						didYouMean(a.Name, variableAttrs, ""))
				}
			}
			if v.hasDefault && v.typ != cty.DynamicPseudoType {
				conv, err := convert.Convert(v.def, v.typ)
				if err != nil {
					l.b.errorf(v.defExpr.Range(), fmt.Sprintf("default of variable %q does not match its type %s", name, typeexpr.TypeString(v.typ)),
						capitalize(err.Error())+".",
						fmt.Sprintf("give a default of type %s, or change the type", typeexpr.TypeString(v.typ)))
					v.hasDefault, v.broken = false, true
				} else {
					v.def = conv
				}
			}
			l.vars[name] = v
			l.varOrder = append(l.varOrder, name)
		}
	}
}

// assignVariables decides every input variable's value. Precedence, lowest
// first: default, TIFORM_VAR_<name>, --var-file files in order, -var flags.
// Values that are not the configuration itself (var files, -var) are added to
// the config hash, so a saved plan notices a changed value.
func (l *loader) assignVariables(h hash.Hash) {
	as := assigned{set: map[string]bool{}, given: map[string]bool{}}
	l.assignDefaultsAndEnv(as)
	for _, path := range l.opts.VarFiles {
		l.assignVarFile(as, h, path)
	}
	l.assignVarFlags(as, h)
	l.requireValues(as)
}

// assigned tracks, per variable, whether a valid value was set and whether
// a value was given at all (perhaps invalid, already reported, so "no
// value" would be noise). Later sources override earlier ones.
type assigned struct {
	set, given map[string]bool
}

func (as assigned) value(l *loader, name string, val cty.Value) {
	l.varVals[name] = val
	as.set[name] = true
}

// assignDefaultsAndEnv takes each variable's default, then TIFORM_VAR_NAME
// from the environment.
func (l *loader) assignDefaultsAndEnv(as assigned) {
	lookup := l.opts.Env
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, name := range l.varOrder {
		v := l.vars[name]
		if v.hasDefault {
			as.value(l, name, v.def)
		}
		if raw, ok := lookup(envVarPrefix + name); ok {
			as.given[name] = true
			if val, ok := l.parseRawVar(v, raw, envVarPrefix+name); ok {
				as.value(l, name, val)
			}
		}
	}
}

// assignVarFile reads one --var-file (name = constant lines), hashing it
// into the configuration hash and keeping its text for snippets.
func (l *loader) assignVarFile(as assigned, h hash.Hash, path string) {
	b, err := input.ReadFile(path, input.Config)
	if err != nil {
		l.b.add(diag.Diagnostic{Severity: diag.Error, Summary: fmt.Sprintf("cannot read variable file %s", path), Detail: errText(err),
			Hint: "check the path given to --var-file (relative to the current directory)"})
		return
	}
	// Snippets of a variable file show names, never values: a line may
	// hold a password, and a syntax error comes before anything says which
	// variables are sensitive.
	l.files[path] = maskVarFileValues(b)
	l.secrets = append(l.secrets, dsnPasswordsInText(b)...)
	fmt.Fprintf(h, "varfile\x00%s\x00%d\x00", path, len(b))
	h.Write(b)
	if d, deep := checkNesting(b, path, false); deep {
		l.b.add(d)
		return
	}
	f, hd := hclsyntax.ParseConfig(b, path, hcl.InitialPos)
	l.b.hcl(hd)
	if hd.HasErrors() || f == nil {
		return
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return
	}
	if l.checkNumberLiterals(body) {
		for name := range body.Attributes {
			as.given[name] = true
		}
		return
	}
	for _, blk := range body.Blocks {
		l.b.errorf(blk.TypeRange, fmt.Sprintf("unexpected block %q in variable file", blk.Type),
			"A variable file holds only name = value lines.", "remove the block")
	}
	for _, a := range sortedAttrs(body) {
		l.assignVarFileLine(as, a)
	}
}

// maskVarFileValues is a variable file as its snippets show it: on each
// line, every character after the first '=' (and on a line without one,
// every character) is replaced by '*', spaces kept, so that carets still
// point where they did but no value is printed.
func maskVarFileValues(b []byte) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	out.Grow(len(b))
	for _, line := range lines {
		from := 0
		if i := strings.IndexByte(line, '='); i >= 0 {
			from = i + 1
		}
		out.WriteString(line[:from])
		for _, r := range line[from:] {
			switch r {
			case ' ', '\t', '\r', '\n':
				out.WriteRune(r)
			default:
				out.WriteByte('*')
			}
		}
	}
	return []byte(out.String())
}

// assignVarFileLine is one name = constant line of a variable file.
func (l *loader) assignVarFileLine(as assigned, a *hclsyntax.Attribute) {
	v, found := l.vars[a.Name]
	if !found {
		l.b.errorf(a.NameRange, fmt.Sprintf("value for undeclared variable %q", a.Name),
			fmt.Sprintf("Declare it with variable %q { … } in the configuration, or remove this line.", a.Name),
			didYouMean(a.Name, l.varOrder, ""))
		return
	}
	as.given[a.Name] = true
	val, hd := constValue(a.Expr)
	if hd.HasErrors() {
		l.b.add(diag.Diagnostic{Severity: diag.Error, Summary: fmt.Sprintf("invalid value for variable %q", a.Name),
			Detail: "A variable file holds constants only: no references or function calls (" + hd[0].Summary + ").",
			Hint:   `write a constant, for example "prod", 2000 or true`,
			Range:  rangeOf(a.Expr.Range())})
		return
	}
	conv, err := convertVar(v, val)
	if err != nil {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid value for variable %q", a.Name), err.Error(),
			fmt.Sprintf("give a %s, for example %s = %s", typeexpr.TypeString(v.typ), a.Name, strings.Trim(typeExample(v.typ), "'")))
		return
	}
	as.value(l, a.Name, conv)
}

// assignVarFlags takes the --var NAME=VALUE flags, which win over every
// other source.
func (l *loader) assignVarFlags(as assigned, h hash.Hash) {
	for _, name := range sortedKeys(l.opts.Vars) {
		raw := l.opts.Vars[name]
		fmt.Fprintf(h, "var\x00%s\x00%d\x00%s", name, len(raw), raw)
		v, found := l.vars[name]
		if !found {
			l.b.add(diag.Diagnostic{Severity: diag.Error,
				Summary: fmt.Sprintf("--var %s: no variable %q is declared", name, name),
				Detail:  fmt.Sprintf("Declare it with variable %q { … } in the configuration.", name),
				Hint:    didYouMean(name, l.varOrder, "--var ")})
			continue
		}
		as.given[name] = true
		if val, ok := l.parseRawVar(v, raw, "--var "+name); ok {
			as.value(l, name, val)
		}
	}
}

// requireValues decides what a variable without a valid value is: unknown
// (its value was invalid and already reported, or it is sensitive and
// validate runs offline), or an error naming every way to give one.
func (l *loader) requireValues(as assigned) {
	for _, name := range l.varOrder {
		v := l.vars[name]
		if as.set[name] {
			continue
		}
		l.varVals[name] = cty.UnknownVal(v.typ)
		if v.broken || as.given[name] {
			continue
		}
		if v.sensitive && l.opts.Offline {
			// Secrets are not expected where validate runs (CI): the value
			// is unknown and what depends on it is not checked.
			continue
		}
		l.b.errorf(v.rng, fmt.Sprintf("no value for required variable %q", name),
			"The variable has no default and no value was given.",
			fmt.Sprintf("pass --var %s=VALUE, put %s = VALUE in a --var-file, set %s%s, or add a default", name, name, envVarPrefix, name))
	}
}

// parseRawVar turns a -var / environment string into a value: verbatim for
// string and untyped variables, else parsed as a constant HCL expression.
func (l *loader) parseRawVar(v *varDecl, raw, origin string) (cty.Value, bool) {
	if v.typ == cty.String || v.typ == cty.DynamicPseudoType {
		return cty.StringVal(raw), true
	}
	example := typeExample(v.typ)
	if d, deep := checkNesting([]byte(raw), origin, true); deep {
		d.Summary = origin + ": value " + d.Summary
		l.b.add(d)
		return cty.NilVal, false
	}
	expr, hd := hclsyntax.ParseExpression([]byte(raw), origin, hcl.InitialPos)
	if hd.HasErrors() {
		l.b.add(diag.Diagnostic{Severity: diag.Error,
			Summary: fmt.Sprintf("%s: value is not a valid %s", origin, typeexpr.TypeString(v.typ)),
			Detail:  "Values for non-string variables are written as HCL expressions, for example 42, true, [\"a\", \"b\"] or {k = \"v\"}.",
			Hint:    fmt.Sprintf("give a %s, for example %s", typeexpr.TypeString(v.typ), example)})
		return cty.NilVal, false
	}
	huge := false
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if lit, ok := n.(*hclsyntax.LiteralValueExpr); ok && hugeNumber(lit.Val) {
			huge = true
		}
		return nil
	})
	if huge {
		l.b.add(diag.Diagnostic{Severity: diag.Error, Summary: fmt.Sprintf("%s: invalid value", origin),
			Detail: "Number out of range (the limit is float64's range, about 1e308).",
			Hint:   fmt.Sprintf("give a %s, for example %s", typeexpr.TypeString(v.typ), example)})
		return cty.NilVal, false
	}
	val, hd := constValue(expr)
	if hd.HasErrors() {
		if _, bare := expr.(*hclsyntax.ScopeTraversalExpr); bare {
			// --var ru=abc for a number: "abc" parses as a reference.
			l.b.add(diag.Diagnostic{Severity: diag.Error,
				Summary: fmt.Sprintf("%s: %q is not a %s", origin, raw, typeexpr.TypeString(v.typ)),
				Detail:  fmt.Sprintf("Variable %q has type %s; its value is read as an HCL constant.", v.name, typeexpr.TypeString(v.typ)),
				Hint:    fmt.Sprintf("give a %s, for example %s", typeexpr.TypeString(v.typ), example)})
			return cty.NilVal, false
		}
		l.b.add(diag.Diagnostic{Severity: diag.Error,
			Summary: fmt.Sprintf("%s: value must be a constant", origin),
			Detail:  "References and function calls are not allowed in variable values.",
			Hint:    fmt.Sprintf("give a constant %s, for example %s", typeexpr.TypeString(v.typ), example)})
		return cty.NilVal, false
	}
	conv, err := convertVar(v, val)
	if err != nil {
		l.b.add(diag.Diagnostic{Severity: diag.Error, Summary: fmt.Sprintf("%s: invalid value", origin), Detail: err.Error(),
			Hint: fmt.Sprintf("give a %s, for example %s", typeexpr.TypeString(v.typ), example)})
		return cty.NilVal, false
	}
	return conv, true
}

// typeExample is a constant of type t as written after --var NAME=.
func typeExample(t cty.Type) string {
	switch {
	case t == cty.Number:
		return "42"
	case t == cty.Bool:
		return "true"
	case t.IsListType() || t.IsSetType() || t.IsTupleType():
		return `'["a", "b"]'`
	case t.IsMapType() || t.IsObjectType():
		return `'{ k = "v" }'`
	}
	return `"text"`
}

func convertVar(v *varDecl, val cty.Value) (cty.Value, error) {
	if hugeNumber(val) {
		return cty.NilVal, fmt.Errorf("variable %q: number out of range (the limit is float64's range, about 1e308)", v.name)
	}
	if v.typ == cty.DynamicPseudoType {
		return val, nil
	}
	conv, err := convert.Convert(val, v.typ)
	if err != nil {
		return cty.NilVal, fmt.Errorf("variable %q is of type %s: %s", v.name, typeexpr.TypeString(v.typ), err.Error())
	}
	return conv, nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// hugeNumber reports whether val holds a number beyond float64's range
// anywhere (see checkNumberLiterals).
func hugeNumber(val cty.Value) bool {
	found := false
	_ = cty.Walk(val, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.IsKnown() && !v.IsNull() && v.Type() == cty.Number {
			f := v.AsBigFloat()
			if f.Sign() != 0 && (f.MantExp(nil) > maxNumberExp || f.MantExp(nil) < -maxNumberExp) {
				found = true
			}
		}
		return !found, nil
	})
	return found
}

package schema

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
)

// The evaluation budget. Locals and functions can build values far larger
// than the files that describe them: a kilobyte of locals that each double
// the previous one (b = "${local.a}${local.a}") reaches 2^64 bytes, and
// format("%0999999999d", 1) is a gigabyte. Every value is therefore bounded
// before it is built, three ways:
//
//   - estimateSize gives an upper bound of an expression's result from its
//     syntax and the sizes of the values it refers to; an expression whose
//     bound exceeds MaxValueBytes is not evaluated;
//   - the functions whose result can outgrow their arguments (format,
//     formatlist, join, replace, jsonencode) check the actual arguments
//     first (budgeted);
//   - every evaluated value is measured, and the total kept by the
//     configuration is bounded by MaxEvalBytes.
//
// The numbers are far above what a configuration of TiDB settings needs (the
// largest values are file() contents, at most 1 MiB).
const (
	MaxValueBytes = 4 << 20
	MaxEvalBytes  = 64 << 20
)

// elemOverhead is what one collection element costs besides its content.
const elemOverhead = 16

// valueSize measures v (strings by length, every element elemOverhead more),
// stopping once it exceeds limit.
func valueSize(v cty.Value, limit int64) int64 {
	var n int64
	_ = cty.Walk(v, func(_ cty.Path, x cty.Value) (bool, error) {
		if n > limit {
			return false, nil
		}
		x, _ = x.Unmark()
		switch {
		case !x.IsKnown() || x.IsNull():
			n += 1
		case x.Type() == cty.String:
			n += int64(len(x.AsString()))
		case x.Type().IsPrimitiveType():
			n += 8
		default:
			n += elemOverhead
		}
		return true, nil
	})
	return n
}

// overBudget is the diagnostic for an expression whose value would exceed
// MaxValueBytes (what is the estimate or the measure).
func overBudget(rng hcl.Range, size int64, what string) diag.Diagnostic {
	return diag.Diagnostic{
		Severity: diag.Error,
		Summary:  fmt.Sprintf("this expression's value would be too large (%s %s, the limit is %s)", what, input.Size(size), input.Size(MaxValueBytes)),
		Detail: "tiform bounds what locals and functions may build, so that a few lines of configuration cannot exhaust memory " +
			"(a local doubling another, format with a huge width). No TiDB setting takes a value this large.",
		Hint:  "check the expression for a value repeated or doubled by mistake",
		Range: rangeOf(rng),
	}
}

// sizeScope is where estimateSize looks up what an expression refers to:
// the evaluation context (its var and local objects) and the for-expression
// variables in scope with their largest element's size.
type sizeScope struct {
	ctx   *hcl.EvalContext
	iters map[string]int64
}

// estimateSize is an upper bound of the size of expr's value, from its syntax
// and the sizes of the variables and locals it refers to (already evaluated in
// sc.ctx). It never evaluates more than a for-expression's collection, itself
// bounded first.
func estimateSize(expr hclsyntax.Expression, sc sizeScope) int64 {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return valueSize(e.Val, MaxValueBytes)
	case *hclsyntax.TemplateExpr:
		var n int64
		for _, p := range e.Parts {
			n += estimateSize(p, sc)
		}
		return n
	case *hclsyntax.TemplateWrapExpr:
		return estimateSize(e.Wrapped, sc)
	case *hclsyntax.ParenthesesExpr:
		return estimateSize(e.Expression, sc)
	case *hclsyntax.ScopeTraversalExpr:
		return referenceSize(e.Traversal, sc)
	case *hclsyntax.RelativeTraversalExpr:
		return estimateSize(e.Source, sc)
	case *hclsyntax.IndexExpr:
		return estimateSize(e.Collection, sc)
	case *hclsyntax.SplatExpr:
		return estimateSize(e.Source, sc) + estimateSize(e.Each, sc)
	case *hclsyntax.ConditionalExpr:
		return max(estimateSize(e.TrueResult, sc), estimateSize(e.FalseResult, sc))
	case *hclsyntax.TupleConsExpr:
		var n int64
		for _, x := range e.Exprs {
			n += elemOverhead + estimateSize(x, sc)
		}
		return n
	case *hclsyntax.ObjectConsExpr:
		var n int64
		for _, it := range e.Items {
			n += elemOverhead + estimateSize(it.KeyExpr, sc) + estimateSize(it.ValueExpr, sc)
		}
		return n
	case *hclsyntax.ObjectConsKeyExpr:
		return estimateSize(e.Wrapped, sc)
	case *hclsyntax.FunctionCallExpr:
		// Functions whose result can outgrow their arguments check those
		// at call time (budgetedFunctions); the others return at most what
		// they are given.
		var n int64
		for _, a := range e.Args {
			n += estimateSize(a, sc)
		}
		return n
	case *hclsyntax.ForExpr:
		return forSize(e, sc)
	}
	return 16 // numbers, booleans, operators
}

// referenceSize is the size of what a traversal refers to: a variable or a
// local (the whole value, an upper bound of any part of it), or a
// for-expression variable.
func referenceSize(tr hcl.Traversal, sc sizeScope) int64 {
	root := tr.RootName()
	if n, ok := sc.iters[root]; ok {
		return n
	}
	if len(tr) < 2 || sc.ctx == nil {
		return 0
	}
	name, ok := traverserName(tr[1])
	if !ok {
		return 0
	}
	obj, ok := sc.ctx.Variables[root]
	if !ok || !obj.IsKnown() || obj.IsNull() || !obj.Type().IsObjectType() || !obj.Type().HasAttribute(name) {
		return 0
	}
	return valueSize(obj.GetAttr(name), MaxValueBytes+1)
}

// forSize bounds a for expression: its collection is bounded, then
// evaluated, and the result is at most one key and value per element, each
// bounded with the iterator variables as large as the largest element.
func forSize(e *hclsyntax.ForExpr, sc sizeScope) int64 {
	if n := estimateSize(e.CollExpr, sc); n > MaxValueBytes {
		return n
	}
	coll, diags := e.CollExpr.Value(sc.ctx)
	if diags.HasErrors() || !coll.IsWhollyKnown() || coll.IsNull() || !coll.CanIterateElements() {
		return 0 // evaluation reports it
	}
	coll, _ = coll.UnmarkDeep()
	count := int64(coll.LengthInt())
	var largest int64
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		largest = max(largest, valueSize(k, MaxValueBytes+1), valueSize(v, MaxValueBytes+1))
	}
	inner := sizeScope{ctx: sc.ctx, iters: map[string]int64{}}
	for k, v := range sc.iters {
		inner.iters[k] = v
	}
	if e.KeyVar != "" {
		inner.iters[e.KeyVar] = largest
	}
	inner.iters[e.ValVar] = largest
	each := elemOverhead + estimateSize(e.ValExpr, inner)
	if e.KeyExpr != nil {
		each += estimateSize(e.KeyExpr, inner)
	}
	return count * each
}

// checkBudget refuses expr before evaluation when its estimate exceeds
// MaxValueBytes.
func (l *loader) checkBudget(expr hclsyntax.Expression) bool {
	if n := estimateSize(expr, sizeScope{ctx: l.ctx}); n > MaxValueBytes {
		l.b.add(overBudget(expr.Range(), n, "at most"))
		return false
	}
	return true
}

// spend records an evaluated value against MaxEvalBytes.
func (l *loader) spend(v cty.Value, rng hcl.Range) bool {
	n := valueSize(v, MaxValueBytes+1)
	if n > MaxValueBytes {
		l.b.add(overBudget(rng, n, "at least"))
		return false
	}
	l.spent += n
	limit := int64(MaxEvalBytes)
	if l.opts.maxEval > 0 {
		limit = l.opts.maxEval
	}
	if l.spent > limit {
		l.b.add(diag.Diagnostic{Severity: diag.Error, Range: rangeOf(rng),
			Summary: fmt.Sprintf("the configuration's values are larger than %s in all", input.Size(limit)),
			Detail:  "tiform bounds what the configuration's locals and expressions build in all, so that it cannot exhaust memory.",
			Hint:    "look for large values repeated in many locals"})
		return false
	}
	return true
}

// budgetedFunctions wraps the functions whose result can be far larger than
// their arguments so that they refuse, before building it, a result larger
// than MaxValueBytes.
func budgetedFunctions(fns map[string]function.Function) {
	for name, bound := range map[string]func(args []cty.Value) int64{
		"format":     formatBound,
		"formatlist": formatlistBound,
		"join":       joinBound,
		"replace":    replaceBound,
		"jsonencode": func(args []cty.Value) int64 { return 6*argsSize(args) + 2 }, // \u0000 for every byte at worst
	} {
		if f, ok := fns[name]; ok {
			fns[name] = budgeted(name, f, bound)
		}
	}
}

// budgeted returns f with a check of bound(args) before it runs.
func budgeted(name string, f function.Function, bound func([]cty.Value) int64) function.Function {
	spec := &function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			for _, a := range args {
				if !a.IsWhollyKnown() {
					return f.Call(args)
				}
			}
			if n := bound(args); n > MaxValueBytes {
				return cty.NilVal, fmt.Errorf("%s would build a value of up to %s, more than the limit of %s", name, input.Size(n), input.Size(MaxValueBytes))
			}
			return f.Call(args)
		},
	}
	return function.New(spec)
}

func argsSize(args []cty.Value) int64 {
	var n int64
	for _, a := range args {
		n += valueSize(a, MaxValueBytes+1)
	}
	return n
}

// fmtWidthRe finds the widths and precisions of a format string's verbs.
var fmtWidthRe = regexp.MustCompile(`%[-+# 0]*([0-9]*)(?:\.([0-9]*))?`)

// widths is the sum of a format string's widths and precisions.
func widths(format string) int64 {
	var n int64
	for _, m := range fmtWidthRe.FindAllStringSubmatch(format, -1) {
		for _, g := range m[1:] {
			if g == "" {
				continue
			}
			w, err := strconv.ParseInt(g, 10, 64)
			if err != nil || w > MaxValueBytes {
				return MaxValueBytes + 1
			}
			n += w
		}
	}
	return n
}

func formatBound(args []cty.Value) int64 {
	if len(args) == 0 || args[0].Type() != cty.String {
		return argsSize(args)
	}
	return argsSize(args) + widths(args[0].AsString())
}

// formatlistBound: one format per element of the longest list argument.
func formatlistBound(args []cty.Value) int64 {
	var count int64 = 1
	for _, a := range args[1:] {
		if a.Type().IsListType() || a.Type().IsTupleType() {
			count = max(count, int64(a.LengthInt()))
		}
	}
	return count * formatBound(args)
}

func joinBound(args []cty.Value) int64 {
	if len(args) == 0 || args[0].Type() != cty.String {
		return argsSize(args)
	}
	var count int64
	for _, a := range args[1:] {
		if a.CanIterateElements() {
			count += int64(a.LengthInt())
		}
	}
	return argsSize(args) + count*int64(len(args[0].AsString()))
}

// replaceBound: at most one replacement per byte of the string (and one
// more), for a substring or a regular expression that matches the empty
// string.
func replaceBound(args []cty.Value) int64 {
	if len(args) != 3 || args[0].Type() != cty.String || args[2].Type() != cty.String {
		return argsSize(args)
	}
	s, repl := int64(len(args[0].AsString())), int64(len(args[2].AsString()))
	return s + (s+1)*repl
}

// constValue evaluates an expression that may use no variable and no
// function (a default, a variable file's value, a --var value), bounded like
// every other evaluation: nested for expressions over literal lists grow as
// fast as locals do.
func constValue(expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	if n := estimateSize(expr, sizeScope{}); n > MaxValueBytes {
		d := overBudget(expr.Range(), n, "at most")
		r := expr.Range()
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: d.Summary, Detail: d.Detail, Subject: &r}}
	}
	return expr.Value(nil)
}

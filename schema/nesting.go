package schema

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tiform/tiform/diag"
)

// MaxNesting bounds how deeply one piece of configuration nests: blocks,
// brackets, parentheses, templates, and the operators of one expression
// (a + b + … and !!…x and c ? a : c ? … nest as deeply as brackets do in the
// parser and the evaluator). HCL's parser and evaluator recurse once per
// level, and Go cannot recover from a stack overflow: 100,000 levels (a
// 200 KB file of brackets) crash the process. No configuration needs more
// than a few dozen; 128 leaves room.
const MaxNesting = 128

// checkNesting measures src with HCL's scanner (which does not recurse)
// before the parser sees it, and returns an error diagnostic at the token
// where the nesting exceeds MaxNesting. expr says src is one expression (a
// --var value) rather than a file.
func checkNesting(src []byte, filename string, expr bool) (diag.Diagnostic, bool) {
	lex := hclsyntax.LexConfig
	if expr {
		lex = hclsyntax.LexExpression
	}
	toks, _ := lex(src, filename, hcl.InitialPos) // lexing errors are the parser's to report
	// One frame per open bracket; ops counts the operators (and index
	// brackets) of the expression being read in that frame.
	type frame struct {
		open hclsyntax.TokenType
		ops  int
	}
	stack := []frame{{open: hclsyntax.TokenOBrace}}
	depth := func() int {
		n := len(stack) - 1
		for _, f := range stack {
			n += f.ops
		}
		return n
	}
	for _, t := range toks {
		top := &stack[len(stack)-1]
		switch t.Type {
		case hclsyntax.TokenOBrack:
			top.ops++ // a[i][j]… nests like operators
			stack = append(stack, frame{open: t.Type})
		case hclsyntax.TokenOBrace, hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp,
			hclsyntax.TokenTemplateControl, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			stack = append(stack, frame{open: t.Type})
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd,
			hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
			hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
			hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr,
			hclsyntax.TokenBang, hclsyntax.TokenQuestion:
			top.ops++
		case hclsyntax.TokenComma, hclsyntax.TokenEqual:
			top.ops = 0
		case hclsyntax.TokenNewline:
			// Inside ( ) and [ ] a newline does not end the expression.
			if top.open == hclsyntax.TokenOBrace {
				top.ops = 0
			}
		}
		if d := depth(); d > MaxNesting {
			return diag.Diagnostic{
				Severity: diag.Error,
				Summary:  fmt.Sprintf("nested more than %d levels deep", MaxNesting),
				Detail: fmt.Sprintf("Blocks, brackets, templates and the operators of one expression nest here more than %d levels deep; "+
					"the file was not parsed (a parser recursing that deep can exhaust the stack).", MaxNesting),
				Hint:  "split the expression into locals, or flatten the structure",
				Range: rangeOf(t.Range),
			}, true
		}
	}
	return diag.Diagnostic{}, false
}

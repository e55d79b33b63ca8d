package importer

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/schema"
)

// edit replaces one declared value: the expression of the attribute (or of
// the settings = { … } item) at rng, or, for a query_limit or background
// block, the whole block.
type edit struct {
	rng       diag.SourceRange
	to        value
	block     *block
	blockName string
	what      string
}

// splice is a byte replacement in one file.
type splice struct {
	start, end int
	text       []byte
}

func tokensFor(v cty.Value) []byte { return hclwrite.TokensForValue(v).Bytes() }

// write applies the edits and the overrides, file by file. A file that was
// in the canonical layout is formatted again (so `tiform fmt --check` still
// passes); any other keeps its layout byte for byte outside the edits.
func (u *updater) write() error {
	byFile := map[string][]splice{}
	for _, e := range u.edits {
		sp, err := u.locate(e)
		if err != nil {
			u.res.Refused = append(u.res.Refused, fmt.Sprintf("%s: %v", e.what, err))
			u.dropAccepted(e.what)
			continue
		}
		byFile[e.rng.Filename] = append(byFile[e.rng.Filename], sp)
	}
	for _, name := range u.order {
		file := u.addFile[name]
		sps, err := u.insertion(name, file)
		if err != nil {
			return err
		}
		byFile[file] = append(byFile[file], sps...)
	}
	for file, sps := range byFile {
		src := u.in.Sources[file]
		out := applySplices(src, sps)
		if canon, err := schema.Format(src); err == nil && bytes.Equal(canon, src) {
			if f, err := schema.Format(out); err == nil {
				out = f
			}
		}
		if _, diags := hclsyntax.ParseConfig(out, file, hcl.InitialPos); diags.HasErrors() {
			return fmt.Errorf("importer: the updated %s does not parse (a bug; nothing was written): %s", file, diags.Error())
		}
		if !bytes.Equal(out, src) {
			u.res.Files[file] = out
		}
	}
	return nil
}

// dropAccepted removes the report line of a value that was not written.
func (u *updater) dropAccepted(what string) {
	kept := u.res.Accepted[:0]
	for _, a := range u.res.Accepted {
		if !strings.Contains(a, ": "+what+": ") {
			kept = append(kept, a)
		}
	}
	u.res.Accepted = kept
}

// locate finds the expression (or block) an edit replaces and returns the
// replacement. Only a literal value is replaced: a value computed from
// variables, locals or functions is the author's to change.
func (u *updater) locate(e edit) (splice, error) {
	src, ok := u.in.Sources[e.rng.Filename]
	if !ok {
		return splice{}, fmt.Errorf("%s was not read", e.rng.Filename)
	}
	f, diags := hclsyntax.ParseConfig(src, e.rng.Filename, hcl.InitialPos)
	if diags.HasErrors() {
		return splice{}, fmt.Errorf("%s does not parse", e.rng.Filename)
	}
	body := f.Body.(*hclsyntax.Body)
	if e.block != nil {
		blk := findBlock(body, e.rng)
		if blk == nil {
			return splice{}, fmt.Errorf("its block was not found at %s", e.rng)
		}
		r := blk.Range()
		return splice{r.Start.Byte, r.End.Byte, indentBlock(e.blockName, e.block, r.Start.Column-1)}, nil
	}
	expr := findExpr(body, e.rng)
	if expr == nil {
		return splice{}, fmt.Errorf("its declaration was not found at %s", e.rng)
	}
	if !isLiteral(expr) {
		return splice{}, fmt.Errorf("its value at %s is computed (variables, locals or functions); change it by hand to %s", e.rng, shownValue(e.to))
	}
	r := expr.Range()
	return keepCommentColumn(src, r.Start.Byte, r.End.Byte, tokensFor(e.to.lit)), nil
}

// findExpr returns the value expression declared at r: an attribute's
// (r is its whole range) or an item's of a settings = { … } map (r runs
// from its key to its value).
func findExpr(body *hclsyntax.Body, r diag.SourceRange) hclsyntax.Expression {
	for _, a := range body.Attributes {
		if sameRange(a.SrcRange, r) {
			return a.Expr
		}
		if oc, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok {
			for _, it := range oc.Items {
				if sameRange(hcl.RangeBetween(it.KeyExpr.Range(), it.ValueExpr.Range()), r) {
					return it.ValueExpr
				}
			}
		}
	}
	for _, b := range body.Blocks {
		if x := findExpr(b.Body, r); x != nil {
			return x
		}
	}
	return nil
}

func findBlock(body *hclsyntax.Body, r diag.SourceRange) *hclsyntax.Block {
	for _, b := range body.Blocks {
		if sameRange(b.Range(), r) {
			return b
		}
		if x := findBlock(b.Body, r); x != nil {
			return x
		}
	}
	return nil
}

func sameRange(h hcl.Range, r diag.SourceRange) bool {
	return h.Start.Byte == r.Start.Byte && h.End.Byte == r.End.Byte
}

// isLiteral reports whether x is a value written out: a number, a boolean,
// a string without interpolation, or a list of those.
func isLiteral(x hclsyntax.Expression) bool {
	switch e := x.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		return e.IsStringLiteral()
	case *hclsyntax.TupleConsExpr:
		for _, it := range e.Exprs {
			if !isLiteral(it) {
				return false
			}
		}
		return true
	case *hclsyntax.UnaryOpExpr:
		return isLiteral(e.Val)
	}
	return false
}

// keepCommentColumn replaces src[start:end] with text, and when a comment
// follows on the line, moves it back to its column where the new value
// leaves room: the edit stays one line of the diff.
func keepCommentColumn(src []byte, start, end int, text []byte) splice {
	i := end
	for i < len(src) && src[i] == ' ' {
		i++
	}
	gap := i - end
	if gap == 0 || i >= len(src) || !(src[i] == '#' || bytes.HasPrefix(src[i:], []byte("//"))) {
		return splice{start, end, text}
	}
	newGap := gap + (end - start) - len(text)
	if newGap < 1 {
		newGap = 1
	}
	return splice{start, i, append(append([]byte{}, text...), bytes.Repeat([]byte(" "), newGap)...)}
}

// indentBlock renders name { … } with its lines after the first indented
// by col spaces (the first goes where the old block started).
func indentBlock(name string, b *block, col int) []byte {
	f := hclwrite.NewEmptyFile()
	bb := f.Body().AppendNewBlock(name, nil).Body()
	for _, n := range b.names {
		setAttr(bb, n, item{lit: b.attrs[n]})
	}
	out, err := schema.Format(f.Bytes())
	if err != nil {
		out = f.Bytes()
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	pad := strings.Repeat(" ", col)
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = pad + lines[i]
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// insertion adds a cluster's overrides: into the blocks of the same kind
// (and labels) the cluster already has, where there are some (tikv { … }
// gains the new raftstore { … }, variables { … } the new variable), else
// before the closing brace of its cluster block (a block written on one
// line is opened onto several), or at the end of file when there are no
// cluster blocks.
func (u *updater) insertion(cluster, file string) ([]splice, error) {
	src := u.in.Sources[file]
	f := hclwrite.NewEmptyFile()
	writeLayer(f.Body(), u.adds[cluster])
	text, err := schema.Format(f.Bytes())
	if err != nil {
		return nil, fmt.Errorf("importer: overrides of %s do not parse (a bug): %w", cluster, err)
	}
	gen, diags := hclsyntax.ParseConfig(text, "overrides", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("importer: overrides of %s do not parse (a bug): %s", cluster, diags.Error())
	}
	parsed, diags := hclsyntax.ParseConfig(src, file, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("importer: %s does not parse", file)
	}
	body := parsed.Body.(*hclsyntax.Body)
	if !u.in.Fleet {
		sps, rest, _ := mergeBody(src, body, gen.Body.(*hclsyntax.Body), text)
		if len(rest) == 0 {
			return sps, nil
		}
		at := len(src)
		prefix := "\n"
		if at > 0 && src[at-1] != '\n' {
			prefix = "\n\n"
		}
		return append(sps, splice{at, at, append([]byte(prefix), rest...)}), nil
	}
	for _, b := range body.Blocks {
		if b.Type == "cluster" && len(b.Labels) == 1 && b.Labels[0] == cluster {
			sps, rest, _ := mergeBody(src, b.Body, gen.Body.(*hclsyntax.Body), text)
			if len(rest) == 0 {
				return sps, nil
			}
			return append(sps, closeInsert(src, b, rest, true)...), nil
		}
	}
	return nil, fmt.Errorf("importer: cluster block %q not found in %s", cluster, file)
}

// mergeBody merges gen (parsed from genSrc) into the existing body: each
// block of gen whose kind and labels a multi-line block of body has, and
// whose attributes that block does not already set, goes into that block
// (recursively, as splices before its closing brace); what is left, in
// gen's order and without indentation, is returned for the caller to
// place (blocks set apart by a blank line, as fmt writes them), and
// whether it starts with a block.
func mergeBody(src []byte, body, gen *hclsyntax.Body, genSrc []byte) (sps []splice, rest []byte, block bool) {
	type item struct {
		rng   hcl.Range
		block *hclsyntax.Block
	}
	var items []item
	for _, a := range gen.Attributes {
		items = append(items, item{rng: a.SrcRange})
	}
	for _, b := range gen.Blocks {
		items = append(items, item{rng: b.Range(), block: b})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].rng.Start.Byte < items[j].rng.Start.Byte })
	var left []item
	for _, it := range items {
		if it.block != nil {
			if into := mergeTarget(body, it.block); into != nil {
				inner, innerRest, innerBlock := mergeBody(src, into.Body, it.block.Body, genSrc)
				sps = append(sps, inner...)
				if len(innerRest) > 0 {
					sps = append(sps, closeInsert(src, into, innerRest, innerBlock)...)
				}
				continue
			}
		}
		left = append(left, it)
	}
	for i, it := range left {
		if i > 0 && (it.block != nil || left[i-1].block != nil) {
			rest = append(rest, '\n')
		}
		rest = append(append(rest, unindent(genSrc, it.rng)...), '\n')
	}
	return sps, rest, len(left) > 0 && left[0].block != nil
}

// mergeTarget is body's block of b's kind and labels that b can merge into: on
// several lines, and setting none of b's attributes; nil when there is none.
func mergeTarget(body *hclsyntax.Body, b *hclsyntax.Block) *hclsyntax.Block {
	for _, x := range body.Blocks {
		if x.Type != b.Type || strings.Join(x.Labels, "\x00") != strings.Join(b.Labels, "\x00") {
			continue
		}
		if x.OpenBraceRange.Start.Line == x.CloseBraceRange.Start.Line {
			return nil
		}
		for name := range b.Body.Attributes {
			if _, set := x.Body.Attributes[name]; set {
				return nil
			}
		}
		return x
	}
	return nil
}

// unindent is the text of rng in src from the start of its line, with the
// indentation of its first line taken off every line.
func unindent(src []byte, rng hcl.Range) []byte {
	col := rng.Start.Column - 1
	end := rng.End.Byte
	for end < len(src) && src[end] != '\n' {
		end++ // an attribute's range ends before its comment
	}
	lines := strings.Split(string(src[rng.Start.Byte-col:end]), "\n")
	for i, l := range lines {
		n := 0
		for n < col && n < len(l) && l[n] == ' ' {
			n++
		}
		lines[i] = l[n:]
	}
	return []byte(strings.Join(lines, "\n"))
}

// closeInsert inserts text, indented one level, before b's closing brace,
// after a blank line when blank is set.
func closeInsert(src []byte, b *hclsyntax.Block, text []byte, blank bool) []splice {
	outer := strings.Repeat(" ", lineIndent(src, b.TypeRange.Start.Byte))
	pad := outer + "  "
	var sb strings.Builder
	if blank {
		sb.WriteString("\n")
	}
	for _, l := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
		if l != "" {
			sb.WriteString(pad + l)
		}
		sb.WriteString("\n")
	}
	closeAt := b.CloseBraceRange.Start.Byte
	if at, own := lineStart(src, closeAt); own {
		return []splice{{at, at, []byte(sb.String())}}
	}
	// One line: cluster "x" { dsn = env("X") }. Put the attribute on a line
	// of its own, the overrides after it, the brace on its own line.
	open := b.OpenBraceRange.End.Byte
	i := open
	for i < len(src) && src[i] == ' ' {
		i++
	}
	j := closeAt
	for j > i && src[j-1] == ' ' {
		j--
	}
	return []splice{
		{open, i, []byte("\n" + pad)},
		{j, closeAt, []byte("\n" + sb.String() + outer)},
	}
}

// lineIndent is the number of spaces that start the line holding i.
func lineIndent(src []byte, i int) int {
	j := i
	for j > 0 && src[j-1] != '\n' {
		j--
	}
	n := 0
	for j+n < len(src) && src[j+n] == ' ' {
		n++
	}
	return n
}

// lineStart is the offset of the start of the line holding i, and whether
// only spaces precede i on that line (else i is after other text: a
// one-line block).
func lineStart(src []byte, i int) (int, bool) {
	j := i
	for j > 0 && src[j-1] == ' ' {
		j--
	}
	if j == 0 || src[j-1] == '\n' {
		return j, true
	}
	return i, false
}

// applySplices applies non-overlapping splices (later ones first).
func applySplices(src []byte, sps []splice) []byte {
	sort.Slice(sps, func(i, j int) bool { return sps[i].start > sps[j].start })
	out := append([]byte(nil), src...)
	last := len(out) + 1
	for _, s := range sps {
		if s.end > last {
			continue // overlapping: the later splice wins
		}
		out = append(out[:s.start], append(append([]byte(nil), s.text...), out[s.end:]...)...)
		last = s.start
	}
	return out
}

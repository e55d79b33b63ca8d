package main

import (
	"fmt"
	"strings"
)

// Items of one Rust file, as far as the config walk needs them.

type rustAttr struct {
	path string   // "serde", "online_config", "derive", "deprecated", "cfg", "doc"
	args []rtoken // tokens inside the parentheses, or after "=" for #[x = "y"]
}

type rustField struct {
	name  string
	attrs []rustAttr
	typ   []rtoken
	line  int
}

type rustStruct struct {
	name    string
	attrs   []rustAttr
	fields  []*rustField
	file    *rustFile
	line    int
	derives map[string]bool
}

type rustVariant struct {
	name    string
	attrs   []rustAttr
	hasData bool
}

type rustEnum struct {
	name     string
	attrs    []rustAttr
	variants []rustVariant
	file     *rustFile
	derives  map[string]bool
}

// rustDefault is a struct's Default impl: the field initialisers of the
// struct literal it returns, and the let bindings before it.
type rustDefault struct {
	fields map[string][]rtoken
	lets   map[string][]rtoken
	rest   bool // ..Default::default() or ..X: unlisted fields come from elsewhere
}

type rustMacro struct {
	params []string
	body   []rtoken
}

type rustFile struct {
	path     string
	structs  map[string]*rustStruct
	enums    map[string]*rustEnum
	defaults map[string]*rustDefault
	consts   map[string][]rtoken
	uses     map[string]string // local name → full path ("raftstore::store::Config")
	macros   map[string]*rustMacro
	aliases  map[string][]rtoken // type aliases
	// prefixes are serde_with's with_prefix!(name "prefix-") modules.
	prefixes map[string]string
	// globs are the paths of `use a::b::*` declarations.
	globs []string
	// variantStrings maps Enum → Variant → the string a match arm
	// `Enum::Variant => "text"` gives it (as_str, Display, Serialize impls of
	// enums with hand-written serialisation).
	variantStrings map[string]map[string]string
	// numericEnums are numeric_enum_serializing_mod!{module Enum {V = n, ..}}:
	// module → variant → number (serialised as the number).
	numericEnums map[string]map[string]string
}

// parseRustFile scans a file's items. Items inside #[cfg(test)] modules are
// left out: tests define structs whose names clash with real ones.
func parseRustFile(path, src string) (*rustFile, error) {
	toks, err := lexRust(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f := &rustFile{path: path, structs: map[string]*rustStruct{}, enums: map[string]*rustEnum{},
		defaults: map[string]*rustDefault{}, consts: map[string][]rtoken{}, uses: map[string]string{},
		macros: map[string]*rustMacro{}, aliases: map[string][]rtoken{}, prefixes: map[string]string{}}
	if err := f.scanItems(toks, 0); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f.scanVariantStrings(toks)
	return f, nil
}

// scanVariantStrings records `Enum::Variant => "text"` match arms and
// numeric_enum_serializing_mod! invocations anywhere in the file.
func (f *rustFile) scanVariantStrings(toks []rtoken) {
	f.variantStrings = map[string]map[string]string{}
	f.numericEnums = map[string]map[string]string{}
	for i := 0; i+4 < len(toks); i++ {
		if toks[i].kind == tIdent && toks[i+1].is("::") && toks[i+2].kind == tIdent && toks[i+3].is("=>") && toks[i+4].kind == tString {
			m := f.variantStrings[toks[i].text]
			if m == nil {
				m = map[string]string{}
				f.variantStrings[toks[i].text] = m
			}
			if _, seen := m[toks[i+2].text]; !seen {
				m[toks[i+2].text] = toks[i+4].text
			}
		}
		if toks[i].is("numeric_enum_serializing_mod") && toks[i+1].is("!") && toks[i+2].is("{") && toks[i+3].kind == tIdent {
			end, err := matching(toks, i+2)
			if err != nil {
				continue
			}
			m := map[string]string{}
			body := toks[i+3 : end]
			for k := 0; k+2 < len(body); k++ {
				if body[k].kind == tIdent && body[k+1].is("=") && body[k+2].kind == tNumber {
					m[body[k].text] = body[k+2].text
				}
			}
			f.numericEnums[toks[i+3].text] = m
		}
	}
}

// exprEnd returns the index of the first ";" at bracket depth 0 from i (or
// len(toks)): the end of a `let x = …;` or `const X: T = …;` value.
func exprEnd(toks []rtoken, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.is("(") || t.is("{") || t.is("["):
			depth++
		case t.is(")") || t.is("}") || t.is("]"):
			depth--
		case t.is(";") && depth == 0:
			return i
		}
	}
	return i
}

// splitTop splits toks at the commas of bracket depth 0.
func splitTop(toks []rtoken) [][]rtoken {
	var out [][]rtoken
	depth, start := 0, 0
	for k, t := range toks {
		switch {
		case t.is("(") || t.is("{") || t.is("["):
			depth++
		case t.is(")") || t.is("}") || t.is("]"):
			depth--
		case t.is(",") && depth == 0:
			out = append(out, toks[start:k])
			start = k + 1
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

// matching returns the index of the rtoken closing the bracket at toks[i].
func matching(toks []rtoken, i int) (int, error) {
	open := toks[i].text
	close := map[string]string{"{": "}", "(": ")", "[": "]", "<": ">"}[open]
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j, nil
			}
		case "->", "=>":
			// not angle brackets
		}
	}
	return 0, fmt.Errorf("line %d: unbalanced %q", toks[i].line, open)
}

// skipGenerics skips a <...> list starting at i (which must be "<").
func skipGenerics(toks []rtoken, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case toks[j].is("<"):
			depth++
		case toks[j].is(">"):
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(toks)
}

// parseAttrs reads consecutive #[...] / #![...] attributes from i.
func parseAttrs(toks []rtoken, i int) ([]rustAttr, int, error) {
	var attrs []rustAttr
	for i+1 < len(toks) && toks[i].is("#") {
		j := i + 1
		inner := false
		if toks[j].is("!") {
			inner = true
			j++
		}
		if j >= len(toks) || !toks[j].is("[") {
			break
		}
		end, err := matching(toks, j)
		if err != nil {
			return nil, 0, err
		}
		body := toks[j+1 : end]
		if !inner && len(body) > 0 {
			a := rustAttr{}
			k := 0
			for k < len(body) && (body[k].kind == tIdent || body[k].is("::")) {
				if body[k].kind == tIdent {
					a.path = body[k].text
				}
				k++
			}
			if k < len(body) {
				switch {
				case body[k].is("("):
					a.args = body[k+1 : len(body)-1]
				case body[k].is("="):
					a.args = body[k+1:]
				}
			}
			attrs = append(attrs, a)
		}
		i = end + 1
	}
	return attrs, i, nil
}

// scanItems reads items from toks. depth counts nested macro expansions.
func (f *rustFile) scanItems(toks []rtoken, depth int) error {
	if depth > 4 {
		return fmt.Errorf("macro expansion too deep")
	}
	i := 0
	for i < len(toks) {
		attrs, j, err := parseAttrs(toks, i)
		if err != nil {
			return err
		}
		i = j
		if i >= len(toks) {
			break
		}
		// visibility and qualifiers
		for i < len(toks) && (toks[i].is("pub") || toks[i].is("unsafe") || toks[i].is("async") || toks[i].is("extern") || toks[i].is("default")) {
			if toks[i].is("pub") && i+1 < len(toks) && toks[i+1].is("(") {
				end, err := matching(toks, i+1)
				if err != nil {
					return err
				}
				i = end + 1
				continue
			}
			i++
			if i < len(toks) && toks[i].kind == tString { // extern "C"
				i++
			}
		}
		if i >= len(toks) {
			break
		}
		t := toks[i]
		var next int
		switch {
		case t.is("use"):
			next, err = f.scanUse(toks, i+1)
		case t.is("struct") || t.is("union"):
			next, err = f.scanStruct(toks, i+1, attrs)
		case t.is("enum"):
			next, err = f.scanEnum(toks, i+1, attrs)
		case t.is("impl"):
			next, err = f.scanImpl(toks, i+1)
		case t.is("const") || t.is("static"):
			if i+1 < len(toks) && toks[i+1].is("fn") {
				next, err = skipItem(toks, i)
			} else {
				next, err = f.scanConst(toks, i+1)
			}
		case t.is("type"):
			next, err = f.scanTypeAlias(toks, i+1)
		case t.is("mod"):
			next, err = f.scanMod(toks, i+1, attrs, depth)
		case t.is("macro_rules") && i+2 < len(toks) && toks[i+1].is("!"):
			next, err = f.scanMacroRules(toks, i+2)
		case t.kind == tIdent && i+2 < len(toks) && toks[i+1].is("!") && (toks[i+2].is("(") || toks[i+2].is("{") || toks[i+2].is("[")):
			next, err = f.scanMacroCall(toks, i, depth)
		default:
			next, err = skipItem(toks, i)
		}
		if err != nil {
			return err
		}
		if next <= i {
			next = i + 1
		}
		i = next
	}
	return nil
}

// skipItem skips to after the item at i: through the first ";" at depth 0 or
// the first {...} block at depth 0.
func skipItem(toks []rtoken, i int) (int, error) {
	for j := i; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.is(";"):
			return j + 1, nil
		case t.is("{"):
			end, err := matching(toks, j)
			if err != nil {
				return 0, err
			}
			// `fn f() -> X where ... { }` ends here; `static X: T = T { .. };` continues
			if end+1 < len(toks) && toks[end+1].is(";") {
				return end + 2, nil
			}
			return end + 1, nil
		case t.is("(") || t.is("["):
			end, err := matching(toks, j)
			if err != nil {
				return 0, err
			}
			j = end
		}
	}
	return len(toks), nil
}

func (f *rustFile) scanUse(toks []rtoken, i int) (int, error) {
	end := i
	for end < len(toks) && !toks[end].is(";") {
		end++
	}
	f.useTree(toks[i:end], "")
	return end + 1, nil
}

// useTree expands a use tree ("a::{b, c as d, e::{self, f}}") into f.uses.
func (f *rustFile) useTree(toks []rtoken, prefix string) {
	// split at top-level commas
	depth, start := 0, 0
	parts := [][]rtoken{}
	for k, t := range toks {
		switch {
		case t.is("{"):
			depth++
		case t.is("}"):
			depth--
		case t.is(",") && depth == 0:
			parts = append(parts, toks[start:k])
			start = k + 1
		}
	}
	parts = append(parts, toks[start:])
	for _, p := range parts {
		var path []string
		for k := 0; k < len(p); k++ {
			t := p[k]
			switch {
			case t.kind == tIdent && t.text != "as":
				path = append(path, t.text)
			case t.is("*"):
				path = append(path, "*")
			case t.is("{"):
				end, err := matching(p, k)
				if err != nil {
					return
				}
				f.useTree(p[k+1:end], joinPath(prefix, strings.Join(path, "::")))
				k = end
				path = nil
			case t.is("as") && k+1 < len(p):
				full := joinPath(prefix, strings.Join(path, "::"))
				f.uses[p[k+1].text] = full
				path = nil
				k++
			}
		}
		if len(path) > 0 {
			full := joinPath(prefix, strings.Join(path, "::"))
			local := path[len(path)-1]
			if local == "self" {
				full = strings.TrimSuffix(full, "::self")
				local = full[strings.LastIndex(full, ":")+1:]
			}
			if local == "*" {
				f.globs = append(f.globs, strings.TrimSuffix(full, "::*"))
			} else {
				f.uses[local] = full
			}
		}
	}
}

func joinPath(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "::" + b
}

func derivesOf(attrs []rustAttr) map[string]bool {
	d := map[string]bool{}
	for _, a := range attrs {
		if a.path == "derive" {
			for _, t := range a.args {
				if t.kind == tIdent {
					d[t.text] = true
				}
			}
		}
	}
	return d
}

func (f *rustFile) scanStruct(toks []rtoken, i int, attrs []rustAttr) (int, error) {
	if i >= len(toks) || toks[i].kind != tIdent {
		return skipItem(toks, i)
	}
	s := &rustStruct{name: toks[i].text, attrs: attrs, file: f, line: toks[i].line, derives: derivesOf(attrs)}
	i++
	if i < len(toks) && toks[i].is("<") {
		i = skipGenerics(toks, i)
	}
	for i < len(toks) && !toks[i].is("{") && !toks[i].is("(") && !toks[i].is(";") {
		i++ // where clauses
	}
	if i >= len(toks) || toks[i].is(";") {
		f.structs[s.name] = s
		return i + 1, nil
	}
	end, err := matching(toks, i)
	if err != nil {
		return 0, err
	}
	if toks[i].is("{") {
		s.fields, err = parseFields(toks[i+1 : end])
		if err != nil {
			return 0, err
		}
	}
	if _, dup := f.structs[s.name]; !dup {
		f.structs[s.name] = s
	}
	if end+1 < len(toks) && toks[end+1].is(";") {
		end++
	}
	return end + 1, nil
}

// parseFields reads "attrs vis name: Type," entries.
func parseFields(toks []rtoken) ([]*rustField, error) {
	var fields []*rustField
	i := 0
	for i < len(toks) {
		attrs, j, err := parseAttrs(toks, i)
		if err != nil {
			return nil, err
		}
		i = j
		if i < len(toks) && toks[i].is("pub") {
			i++
			if i < len(toks) && toks[i].is("(") {
				end, err := matching(toks, i)
				if err != nil {
					return nil, err
				}
				i = end + 1
			}
		}
		if i+1 >= len(toks) || toks[i].kind != tIdent || !toks[i+1].is(":") {
			break
		}
		fd := &rustField{name: toks[i].text, attrs: attrs, line: toks[i].line}
		i += 2
		start := i
		depth := 0
		for i < len(toks) {
			t := toks[i]
			if t.is("<") || t.is("(") || t.is("[") {
				depth++
			} else if t.is(">") || t.is(")") || t.is("]") {
				depth--
			} else if t.is(",") && depth == 0 {
				break
			}
			i++
		}
		fd.typ = toks[start:i]
		fields = append(fields, fd)
		i++ // comma
	}
	return fields, nil
}

func (f *rustFile) scanEnum(toks []rtoken, i int, attrs []rustAttr) (int, error) {
	if i >= len(toks) || toks[i].kind != tIdent {
		return skipItem(toks, i)
	}
	e := &rustEnum{name: toks[i].text, attrs: attrs, file: f, derives: derivesOf(attrs)}
	i++
	if i < len(toks) && toks[i].is("<") {
		i = skipGenerics(toks, i)
	}
	for i < len(toks) && !toks[i].is("{") {
		i++
	}
	if i >= len(toks) {
		return i, nil
	}
	end, err := matching(toks, i)
	if err != nil {
		return 0, err
	}
	body := toks[i+1 : end]
	k := 0
	for k < len(body) {
		vattrs, j, err := parseAttrs(body, k)
		if err != nil {
			return 0, err
		}
		k = j
		if k >= len(body) || body[k].kind != tIdent {
			break
		}
		v := rustVariant{name: body[k].text, attrs: vattrs}
		k++
		for k < len(body) && !body[k].is(",") {
			if body[k].is("(") || body[k].is("{") {
				v.hasData = true
				end, err := matching(body, k)
				if err != nil {
					return 0, err
				}
				k = end
			}
			k++
		}
		e.variants = append(e.variants, v)
		k++
	}
	if _, dup := f.enums[e.name]; !dup {
		f.enums[e.name] = e
	}
	return end + 1, nil
}

// scanImpl records `impl Default for Name { fn default() -> .. { .. } }`;
// other impls are skipped.
func (f *rustFile) scanImpl(toks []rtoken, i int) (int, error) {
	start := i
	for i < len(toks) && !toks[i].is("{") {
		if toks[i].is(";") {
			return i + 1, nil
		}
		i++
	}
	if i >= len(toks) {
		return i, nil
	}
	end, err := matching(toks, i)
	if err != nil {
		return 0, err
	}
	head := toks[start:i]
	if len(head) >= 3 && head[0].is("Default") && head[1].is("for") && head[2].kind == tIdent {
		name := head[2].text
		if d := parseDefaultImpl(toks[i+1:end], name); d != nil {
			f.defaults[name] = d
		}
	}
	return end + 1, nil
}

// parseDefaultImpl finds fn default's body and the struct literal it returns.
func parseDefaultImpl(body []rtoken, name string) *rustDefault {
	for k := 0; k+1 < len(body); k++ {
		if !body[k].is("fn") || !body[k+1].is("default") {
			continue
		}
		j := k
		for j < len(body) && !body[j].is("{") {
			j++
		}
		if j >= len(body) {
			return nil
		}
		end, err := matching(body, j)
		if err != nil {
			return nil
		}
		return parseDefaultBody(body[j+1:end], name)
	}
	return nil
}

func parseDefaultBody(fn []rtoken, name string) *rustDefault {
	d := &rustDefault{fields: map[string][]rtoken{}, lets: map[string][]rtoken{}}
	// let bindings at the top level of the body
	for k := 0; k < len(fn); k++ {
		if fn[k].is("let") {
			j := k + 1
			if j < len(fn) && fn[j].is("mut") {
				j++
			}
			if j+1 < len(fn) && fn[j].kind == tIdent {
				v := fn[j].text
				for j < len(fn) && !fn[j].is("=") && !fn[j].is(";") {
					j++
				}
				if j < len(fn) && fn[j].is("=") {
					e := exprEnd(fn, j+1)
					d.lets[v] = fn[j+1 : e]
					k = e
				}
			}
		}
	}
	// the last `Name {` or `Self {` literal
	lit := -1
	for k := 0; k+1 < len(fn); k++ {
		if (fn[k].is(name) || fn[k].is("Self")) && fn[k+1].is("{") && (k == 0 || !fn[k-1].is("::")) {
			lit = k + 1
		}
	}
	if lit < 0 {
		return nil
	}
	end, err := matching(fn, lit)
	if err != nil {
		return nil
	}
	for _, part := range splitTop(fn[lit+1 : end]) {
		switch {
		case len(part) == 0:
		case part[0].is(".."):
			d.rest = true
		case part[0].kind != tIdent:
		case len(part) == 1: // shorthand `field`
			if v, ok := d.lets[part[0].text]; ok {
				d.fields[part[0].text] = v
			} else {
				d.fields[part[0].text] = part
			}
		case part[1].is(":"):
			d.fields[part[0].text] = part[2:]
		}
	}
	return d
}

func (f *rustFile) scanConst(toks []rtoken, i int) (int, error) {
	if i < len(toks) && toks[i].is("mut") {
		i++
	}
	if i >= len(toks) || toks[i].kind != tIdent {
		return skipItem(toks, i)
	}
	name := toks[i].text
	j := i
	for j < len(toks) && !toks[j].is("=") && !toks[j].is(";") {
		j++
	}
	if j >= len(toks) || toks[j].is(";") {
		return j + 1, nil
	}
	e := exprEnd(toks, j+1)
	f.consts[name] = toks[j+1 : e]
	return e + 1, nil
}

func (f *rustFile) scanTypeAlias(toks []rtoken, i int) (int, error) {
	if i >= len(toks) || toks[i].kind != tIdent {
		return skipItem(toks, i)
	}
	name := toks[i].text
	j := i
	for j < len(toks) && !toks[j].is("=") && !toks[j].is(";") {
		j++
	}
	if j < len(toks) && toks[j].is("=") {
		e := j + 1
		for e < len(toks) && !toks[e].is(";") {
			e++
		}
		f.aliases[name] = toks[j+1 : e]
		return e + 1, nil
	}
	return j + 1, nil
}

func (f *rustFile) scanMod(toks []rtoken, i int, attrs []rustAttr, depth int) (int, error) {
	j := i
	for j < len(toks) && !toks[j].is("{") && !toks[j].is(";") {
		j++
	}
	if j >= len(toks) || toks[j].is(";") {
		return j + 1, nil
	}
	end, err := matching(toks, j)
	if err != nil {
		return 0, err
	}
	for _, a := range attrs {
		if a.path == "cfg" && len(a.args) > 0 && (a.args[0].is("test") || a.args[0].is("any") || a.args[0].is("all")) {
			for _, t := range a.args {
				if t.is("test") {
					return end + 1, nil
				}
			}
		}
	}
	if err := f.scanItems(toks[j+1:end], depth); err != nil {
		return 0, err
	}
	return end + 1, nil
}

func (f *rustFile) scanMacroRules(toks []rtoken, i int) (int, error) {
	if i >= len(toks) || toks[i].kind != tIdent {
		return skipItem(toks, i)
	}
	name := toks[i].text
	j := i + 1
	if j >= len(toks) || !toks[j].is("{") {
		return skipItem(toks, j)
	}
	end, err := matching(toks, j)
	if err != nil {
		return 0, err
	}
	body := toks[j+1 : end]
	// first rule: ( pattern ) => { body }
	if len(body) > 0 && body[0].is("(") {
		pe, err := matching(body, 0)
		if err == nil && pe+2 < len(body) && body[pe+1].is("=>") && body[pe+2].is("{") {
			be, err := matching(body, pe+2)
			if err == nil {
				m := &rustMacro{body: body[pe+3 : be]}
				pat := body[1:pe]
				for k := 0; k+1 < len(pat); k++ {
					if pat[k].is("$") && pat[k+1].kind == tIdent {
						m.params = append(m.params, pat[k+1].text)
					}
				}
				f.macros[name] = m
			}
		}
	}
	return end + 1, nil
}

// scanMacroCall expands an item-level call of a macro_rules defined in the
// same file (TiKV's cf_config!(DefaultCfConfig)); other calls are skipped.
func (f *rustFile) scanMacroCall(toks []rtoken, i, depth int) (int, error) {
	end, err := matching(toks, i+2)
	if err != nil {
		return 0, err
	}
	next := end + 1
	if next < len(toks) && toks[next].is(";") {
		next++
	}
	if toks[i].is("with_prefix") && end-(i+3) == 2 && toks[i+3].kind == tIdent && toks[i+4].kind == tString {
		f.prefixes[toks[i+3].text] = toks[i+4].text
		return next, nil
	}
	m, ok := f.macros[toks[i].text]
	if !ok {
		return next, nil
	}
	args := splitTop(toks[i+3 : end])
	var out []rtoken
	for k := 0; k < len(m.body); k++ {
		if m.body[k].is("$") && k+1 < len(m.body) && m.body[k+1].kind == tIdent {
			idx := -1
			for p, name := range m.params {
				if name == m.body[k+1].text {
					idx = p
				}
			}
			if idx >= 0 && idx < len(args) {
				out = append(out, args[idx]...)
				k++
				continue
			}
		}
		out = append(out, m.body[k])
	}
	if err := f.scanItems(out, depth+1); err != nil {
		return 0, err
	}
	return next, nil
}

// attr helpers

// attrFlag reports whether an attribute path(args) has a bare ident flag
// (#[online_config(skip)], #[serde(skip)]).
func attrFlag(attrs []rustAttr, path, flag string) bool {
	for _, a := range attrs {
		if a.path != path {
			continue
		}
		for k, t := range a.args {
			if t.is(flag) && (k+1 >= len(a.args) || a.args[k+1].is(",")) && (k == 0 || a.args[k-1].is(",")) {
				return true
			}
		}
	}
	return false
}

// attrValue returns the string of `key = "value"` inside path(...).
func attrValue(attrs []rustAttr, path, key string) (string, bool) {
	for _, a := range attrs {
		if a.path != path {
			continue
		}
		for k := 0; k+2 < len(a.args); k++ {
			if a.args[k].is(key) && a.args[k+1].is("=") && a.args[k+2].kind == tString && (k == 0 || a.args[k-1].is(",")) {
				return a.args[k+2].text, true
			}
		}
	}
	return "", false
}

func hasAttr(attrs []rustAttr, path string) bool {
	for _, a := range attrs {
		if a.path == path {
			return true
		}
	}
	return false
}

// tokText renders tokens back to compact source text for the reader
// ("cmp::max(cpu_num * 0.5, 1)").
func tokText(toks []rtoken) string {
	var b strings.Builder
	for k, t := range toks {
		if k > 0 && spaced(toks[k-1], t) {
			b.WriteByte(' ')
		}
		b.WriteString(t.String())
	}
	return b.String()
}

// spaced says whether a space separates two tokens in tokText.
func spaced(a, b rtoken) bool {
	for _, tight := range []string{",", ")", "]", ".", "::", "(", ";", "?", "!"} {
		if b.is(tight) {
			return false
		}
	}
	for _, tight := range []string{"(", "[", ".", "::", "&", "!"} {
		if a.is(tight) {
			return false
		}
	}
	return true
}

package importer

import (
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/state"
)

// writeLayer appends what ly declares to body: component config (type-wide,
// then per instance), variables, resource groups, in a fixed order so that
// the same clusters always give the same bytes.
func writeLayer(body *hclwrite.Body, ly *layer) {
	for _, comp := range []state.Component{state.TiKV, state.PD, state.TiFlash} {
		for _, inst := range instancesOf(ly, comp) {
			keys := map[string]item{}
			for k, it := range ly.config {
				if k.comp == comp && k.inst == inst {
					keys[k.key] = it
				}
			}
			var labels []string
			if inst != "" {
				labels = []string{inst}
			}
			newlineIfNotEmpty(body)
			writeConfig(body.AppendNewBlock(string(comp), labels).Body(), keys)
		}
	}
	if len(ly.vars) > 0 {
		newlineIfNotEmpty(body)
		writeVariables(body.AppendNewBlock("variables", nil).Body(), ly.vars)
	}
	for _, n := range sortedKeys(ly.groups) {
		newlineIfNotEmpty(body)
		writeGroup(body.AppendNewBlock("resource_group", []string{n}).Body(), ly.groups[n])
	}
}

// writeVariables writes name = value, and a variable whose name has a dot
// in a block named after the part before it (validate_password { length =
// 12 }: docs/language.md), after the plain ones.
func writeVariables(vb *hclwrite.Body, vars map[string]item) {
	groups := map[string][]string{}
	for _, n := range sortedKeys(vars) {
		if g, _, dotted := strings.Cut(n, "."); dotted {
			groups[g] = append(groups[g], n)
			continue
		}
		setAttr(vb, n, vars[n])
	}
	for _, g := range sortedKeys(groups) {
		gb := vb.AppendNewBlock(g, nil).Body()
		for _, n := range groups[g] {
			setAttr(gb, strings.TrimPrefix(n, g+"."), vars[n])
		}
	}
}

// instancesOf lists "" (type-wide) when ly declares type-wide values of comp,
// then the instances it declares values for, sorted.
func instancesOf(ly *layer, comp state.Component) []string {
	seen := map[string]bool{}
	for k := range ly.config {
		if k.comp == comp {
			seen[k.inst] = true
		}
	}
	out := sortedKeys(seen)
	return out // "" sorts first
}

// configTree is a component block's body: attributes, nested sections, and
// the keys that cannot be nested blocks (written in settings = { … }).
type configTree struct {
	attrs map[string]item
	kids  map[string]*configTree
	flat  map[string]item
}

func newTree() *configTree {
	return &configTree{attrs: map[string]item{}, kids: map[string]*configTree{}, flat: map[string]item{}}
}

// writeConfig writes dotted keys as nested blocks mirroring the component's
// TOML tables (docs/language.md); a key with a segment that is not an HCL
// identifier, or that collides with a section, goes into settings = { … }.
func writeConfig(body *hclwrite.Body, keys map[string]item) {
	root := newTree()
	for _, k := range sortedKeys(keys) {
		root.insert(k, keys[k])
	}
	root.write(body, true)
}

func (t *configTree) insert(key string, it item) {
	segs := strings.Split(key, ".")
	for _, s := range segs {
		if !hclsyntax.ValidIdentifier(s) {
			t.flat[key] = it
			return
		}
	}
	if segs[0] == "settings" {
		t.flat[key] = it // settings at the top of a component block is the flat map
		return
	}
	n := t
	for _, s := range segs[:len(segs)-1] {
		if _, leaf := n.attrs[s]; leaf {
			t.flat[key] = it
			return
		}
		if n.kids[s] == nil {
			n.kids[s] = newTree()
		}
		n = n.kids[s]
	}
	last := segs[len(segs)-1]
	if _, section := n.kids[last]; section {
		t.flat[key] = it
		return
	}
	n.attrs[last] = it
}

func (t *configTree) write(body *hclwrite.Body, top bool) {
	for _, n := range sortedKeys(t.attrs) {
		setAttr(body, n, t.attrs[n])
	}
	if top && len(t.flat) > 0 {
		var items []hclwrite.ObjectAttrTokens
		for _, k := range sortedKeys(t.flat) {
			it := t.flat[k]
			items = append(items, hclwrite.ObjectAttrTokens{
				Name:  hclwrite.TokensForValue(cty.StringVal(k)),
				Value: withComment(hclwrite.TokensForValue(it.lit.lit), commentOf(it)),
			})
		}
		body.SetAttributeRaw("settings", hclwrite.TokensForObject(items))
	}
	for _, n := range sortedKeys(t.kids) {
		t.kids[n].write(body.AppendNewBlock(n, nil).Body(), false)
	}
}

// writeGroup writes a resource group's options in the order of
// docs/language.md: ru_per_sec, priority, burstable, users, query_limit,
// background.
func writeGroup(body *hclwrite.Body, g *layerGroup) {
	for _, a := range []string{"ru_per_sec", "priority", "burstable", "users"} {
		if it, ok := g.attrs[a]; ok {
			setAttr(body, a, it)
		}
	}
	for _, b := range []struct {
		name string
		blk  *block
	}{{"query_limit", g.queryLimit}, {"background", g.background}} {
		if b.blk == nil {
			continue
		}
		bb := body.AppendNewBlock(b.name, nil).Body()
		for _, n := range b.blk.names {
			setAttr(bb, n, item{lit: b.blk.attrs[n]})
		}
	}
}

// setAttr writes name = value # comment.
func setAttr(body *hclwrite.Body, name string, it item) {
	if it.lit.ref != "" {
		body.SetAttributeRaw(name, withComment(refTokens(it.lit.ref), "a credential: from the sensitive variable above, never imported"))
		return
	}
	body.SetAttributeRaw(name, withComment(hclwrite.TokensForValue(it.lit.lit), commentOf(it)))
}

func commentOf(it item) string {
	if it.lit.bare {
		return ""
	}
	ds := it.dflts
	if len(ds) == 0 {
		ds = []defaultInfo{it.lit.dflt}
	}
	return comment(ds)
}

// withComment appends "# text" to the tokens of a value.
func withComment(toks hclwrite.Tokens, text string) hclwrite.Tokens {
	text = commentText(text)
	if text == "" {
		return toks
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte("# " + text), SpacesBefore: 1})
}

// commentText keeps a comment on one line and bounded, whatever it quotes.
func commentText(s string) string {
	const max = 240
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		b.WriteRune(r)
	}
	out := strings.TrimSpace(b.String())
	if r := []rune(out); len(r) > max {
		out = string(r[:max]) + "…"
	}
	return out
}

// newlineIfNotEmpty separates top-level blocks with a blank line.
func newlineIfNotEmpty(body *hclwrite.Body) {
	if len(body.Attributes()) > 0 || len(body.Blocks()) > 0 {
		body.AppendNewline()
	}
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// comments writes "# line" lines (a file's header, a cluster block's notes).
func comments(body *hclwrite.Body, lines ...string) {
	for _, l := range lines {
		body.AppendUnstructuredTokens(hclwrite.Tokens{
			{Type: hclsyntax.TokenComment, Bytes: []byte(strings.TrimRight("# "+commentText(l), " ") + "\n")},
		})
	}
}

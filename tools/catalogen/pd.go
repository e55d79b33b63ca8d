package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/internal/upstream"
)

// The PD walk: from server/config.Config, follow the json tags of every
// field (what /pd/api/v1/config returns and SHOW CONFIG flattens). A key is
// online when PD's config update API (server/api/config.go updateConfig)
// accepts it: a section whose handler calls jsonutil.AddKeyValue on a
// config field takes that struct's top-level keys; one that calls
// jsonutil.MergeJSONObject takes every nested key; the log handler takes
// only log.level and the cluster-version handler only cluster-version.
// Defaults come from the Adjust/adjust methods: configutil.AdjustX(&c.F, v)
// and assignments guarded by !meta.IsDefined("key").

const pdModule = "github.com/tikv/pd/"

type goPkg struct {
	dir     string
	files   []*ast.File
	types   map[string]*ast.TypeSpec
	typeOf  map[string]*ast.File // type name → file (for its imports)
	values  map[string]ast.Expr  // package-level const/var → value
	valueOf map[string]*ast.File
	// defaults[type][field path] is the default expression set by the type's
	// methods ("Log.Format" for &c.Log.Format).
	defaults map[string]map[string]ast.Expr
	// marshalsJSON names the types with their own MarshalJSON method: their
	// Go type does not say how the config API prints them.
	marshalsJSON map[string]bool
}

type pdSnapshot struct {
	r    *repo
	tag  string
	pkgs map[string]*goPkg // dir → package
	fset *token.FileSet
	warn func(string)
	dirs map[string][]treeEntry
}

func newPDSnapshot(r *repo, tag string, warn func(string)) (*pdSnapshot, error) {
	s := &pdSnapshot{r: r, tag: tag, pkgs: map[string]*goPkg{}, fset: token.NewFileSet(), warn: warn, dirs: map[string][]treeEntry{}}
	all, err := r.files(tag, "", ".go")
	if err != nil {
		return nil, err
	}
	for _, e := range all {
		if strings.HasSuffix(e.path, "_test.go") {
			continue
		}
		dir := e.path[:strings.LastIndex(e.path, "/")+1]
		s.dirs[dir] = append(s.dirs[dir], e)
	}
	return s, nil
}

// pkg loads the package in dir ("server/config/").
func (s *pdSnapshot) pkg(dir string) (*goPkg, error) {
	if p, ok := s.pkgs[dir]; ok {
		return p, nil
	}
	p := &goPkg{dir: dir, types: map[string]*ast.TypeSpec{}, typeOf: map[string]*ast.File{}, values: map[string]ast.Expr{},
		valueOf: map[string]*ast.File{}, defaults: map[string]map[string]ast.Expr{}, marshalsJSON: map[string]bool{}}
	for _, e := range s.dirs[dir] {
		src, err := s.r.blob(e.blob)
		if err != nil {
			return nil, fmt.Errorf("pd@%s: %s: %w", s.tag, e.path, err)
		}
		f, err := parser.ParseFile(s.fset, e.path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("pd@%s: %w", s.tag, err)
		}
		p.files = append(p.files, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						p.types[sp.Name.Name] = sp
						p.typeOf[sp.Name.Name] = f
					case *ast.ValueSpec:
						for i, n := range sp.Names {
							if i < len(sp.Values) {
								p.values[n.Name] = sp.Values[i]
								p.valueOf[n.Name] = f
							}
						}
					}
				}
			case *ast.FuncDecl:
				p.collectDefaults(d)
				if name := receiverType(d); name != "" && d.Name.Name == "MarshalJSON" {
					p.marshalsJSON[name] = true
				}
			}
		}
	}
	p.collectDeprecatedFlags()
	s.pkgs[dir] = p
	return p, nil
}

// collectDeprecatedFlags reads PD's renamed booleans: a type's
// migrateConfigurationMap pairs each deprecated disable-X field with its
// enable-X replacement, and parseDeprecatedFlag makes enable-X true when
// neither is set ("return true, nil // use default value true") and resets
// disable-X to false (tikv/pd pkg/schedule/config/config.go Adjust).
func (p *goPkg) collectDeprecatedFlags() {
	defaultTrue := false
	for _, f := range p.files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "parseDeprecatedFlag" && fn.Body != nil {
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 2 {
						if id, ok := r.Results[0].(*ast.Ident); ok && id.Name == "true" {
							if nl, ok := r.Results[1].(*ast.Ident); ok && nl.Name == "nil" {
								defaultTrue = true
							}
						}
					}
					return true
				})
			}
		}
	}
	if !defaultTrue {
		return
	}
	for _, f := range p.files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "migrateConfigurationMap" || fn.Recv == nil || fn.Body == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			id, ok := typ.(*ast.Ident)
			if !ok {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				pair, ok := n.(*ast.CompositeLit)
				if !ok || len(pair.Elts) != 2 {
					return true
				}
				for i, val := range []string{"false", "true"} {
					if u, ok := pair.Elts[i].(*ast.UnaryExpr); ok {
						if sel, ok := u.X.(*ast.SelectorExpr); ok {
							if p.defaults[id.Name] == nil {
								p.defaults[id.Name] = map[string]ast.Expr{}
							}
							p.defaults[id.Name][sel.Sel.Name] = ast.NewIdent(val)
						}
					}
				}
				return false
			})
		}
	}
}

// receiverType is the name of a method's receiver type ("" for a function).
func receiverType(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) != 1 {
		return ""
	}
	typ := fn.Recv.List[0].Type
	if st, ok := typ.(*ast.StarExpr); ok {
		typ = st.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// collectDefaults reads configutil.AdjustX(&c.F, v) calls and
// `if !meta.IsDefined("k") { c.F = v }` assignments of a method.
func (p *goPkg) collectDefaults(fn *ast.FuncDecl) {
	if fn.Recv == nil || len(fn.Recv.List) != 1 || len(fn.Recv.List[0].Names) != 1 || fn.Body == nil {
		return
	}
	recv := fn.Recv.List[0].Names[0].Name
	typ := fn.Recv.List[0].Type
	if st, ok := typ.(*ast.StarExpr); ok {
		typ = st.X
	}
	id, ok := typ.(*ast.Ident)
	if !ok {
		return
	}
	m := p.defaults[id.Name]
	if m == nil {
		m = map[string]ast.Expr{}
		p.defaults[id.Name] = m
	}
	set := func(path string, v ast.Expr) {
		if _, seen := m[path]; !seen && !mentions(v, recv) {
			m[path] = v
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name := callName(n.Fun)
			if (strings.HasPrefix(name, "Adjust") || strings.HasPrefix(name, "adjust")) && len(n.Args) == 2 && name != "adjust" && name != "Adjust" {
				if u, ok := n.Args[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
					if path, ok := fieldPath(u.X, recv); ok {
						set(path, n.Args[1])
					}
				}
			}
		case *ast.IfStmt:
			if isNotDefined(n.Cond) {
				for _, st := range n.Body.List {
					if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
						if path, ok := fieldPath(as.Lhs[0], recv); ok {
							set(path, as.Rhs[0])
						}
					}
				}
			}
		}
		return true
	})
}

func callName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// isNotDefined matches `!meta.IsDefined("k")` (possibly && other terms).
func isNotDefined(e ast.Expr) bool {
	switch c := e.(type) {
	case *ast.UnaryExpr:
		if call, ok := c.X.(*ast.CallExpr); ok && c.Op == token.NOT && callName(call.Fun) == "IsDefined" {
			return true
		}
	case *ast.BinaryExpr:
		return (c.Op == token.LAND || c.Op == token.LOR) && (isNotDefined(c.X) || isNotDefined(c.Y))
	}
	return false
}

// fieldPath turns c.A.B into "A.B" when c is the receiver.
func fieldPath(e ast.Expr, recv string) (string, bool) {
	var parts []string
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			parts = append([]string{x.Sel.Name}, parts...)
			e = x.X
			continue
		case *ast.Ident:
			if x.Name == recv && len(parts) > 0 {
				return strings.Join(parts, "."), true
			}
		}
		return "", false
	}
}

func mentions(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// importDir maps an import path of f's package to a repository directory,
// or "" for a module outside the repository.
func importDir(f *ast.File, alias string) (string, string) {
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		if name == alias {
			if strings.HasPrefix(path, pdModule) {
				return strings.TrimPrefix(path, pdModule) + "/", path
			}
			return "", path
		}
	}
	return "", ""
}

// pdSection is how the update API treats a top-level section.
type pdSection struct {
	nested bool   // MergeJSONObject: nested keys too
	only   string // a single accepted key ("log.level", "cluster-version")
}

// pdUpdateSections reads server/api/config.go's updateConfig: each case of
// its switch on the key's first segment is a section the API accepts, and
// the key argument it hands on says which keys: kp[len(kp)-1] (the last
// segment: the section struct's top-level keys, jsonutil.AddKeyValue),
// kp[1:] (the whole path: nested keys, jsonutil.MergeJSONObject), kp (the
// log handler, which takes only "level"), or none (cluster-version, the
// section key itself). A case without a handler ("label-property") is not
// accepted.
func (s *pdSnapshot) pdUpdateSections() (map[string]pdSection, error) {
	p, err := s.pkg("server/api/")
	if err != nil {
		return nil, err
	}
	methods := map[string]*ast.FuncDecl{}
	var update *ast.FuncDecl
	for _, f := range p.files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
				methods[fn.Name.Name] = fn
				if fn.Name.Name == "updateConfig" {
					update = fn
				}
			}
		}
	}
	if update == nil {
		return nil, fmt.Errorf("pd@%s: server/api: no updateConfig method", s.tag)
	}
	out := map[string]pdSection{}
	ast.Inspect(update.Body, func(n ast.Node) bool {
		cc, ok := n.(*ast.CaseClause)
		if !ok {
			return true
		}
		var call *ast.CallExpr
		ast.Inspect(&ast.BlockStmt{List: cc.Body}, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && call == nil {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "update") {
					call = c
				}
			}
			return call == nil
		})
		if call == nil {
			return false // no handler: not changeable
		}
		handler := call.Fun.(*ast.SelectorExpr).Sel.Name
		for _, e := range cc.List {
			lit, ok := e.(*ast.BasicLit)
			if !ok {
				continue
			}
			section, _ := strconv.Unquote(lit.Value)
			sec, ok := keyArgument(call)
			switch {
			case !ok:
				s.warn(fmt.Sprintf("pd@%s: update API section %q: cannot tell which keys %s takes", s.tag, section, handler))
				continue
			case sec.only == "kp":
				if fn := methods[handler]; fn == nil || !bodyHasString(fn, "level") {
					s.warn(fmt.Sprintf("pd@%s: %s no longer checks for \"level\"; log keys not derived", s.tag, handler))
					continue
				}
				sec.only = section + ".level"
			case sec.only == "self":
				sec.only = section
			}
			out[section] = sec
		}
		return false
	})
	if len(out) == 0 {
		return nil, fmt.Errorf("pd@%s: server/api/config.go updateConfig: no sections found", s.tag)
	}
	return out, nil
}

// keyArgument reads how an update handler is given the key.
func keyArgument(call *ast.CallExpr) (pdSection, bool) {
	for _, a := range call.Args {
		switch x := a.(type) {
		case *ast.SliceExpr: // kp[1:]
			return pdSection{nested: true}, true
		case *ast.IndexExpr: // kp[len(kp)-1]
			return pdSection{}, true
		case *ast.Ident:
			if x.Name == "kp" {
				return pdSection{only: "kp"}, true
			}
		}
	}
	// no key at all: the section is itself the key (cluster-version)
	for _, a := range call.Args {
		if id, ok := a.(*ast.Ident); ok && id.Name == "key" {
			return pdSection{}, false
		}
	}
	return pdSection{only: "self"}, true
}

func bodyHasString(fn *ast.FuncDecl, want string) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if v, _ := strconv.Unquote(lit.Value); v == want {
				found = true
			}
		}
		return !found
	})
	return found
}

// jsonTag returns a field's json name and options; name "-" means skipped.
func jsonTag(f *ast.Field) (string, []string) {
	if f.Tag == nil {
		if len(f.Names) > 0 {
			return f.Names[0].Name, nil
		}
		return "", nil
	}
	raw, _ := strconv.Unquote(f.Tag.Value)
	tag, ok := reflect.StructTag(raw).Lookup("json")
	if !ok {
		if len(f.Names) > 0 {
			return f.Names[0].Name, nil
		}
		return "", nil
	}
	parts := strings.Split(tag, ",")
	if parts[0] == "" && len(f.Names) > 0 {
		parts[0] = f.Names[0].Name
	}
	return parts[0], parts[1:]
}

// walkPD returns every key of PD's config at the snapshot's tag.
func walkPD(s *pdSnapshot) (map[string]*keyFacts, []prefixFacts, error) {
	sections, err := s.pdUpdateSections()
	if err != nil {
		return nil, nil, err
	}
	p, err := s.pkg("server/config/")
	if err != nil {
		return nil, nil, err
	}
	w := &pdWalker{s: s, out: map[string]*keyFacts{}, sections: sections}
	ts := p.types["Config"]
	w.walk(p, p.typeOf["Config"], ts.Type.(*ast.StructType), "Config", "", nil, 0)
	for sec, m := range sections {
		if m.only != "" {
			if kf, ok := w.out[m.only]; ok {
				kf.online = true
			} else if m.only == sec+".level" {
				// log.Config is github.com/pingcap/log's: its level key is known from the handler.
				def := "info"
				w.out[m.only] = &keyFacts{key: m.only, kind: upstream.KindString, online: true, path: "server/api/config.go", def: w.logDefault(&def)}
			}
		}
	}
	return w.out, w.prefixes, nil
}

// prefixFacts is a section whose keys the walk cannot list (a type from a
// module outside the repository).
type prefixFacts struct {
	prefix, path, reason string
	online               bool
}

type pdWalker struct {
	s        *pdSnapshot
	out      map[string]*keyFacts
	sections map[string]pdSection
	prefixes []prefixFacts
}

// logDefault: the default of log.level from Config.adjustLog when known.
func (w *pdWalker) logDefault(fallback *string) *string {
	p, _ := w.s.pkg("server/config/")
	if e, ok := p.defaults["Config"]["Log.Level"]; ok {
		if v, ok := w.evalString(p, p.valueOf, e); ok {
			return &v
		}
	}
	return nil
}

func (w *pdWalker) evalString(p *goPkg, _ map[string]*ast.File, e ast.Expr) (string, bool) {
	v, err := w.eval(p, e, 0)
	if err != nil || v.kind != rvString {
		return "", false
	}
	return v.s, true
}

// walk adds the keys of struct st (named typeName in package p, declared in
// file f) under prefix. inherited are defaults a parent's methods set on
// this struct's fields ("Format" from the parent's &c.Log.Format).
func (w *pdWalker) walk(p *goPkg, f *ast.File, st *ast.StructType, typeName, prefix string, inherited map[string]ast.Expr, depth int) {
	if depth > 8 {
		return
	}
	own := p.defaults[typeName]
	for _, fd := range st.Fields.List {
		name, opts := jsonTag(fd)
		if name == "-" || name == "" {
			continue
		}
		goName := ""
		if len(fd.Names) > 0 {
			goName = fd.Names[0].Name
		}
		if strings.HasSuffix(goName, "Deprecated") || !ast.IsExported(goName) && goName != "" {
			continue
		}
		// TiDB matches config names case-insensitively; a field without a
		// json tag shows its Go name
		key := strings.ToLower(name)
		if prefix != "" {
			key = prefix + "." + key
		}
		// defaults set on this field's subfields by this type's or the parent's methods
		sub := map[string]ast.Expr{}
		for path, e := range own {
			if rest, ok := strings.CutPrefix(path, goName+"."); ok {
				sub[rest] = e
			}
		}
		for path, e := range inherited {
			if rest, ok := strings.CutPrefix(path, goName+"."); ok {
				sub[rest] = e
			}
		}
		if len(fd.Names) == 0 { // embedded: flatten
			key = prefix
		}
		if w.walkStructField(p, f, fd.Type, key, sub, depth) {
			continue
		}
		kf := &keyFacts{key: key, path: p.dir + fileBase(w.s.fset, f), line: w.s.fset.Position(fd.Pos()).Line}
		kf.kind = w.kindOf(p, f, fd.Type)
		kf.joined = isStringSlice(fd.Type)
		if kf.kind == upstream.KindString && !isGoString(fd.Type) {
			kf.notes = append(kf.notes, upstream.Note{Text: textKindNote + exprText(w.s.fset, fd.Type),
				Source: upstream.Source{Repo: w.s.r.name, Path: kf.path, Ref: w.s.tag, Line: kf.line}})
		}
		for _, o := range opts {
			if o == "string" && kf.kind == upstream.KindBool {
				kf.stringBool = true
			}
		}
		kf.online = w.online(key)
		if e, ok := own[goName]; ok {
			w.setDefault(kf, p, e)
		} else if e, ok := inherited[goName]; ok {
			w.setDefault(kf, p, e)
		} else if kf.joined {
			z := "" // an empty StringSlice
			kf.def = &z
		} else if z, ok := zeroDefault(upstream.PD, kf.kind); ok && (kf.kind != upstream.KindString || isGoString(fd.Type)) {
			// not adjusted: the field keeps Go's zero value (a struct shown
			// as text, such as semver.Version, has no zero text to state)
			kf.def = &z
		}
		w.out[key] = kf
	}
}

func fileBase(fset *token.FileSet, f *ast.File) string {
	name := fset.Position(f.Pos()).Filename
	return name[strings.LastIndex(name, "/")+1:]
}

// online: the update API accepts the key.
func (w *pdWalker) online(key string) bool {
	sec, rest, ok := strings.Cut(key, ".")
	if !ok {
		return false
	}
	m, ok := w.sections[sec]
	if !ok || m.only != "" {
		return false
	}
	return m.nested || !strings.Contains(rest, ".")
}

// walkStructField recurses into a struct-typed field; it reports false for
// a leaf.
func (w *pdWalker) walkStructField(p *goPkg, f *ast.File, typ ast.Expr, key string, inherited map[string]ast.Expr, depth int) bool {
	if st, ok := typ.(*ast.StarExpr); ok {
		typ = st.X
	}
	switch t := typ.(type) {
	case *ast.Ident:
		ts, ok := p.types[t.Name]
		if !ok {
			return false
		}
		if st, ok := ts.Type.(*ast.StructType); ok {
			w.walk(p, p.typeOf[t.Name], st, t.Name, key, inherited, depth+1)
			return true
		}
	case *ast.SelectorExpr:
		alias, ok := t.X.(*ast.Ident)
		if !ok || pdScalar(alias.Name+"."+t.Sel.Name) != "" {
			return false
		}
		dir, path := importDir(f, alias.Name)
		if dir == "" {
			if strings.Contains(path, "/") && !strings.HasPrefix(path, "time") {
				w.prefixes = append(w.prefixes, prefixFacts{prefix: key + ".", path: p.dir + fileBase(w.s.fset, f),
					reason: "keys defined by " + path + " (outside tikv/pd)", online: false})
				return true
			}
			return false
		}
		q, err := w.s.pkg(dir)
		if err != nil {
			w.s.warn(err.Error())
			return false
		}
		ts, ok := q.types[t.Sel.Name]
		if !ok {
			return false
		}
		if st, ok := ts.Type.(*ast.StructType); ok {
			w.walk(q, q.typeOf[t.Sel.Name], st, t.Sel.Name, key, inherited, depth+1)
			return true
		}
	case *ast.StructType:
		w.walk(p, f, t, "", key, inherited, depth+1)
		return true
	}
	return false
}

// isStringSlice reports a typeutil.StringSlice field.
func isStringSlice(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "StringSlice"
}

// isGoString reports a field of type string (or a named string type of the
// same package).
func isGoString(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	return ok && id.Name == "string"
}

// pdScalar maps the named types PD config uses to kinds.
func pdScalar(name string) string {
	switch name {
	case "typeutil.ByteSize":
		return upstream.KindSize
	case "typeutil.Duration", "time.Duration":
		return upstream.KindDuration
	case "typeutil.StringSlice":
		return upstream.KindList
	case "semver.Version":
		return upstream.KindString
	}
	return ""
}

func (w *pdWalker) kindOf(p *goPkg, f *ast.File, typ ast.Expr) string {
	if st, ok := typ.(*ast.StarExpr); ok {
		typ = st.X
	}
	switch t := typ.(type) {
	case *ast.Ident:
		switch t.Name {
		case "bool":
			return upstream.KindBool
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
			return upstream.KindInt
		case "float32", "float64":
			return upstream.KindFloat
		case "string":
			return upstream.KindString
		}
		if p.marshalsJSON[t.Name] {
			return upstream.KindString // printed by its own MarshalJSON
		}
		if ts, ok := p.types[t.Name]; ok {
			return w.kindOf(p, p.typeOf[t.Name], ts.Type)
		}
	case *ast.SelectorExpr:
		if alias, ok := t.X.(*ast.Ident); ok {
			if k := pdScalar(alias.Name + "." + t.Sel.Name); k != "" {
				return k
			}
			if dir, _ := importDir(f, alias.Name); dir != "" {
				if q, err := w.s.pkg(dir); err == nil {
					if q.marshalsJSON[t.Sel.Name] {
						return upstream.KindString // printed by its own MarshalJSON
					}
					if ts, ok := q.types[t.Sel.Name]; ok {
						return w.kindOf(q, q.typeOf[t.Sel.Name], ts.Type)
					}
				}
			}
		}
	case *ast.ArrayType:
		return upstream.KindList
	case *ast.MapType:
		return upstream.KindMap
	}
	return upstream.KindString
}

func (w *pdWalker) setDefault(kf *keyFacts, p *goPkg, e ast.Expr) {
	v, err := w.eval(p, e, 0)
	if err != nil {
		kf.defExpr = exprText(w.s.fset, e)
		return
	}
	text, ok := renderPD(kf.kind, v)
	if !ok {
		kf.defExpr = exprText(w.s.fset, e)
		return
	}
	if kf.joined && v.kind == rvList {
		// typeutil.StringSlice marshals as one comma-joined string
		// (tikv/pd pkg/utils/typeutil/string_slice.go)
		var items []string
		for _, it := range v.list {
			items = append(items, it.s)
		}
		text = strings.Join(items, ",")
	}
	kf.def = &text
}

func exprText(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	_ = printExpr(&b, e)
	return b.String()
}

// printExpr prints the expression forms defaults use, compactly.
func printExpr(b *strings.Builder, e ast.Expr) error {
	switch x := e.(type) {
	case *ast.Ident:
		b.WriteString(x.Name)
	case *ast.BasicLit:
		b.WriteString(x.Value)
	case *ast.SelectorExpr:
		_ = printExpr(b, x.X)
		b.WriteString("." + x.Sel.Name)
	case *ast.BinaryExpr:
		_ = printExpr(b, x.X)
		b.WriteString(" " + x.Op.String() + " ")
		_ = printExpr(b, x.Y)
	case *ast.CallExpr:
		_ = printExpr(b, x.Fun)
		b.WriteString("(")
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			_ = printExpr(b, a)
		}
		b.WriteString(")")
	case *ast.ParenExpr:
		b.WriteString("(")
		_ = printExpr(b, x.X)
		b.WriteString(")")
	case *ast.UnaryExpr:
		b.WriteString(x.Op.String())
		_ = printExpr(b, x.X)
	case *ast.CompositeLit:
		b.WriteString("{…}")
	default:
		b.WriteString("…")
	}
	return nil
}

var goUnits = map[string]int64{
	"time.Nanosecond": 1, "time.Microsecond": 1e3, "time.Millisecond": 1e6, "time.Second": 1e9, "time.Minute": 60e9, "time.Hour": 3600e9,
	"units.KiB": 1 << 10, "units.MiB": 1 << 20, "units.GiB": 1 << 30, "units.TiB": 1 << 40, "units.PiB": 1 << 50,
	"units.KB": 1e3, "units.MB": 1e6, "units.GB": 1e9, "units.TB": 1e12, "units.PB": 1e15,
}

// eval evaluates a Go constant expression of PD's config: literals,
// package-level constants (also of imported repository packages), time
// and go-units constants, arithmetic and conversions.
func (w *pdWalker) eval(p *goPkg, e ast.Expr, depth int) (rval, error) {
	if depth > 12 {
		return rval{}, errNotLiteral
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		return evalBasicLit(x)
	case *ast.Ident:
		switch x.Name {
		case "true", "false":
			return rval{kind: rvBool, s: x.Name}, nil
		}
		if v, ok := p.values[x.Name]; ok {
			return w.eval(p, v, depth+1)
		}
	case *ast.SelectorExpr:
		return w.evalSelector(p, x, depth)
	case *ast.ParenExpr:
		return w.eval(p, x.X, depth+1)
	case *ast.UnaryExpr:
		v, err := w.eval(p, x.X, depth+1)
		if err != nil || x.Op != token.SUB {
			return rval{}, errNotLiteral
		}
		return arith("-", rval{kind: rvInt, i: big.NewInt(0)}, v)
	case *ast.BinaryExpr:
		return w.evalBinary(p, x, depth)
	case *ast.CallExpr:
		return w.evalConversion(p, x, depth)
	case *ast.CompositeLit:
		return w.evalList(p, x, depth)
	}
	return rval{}, errNotLiteral
}

func evalBasicLit(x *ast.BasicLit) (rval, error) {
	switch x.Kind {
	case token.INT:
		n, ok := new(big.Int).SetString(strings.ReplaceAll(x.Value, "_", ""), 0)
		if ok {
			return rval{kind: rvInt, i: n}, nil
		}
	case token.FLOAT:
		if f, err := strconv.ParseFloat(x.Value, 64); err == nil {
			return rval{kind: rvFloat, f: f}, nil
		}
	case token.STRING:
		if s, err := strconv.Unquote(x.Value); err == nil {
			return rval{kind: rvString, s: s}, nil
		}
	}
	return rval{}, errNotLiteral
}

// evalSelector: time.Hour, units.GiB, or a constant of an imported package.
func (w *pdWalker) evalSelector(p *goPkg, x *ast.SelectorExpr, depth int) (rval, error) {
	alias, ok := x.X.(*ast.Ident)
	if !ok {
		return rval{}, errNotLiteral
	}
	if n, ok := goUnits[alias.Name+"."+x.Sel.Name]; ok {
		k := rvInt
		if alias.Name == "time" {
			k = rvDuration
		}
		return rval{kind: k, i: big.NewInt(n)}, nil
	}
	for _, f := range p.files {
		if dir, _ := importDir(f, alias.Name); dir != "" {
			if q, err := w.s.pkg(dir); err == nil {
				if v, ok := q.values[x.Sel.Name]; ok {
					return w.eval(q, v, depth+1)
				}
			}
			break
		}
	}
	return rval{}, errNotLiteral
}

func (w *pdWalker) evalBinary(p *goPkg, x *ast.BinaryExpr, depth int) (rval, error) {
	a, err := w.eval(p, x.X, depth+1)
	if err != nil {
		return a, err
	}
	b, err := w.eval(p, x.Y, depth+1)
	if err != nil {
		return b, err
	}
	switch x.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO:
		return arith(x.Op.String(), a, b)
	case token.SHL:
		if a.kind == rvInt && b.kind == rvInt && b.i.IsInt64() && b.i.Int64() < 64 {
			return rval{kind: rvInt, i: new(big.Int).Lsh(a.i, uint(b.i.Int64()))}, nil
		}
	}
	return rval{}, errNotLiteral
}

// evalConversion: typeutil.NewDuration(d), typeutil.ByteSize(n), int64(n), float64(n).
func (w *pdWalker) evalConversion(p *goPkg, x *ast.CallExpr, depth int) (rval, error) {
	if len(x.Args) != 1 {
		return rval{}, errNotLiteral
	}
	v, err := w.eval(p, x.Args[0], depth+1)
	if err != nil {
		return v, err
	}
	switch callName(x.Fun) {
	case "NewDuration", "Duration":
		if v.kind == rvInt || v.kind == rvDuration {
			return rval{kind: rvDuration, i: v.i}, nil
		}
	case "ByteSize", "int", "int64", "uint64", "uint", "int32", "uint32":
		if v.kind == rvInt {
			return v, nil
		}
	case "float64":
		if v.kind == rvInt {
			f, _ := new(big.Float).SetInt(v.i).Float64()
			return rval{kind: rvFloat, f: f}, nil
		}
		return v, nil
	}
	return rval{}, errNotLiteral
}

// evalList: []string{...} or typeutil.StringSlice{...}.
func (w *pdWalker) evalList(p *goPkg, x *ast.CompositeLit, depth int) (rval, error) {
	_, isArray := x.Type.(*ast.ArrayType)
	sel, isSel := x.Type.(*ast.SelectorExpr)
	if !isArray && x.Type != nil && !(isSel && sel.Sel.Name == "StringSlice") {
		return rval{}, errNotLiteral
	}
	out := rval{kind: rvList}
	for _, el := range x.Elts {
		v, err := w.eval(p, el, depth+1)
		if err != nil {
			return v, err
		}
		out.list = append(out.list, v)
	}
	return out, nil
}

// renderPD writes a default the way PD's config JSON shows it.
func renderPD(kind string, v rval) (string, bool) {
	switch kind {
	case upstream.KindDuration:
		if (v.kind == rvDuration || v.kind == rvInt) && v.i.IsInt64() {
			return time.Duration(v.i.Int64()).String(), true
		}
	case upstream.KindSize:
		if v.kind == rvInt && v.i.Sign() >= 0 && v.i.IsUint64() {
			return upstream.PDByteSize(v.i.Uint64()), true
		}
	case upstream.KindInt:
		if v.kind == rvInt {
			return v.i.String(), true
		}
	case upstream.KindFloat:
		switch v.kind {
		case rvFloat:
			return formatJSONFloat(v.f), true
		case rvInt:
			f, _ := new(big.Float).SetInt(v.i).Float64()
			return formatJSONFloat(f), true
		}
	case upstream.KindBool:
		if v.kind == rvBool {
			return v.s, true
		}
	case upstream.KindString:
		if v.kind == rvString {
			return v.s, true
		}
	case upstream.KindList:
		return renderStringList(v)
	}
	return "", false
}

package main

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/internal/upstream"
)

// The TiKV walk: from TikvConfig (src/config/mod.rs), follow every field.
// A field of an OnlineConfig struct is online unless #[online_config(skip)]
// (restart-only) or #[online_config(hidden)]; #[online_config(submodule)]
// recurses and keeps the parent's mode; a skipped or hidden struct field is
// walked too, all of it restart-only, so every key TiKV's config file and
// SHOW CONFIG have is known. Keys are serde names: #[serde(rename)],
// #[serde(rename_all = "kebab-case")], #[serde(flatten)]; #[serde(skip)] and
// skip_serializing fields are not shown by SHOW CONFIG and are left out.

// textKindNote marks a key whose type has its own serialisation (a newtype,
// a custom Serialize, a serde(with) module whose spellings are not read):
// its values are compared as text.
const textKindNote = "compared as text: no kind is read from the type "

// keyFacts is what one tag says about one key.
type keyFacts struct {
	key        string
	kind       string
	values     []string
	codes      []string // numeric enums: the number each of values is printed as (numeric_enum.go)
	online     bool
	hidden     bool
	class      string // upstream.ClassIdentity, ClassPath; "" for a setting (class.go)
	nullable   bool
	stringBool bool
	// joined: a PD typeutil.StringSlice, whose JSON is one comma-joined string
	joined     bool
	def        *string
	defExpr    string
	deprecated bool
	scope      string
	session    bool
	persisted  bool
	unit, rng  string
	path       string
	line       int
	notes      []upstream.Note
	introduced string // variables: the docs' version mark
}

// patchDefault: the docs say a default changed in a patch release.
type patchDefault struct {
	version  string // the patch release that changed it
	old, new string
}

// rustSnapshot is TiKV's source at one tag, parsed lazily.
type rustSnapshot struct {
	r     *repo
	tag   string
	cache map[string]*rustFile // blob id → parsed (shared across tags)
	files map[string]*rustFile // path → parsed
	paths []string             // the files found by grep, parsed up front
	// byPath maps every .rs path of the tree to its blob id.
	byPath map[string]string
	// crates are the crate directories of the tree ("components/raftstore/").
	crates map[string]bool
	warn   func(string)
}

func newRustSnapshot(r *repo, tag string, cache map[string]*rustFile, warn func(string)) (*rustSnapshot, error) {
	s := &rustSnapshot{r: r, tag: tag, cache: cache, files: map[string]*rustFile{}, warn: warn}
	entries, err := r.files(tag, "", ".rs")
	if err != nil {
		return nil, err
	}
	byPath := map[string]string{}
	s.byPath = byPath
	s.crates = map[string]bool{}
	for _, e := range entries {
		byPath[e.path] = e.blob
		if strings.HasPrefix(e.path, "components/") {
			s.crates[crateDirOf(e.path)] = true
		}
	}
	paths, err := r.grepFiles(tag, []string{"Deserialize", "OnlineConfig", "pub const ", "macro_rules! cf_config"}, "src", "components")
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if !strings.HasSuffix(p, ".rs") || isTestPath(p) {
			continue
		}
		blob, ok := byPath[p]
		if !ok {
			continue
		}
		f, ok := cache[blob]
		if !ok {
			src, err := r.blob(blob)
			if err != nil {
				return nil, fmt.Errorf("tikv@%s: %s: %w", tag, p, err)
			}
			f, err = parseRustFile(p, string(src))
			if err != nil {
				warn(fmt.Sprintf("tikv@%s: %v (file skipped)", tag, err))
				continue
			}
			cache[blob] = f
		}
		s.files[p] = f
		s.paths = append(s.paths, p)
	}
	return s, nil
}

func isTestPath(p string) bool {
	for _, seg := range []string{"/tests/", "/benches/", "/fuzz/", "/examples/", "components/test_", "/test_util", "testdata"} {
		if strings.Contains(p, seg) {
			return true
		}
	}
	return strings.HasPrefix(p, "tests/")
}

// crateDirOf is the crate directory a file belongs to ("components/raftstore/", "src/" for tikv itself).
func crateDirOf(path string) string {
	if strings.HasPrefix(path, "components/") {
		parts := strings.SplitN(path, "/", 3)
		if len(parts) >= 2 {
			return "components/" + parts[1] + "/"
		}
	}
	return ""
}

// crateRoot is the lib.rs of the crate a path's first segment names
// ("raftstore" → components/raftstore/src/lib.rs), "" for std and crates
// outside the repository.
func (s *rustSnapshot) crateRoot(name string, from *rustFile) string {
	switch name {
	case "crate":
		if d := crateDirOf(from.path); d != "" {
			return d + "src/lib.rs"
		}
		return "src/lib.rs"
	case "tikv":
		return "src/lib.rs"
	}
	for _, cand := range []string{name, strings.ReplaceAll(name, "_", "-")} {
		if s.crates["components/"+cand+"/"] {
			return "components/" + cand + "/src/lib.rs"
		}
	}
	return ""
}

// moduleDir is where a file's child modules live: src/server/mod.rs →
// src/server/, src/store.rs → src/store/, src/lib.rs → src/.
func moduleDir(path string) string {
	dir := path[:strings.LastIndex(path, "/")+1]
	base := path[len(dir):]
	if base == "mod.rs" || base == "lib.rs" {
		return dir
	}
	return dir + strings.TrimSuffix(base, ".rs") + "/"
}

// childModule is the file of module seg under the module file parent.
func (s *rustSnapshot) childModule(parent, seg string) string {
	dir := moduleDir(parent)
	for _, cand := range []string{dir + seg + ".rs", dir + seg + "/mod.rs"} {
		if _, ok := s.byPath[cand]; ok {
			return cand
		}
	}
	return ""
}

// file returns the parsed file at path, parsing it on demand.
func (s *rustSnapshot) file(path string) *rustFile {
	if f, ok := s.files[path]; ok {
		return f
	}
	blob, ok := s.byPath[path]
	if !ok {
		return nil
	}
	f, ok := s.cache[blob]
	if !ok {
		src, err := s.r.blob(blob)
		if err != nil {
			s.warn(fmt.Sprintf("tikv@%s: %s: %v", s.tag, path, err))
			return nil
		}
		f, err = parseRustFile(path, string(src))
		if err != nil {
			s.warn(fmt.Sprintf("tikv@%s: %v (file skipped)", s.tag, err))
			return nil
		}
		s.cache[blob] = f
	}
	s.files[path] = f
	return f
}

// resolveItem finds the item a type name denotes in file f: defined in f,
// or imported by a use declaration (followed through module files and
// re-exports), or else the only item of that name in f's crate or the tree.
func resolveItem[T any](s *rustSnapshot, f *rustFile, name string, get func(*rustFile) map[string]T) (T, *rustFile, bool) {
	var zero T
	if strings.Contains(name, "::") {
		return resolvePath(s, f, strings.Split(name, "::"), get, 0)
	}
	if it, ok := get(f)[name]; ok {
		return it, f, true
	}
	if full, ok := f.uses[name]; ok {
		if it, rf, ok := resolvePath(s, f, strings.Split(full, "::"), get, 0); ok {
			return it, rf, true
		}
	}
	for _, scope := range []string{crateDirOf(f.path), ""} {
		var found []*rustFile
		for _, p := range s.paths {
			if strings.HasPrefix(p, scope) && (scope != "" || crateDirOf(p) != "" || strings.HasPrefix(p, "src/")) {
				if _, ok := get(s.files[p])[name]; ok {
					found = append(found, s.files[p])
				}
			}
		}
		if len(found) == 1 {
			return get(found[0])[name], found[0], true
		}
	}
	return zero, nil, false
}

// resolvePath resolves a::b::Name from file f: the module path is walked from
// the crate root (or self/super), and the item is looked up in the module
// file, following its use declarations (re-exports) and globs.
func resolvePath[T any](s *rustSnapshot, f *rustFile, path []string, get func(*rustFile) map[string]T, depth int) (T, *rustFile, bool) {
	var zero T
	if depth > 8 {
		return zero, nil, false
	}
	name := path[len(path)-1]
	if len(path) == 1 {
		if it, ok := get(f)[name]; ok {
			return it, f, true
		}
		if full, ok := f.uses[name]; ok && full != name {
			return resolvePath(s, f, strings.Split(full, "::"), get, depth+1)
		}
		for _, g := range f.globs {
			if it, rf, ok := resolvePath(s, f, append(strings.Split(g, "::"), name), get, depth+1); ok {
				return it, rf, true
			}
		}
		return zero, nil, false
	}
	var mod string
	rest := path[1 : len(path)-1]
	switch path[0] {
	case "self":
		mod = f.path
	case "super":
		dir := strings.TrimSuffix(moduleDir(f.path), "/")
		dir = dir[:strings.LastIndex(dir, "/")+1]
		for _, cand := range []string{strings.TrimSuffix(dir, "/") + ".rs", dir + "mod.rs", dir + "lib.rs"} {
			if _, ok := s.byPath[cand]; ok {
				mod = cand
				break
			}
		}
	default:
		if full, ok := f.uses[path[0]]; ok && full != path[0] {
			return resolvePath(s, f, append(strings.Split(full, "::"), path[1:]...), get, depth+1)
		}
		mod = s.crateRoot(path[0], f)
		if mod == "" {
			if m := s.childModule(f.path, path[0]); m != "" { // a child module of f
				mod = m
			} else {
				return zero, nil, false // std or a crate outside the repository
			}
		}
	}
	for i, seg := range rest {
		if mod == "" {
			return zero, nil, false
		}
		next := s.childModule(mod, seg)
		if next == "" {
			// `pub use other::module` or an inline module: follow a re-export
			if mf := s.file(mod); mf != nil {
				if full, ok := mf.uses[seg]; ok {
					return resolvePath(s, mf, append(strings.Split(full, "::"), path[2+i:]...), get, depth+1)
				}
			}
			return zero, nil, false
		}
		mod = next
	}
	mf := s.file(mod)
	if mf == nil {
		return zero, nil, false
	}
	return resolvePath(s, mf, []string{name}, get, depth+1)
}

// The walk.

type walkMode int

const (
	modeOnline walkMode = iota
	modeRestart
	modeHidden
)

type tikvWalker struct {
	s        *rustSnapshot
	out      map[string]*keyFacts
	prefixes []prefixFacts
	warn     func(string)
}

func modeText(m walkMode) string {
	switch m {
	case modeOnline:
		return "online"
	case modeHidden:
		return "hidden (#[online_config(hidden)])"
	}
	return "restart-only (#[online_config(skip)])"
}

// externalPath is the use path a type name was imported by.
func (s *rustSnapshot) externalPath(f *rustFile, name string) (string, bool) {
	if full, ok := f.uses[name]; ok {
		return full, true
	}
	return name, false
}

// walkTiKV returns every key of TiKV's config at the snapshot's tag, and the
// sections whose keys it cannot list.
func walkTiKV(s *rustSnapshot) (map[string]*keyFacts, []prefixFacts, error) {
	var root *rustStruct
	for _, p := range []string{"src/config/mod.rs", "src/config.rs"} {
		if f, ok := s.files[p]; ok {
			for _, n := range []string{"TikvConfig", "TiKvConfig"} {
				if st, ok := f.structs[n]; ok {
					root = st
				}
			}
		}
	}
	if root == nil {
		return nil, nil, fmt.Errorf("tikv@%s: no TikvConfig struct in src/config", s.tag)
	}
	w := &tikvWalker{s: s, out: map[string]*keyFacts{}, warn: s.warn}
	w.walk(root, "", "", modeOnline, 0)
	return w.out, w.prefixes, nil
}

func serdeName(field string, renameAll string) string {
	switch renameAll {
	case "kebab-case":
		return strings.ReplaceAll(field, "_", "-")
	case "lowercase":
		return strings.ToLower(field)
	case "UPPERCASE":
		return strings.ToUpper(field)
	case "SCREAMING_SNAKE_CASE":
		return strings.ToUpper(field)
	}
	return field
}

// variantName applies serde's rename_all to an enum variant (CamelCase).
func variantName(v string, renameAll string) string {
	words := splitCamel(v)
	switch renameAll {
	case "kebab-case":
		return strings.ToLower(strings.Join(words, "-"))
	case "snake_case":
		return strings.ToLower(strings.Join(words, "_"))
	case "lowercase":
		return strings.ToLower(v)
	case "UPPERCASE":
		return strings.ToUpper(v)
	case "SCREAMING_SNAKE_CASE":
		return strings.ToUpper(strings.Join(words, "_"))
	case "camelCase":
		return strings.ToLower(v[:1]) + v[1:]
	}
	return v
}

func splitCamel(s string) []string {
	var words []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			words = append(words, s[start:i])
			start = i
		}
	}
	return append(words, s[start:])
}

// walk adds the keys of st under prefix ("raftstore"); keyPrefix is put
// before each key's own name (serde_with's with_prefix!: "apply-").
func (w *tikvWalker) walk(st *rustStruct, prefix, keyPrefix string, mode walkMode, depth int) {
	if depth > 12 {
		w.warn(fmt.Sprintf("tikv@%s: %s: walk too deep at %q", w.s.tag, st.file.path, prefix))
		return
	}
	renameAll, _ := attrValue(st.attrs, "serde", "rename_all")
	def := w.defaultsOf(st)
	for _, fd := range st.fields {
		if attrFlag(fd.attrs, "serde", "skip") || attrFlag(fd.attrs, "serde", "skip_serializing") {
			continue
		}
		fmode := mode
		switch {
		case attrFlag(fd.attrs, "online_config", "hidden"):
			fmode = modeHidden
		case attrFlag(fd.attrs, "online_config", "skip") && mode == modeOnline:
			fmode = modeRestart
		}
		key := serdeName(fd.name, renameAll)
		if r, ok := attrValue(fd.attrs, "serde", "rename"); ok {
			key = r
		}
		key = keyPrefix + key
		full := key
		if prefix != "" {
			full = prefix + "." + key
		}
		typ, nullable := unwrapOption(fd.typ)
		flatten := attrFlag(fd.attrs, "serde", "flatten")
		withMod, with := attrValue(fd.attrs, "serde", "with")
		namePrefix, prefixed := st.file.prefixes[withMod]
		if !with || prefixed {
			if sub, _, ok := w.structType(st.file, typ); ok && sub != st {
				p, kp := full, ""
				if flatten {
					p, kp = prefix, keyPrefix+namePrefix
				}
				w.walk(sub, p, kp, fmode, depth+1)
				continue
			}
		}
		if flatten {
			// a struct from a crate outside tikv/tikv (raft_engine::Config):
			// its keys exist but cannot be listed
			full, _ := w.s.externalPath(st.file, typeName(typ))
			w.prefixes = append(w.prefixes, prefixFacts{prefix: prefix + ".", path: st.file.path, online: fmode == modeOnline,
				reason: "keys of " + full + " (a crate outside tikv/tikv), flattened into " + st.name + "; " + modeText(fmode)})
			continue
		}
		kf := &keyFacts{key: full, online: fmode == modeOnline, hidden: fmode == modeHidden, nullable: nullable,
			path: st.file.path, line: fd.line, deprecated: hasAttr(fd.attrs, "deprecated")}
		kf.kind, kf.values = w.kindOf(st.file, typ, fd.attrs)
		w.numericEnum(kf, fd.attrs)
		if kf.kind == upstream.KindString && scalarKinds[lastSeg(typeName(typ))] != upstream.KindString {
			kf.notes = append(kf.notes, upstream.Note{Text: textKindNote + tokText(typ),
				Source: upstream.Source{Repo: w.s.r.name, Path: st.file.path, Ref: w.s.tag, Line: fd.line}})
		}
		w.defaultOf(kf, st, def, fd, typ)
		if _, dup := w.out[full]; dup {
			w.warn(fmt.Sprintf("tikv@%s: key %s found twice", w.s.tag, full))
		}
		w.out[full] = kf
	}
}

// isScalarWrapper: a struct serialised as one value (a newtype such as
// ReadableSize, or a struct with a custom Serialize), not a table of keys.
func isScalarWrapper(st *rustStruct) bool {
	return len(st.fields) == 0 || !st.derives["Serialize"] && !st.derives["Deserialize"]
}

func unwrapOption(typ []rtoken) ([]rtoken, bool) {
	t := typ
	for len(t) > 0 && (t[0].is("&") || t[0].kind == tLifetime) {
		t = t[1:]
	}
	for _, wrap := range []string{"Option", "std::option::Option"} {
		n := len(strings.Split(wrap, "::"))*2 - 1
		if len(t) > n+1 && tokText(t[:n]) == wrap && t[n].is("<") && t[len(t)-1].is(">") {
			return t[n+1 : len(t)-1], true
		}
	}
	return t, false
}

func typeName(typ []rtoken) string {
	var parts []string
	for _, t := range typ {
		if t.is("<") {
			break
		}
		if t.kind == tIdent {
			parts = append(parts, t.text)
		}
	}
	return strings.Join(parts, "::")
}

func (w *tikvWalker) structType(f *rustFile, typ []rtoken) (*rustStruct, *rustFile, bool) {
	name := typeName(typ)
	if name == "" || scalarKinds[lastSeg(name)] != "" {
		return nil, nil, false
	}
	st, sf, ok := resolveItem(w.s, f, name, func(f *rustFile) map[string]*rustStruct { return f.structs })
	if !ok || isScalarWrapper(st) {
		return nil, nil, false
	}
	return st, sf, true
}

func lastSeg(name string) string { return name[strings.LastIndex(name, ":")+1:] }

var scalarKinds = map[string]string{
	"ReadableSize": upstream.KindSize, "RaftEngineReadableSize": upstream.KindSize,
	"ReadableDuration": upstream.KindDuration,
	"bool":             upstream.KindBool,
	"u8":               upstream.KindInt, "u16": upstream.KindInt, "u32": upstream.KindInt, "u64": upstream.KindInt, "usize": upstream.KindInt,
	"i8": upstream.KindInt, "i16": upstream.KindInt, "i32": upstream.KindInt, "i64": upstream.KindInt, "isize": upstream.KindInt,
	"NonZeroUsize": upstream.KindInt, "NonZeroU64": upstream.KindInt,
	"f32": upstream.KindFloat, "f64": upstream.KindFloat,
	"String": upstream.KindString, "PathBuf": upstream.KindString, "str": upstream.KindString,
	"Vec": upstream.KindList, "HashSet": upstream.KindList, "BTreeSet": upstream.KindList, "VecDeque": upstream.KindList,
	"HashMap": upstream.KindMap, "BTreeMap": upstream.KindMap,
	"ReadableSchedule": upstream.KindList,
}

func (w *tikvWalker) kindOf(f *rustFile, typ []rtoken, attrs []rustAttr) (string, []string) {
	if len(typ) > 0 && typ[0].is("[") {
		return upstream.KindList, nil
	}
	name := typeName(typ)
	if k := scalarKinds[lastSeg(name)]; k != "" {
		return k, nil
	}
	if alias, ok := f.aliases[name]; ok {
		return w.kindOf(f, alias, attrs)
	}
	if with, ok := attrValue(attrs, "serde", "with"); ok {
		if _, ok := w.numericModule(lastSeg(with)); ok {
			return upstream.KindInt, nil
		}
		if vals := w.serdeModuleValues(lastSeg(with)); len(vals) > 0 {
			return upstream.KindEnum, vals
		}
		return upstream.KindString, nil
	}
	if _, _, ok := resolveItem(w.s, f, name, func(f *rustFile) map[string]*rustStruct { return f.structs }); ok {
		return upstream.KindString, nil // a newtype with its own serialisation
	}
	if e, ef, ok := resolveItem(w.s, f, name, func(f *rustFile) map[string]*rustEnum { return f.enums }); ok {
		if vals := enumValues(e, ef); vals != nil {
			return upstream.KindEnum, vals
		}
	}
	return upstream.KindString, nil
}

// enumValues lists the spellings of a unit-variant enum: serde's when it
// derives Deserialize, else the strings its hand-written impls map each
// variant to (`Enum::Variant => "text"` in the same file); nil when it has
// data variants or the spellings cannot be read.
func enumValues(e *rustEnum, f *rustFile) []string {
	if !e.derives["Deserialize"] {
		m := f.variantStrings[e.name]
		var vals []string
		for _, v := range e.variants {
			s, ok := m[v.name]
			if !ok || v.hasData {
				return nil
			}
			vals = append(vals, s)
		}
		return vals
	}
	if attrFlag(e.attrs, "serde", "untagged") {
		return nil
	}
	renameAll, _ := attrValue(e.attrs, "serde", "rename_all")
	var vals []string
	for _, v := range e.variants {
		if v.hasData || attrFlag(v.attrs, "serde", "skip") || attrFlag(v.attrs, "serde", "skip_deserializing") {
			if v.hasData {
				return nil
			}
			continue
		}
		name := variantName(v.name, renameAll)
		if r, ok := attrValue(v.attrs, "serde", "rename"); ok {
			name = r
		}
		vals = append(vals, name)
	}
	return vals
}

// numericModule finds numeric_enum_serializing_mod!{mod Enum {..}}.
func (w *tikvWalker) numericModule(mod string) (map[string]string, bool) {
	for _, p := range w.s.paths {
		if m, ok := w.s.files[p].numericEnums[mod]; ok {
			return m, true
		}
	}
	return nil, false
}

// serdeModuleValues reads the spellings a `#[serde(with = "m")]` module
// writes: the string literals after "=>" in the match of its serialize fn.
func (w *tikvWalker) serdeModuleValues(mod string) []string {
	vals, _ := w.serdeModule(mod)
	return vals
}

// serdeModule reads a `#[serde(with = "m")]` module's serialize fn: the
// spellings in order, and each variant's (`Enum::Variant => "text"`).
func (w *tikvWalker) serdeModule(mod string) ([]string, map[string]string) {
	for _, p := range w.s.paths {
		if !strings.HasPrefix(p, "components/engine_rocks/") && !strings.HasPrefix(p, "components/engine_traits/") {
			continue
		}
		src, err := w.s.r.show(w.s.tag, p)
		if err != nil {
			continue
		}
		toks, err := lexRust(string(src))
		if err != nil {
			continue
		}
		for i := 0; i+2 < len(toks); i++ {
			if !toks[i].is("mod") || !toks[i+1].is(mod) || !toks[i+2].is("{") {
				continue
			}
			end, err := matching(toks, i+2)
			if err != nil {
				return nil, nil
			}
			body := toks[i+3 : end]
			// within fn serialize only
			for k := 0; k+1 < len(body); k++ {
				if body[k].is("fn") && body[k+1].is("serialize") {
					j := k
					for j < len(body) && !body[j].is("{") {
						j++
					}
					if j >= len(body) {
						return nil, nil
					}
					fe, err := matching(body, j)
					if err != nil {
						return nil, nil
					}
					var vals []string
					seen := map[string]bool{}
					byVariant := map[string]string{}
					fn := body[j:fe]
					for q := 0; q+1 < len(fn); q++ {
						if !fn[q].is("=>") || fn[q+1].kind != tString {
							continue
						}
						if q > 0 && fn[q-1].kind == tIdent {
							byVariant[fn[q-1].text] = fn[q+1].text
						}
						if !seen[fn[q+1].text] {
							seen[fn[q+1].text] = true
							vals = append(vals, fn[q+1].text)
						}
					}
					return vals, byVariant
				}
			}
			return nil, nil
		}
	}
	return nil, nil
}

// defaults

type structDefault struct {
	d      *rustDefault
	file   *rustFile
	zeroes bool // #[derive(Default)]: every field is its type's zero value
}

func (w *tikvWalker) defaultsOf(st *rustStruct) structDefault {
	if d, ok := st.file.defaults[st.name]; ok {
		return structDefault{d: d, file: st.file}
	}
	if st.derives["Default"] {
		return structDefault{zeroes: true, file: st.file}
	}
	// impl Default in another file of the crate (rare)
	for _, p := range w.s.paths {
		if strings.HasPrefix(p, crateDirOf(st.file.path)) {
			if d, ok := w.s.files[p].defaults[st.name]; ok && w.s.files[p] != st.file {
				if _, clash := w.s.files[p].structs[st.name]; !clash {
					return structDefault{d: d, file: w.s.files[p]}
				}
			}
		}
	}
	return structDefault{}
}

func (w *tikvWalker) env(f *rustFile, lets map[string][]rtoken) *evalEnv {
	env := &evalEnv{}
	env.lookup = func(name string) ([]rtoken, *evalEnv, bool) {
		if t, ok := lets[name]; ok {
			return t, env, true
		}
		if t, ok := f.consts[name]; ok {
			return t, w.env(f, nil), true
		}
		if t, cf, ok := resolveItem(w.s, f, name, func(f *rustFile) map[string][]rtoken { return f.consts }); ok {
			return t, w.env(cf, nil), true
		}
		return nil, nil, false
	}
	return env
}

func (w *tikvWalker) defaultOf(kf *keyFacts, st *rustStruct, sd structDefault, fd *rustField, typ []rtoken) {
	var v rval
	var err error
	switch {
	case sd.zeroes:
		v = rval{kind: rvZero}
	case sd.d != nil:
		expr, ok := sd.d.fields[fd.name]
		if !ok {
			kf.defExpr = "(not set in Default impl)"
			return
		}
		v, err = w.env(sd.file, sd.d.lets).eval(expr)
		if err != nil {
			kf.defExpr = tokText(expr)
			return
		}
	default:
		kf.defExpr = "(no Default impl found)"
		return
	}
	if with, ok := attrValue(fd.attrs, "serde", "with"); ok && v.kind == rvVariant {
		if m, ok := w.numericModule(lastSeg(with)); ok {
			if n, ok := m[lastSeg(v.s)]; ok {
				kf.def = &n
				return
			}
		}
		if vals, byVariant := w.serdeModule(lastSeg(with)); len(vals) > 0 {
			if text, ok := byVariant[lastSeg(v.s)]; ok {
				kf.def = &text
				return
			}
			kf.defExpr = tokText(sd.d.fields[fd.name])
			return
		}
	}
	text, ok := w.render(kf, st.file, typ, v)
	if !ok {
		kf.defExpr = renderExprFallback(sd, fd)
		return
	}
	kf.def = &text
}

func renderExprFallback(sd structDefault, fd *rustField) string {
	if sd.d != nil {
		if e, ok := sd.d.fields[fd.name]; ok {
			return tokText(e)
		}
	}
	return "Default::default()"
}

// render writes a literal default the way TiKV's /config JSON shows it.
func (w *tikvWalker) render(kf *keyFacts, f *rustFile, typ []rtoken, v rval) (string, bool) {
	if v.kind == rvNone {
		return "", false // unset: TiKV fills most Options at start
	}
	if v.kind == rvZero {
		return zeroDefault(upstream.TiKV, kf.kind)
	}
	switch kf.kind {
	case upstream.KindSize:
		if v.kind == rvSize || v.kind == rvInt && v.i.Sign() >= 0 {
			if !v.i.IsUint64() {
				return "", false
			}
			return upstream.TiKVSize(v.i.Uint64()), true
		}
	case upstream.KindDuration:
		if v.kind == rvDuration && v.i.IsInt64() {
			return upstream.TiKVDuration(time.Duration(v.i.Int64())), true
		}
	case upstream.KindBool:
		if v.kind == rvBool {
			return v.s, true
		}
	case upstream.KindInt:
		if v.kind == rvInt || v.kind == rvSize {
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
	case upstream.KindString:
		switch v.kind {
		case rvString:
			return v.s, true
		case rvVariant: // an enum with custom serialisation: not known
			return "", false
		}
	case upstream.KindEnum:
		if v.kind == rvVariant {
			return w.variantSpelling(f, typ, v.s)
		}
		if v.kind == rvString {
			return v.s, true
		}
	case upstream.KindList:
		return renderStringList(v)
	}
	return "", false
}

// renderStringList writes a list of string literals as the JSON array the
// components' config JSON holds.
func renderStringList(v rval) (string, bool) {
	if v.kind != rvList {
		return "", false
	}
	items := make([]string, 0, len(v.list))
	for _, it := range v.list {
		if it.kind != rvString {
			return "", false
		}
		items = append(items, strconv.Quote(it.s))
	}
	return "[" + strings.Join(items, ",") + "]", true
}

func (w *tikvWalker) variantSpelling(f *rustFile, typ []rtoken, variant string) (string, bool) {
	e, ef, ok := resolveItem(w.s, f, typeName(typ), func(f *rustFile) map[string]*rustEnum { return f.enums })
	if !ok {
		return "", false
	}
	want := lastSeg(variant)
	if !e.derives["Deserialize"] {
		s, ok := ef.variantStrings[e.name][want]
		return s, ok
	}
	renameAll, _ := attrValue(e.attrs, "serde", "rename_all")
	for _, v := range e.variants {
		if v.name == want {
			if r, ok := attrValue(v.attrs, "serde", "rename"); ok {
				return r, true
			}
			return variantName(v.name, renameAll), true
		}
	}
	return "", false
}

// formatJSONFloat is the shortest decimal form (serde_json and
// encoding/json agree on it for the values configs use).
func formatJSONFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package main

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

// System variables from pingcap/docs-cn system-variables.md, one release
// branch per X.Y line: every "### `name`" section with its bullet facts
// (作用域 scope, 是否持久化到集群 persisted, 类型 type, 默认值 default,
// 可选值 values, 范围/取值范围 range, 单位 unit) and version notes
// (<span class="version-mark">从 vX.Y.Z 版本开始引入</span>: introduced;
// "从 vX.Y.Z 开始，该变量被废弃": deprecated; "从 vX.Y.Z 开始，默认值由 `A`
// 改为 `B`": a default changed in a patch release).

type docVar struct {
	name       string
	line       int
	introduced string // the version mark
	scope      string // GLOBAL, INSTANCE, SESSION, NONE
	// readOnly: the description calls it a read-only variable (its scope
	// becomes NONE whatever the scope line says).
	readOnly bool
	// symbols: "可以使用数值 0、1、2 或相应的符号值 LOW、MEDIUM、STRONG": the names
	// of a numbered enum's values, which is what the server shows
	// (validate_password.policy).
	symbols []string
	// session: a GLOBAL variable that also has SESSION scope ("SESSION | GLOBAL").
	session   bool
	persisted bool
	// persistStated: the docs have a 是否持久化到集群 line; kindStated: a
	// 类型 line with a kind (and values, for an enum).
	persistStated, kindStated bool
	kind                      string
	kindNote                  string
	values                    []string
	def                       *string
	defText                   string
	unit, rng                 string
	deprecated                string // "" never; "always" (no version); or the version
	// aliasOf names the variable this one is an alias of ("别名").
	aliasOf string
	// withUnits: the section says the value may be written with a unit
	// ("支持带单位的内存格式"); decimals: it shows a decimal number as a value.
	withUnits, decimals bool
	// patchDefaults: "从 vX.Y.Z 开始，默认值由 `A` 改为 `B`".
	patchDefaults []patchDefault
}

var (
	headingRE    = regexp.MustCompile("^### `?([A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)?)`?(?:\\s|$)")
	versionMark  = regexp.MustCompile(`version-mark">从 v(\d+\.\d+(?:\.\d+)?) 版本开始引入`)
	bulletRE     = regexp.MustCompile(`^- (作用域|作用范围|是否持久化到集群|持久化至集群|类型|默认值|可选值|范围|取值范围|单位)\s*[：:]\s*(.*)$`)
	aliasRE      = regexp.MustCompile("(?:该变量为变量|这个变量是)\\s*\\[?`([A-Za-z0-9_]+)`.*的别名")
	backtickedRE = regexp.MustCompile("`([^`]*)`")
	deprecatedRE = regexp.MustCompile(`(?:从|自)\s*v(\d+\.\d+(?:\.\d+)?)\s*(?:版本)?\s*开始[，,]?\s*(?:该变量|TiDB 废弃了该系统变量)[^。]*?废弃|该变量自\s*v(\d+\.\d+(?:\.\d+)?)\s*开始废弃`)
	patchDefRE   = regexp.MustCompile("从 v(\\d+\\.\\d+\\.\\d+) 开始，默认值由 `([^`]*)` 改为 `([^`]*)`")
	laterDefRE   = regexp.MustCompile("及之后的?版本中为 `([^`]*)`")
	// "在 v7.5.7 之前，默认值为 `ON`": the default before a patch release.
	beforeDefRE = regexp.MustCompile("在 v(\\d+\\.\\d+\\.\\d+) 之前，默认值为 `([^`]*)`")
	// "在 v8.1.0 中为 `ON`，在 v8.1.1 及后续的 8.1 补丁版本中为 `OFF`": one
	// default for the line's first releases, another from a patch release on.
	patchLineDefRE = regexp.MustCompile("在 v(\\d+\\.\\d+\\.\\d+) 中为 `([^`]*)`，在 v(\\d+\\.\\d+\\.\\d+) 及后续的 [\\d.]+ 补丁版本中为 `([^`]*)`")
	decimalRE      = regexp.MustCompile("`-?\\d+\\.\\d+`")
)

// minVariables guards against a changed page layout: a real
// system-variables.md documents hundreds of variables.
var minVariables = 100

// parseSysVars reads one branch's system-variables.md.
func parseSysVars(src string) (map[string]*docVar, error) {
	lines := strings.Split(src, "\n")
	out := map[string]*docVar{}
	var cur *docVar
	inRef := false
	for i, l := range lines {
		if strings.HasPrefix(l, "## ") {
			if inRef && strings.HasPrefix(l, "## `") {
				l = "#" + l // a variable heading one level too high (release-8.0's tidb_opt_use_invisible_indexes)
			} else {
				inRef = strings.Contains(l, "变量参考")
				cur = nil
				continue
			}
		}
		if !inRef {
			continue
		}
		if strings.HasPrefix(l, "### ") {
			m := headingRE.FindStringSubmatch(l)
			if m == nil {
				cur = nil
				continue
			}
			name := strings.ToLower(m[1])
			if _, dup := out[name]; dup {
				cur = nil // a repeated heading (a later, shorter entry): keep the first
				continue
			}
			cur = &docVar{name: name, line: i + 1}
			if vm := versionMark.FindStringSubmatch(l); vm != nil {
				cur.introduced = "v" + fullVersion(vm[1])
			}
			out[name] = cur
			continue
		}
		if cur == nil {
			continue
		}
		if m := bulletRE.FindStringSubmatch(strings.TrimRight(l, " ")); m != nil {
			cur.fact(m[1], strings.TrimSpace(m[2]))
			cur.withUnits = cur.withUnits || sizeWithUnits(l)
			cur.decimals = cur.decimals || m[1] != "默认值" && decimalRE.MatchString(l)
			continue
		}
		if m := aliasRE.FindStringSubmatch(l); m != nil {
			cur.aliasOf = strings.ToLower(m[1])
		}
		cur.readOnly = cur.readOnly || readOnlyLine(l)
		if m := symbolsRE.FindStringSubmatch(l); m != nil && cur.symbols == nil {
			cur.symbols = strings.FieldsFunc(m[1], func(r rune) bool { return r == '、' || r == ',' || r == '，' || r == ' ' })
		}
		cur.withUnits = cur.withUnits || sizeWithUnits(l)
		cur.decimals = cur.decimals || decimalRE.MatchString(l)
		if m := deprecatedRE.FindStringSubmatch(l); m != nil && cur.deprecated == "" {
			v := m[1]
			if v == "" {
				v = m[2]
			}
			cur.deprecated = "v" + fullVersion(v)
		} else if strings.Contains(l, "该变量已废弃") && cur.deprecated == "" {
			cur.deprecated = "always"
		}
		for _, m := range patchDefRE.FindAllStringSubmatch(l, -1) {
			cur.patchDefaults = append(cur.patchDefaults, patchDefault{version: "v" + m[1], old: m[2], new: m[3]})
		}
	}
	for _, v := range out {
		v.finish()
	}
	for _, v := range out {
		if t, ok := out[v.aliasOf]; ok && v.scope == "" {
			alias := v.aliasOf
			line, introduced, dep := v.line, v.introduced, v.deprecated
			*v = *t
			v.name, v.line, v.introduced, v.deprecated, v.aliasOf = strings.ToLower(v.name), line, introduced, dep, alias
			v.kindNote = "an alias of " + alias + ": its facts"
		}
	}
	for name, v := range out {
		if v.aliasOf != "" && v.kindNote == "an alias of "+v.aliasOf+": its facts" {
			v.name = name
		}
		if v.scope == "" {
			v.scope = "NONE"
			v.kindNote = "the docs state no scope (an internal or alias variable): not settable"
		}
	}
	if len(out) < minVariables {
		return nil, fmt.Errorf("only %d variables found: layout changed?", len(out))
	}
	return out, nil
}

// sizeWithUnits: the line says a memory size may be written with a unit
// ("支持带单位的内存格式 \"KiB|MiB|GiB|TiB\"").
func sizeWithUnits(l string) bool {
	return strings.Contains(l, "带单位") && (strings.Contains(l, "内存") || strings.Contains(l, "KiB"))
}

func fullVersion(v string) string {
	if strings.Count(v, ".") == 1 {
		return v + ".0"
	}
	return v
}

func (v *docVar) fact(key, val string) {
	switch key {
	case "作用域", "作用范围":
		v.scope = strings.ToUpper(strings.ReplaceAll(val, " ", ""))
		v.session = strings.Contains(v.scope, "SESSION") && strings.Contains(v.scope, "GLOBAL")
	case "是否持久化到集群", "持久化至集群":
		v.persisted, v.persistStated = strings.HasPrefix(val, "是"), true
		if strings.Contains(val, "仅作用于当前连接的 TiDB 实例") {
			v.scope = "INSTANCE"
		}
	case "类型":
		v.kind = docKind(val)
	case "默认值":
		v.defText = val
		v.def = docDefault(val)
		for _, m := range patchDefRE.FindAllStringSubmatch(val, -1) {
			v.patchDefaults = append(v.patchDefaults, patchDefault{version: "v" + m[1], old: m[2], new: m[3]})
		}
		if m := beforeDefRE.FindStringSubmatch(val); m != nil && v.def != nil {
			v.patchDefaults = append(v.patchDefaults, patchDefault{version: "v" + m[1], old: m[2], new: *v.def})
		}
		if m := patchLineDefRE.FindStringSubmatch(val); m != nil {
			v.def = &m[4]
			v.patchDefaults = append(v.patchDefaults, patchDefault{version: "v" + m[3], old: m[2], new: m[4]})
		}
	case "可选值":
		for _, m := range backtickedRE.FindAllStringSubmatch(val, -1) {
			items := []string{m[1]}
			if b := strings.TrimSpace(m[1]); strings.HasPrefix(b, "[") && strings.HasSuffix(b, "]") {
				items = strings.Split(b[1:len(b)-1], ",") // "`[0, 1, 2]`": one list in one pair of backticks
			}
			for _, it := range items {
				if it = strings.TrimSpace(it); it != "" && !slices.Contains(v.values, it) { // the docs list some twice
					v.values = append(v.values, it)
				}
			}
		}
	case "范围", "取值范围":
		if v.rng == "" {
			if m := backtickedRE.FindStringSubmatch(val); m != nil {
				v.rng = m[1]
			}
		}
	case "单位":
		v.unit = strings.Trim(val, "`")
	}
}

// docKind maps the docs' 类型 to a kind.
func docKind(t string) string {
	t = strings.TrimSpace(strings.Trim(t, "`"))
	switch {
	case strings.HasPrefix(t, "布尔"):
		return upstream.KindBool
	case strings.Contains(t, "整数"):
		return upstream.KindInt
	case strings.HasPrefix(t, "浮点"):
		return upstream.KindFloat
	case strings.HasPrefix(t, "枚举"):
		return upstream.KindEnum
	case strings.EqualFold(t, "Duration"):
		return upstream.KindDuration
	case strings.HasPrefix(t, "字符串"), strings.HasPrefix(t, "时间"):
		// 时间 is a time of day ("00:00 +0000"), compared as text
		return upstream.KindString
	}
	return ""
}

// docDefault reads the default a 默认值 line states for its own branch:
// "`X`…" (later text is history), `""`, "…及之后的?版本中为 `Y`", "\"a,b\"".
func docDefault(val string) *string {
	switch {
	case strings.HasPrefix(val, "`"):
		if m := backtickedRE.FindStringSubmatch(val); m != nil {
			d := m[1]
			if d == `""` || d == "''" {
				d = "" // `""`: the empty string
			}
			return &d
		}
	case strings.HasPrefix(val, `""`):
		s := ""
		return &s
	case strings.HasPrefix(val, `"`):
		if end := strings.Index(val[1:], `"`); end >= 0 {
			s := val[1 : 1+end]
			return &s
		}
	}
	if m := laterDefRE.FindStringSubmatch(val); m != nil {
		return &m[1]
	}
	return nil
}

var (
	intRE   = regexp.MustCompile(`^-?\d+$`)
	floatRE = regexp.MustCompile(`^-?\d+\.\d+$`)
	durRE   = regexp.MustCompile(`^(\d+(h|m|s|ms))+$`)
)

// readOnlyLine reports whether a description line calls the variable
// read-only ("该变量是一个只读变量", "只读变量。表示…", "这个只读变量…"),
// not only its SESSION scope ("在 `SESSION` 作用域下，该变量为只读变量",
// max_allowed_packet).
func readOnlyLine(l string) bool {
	return strings.Contains(l, "只读变量") && !strings.Contains(l, "SESSION")
}

// symbolsRE finds the names a description gives a numbered enum's values
// ("相应的符号值 LOW、MEDIUM、STRONG").
var symbolsRE = regexp.MustCompile(`符号值\s*([A-Za-z_]+(?:\s*[、,，]\s*[A-Za-z_]+)+)`)

// finish normalises scope and infers a kind the docs do not state.
func (v *docVar) finish() {
	if len(v.symbols) > 0 && len(v.symbols) == len(v.values) && allInts(v.values) {
		// the values are the names; a numbered default is the name at its
		// position (TiDB's checkEnumSystemVar accepts either)
		if v.def != nil {
			for i, n := range v.values {
				if n == *v.def {
					d := v.symbols[i]
					v.def = &d
				}
			}
		}
		v.values = v.symbols
	}
	if v.readOnly && v.scope != "" {
		v.scope = "NONE" // the docs give a scope but call it read-only: it cannot be set
	}
	switch v.scope {
	case "SESSION|GLOBAL", "GLOBAL|SESSION":
		v.scope = "GLOBAL"
	case "GLOBAL", "INSTANCE", "SESSION", "NONE":
	default:
		if strings.Contains(v.scope, "GLOBAL") {
			v.scope = "GLOBAL"
		}
	}
	if v.scope == "GLOBAL" && !v.persistStated {
		v.persisted = true // GLOBAL variables are persisted unless the docs say otherwise
	}
	if v.scope != "GLOBAL" {
		v.persisted = false
	}
	v.kindStated = v.kind != "" && (v.kind != upstream.KindEnum || len(v.values) > 0)
	if v.kind == upstream.KindEnum && len(v.values) == 0 {
		v.kind = upstream.KindString
		v.kindNote = "documented as an enum without a list of values: compared as text"
	}
	if v.kind == "" && v.def != nil {
		d := *v.def
		switch {
		case d == "ON" || d == "OFF":
			v.kind = upstream.KindBool
		case intRE.MatchString(d):
			v.kind = upstream.KindInt
		case floatRE.MatchString(d):
			v.kind = upstream.KindFloat
		case durRE.MatchString(d):
			v.kind = upstream.KindDuration
		default:
			v.kind = upstream.KindString
		}
		v.kindNote = "the docs state no type: kind inferred from the documented default"
		if v.kind == upstream.KindInt && v.decimals {
			v.kind = upstream.KindFloat
			v.kindNote = "the docs state no type: a number, with decimal values among the documented ones"
		}
	}
	if v.withUnits && v.kind == upstream.KindInt {
		v.kind = upstream.KindSize
		v.kindNote = "an integer number of bytes the docs say may be written with a unit (\"带单位\")"
	}
	if v.kind == "" {
		v.kind = upstream.KindString
		v.kindNote = "the docs state neither type nor default: compared as text"
	}
	if v.unit == "字节" && v.kind == upstream.KindInt {
		v.unit = "bytes"
	}
}

// relNoteChange is one row of a patch release note's system-variable table.
type relNoteChange struct {
	name    string
	change  string // 新增 (added), 修改 (modified), 废弃 (deprecated), 删除 (removed)
	old     string // "默认值从 `A` 修改为 `B`"
	new     string
	version string // the patch release
	path    string
	line    int
}

var (
	relVarRowRE  = regexp.MustCompile("^\\|\\s*\\[?`([A-Za-z0-9_]+)`\\]?(?:\\([^)]*\\))?\\s*\\|\\s*([^|]+?)\\s*\\|(.*)\\|\\s*$")
	relDefaultRE = regexp.MustCompile("默认值从 `([^`]*)` (?:修改|改)为 `([^`]*)`")
)

// parseReleaseNote reads the system-variable table of one release note
// (releases/release-X.Y.Z.md): the rows after a "| 变量名 | 修改类型 | 描述 |"
// header.
func parseReleaseNote(path, version, src string) []relNoteChange {
	var out []relNoteChange
	lines := strings.Split(src, "\n")
	inTable := false
	for i, l := range lines {
		if strings.HasPrefix(l, "|") && strings.Contains(l, "变量名") && strings.Contains(l, "修改类型") {
			inTable = true
			continue
		}
		if !strings.HasPrefix(l, "|") {
			inTable = false
			continue
		}
		if !inTable {
			continue
		}
		m := relVarRowRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		c := relNoteChange{name: strings.ToLower(m[1]), change: strings.TrimSpace(m[2]), version: version, path: path, line: i + 1}
		if d := relDefaultRE.FindStringSubmatch(m[3]); d != nil {
			c.old, c.new = d[1], d[2]
		}
		out = append(out, c)
	}
	return out
}

// readSysVars resolves every variable at every version: the facts of the
// version's docs branch (release-X.Y; master for master), narrowed to the
// patch release by the version marks, the docs' "从 vX.Y.Z 开始" notes and
// the system-variable tables of the line's patch release notes
// (releases/release-X.Y.Z.md on master).
func readSysVars(r *repo, versions []string, warn func(string)) ([]versionFacts, upstream.Input, error) {
	in := upstream.Input{Repo: r.name}
	docs := map[string]map[string]*docVar{}
	load := func(branch string) (map[string]*docVar, error) {
		if d, ok := docs[branch]; ok {
			return d, nil
		}
		commit, err := r.commit(branch)
		if err != nil {
			return nil, err
		}
		in.Refs = append(in.Refs, upstream.Ref{Name: branch, Commit: commit})
		src, err := r.show(branch, "system-variables.md")
		if err != nil {
			return nil, err
		}
		d, err := parseSysVars(string(src))
		if err != nil {
			return nil, fmt.Errorf("pingcap/docs-cn@%s: system-variables.md: %w", branch, err)
		}
		docs[branch] = d
		return d, nil
	}
	notes, err := readReleaseNotes(r, versions, load)
	if err != nil {
		return nil, in, err
	}
	var branches []string
	for _, v := range versions {
		b := "master"
		if line, _, ok := patchOf(v); ok {
			b = lineBranch(line)
		}
		if len(branches) == 0 || branches[len(branches)-1] != b {
			if _, err := load(b); err != nil {
				return nil, in, err
			}
			branches = append(branches, b)
		}
	}
	borrowKinds(docs, branches)
	var out []versionFacts
	for _, v := range versions {
		branch := "master"
		line, patch, tagged := patchOf(v)
		if tagged {
			branch = lineBranch(line)
		}
		d, err := load(branch)
		if err != nil {
			return nil, in, err
		}
		vf := versionFacts{version: v, ref: branch, keys: map[string]*keyFacts{}}
		for name, dv := range d {
			kf, ok := varAt(dv, v, line, patch, tagged, notes, branch)
			if ok {
				vf.keys[name] = kf
			}
		}
		out = append(out, vf)
	}
	sort.Slice(in.Refs, func(i, j int) bool { return in.Refs[i].Name < in.Refs[j].Name })
	return out, in, nil
}

// borrowKinds gives a variable whose branch states no type the kind the
// nearest newer branch states (older docs lack the 类型 line that later
// docs added), else the nearest older one; the note says where it is from.
func borrowKinds(docs map[string]map[string]*docVar, branches []string) {
	for i, b := range branches {
		for name, dv := range docs[b] {
			if dv.kindNote == "" || dv.kindStated {
				continue
			}
			order := append(append([]string{}, branches[i+1:]...), reverse(branches[:i])...)
			for _, ob := range order {
				if o, ok := docs[ob][name]; ok && o.kindStated {
					dv.kind, dv.values = o.kind, o.values
					dv.kindNote = "type as the " + ob + " docs state it (the docs of this version state none)"
					break
				}
			}
		}
	}
}

func reverse(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// readReleaseNotes parses the release notes of every observed tag from the
// master branch.
func readReleaseNotes(r *repo, versions []string, load func(string) (map[string]*docVar, error)) (map[string][]relNoteChange, error) {
	if _, err := load("master"); err != nil {
		return nil, err
	}
	out := map[string][]relNoteChange{} // variable → changes
	for _, v := range versions {
		if _, _, ok := patchOf(v); !ok {
			continue
		}
		path := "releases/release-" + strings.TrimPrefix(v, "v") + ".md"
		src, err := r.show("master", path)
		if err != nil {
			continue // no release note for this tag
		}
		for _, c := range parseReleaseNote(path, v, string(src)) {
			out[c.name] = append(out[c.name], c)
		}
	}
	return out, nil
}

// varAt is a variable's facts at version v, or false when it does not
// exist there.
func varAt(dv *docVar, v string, line [2]int, patch int, tagged bool, notes map[string][]relNoteChange, branch string) (*keyFacts, bool) {
	kf := &keyFacts{key: dv.name, kind: dv.kind, values: dv.values, scope: dv.scope, session: dv.session && dv.scope == "GLOBAL", persisted: dv.persisted,
		def: dv.def, unit: dv.unit, rng: dv.rng, path: "system-variables.md", line: dv.line, introduced: dv.introduced}
	kf.online = dv.scope == "GLOBAL" || dv.scope == "INSTANCE"
	if dv.kindNote != "" {
		kf.notes = append(kf.notes, upstream.Note{Text: dv.kindNote, Source: docsSource(branch, dv.line)})
	}
	if dv.def == nil && dv.defText != "" {
		kf.defExpr = dv.defText
	}
	switch dv.deprecated {
	case "":
	case "always":
		kf.deprecated = true
	default:
		dl, dp, _ := patchOf(dv.deprecated)
		kf.deprecated = !tagged || line[0] > dl[0] || line[0] == dl[0] && (line[1] > dl[1] || line[1] == dl[1] && patch >= dp)
	}
	if !tagged {
		return kf, true
	}
	if il, ip, ok := patchOf(dv.introduced); ok && il == line && ip > patch {
		return nil, false
	}
	var changes []change
	for _, c := range notes[dv.name] {
		cl, cp, _ := patchOf(c.version)
		if cl != line {
			continue
		}
		src := upstream.Source{Repo: "pingcap/docs-cn", Path: c.path, Ref: "master", Line: c.line}
		switch {
		case strings.Contains(c.change, "新增"):
			changes = append(changes, change{patch: cp, added: true, note: upstream.Note{Text: "added in " + c.version, Source: src}})
		case strings.Contains(c.change, "废弃"):
			changes = append(changes, change{patch: cp, deprec: true, note: upstream.Note{Text: "deprecated in " + c.version, Source: src}})
		case c.old != "":
			changes = append(changes, change{patch: cp, old: c.old, new: c.new,
				note: upstream.Note{Text: "default changed from " + strconv.Quote(c.old) + " to " + strconv.Quote(c.new) + " in " + c.version, Source: src}})
		}
	}
	for _, pd := range dv.patchDefaults {
		pl, pp, _ := patchOf(pd.version)
		if pl == line {
			changes = append(changes, change{patch: pp, old: pd.old, new: pd.new,
				note: upstream.Note{Text: "default changed from " + strconv.Quote(pd.old) + " to " + strconv.Quote(pd.new) + " in " + pd.version, Source: docsSource(branch, dv.line)}})
		}
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].patch < changes[j].patch })
	applyChanges(kf, dv, changes, patch)
	for _, c := range changes {
		if c.added && c.patch > patch {
			return nil, false
		}
	}
	return kf, true
}

// change is a documented change of a variable in one release of a line.
type change struct {
	patch    int
	old, new string
	note     upstream.Note
	added    bool
	deprec   bool
}

// applyChanges sets the default and deprecation a line's documented changes
// give the release with the patch number patch: the default is the old value
// of the first change after it, else the new value of the last change at or
// before it (a release note describes its own release, so it wins over a
// docs branch that was not updated; the note says so), else the branch's.
func applyChanges(kf *keyFacts, dv *docVar, changes []change, patch int) {
	var last *change
	for i := range changes {
		c := &changes[i]
		switch {
		case c.patch <= patch && c.deprec:
			kf.deprecated = true
		case c.patch <= patch && c.old != "":
			last = c
		}
	}
	for i := range changes {
		c := &changes[i]
		if c.patch > patch && c.old != "" {
			old := c.old
			kf.def = &old
			kf.notes = append(kf.notes, c.note)
			return
		}
	}
	if last != nil && (dv.def == nil || *dv.def != last.new) {
		nv := last.new
		kf.def = &nv
		n := last.note
		if dv.def != nil {
			n.Text += "; the docs of this line still say " + strconv.Quote(*dv.def)
		}
		kf.notes = append(kf.notes, n)
	}
}

func docsSource(branch string, line int) upstream.Source {
	return upstream.Source{Repo: "pingcap/docs-cn", Path: "system-variables.md", Ref: branch, Line: line}
}

func allInts(vs []string) bool {
	for _, x := range vs {
		if !intRE.MatchString(x) {
			return false
		}
	}
	return len(vs) > 0
}

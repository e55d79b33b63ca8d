package main

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

// The release notes of pingcap/docs-cn (releases/release-X.Y.Z.md on
// master): the bug fixes ("## 错误修复", per component "+ TiDB", "+ TiKV",
// "+ PD") and compatibility changes ("## 兼容性变更": its tables of system
// variables and configuration items, and its bullets) that name a setting
// the catalog knows or a feature tiform's guards watch. Each becomes a
// noteItem; notescoverage.go decides what covers it.

// notesRef is the docs-cn ref the release notes are read at: master has
// every release's notes.
const notesRef = "master"

// noteItem is one release-note entry in scope.
type noteItem struct {
	Release string // "v8.5.6"
	Section string // sectionBugFix or sectionCompat
	// Component is "TiDB", "TiKV" or "PD" when the notes say ("" for a
	// compatibility bullet).
	Component string
	// Change is a compatibility table row's kind: changeNew, changeModified,
	// changeDeprecated, changeRemoved; "" otherwise.
	Change string
	// Refs are the GitHub issues and pull requests it cites, "owner/repo#N",
	// in order of appearance.
	Refs []string
	// Names are the catalogued settings it names: "tidb_x" for a system
	// variable, "tikv a.b" / "pd a.b" for a config item (a catalogKey).
	Names []catalogKey
	// Features are the watched features it names (featureWords).
	Features []string
	// Line is its line in the release notes (1-based); Text its markdown.
	Line int
	Text string
}

const (
	sectionBugFix = "bug fix"
	sectionCompat = "compatibility"

	changeNew        = "new"
	changeModified   = "modified"
	changeDeprecated = "deprecated"
	changeRemoved    = "removed"
)

// catalogKey is a setting of the generated table: its component
// (upstream.TiKV, upstream.PD, upstream.SysVar) and key.
type catalogKey struct {
	Component string
	Key       string
}

func (k catalogKey) String() string {
	if k.Component == upstream.SysVar {
		return k.Key
	}
	return k.Component + " " + k.Key
}

// featureWords are the features tiform's guards watch, with the words the
// Chinese notes and the English terms they keep use for each.
var featureWords = []struct {
	name string
	re   *regexp.Regexp
}{
	{"resource control", regexp.MustCompile(`资源管控|资源组|(?i:resource control|resource group|runaway)`)},
	{"plan cache", regexp.MustCompile(`执行计划缓存|(?i:plan cache)`)},
	{"region size", regexp.MustCompile(`Region 大小|region-split-size|region-max-size`)},
	{"in-memory engine", regexp.MustCompile(`内存引擎|In-Memory Engine|\bIME\b`)},
	{"GC", regexp.MustCompile(`\bGC\b`)},
	{"scheduler", regexp.MustCompile(`调度器|(?i:\bscheduler\b)`)},
}

var (
	// linkTarget is a Markdown link's target, whose anchors hold words
	// ("…-从-v530-版本开始引入") that are not the entry's.
	linkTarget = regexp.MustCompile(`\]\([^)]*\)`)
	ghRef      = regexp.MustCompile(`github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/(\d+)`)
	backtick   = regexp.MustCompile("`([^`]+)`")
	// changeWords are the kinds a compatibility table row states.
	changeWords = map[string]string{"新增": changeNew, "修改": changeModified, "废弃": changeDeprecated,
		"删除": changeRemoved, "移除": changeRemoved}
	notesComponents = map[string]bool{"TiDB": true, "TiKV": true, "PD": true}
)

// keyIndex finds catalogued settings by the names release notes use.
type keyIndex struct {
	exact map[string][]catalogKey // full key (config) or variable name, lower case
	// suffix maps the trailing dotted segments of a config key ("region-split-size",
	// "coprocessor.region-split-size") to its keys, for notes that name a
	// key without its section.
	suffix map[string][]catalogKey
}

func newKeyIndex(t *upstream.Table) *keyIndex {
	x := &keyIndex{exact: map[string][]catalogKey{}, suffix: map[string][]catalogKey{}}
	for _, s := range t.Settings {
		k := catalogKey{s.Component, s.Key}
		lk := strings.ToLower(s.Key)
		x.exact[lk] = append(x.exact[lk], k)
		if s.Component == upstream.SysVar {
			continue
		}
		parts := strings.Split(lk, ".")
		for i := 1; i < len(parts); i++ {
			suf := strings.Join(parts[i:], ".")
			x.suffix[suf] = append(x.suffix[suf], k)
		}
	}
	return x
}

// lookup resolves a name the notes put in backticks, as written: setting
// names are lower case, so `TIMESTAMP` (a column type) is not the variable
// timestamp. A full key resolves in any component when only one has it
// (a PD fix may name a TiKV item); component ("TiKV", "PD", "TiDB"), when
// known, picks among several and narrows a section-less key, which
// resolves only when one key of the component ends with it and it holds a
// '-' (so that words like `enable` do not match).
func (x *keyIndex) lookup(name, component string) []catalogKey {
	n := strings.TrimSpace(name)
	n = strings.TrimPrefix(n, "@@global.")
	n = strings.TrimPrefix(n, "@@")
	if n != strings.ToLower(n) {
		return nil
	}
	want := map[string]string{"TiDB": upstream.SysVar, "TiKV": upstream.TiKV, "PD": upstream.PD}[component]
	keep := func(ks []catalogKey) []catalogKey {
		var out []catalogKey
		for _, k := range ks {
			if want == "" || k.Component == want {
				out = append(out, k)
			}
		}
		return out
	}
	if ks := x.exact[n]; len(ks) == 1 && (strings.Contains(n, ".") || want == "" || ks[0].Component == want) {
		return ks
	} else if ks := keep(ks); len(ks) > 0 {
		return ks
	}
	if want != "" && want != upstream.SysVar && strings.Contains(n, "-") {
		if ks := keep(x.suffix[n]); len(ks) == 1 {
			return ks
		}
	}
	return nil
}

// bulletChange is the kind of change a compatibility bullet states, when
// it states one in the words the notes use ("新增"/"引入"/"提供" a new setting,
// "默认值由/从 … 修改为/改为" a new default, "废弃", "删除"/"移除").
func bulletChange(text string) string {
	switch {
	case strings.Contains(text, "默认值由") || strings.Contains(text, "默认值从"):
		return changeModified
	case strings.Contains(text, "新增") || strings.Contains(text, "引入") || strings.Contains(text, "提供"):
		return changeNew
	case strings.Contains(text, "废弃"):
		return changeDeprecated
	case strings.Contains(text, "删除") || strings.Contains(text, "移除"):
		return changeRemoved
	}
	return ""
}

// bulletComponent is the component a compatibility bullet is about when it
// says so ("TiKV 配置项", "PD 配置项"): "" when it names none or several,
// or a TiDB configuration item (which tiform does not manage).
func bulletComponent(text string) string {
	tikv, pd := strings.Contains(text, "TiKV"), strings.Contains(text, "PD ")
	switch {
	case strings.Contains(text, "TiDB 配置"):
		return ""
	case tikv && !pd:
		return "TiKV"
	case pd && !tikv:
		return "PD"
	}
	return ""
}

// parseReleaseNotes returns the items in scope of one release's notes.
func parseReleaseNotes(release, md string, x *keyIndex) []noteItem {
	var out []noteItem
	section, component := "", ""
	for i, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section, component = strings.TrimSpace(line[3:]), ""
			continue
		case strings.HasPrefix(line, "+ "):
			component = strings.TrimSpace(line[2:])
			continue
		}
		var it noteItem
		switch {
		case section == "错误修复" && notesComponents[component] && strings.HasPrefix(line, "    - "):
			it = noteItem{Section: sectionBugFix, Component: component}
			it.Names = namedSettings(line, component, x)
		case section == "兼容性变更" && strings.HasPrefix(strings.TrimSpace(line), "|"):
			row, ok := compatRow(line, x)
			if !ok {
				continue
			}
			it = row
		case section == "兼容性变更" && strings.HasPrefix(strings.TrimSpace(line), "- "):
			it = noteItem{Section: sectionCompat, Change: bulletChange(linkTarget.ReplaceAllString(line, "]"))}
			it.Names = namedSettings(line, bulletComponent(line), x)
		default:
			continue
		}
		it.Release, it.Line, it.Text = release, i+1, strings.TrimSpace(line)
		it.Features = features(line)
		if len(it.Names) == 0 && len(it.Features) == 0 {
			continue
		}
		it.Refs = ghRefs(line)
		out = append(out, it)
	}
	return out
}

// compatRow reads a compatibility table row: | variable | kind | … | for
// system variables, | component | item | kind | … | for configuration
// items. Header and separator rows, and rows of components tiform does not
// manage (TiCDC, TiFlash, tools), are not items.
func compatRow(line string, x *keyIndex) (noteItem, bool) {
	cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	it := noteItem{Section: sectionCompat}
	kindAt := -1
	for i, c := range cells {
		if ch, ok := changeWords[c]; ok && kindAt < 0 {
			it.Change, kindAt = ch, i
		}
	}
	switch kindAt {
	case 1: // variable | kind | description
		it.Component = "TiDB"
		it.Names = namedSettings(cells[0], "TiDB", x)
	case 2: // component | item | kind | description
		comp := cells[0]
		if !notesComponents[comp] {
			return noteItem{}, false
		}
		it.Component = comp
		if comp != "TiDB" { // TiDB's rows are its config file, which tiform does not manage
			it.Names = namedSettings(cells[1], comp, x)
		}
	default:
		return noteItem{}, false
	}
	return it, true
}

// namedSettings returns the catalogued settings text names in backticks, in order,
// each once.
func namedSettings(text, component string, x *keyIndex) []catalogKey {
	seen := map[catalogKey]bool{}
	var out []catalogKey
	for _, m := range backtick.FindAllStringSubmatch(text, -1) {
		for _, k := range x.lookup(m[1], component) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

func features(text string) []string {
	var out []string
	for _, f := range featureWords {
		if f.re.MatchString(text) {
			out = append(out, f.name)
		}
	}
	return out
}

// ghRefs returns the GitHub references of text as "owner/repo#N", in order,
// each once (an issue and a PR share GitHub's number space).
func ghRefs(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ghRef.FindAllStringSubmatch(text, -1) {
		r := m[1] + "#" + m[2]
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// tableRow reports a compatibility table row (bullets start with "- ").
func (it noteItem) tableRow() bool { return strings.HasPrefix(it.Text, "|") }

// ID is how the reasons file names the item: a bug fix or a bullet by the
// first reference it cites (one fix is one item in every release that
// carries it), a table row by its release and setting, anything else by
// its release and a hash of its text.
func (it noteItem) ID() string {
	if len(it.Refs) > 0 && !it.tableRow() {
		return it.Refs[0]
	}
	if len(it.Names) > 0 {
		return it.Release + " " + it.Names[0].String()
	}
	sum := sha1.Sum([]byte(it.Text))
	return it.Release + " #" + hex.EncodeToString(sum[:4])
}

// readNoteItems parses the notes of every release the table covers.
func readNoteItems(docs *repo, t *upstream.Table) ([]noteItem, string, error) {
	commit, err := docs.commit(notesRef)
	if err != nil {
		return nil, "", err
	}
	x := newKeyIndex(t)
	var out []noteItem
	for _, v := range t.Versions[upstream.SysVar] {
		if v == "master" {
			continue
		}
		path := "releases/release-" + strings.TrimPrefix(v, "v") + ".md"
		md, err := docs.show(notesRef, path)
		if err != nil {
			return nil, "", fmt.Errorf("pingcap/docs-cn@%s: %s: %w", notesRef, path, err)
		}
		out = append(out, parseReleaseNotes(v, string(md), x)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := parseTag(out[i].Release)
		b, _ := parseTag(out[j].Release)
		return less3(a, b)
	})
	return out, commit, nil
}

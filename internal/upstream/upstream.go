package upstream

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/tiform/tiform/version"
)

// Format is the version of settings.json's layout; Load refuses another.
const Format = 1

// Components of settings.json. Variables are component "sysvar".
const (
	TiKV   = "tikv"
	PD     = "pd"
	SysVar = "sysvar"
)

// Kinds of values, as the generator derives them from upstream types.
const (
	KindSize     = "size"     // TiKV ReadableSize, PD ByteSize
	KindDuration = "duration" // TiKV ReadableDuration, PD typeutil.Duration, docs "Duration"/"时间"
	KindBool     = "bool"
	KindInt      = "int"
	KindFloat    = "float"
	KindEnum     = "enum" // Values lists the accepted spellings
	KindString   = "string"
	KindList     = "list" // TiKV Vec/array, PD StringSlice/[]string
	KindMap      = "map"  // TiKV HashMap, PD map: set as a whole, compared as text
)

// Table is settings.json.
type Table struct {
	Format    int    `json:"format"`
	Generator string `json:"generator"`
	// Inputs are the upstream repositories and the refs read from each, with
	// the commit each ref pointed to: regenerating from the same commits
	// gives the same file.
	Inputs []Input `json:"inputs"`
	// Versions lists, per component, the versions the generator observed,
	// oldest first: final release tags, then "master". Span bounds name them.
	Versions map[string][]string `json:"versions"`
	// Master is the version each component's master branch calls itself
	// (tikv/tikv Cargo.toml "9.0.0-beta.2"): versions of that release line
	// and later resolve to "master".
	Master   map[string]string `json:"master"`
	Settings []*Setting        `json:"settings"`
	// Prefixes are sections whose keys upstream defines outside the walked
	// repository (TiKV "raft-engine." from the tikv/raft-engine crate, PD
	// "log." from pingcap/log): every key under one exists, with the span's
	// online flag; its Notes say why the keys are not listed.
	Prefixes []*Setting `json:"prefixes,omitempty"`

	index map[string]*Setting
	// observed is Versions and Master parsed, built on first use: a Table
	// must not change after its first Resolve, Nearest, At or In.
	observedOnce sync.Once
	observed     observedVersions
}

// observedVersions are a table's observed versions parsed once, not on every
// lookup (a plan resolves versions for every setting it compares).
type observedVersions struct {
	versions map[string][]observedVersion // component → Versions[component] parsed
	master   map[string]version.Version   // component → Master[component], when it parses
	// positions maps component → observed version → its index in
	// Versions[component] (the first, were one listed twice): At compares
	// span bounds by position for every setting a plan reads.
	positions map[string]map[string]int
}

// observedVersion is one entry of Versions parsed; ok=false for "master".
type observedVersion struct {
	text string
	v    version.Version
	ok   bool
}

// parsedVersions returns t's observed versions parsed.
func (t *Table) parsedVersions() *observedVersions {
	t.observedOnce.Do(func() {
		o := observedVersions{versions: map[string][]observedVersion{}, master: map[string]version.Version{}, positions: map[string]map[string]int{}}
		for c, vs := range t.Versions {
			list := make([]observedVersion, len(vs))
			pos := make(map[string]int, len(vs))
			for i, x := range vs {
				xv, err := version.Parse(x)
				list[i] = observedVersion{text: x, v: xv, ok: err == nil}
				if _, dup := pos[x]; !dup {
					pos[x] = i
				}
			}
			o.versions[c], o.positions[c] = list, pos
		}
		for c, m := range t.Master {
			if mv, err := version.Parse(m); err == nil {
				o.master[c] = mv
			}
		}
		t.observed = o
	})
	return &t.observed
}

// Input is one upstream repository read by the generator.
type Input struct {
	Repo string `json:"repo"` // "tikv/tikv"
	Refs []Ref  `json:"refs"`
}

// Ref is a tag or branch and the commit it pointed to.
type Ref struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
}

// Setting is one config key or system variable across versions.
type Setting struct {
	Component string `json:"component"` // tikv, pd, sysvar
	Key       string `json:"key"`       // "coprocessor.region-split-size", "tidb_gc_life_time"
	// Introduced is the version the docs name as introducing a variable
	// (the "从 vX.Y.Z 版本开始引入" mark), which may predate the first
	// observed version. Empty when the docs do not say.
	Introduced string `json:"introduced,omitempty"`
	// Spans are the version ranges where the setting exists, oldest first;
	// the facts are constant within a span. Versions between spans do not
	// have the setting.
	Spans []*Span `json:"spans"`
	// Secret is set when the setting holds a credential (a password, a key,
	// a URI that may carry access keys), as its name or its documentation
	// says (tools/catalogen secret.go): tiform never imports, shows or keeps
	// its value.
	Secret *Secret `json:"secret,omitempty"`
}

// Secret says why a setting holds a credential, and where that was read.
type Secret struct {
	Reason string `json:"reason"`
	Source Source `json:"source"`
}

// Span is a version range of a setting with the facts that hold in it.
type Span struct {
	From string `json:"from"` // first observed version (inclusive)
	To   string `json:"to"`   // last observed version (inclusive)

	Kind   string   `json:"kind"`
	Values []string `json:"values,omitempty"` // enum spellings
	// Codes are, for an enum the component prints as a number (TiKV's
	// numeric_enum_serializing_mod! fields such as compaction-pri), the
	// number of each of Values; it accepts either.
	Codes []string `json:"codes,omitempty"`
	// Online: changeable at runtime (TiKV: in an OnlineConfig struct, not
	// #[online_config(skip)]/hidden; PD: accepted by the config update API;
	// variables: settable with SET GLOBAL, i.e. not NONE/SESSION-only).
	Online bool `json:"online"`
	// Hidden: TiKV #[online_config(hidden)] (internal, not changeable).
	Hidden bool `json:"hidden,omitempty"`
	// Class says what a key that is not a setting is (ClassIdentity,
	// ClassPath); empty for a setting.
	Class string `json:"class,omitempty"`
	// Nullable: a TiKV Option<T>, shown as null while unset.
	Nullable bool `json:"nullable,omitempty"`
	// StringBool: a PD bool tagged json:",string" (SET CONFIG needs 'true').
	StringBool bool `json:"string_bool,omitempty"`
	// Scope of a variable: GLOBAL, INSTANCE, SESSION (session only), NONE
	// (read-only). Empty for config keys.
	Scope string `json:"scope,omitempty"`
	// Session: a GLOBAL variable that also has SESSION scope (the docs'
	// "SESSION | GLOBAL"): SET SESSION changes it for one connection.
	Session bool `json:"session,omitempty"`
	// Persisted: a GLOBAL variable persisted cluster-wide.
	Persisted bool `json:"persisted,omitempty"`
	// Default as the component's config JSON renders it (TiKV "256MiB",
	// "10m", PD "1h0m0s", numbers as decimal text, lists as JSON arrays) or as
	// the docs state a variable's default. Absent when not a literal.
	Default *string `json:"default,omitempty"`
	// DefaultExpr is the upstream expression when the default is computed
	// (from the host's memory or CPUs, from other keys), for the reader.
	DefaultExpr string `json:"default_expr,omitempty"`
	Deprecated  bool   `json:"deprecated,omitempty"`
	// Unit and Range as the docs state them for a variable ("字节", "[0, 1]").
	Unit  string `json:"unit,omitempty"`
	Range string `json:"range,omitempty"`
	// Source of the facts: the file at the span's newest release tag (at
	// master only for a span of master alone).
	Source Source `json:"source"`
	// Notes are the documented facts the span's patch-level split relies on
	// (a release note saying a default changed), each with its source.
	Notes []Note `json:"notes,omitempty"`
}

// Source names where a fact was read.
type Source struct {
	Repo string `json:"repo"` // "tikv/tikv", "tikv/pd", "pingcap/docs-cn"
	Path string `json:"path"`
	Ref  string `json:"ref"` // tag or branch
	Line int    `json:"line,omitempty"`
}

// Note is a fact with its own source.
type Note struct {
	Text   string `json:"text"`
	Source Source `json:"source"`
}

// String renders a source the way tiform cites it:
// "tikv/tikv@v8.5.7:components/raftstore/src/store/worker/split_config.rs".
func (s Source) String() string {
	out := s.Repo + "@" + s.Ref + ":" + s.Path
	if s.Line > 0 {
		out += fmt.Sprintf("#L%d", s.Line)
	}
	return out
}

// URL is the source as a GitHub link.
func (s Source) URL() string {
	u := "https://github.com/" + s.Repo + "/blob/" + s.Ref + "/" + s.Path
	if s.Line > 0 {
		u += fmt.Sprintf("#L%d", s.Line)
	}
	return u
}

//go:embed settings.json
var settingsJSON []byte

var (
	loadOnce sync.Once
	loaded   *Table
	loadErr  error
)

// Load returns the embedded table, decoded once. The error can only come
// from a corrupt file, which every test run would catch.
func Load() (*Table, error) {
	loadOnce.Do(func() { loaded, loadErr = Decode(settingsJSON) })
	return loaded, loadErr
}

// MustLoad is Load for package initialisation and tests.
func MustLoad() *Table {
	t, err := Load()
	if err != nil {
		panic(err)
	}
	return t
}

// Decode parses a settings.json document and checks its shape.
func Decode(data []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("upstream: settings.json: %w", err)
	}
	if t.Format != Format {
		return nil, fmt.Errorf("upstream: settings.json has format %d, this build reads %d: regenerate it with make catalog", t.Format, Format)
	}
	t.index = make(map[string]*Setting, len(t.Settings))
	for _, s := range t.Settings {
		if s.Key != strings.ToLower(s.Key) {
			return nil, fmt.Errorf("upstream: settings.json: %s %s: keys are lower case", s.Component, s.Key)
		}
		k := s.Component + "\x00" + s.Key
		if _, dup := t.index[k]; dup {
			return nil, fmt.Errorf("upstream: settings.json: %s %s listed twice", s.Component, s.Key)
		}
		if len(s.Spans) == 0 {
			return nil, fmt.Errorf("upstream: settings.json: %s %s has no spans", s.Component, s.Key)
		}
		for _, sp := range s.Spans {
			if t.position(s.Component, sp.From) < 0 || t.position(s.Component, sp.To) < 0 {
				return nil, fmt.Errorf("upstream: settings.json: %s %s: span %s–%s names an unobserved version", s.Component, s.Key, sp.From, sp.To)
			}
		}
		t.index[k] = s
	}
	return &t, nil
}

// Setting returns the setting of a component by key (config keys and
// variable names are case-insensitive, as TiDB treats them).
func (t *Table) Setting(component, key string) (*Setting, bool) {
	s, ok := t.index[component+"\x00"+strings.ToLower(key)]
	return s, ok
}

// Component lists the settings of one component, in file order (by key).
func (t *Table) Component(component string) []*Setting {
	var out []*Setting
	for _, s := range t.Settings {
		if s.Component == component {
			out = append(out, s)
		}
	}
	return out
}

// position is the index of an observed version, or -1.
func (t *Table) position(component, v string) int {
	if p, ok := t.parsedVersions().positions[component][v]; ok {
		return p
	}
	return -1
}

// Resolve maps a cluster version to the observed version whose facts apply:
// the newest observed release of the same X.Y line at or before it (v8.5.8
// → v8.5.7 until v8.5.8 is generated), or "master" for the master
// version's line (v9.0.0 while master calls itself 9.0.0-beta.2). It reports
// false for a line never observed (v6.4.0, v7.6.1 resolves to v7.6.0) and
// for one newer than master's: the table covers those versions only by
// approximation (Nearest).
func (t *Table) Resolve(component string, v version.Version) (string, bool) {
	vs := t.Versions[component]
	if v.IsZero() || len(vs) == 0 {
		return "", false
	}
	if mv, ok := t.masterVersion(component); ok && v.Major == mv.Major && v.Minor == mv.Minor {
		return "master", true
	}
	best := ""
	for _, x := range t.parsedVersions().versions[component] {
		if !x.ok {
			continue // master
		}
		if x.v.Major == v.Major && x.v.Minor == v.Minor && x.v.Patch <= v.Patch {
			best = x.text
		}
	}
	return best, best != ""
}

// Nearest is Resolve for any version: a version Resolve cannot place
// resolves to the newest observed release before it (v8.6.0 → v8.5.7), one
// newer than master's line to master, and one older than every observed
// release to the oldest (v6.1.0 → v6.5.0), so a cluster outside the
// generated range gets the facts of the closest version rather than none.
// The second result says whether it was exact.
func (t *Table) Nearest(component string, v version.Version) (string, bool) {
	if ov, ok := t.Resolve(component, v); ok {
		return ov, true
	}
	vs := t.Versions[component]
	if len(vs) == 0 {
		return "", false
	}
	if mv, ok := t.masterVersion(component); ok && (v.Major > mv.Major || v.Major == mv.Major && v.Minor > mv.Minor) {
		return t.Last(component), false // newer than master: master's facts are the nearest
	}
	best := vs[0]
	for _, x := range t.parsedVersions().versions[component] {
		if x.ok && x.v.Compare(v) <= 0 {
			best = x.text
		}
	}
	return best, false
}

func (t *Table) masterVersion(component string) (version.Version, bool) {
	mv, ok := t.parsedVersions().master[component]
	return mv, ok
}

// At returns the span of s that covers observed version ov, or nil when s
// does not exist there.
func (t *Table) At(s *Setting, ov string) *Span {
	p := t.position(s.Component, ov)
	if p < 0 {
		return nil
	}
	for _, sp := range s.Spans {
		if t.position(s.Component, sp.From) <= p && p <= t.position(s.Component, sp.To) {
			return sp
		}
	}
	return nil
}

// In returns the span of s that applies to a cluster at version v (placed
// with Nearest): nil when s does not exist there.
func (t *Table) In(s *Setting, v version.Version) *Span {
	ov, _ := t.Nearest(s.Component, v)
	return t.At(s, ov)
}

// Newest returns the newest span of s.
func (s *Setting) Newest() *Span { return s.Spans[len(s.Spans)-1] }

// First and Last are the first and last observed versions of a component.
func (t *Table) First(component string) string {
	if vs := t.Versions[component]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Last is the newest observed version of a component ("master").
func (t *Table) Last(component string) string {
	if vs := t.Versions[component]; len(vs) > 0 {
		return vs[len(vs)-1]
	}
	return ""
}

// Ranges renders where s exists, e.g. "v6.5.0–v8.5.7, master" or
// "v8.5.7+" (through master), using the observed versions.
func (t *Table) Ranges(s *Setting) string {
	var parts []string
	for _, r := range t.existence(s) {
		switch {
		case r[1] == t.Last(s.Component) && r[0] == t.First(s.Component):
			parts = append(parts, "all observed versions ("+r[0]+"+)")
		case r[1] == t.Last(s.Component):
			parts = append(parts, r[0]+"+")
		case r[0] == r[1]:
			parts = append(parts, r[0])
		default:
			parts = append(parts, r[0]+"–"+r[1])
		}
	}
	return strings.Join(parts, ", ")
}

// existence merges adjacent spans into the ranges where s exists.
func (t *Table) existence(s *Setting) [][2]string {
	var out [][2]string
	for _, sp := range s.Spans {
		if n := len(out); n > 0 && t.position(s.Component, out[n-1][1])+1 == t.position(s.Component, sp.From) {
			out[n-1][1] = sp.To
			continue
		}
		out = append(out, [2]string{sp.From, sp.To})
	}
	return out
}

// Keys returns the sorted keys of a component.
func (t *Table) Keys(component string) []string {
	var out []string
	for _, s := range t.Component(component) {
		out = append(out, s.Key)
	}
	sort.Strings(out)
	return out
}

package planner

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// TestComparisonProperty states the invariant of the one comparison owner:
// for every value kind, on every setting of that kind the catalog knows and on
// settings it does not (a newer release's), for any spelling an operator
// declares and every rendering a component prints for the same value, the
// three places that compare values agree with each other and with the value:
//
//   - planner equality: BuildCluster plans no change between a declared value
//     and any rendering of it, and exactly one change against another value;
//   - read-back: the change's Check is satisfied by every rendering of the
//     declared value and by nothing else;
//   - stale check: Stale finds nothing between two renderings of one value,
//     and finds the value moved when it did.
//
// Renderings come from the emulator's rendering rules (tidbsim.Render*: TiKV
// ReadableSize/ReadableDuration, PD go-units sizes and Go durations, SHOW
// CONFIG's float64 round trip, TiDB's variable validation, SELECT @@'s 1/0
// booleans), each citing its upstream source. Cases are generated from a
// fixed seed; every kind gets at least propCases of them. Each round plans
// one case on every setting of the kind at once (the planner decides each
// setting on its own), so the test stays fast enough for make test.
func TestComparisonProperty(t *testing.T) {
	for ki, k := range propKinds() {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			settings := propSettings(t, k)
			r := rand.New(rand.NewPCG(20261130, uint64(ki)))
			n := 0
			for round := 0; n < propCases; round++ {
				if round > 20*propCases/len(settings) {
					t.Fatalf("only %d of %d cases could be generated", n, propCases)
				}
				cases := propRound(r, k, settings)
				if !propCheck(t, cases) {
					return // one reported failure per kind is enough to read
				}
				n += len(cases)
			}
			t.Logf("%d cases on %d settings", n, len(settings))
		})
	}
}

// propCases is the number of generated cases per kind.
const propCases = 10000

// propUnknownKeys is how many settings the catalog does not know are tested
// per component and kind.
const propUnknownKeys = 8

// propSetting is one setting the property is checked on.
type propSetting struct {
	label     string
	kind      state.Kind // KindConfig or KindVariable
	component state.Component
	key       string
	entry     *catalog.Entry // nil: not in the catalog
	enum      []string       // enum values (the entry's, or the newer variable's)
	// lo, hi bound generated values in the kind's base unit (bytes, seconds,
	// the number itself) when the entry documents a range.
	lo, hi   float64
	hasRange bool
}

func (s *propSetting) variable() bool { return s.kind == state.KindVariable }

// tikv reports a TiKV config item.
func (s *propSetting) tikv() bool { return s.kind == state.KindConfig && s.component != state.PD }

func (s *propSetting) pd() bool { return s.kind == state.KindConfig && s.component == state.PD }

func (s *propSetting) inRange(f float64) bool {
	if !s.hasRange {
		return true
	}
	if f < s.lo || f > s.hi {
		return false
	}
	return f != s.lo || !s.entry.MinExclusive
}

// inRangeValue draws a number within the documented range, at most limit
// above its low end so that huge ranges still yield ordinary values.
func (s *propSetting) inRangeValue(r *rand.Rand, limit float64) float64 {
	return s.lo + r.Float64()*(math.Min(s.hi, s.lo+limit)-s.lo)
}

// propKind generates values of one kind. Values are model values (uint64
// bytes, time.Duration, bool, int64, float64, enum index, []string, string).
type propKind struct {
	name    string
	catalog catalog.Kind
	// targets are the (kind, component) pairs to test the catalogued
	// settings of, and unknown those to test settings the catalog does not
	// know on.
	targets, unknown []propTarget
	gen              func(r *rand.Rand, s *propSetting) (any, bool)
	same             func(s *propSetting, a, b any) bool
	declare          func(r *rand.Rand, s *propSetting, v any) state.Value
	render           func(r *rand.Rand, s *propSetting, v any) string
}

type propTarget struct {
	kind      state.Kind
	component state.Component
}

var (
	onTiKV     = propTarget{state.KindConfig, state.TiKV}
	onPD       = propTarget{state.KindConfig, state.PD}
	onVariable = propTarget{state.KindVariable, state.TiDB}
	propV      = version.MustParse("v8.5.1")
)

// propSettings returns every catalogued setting of k's kind on its targets and
// propUnknownKeys settings of that kind the catalog does not know per
// unknown target.
func propSettings(t *testing.T, k propKind) []*propSetting {
	var out []*propSetting
	for _, tg := range k.targets {
		for _, e := range cataloguedOfKind(tg, k.catalog) {
			s := &propSetting{label: e.Address(), kind: tg.kind, component: tg.component, key: e.Key, entry: e, enum: e.Enum}
			if e.HasRange {
				s.lo, s.hi, s.hasRange = e.Min, e.Max, true
			}
			out = append(out, s)
		}
	}
	for _, tg := range k.unknown {
		for i := 0; i < propUnknownKeys; i++ {
			key := fmt.Sprintf("newer-feature.%s-%d", k.name, i)
			if tg.kind == state.KindVariable {
				key = fmt.Sprintf("tidb_newer_%s_%d", k.name, i)
			}
			if settingOf(tg.kind, tg.component, key).Known() {
				t.Fatalf("%s is in the catalog; the property needs an unknown key", key)
			}
			s := &propSetting{label: "uncatalogued " + string(tg.component) + " " + key, kind: tg.kind, component: tg.component, key: key}
			if k.catalog == catalog.KindEnum {
				s.enum = []string{"OFF", "ON", "AUTO"}
				if !s.variable() {
					s.enum = []string{"fast", "safe", "balanced"}
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// cataloguedOfKind lists the entries of kind k on tg that SET CONFIG or SET
// GLOBAL manage in v8.5.1, leaving out families: their ordering rules refuse
// some combinations of values (TiKV rejects split > max), which is not what
// this property is about.
func cataloguedOfKind(tg propTarget, k catalog.Kind) []*catalog.Entry {
	target, comp := catalog.TargetConfig, string(tg.component)
	if tg.kind == state.KindVariable {
		target, comp = catalog.TargetVariable, "tidb"
	}
	var out []*catalog.Entry
	for _, e := range catalog.Entries() {
		if e.Target != target || e.Component != comp || e.Kind != k || !e.Online || e.ReadOnly || e.Prefix ||
			e.RestartIfEnabled || e.Scope == catalog.ScopeSession || !e.ExistsIn(propV) || e.Family != "" ||
			k == catalog.KindEnum && len(e.Enum) < 2 ||
			// A credential compares through what TiDB shows of it (a set
			// LDAP password reads "******"): two passwords are not told
			// apart, by design (catalog/secret.go, TestSecretSettings).
			catalog.SettingFor(target, comp, e.Key).Secret() != "" {
			continue
		}
		out = append(out, e)
	}
	return out
}

// propCaseData is one generated case on one setting: a value v, another value
// w, a declared spelling of v, two renderings of each.
type propCaseData struct {
	s        *propSetting
	v, w     any
	declared state.Value
	r1, r2   string // renderings of v
	rw, rw2  string // renderings of w
}

// propRound draws one case per setting (none where no case can be drawn).
func propRound(r *rand.Rand, k propKind, settings []*propSetting) []propCaseData {
	var out []propCaseData
	for _, s := range settings {
		v, ok := k.gen(r, s)
		if !ok {
			continue
		}
		var w any
		for tries := 0; ; tries++ {
			if tries == 100 {
				ok = false // no other value in range
				break
			}
			if w, ok = k.gen(r, s); ok && !k.same(s, v, w) {
				break
			}
		}
		if !ok {
			continue
		}
		out = append(out, propCaseData{s: s, v: v, w: w, declared: k.declare(r, s, v),
			r1: k.render(r, s, v), r2: k.render(r, s, v), rw: k.render(r, s, w), rw2: k.render(r, s, w)})
	}
	return out
}

// propCheck checks the three comparisons on a round of cases, planned
// together; false after reporting a failure.
func propCheck(t *testing.T, cases []propCaseData) bool {
	t.Helper()
	fail := func(c propCaseData, format string, args ...any) bool {
		t.Errorf("%s: declared %q (value %v), renderings %q %q, other value %v rendered %q %q: %s",
			c.s.label, c.declared.Text, c.v, c.r1, c.r2, c.w, c.rw, c.rw2, fmt.Sprintf(format, args...))
		return false
	}
	dc := propDesired(cases)
	rendered := func(pick func(propCaseData) string) *state.Live { return propLive(cases, pick) }
	same, err := BuildCluster(dc, rendered(func(c propCaseData) string { return c.r1 }), Options{Now: testNow, Guards: noGuards})
	if err != nil {
		t.Errorf("plan: %v", err)
		return false
	}
	if len(same.Changes) != 0 {
		c := propCaseOf(cases, same.Changes[0].Addr.Component, same.Changes[0].Addr.Key)
		return fail(c, "planner equality: a change against a rendering of the same value (%s)", same.Changes[0].Reason)
	}
	moved, err := BuildCluster(dc, rendered(func(c propCaseData) string { return c.rw }), Options{Now: testNow, Guards: noGuards})
	if err != nil {
		t.Errorf("plan: %v", err)
		return false
	}
	checks := map[propID]plans.Check{}
	for _, ch := range moved.Changes {
		id := propID{ch.Addr.Component, ch.Addr.Key}
		if _, dup := checks[id]; dup || len(ch.Verify) != 1 {
			return fail(propCaseOf(cases, ch.Addr.Component, ch.Addr.Key), "planner equality: more than one change or check")
		}
		checks[id] = ch.Verify[0]
	}
	for _, c := range cases {
		chk, ok := checks[c.s.id()]
		if !ok {
			return fail(c, "planner equality: no change against another value")
		}
		if !Satisfied(chk, c.r1) || !Satisfied(chk, c.r2) {
			return fail(c, "read-back: want %q not satisfied by a rendering of the declared value", chk.Want)
		}
		if Satisfied(chk, c.rw) {
			return fail(c, "read-back: want %q satisfied by another value", chk.Want)
		}
	}
	if st := Stale(moved.Fingerprint, Fingerprint(dc, rendered(func(c propCaseData) string { return c.rw2 }))); len(st) != 0 {
		return fail(propCaseOf(cases, st[0].Addr.Component, st[0].Addr.Key), "stale check: another rendering of the planned value is stale: %+v", st[0])
	}
	stale := map[propID]int{}
	for _, st := range Stale(moved.Fingerprint, same.Fingerprint) {
		stale[propID{st.Addr.Component, st.Addr.Key}]++
	}
	for _, c := range cases {
		if n := stale[c.s.id()]; n != 1 {
			return fail(c, "stale check: a moved value is stale %d times, want once", n)
		}
	}
	return true
}

// propID names a setting in a plan: component ("tidb" for variables) and key.
type propID struct {
	component state.Component
	key       string
}

func (s *propSetting) id() propID { return propID{s.component, s.key} }

// propCaseOf finds the case of a setting.
func propCaseOf(cases []propCaseData, c state.Component, key string) propCaseData {
	for _, cd := range cases {
		if cd.s.id() == (propID{c, key}) {
			return cd
		}
	}
	return propCaseData{s: &propSetting{label: string(c) + " " + key}}
}

func noGuards(guard.Input) []guard.Finding { return nil }

func propDesired(cases []propCaseData) *state.DesiredCluster {
	dc := &state.DesiredCluster{Name: "prop"}
	for _, c := range cases {
		if c.s.variable() {
			dc.Variables = append(dc.Variables, state.VariableSetting{Name: c.s.key, Value: c.declared})
		} else {
			dc.Config = append(dc.Config, state.ConfigSetting{Component: c.s.component, Key: c.s.key, Value: c.declared})
		}
	}
	return dc
}

// propLive is a cluster of one TiDB, one PD and one TiKV where each case's
// setting reads as rendering picks.
func propLive(cases []propCaseData, rendering func(propCaseData) string) *state.Live {
	l := &state.Live{
		ServerVersion: "8.0.11-TiDB-v8.5.1", ConnectedInstance: "10.0.1.1:4000", ServerVersionParsed: propV,
		Instances:  propInstances,
		ConfigRead: []state.Component{state.TiKV, state.PD}, VariablesRead: true, ResourceGroupsRead: true, UsersRead: true,
		Variables: map[string]string{},
	}
	for _, c := range cases {
		if c.s.variable() {
			l.Variables[c.s.key] = rendering(c)
		} else {
			l.Config = append(l.Config, state.ConfigRow{Component: c.s.component, Instance: l.InstancesOf(c.s.component)[0], Key: c.s.key, Value: rendering(c)})
		}
	}
	return l
}

// propInstances is the topology of propLive (read only).
var propInstances = []state.Instance{
	inst(state.TiDB, "10.0.1.1:4000", "v8.5.1"), inst(state.PD, "10.0.1.10:2379", "v8.5.1"),
	inst(state.TiKV, "10.0.1.17:20160", "v8.5.1"),
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// hcl is a declared value: an HCL string, number or bool literal.
func hcl(text string, typ state.LiteralType) state.Value { return state.Value{Text: text, Type: typ} }

// spaced surrounds text with the white space an operator may leave.
func spaced(r *rand.Rand, text string) string {
	return pick(r, "", " ") + text + pick(r, "", " ", "\n")
}

func propKinds() []propKind {
	all := []propTarget{onTiKV, onPD, onVariable}
	return []propKind{
		{name: "size", catalog: catalog.KindSize, targets: all, unknown: all, gen: genSize, same: sameSize, declare: declareSize, render: renderSize},
		{name: "duration", catalog: catalog.KindDuration, targets: all, unknown: all, gen: genDuration, same: sameEq, declare: declareDuration, render: renderDuration},
		{name: "bool", catalog: catalog.KindBool, targets: all, unknown: all, gen: genBool, same: sameEq, declare: declareBool, render: renderBool},
		{name: "int", catalog: catalog.KindInt, targets: all, unknown: all, gen: genInt, same: sameInt, declare: declareInt, render: renderInt},
		{name: "float", catalog: catalog.KindFloat, targets: all, unknown: all, gen: genFloat, same: sameEq, declare: declareFloat, render: renderFloat},
		{name: "enum", catalog: catalog.KindEnum, targets: all, unknown: all, gen: genEnum, same: sameEq, declare: declareEnum, render: renderEnum},
		// A list the catalog does not know is a list only where the cluster
		// prints a JSON array (TiDB flattens arrays of TiKV's config so); a
		// variable prints a comma list, which is text to tiform.
		{name: "list", catalog: catalog.KindList, targets: all, unknown: []propTarget{onTiKV, onPD}, gen: genList, same: sameList, declare: declareList, render: renderList},
		{name: "string", catalog: catalog.KindString, targets: all, unknown: all, gen: genString, same: sameString, declare: declareString, render: renderString},
	}
}

func sameEq(_ *propSetting, a, b any) bool { return a == b }

// --- sizes: bytes ---

var sizeUnits = []struct {
	n     uint64
	names []string
}{
	{1 << 10, []string{"K", "KB", "KiB", "k", "kb", "kib"}},
	{1 << 20, []string{"M", "MB", "MiB", "m", "mb", "MiB"}},
	{1 << 30, []string{"G", "GB", "GiB", "g", "gib"}},
	{1 << 40, []string{"T", "TB", "TiB"}},
}

func genSize(r *rand.Rand, s *propSetting) (any, bool) {
	for tries := 0; tries < 50; tries++ {
		var v uint64
		switch r.IntN(5) {
		case 4:
			if !s.hasRange {
				continue
			}
			v = uint64(s.inRangeValue(r, 1<<40))
		case 0: // odd byte counts
			v = r.Uint64N(1 << 40)
		default:
			u := sizeUnits[r.IntN(len(sizeUnits))].n
			v = r.Uint64N(2048) * u
			if r.IntN(4) == 0 {
				v += u / 2 // a half unit: "1.5GiB"
			}
		}
		if s.inRange(float64(v)) {
			return v, true
		}
	}
	return nil, false
}

// sameSize: PD prints sizes with four significant digits, so two sizes it
// prints alike are one value; elsewhere bytes are exact.
func sameSize(s *propSetting, a, b any) bool {
	if s.pd() {
		return tidbsim.RenderPDSize(a.(uint64)) == tidbsim.RenderPDSize(b.(uint64))
	}
	return a == b
}

func declareSize(r *rand.Rand, s *propSetting, v any) state.Value {
	n := v.(uint64)
	var forms []string
	forms = append(forms, strconv.FormatUint(n, 10), strconv.FormatUint(n, 10)+"B")
	for _, u := range sizeUnits {
		if n%u.n == 0 {
			forms = append(forms, strconv.FormatUint(n/u.n, 10)+pick(r, "", " ")+pick(r, u.names...))
		} else if (2*n)%u.n == 0 && n > u.n {
			forms = append(forms, strconv.FormatFloat(float64(n)/float64(u.n), 'f', -1, 64)+pick(r, u.names...))
		}
	}
	if n < 1<<53 && n%1000 == 0 {
		forms = append(forms, strconv.FormatFloat(float64(n), 'e', -1, 64))
	}
	text := pick(r, forms...)
	if _, err := strconv.ParseUint(text, 10, 64); err == nil {
		return hcl(text, state.LiteralNumber)
	}
	return hcl(spaced(r, text), state.LiteralString)
}

func renderSize(r *rand.Rand, s *propSetting, v any) string {
	n := v.(uint64)
	switch {
	case s.pd():
		return tidbsim.RenderPDSize(n)
	case s.variable() && s.entry == nil:
		// A newer TiDB's size variable keeps the text it was set with
		// (tidb_schema_cache_size: "1GiB" stays "1GiB") or counts bytes.
		if n%(1<<30) == 0 && n > 0 && r.IntN(2) == 0 {
			return strconv.FormatUint(n>>30, 10) + pick(r, "GiB", "GB")
		}
		return strconv.FormatUint(n, 10)
	case s.variable() || s.entry != nil && s.entry.Unit == "B":
		return strconv.FormatUint(n, 10) // TiDB and TiKV usize fields count bytes
	}
	return tidbsim.RenderTiKVSize(n)
}

// --- durations ---

func genDuration(r *rand.Rand, s *propSetting) (any, bool) {
	for tries := 0; tries < 50; tries++ {
		unit := pick(r, time.Millisecond, time.Second, time.Minute, time.Hour, 24*time.Hour)
		d := time.Duration(r.IntN(1000)) * unit
		if r.IntN(3) == 0 {
			d += time.Duration(r.IntN(60)) * time.Second
		}
		if s.hasRange && r.IntN(2) == 0 {
			d = time.Duration(s.inRangeValue(r, 1e6)) * time.Second
		}
		if s.inRange(d.Seconds()) {
			return d, true
		}
	}
	return nil, false
}

func declareDuration(r *rand.Rand, s *propSetting, v any) state.Value {
	d := v.(time.Duration)
	forms := []string{d.String(), tidbsim.RenderTiKVDuration(d)}
	if d%time.Second == 0 {
		forms = append(forms, strconv.FormatInt(int64(d/time.Second), 10)+"s")
	}
	if d%time.Millisecond == 0 {
		forms = append(forms, strconv.FormatInt(int64(d/time.Millisecond), 10)+"ms")
	}
	if d%time.Minute == 0 {
		forms = append(forms, strconv.FormatInt(int64(d/time.Minute), 10)+"m")
	}
	if d%(30*time.Minute) == 0 && d > 0 {
		forms = append(forms, strconv.FormatFloat(d.Hours(), 'f', -1, 64)+"h")
	}
	if d == 0 {
		forms = append(forms, "0")
	}
	return hcl(spaced(r, pick(r, forms...)), state.LiteralString)
}

func renderDuration(_ *rand.Rand, s *propSetting, v any) string {
	if s.tikv() {
		return tidbsim.RenderTiKVDuration(v.(time.Duration))
	}
	return tidbsim.RenderGoDuration(v.(time.Duration))
}

// --- booleans ---

func genBool(r *rand.Rand, _ *propSetting) (any, bool) { return r.IntN(2) == 1, true }

func declareBool(r *rand.Rand, _ *propSetting, v any) state.Value {
	if v.(bool) {
		return pick(r, hcl("true", state.LiteralBool), hcl("ON", state.LiteralString), hcl("on", state.LiteralString),
			hcl("1", state.LiteralNumber), hcl("TRUE", state.LiteralString))
	}
	return pick(r, hcl("false", state.LiteralBool), hcl("OFF", state.LiteralString), hcl("off", state.LiteralString),
		hcl("0", state.LiteralNumber), hcl("False", state.LiteralString))
}

func renderBool(r *rand.Rand, s *propSetting, v any) string {
	if !s.variable() {
		return strconv.FormatBool(v.(bool)) // JSON true/false
	}
	show, sel, err := tidbsim.RenderVariable("bool", nil, map[bool]string{true: "ON", false: "OFF"}[v.(bool)])
	if err != nil {
		panic(err)
	}
	return pick(r, show, sel) // SHOW VARIABLES: ON/OFF; SELECT @@: 1/0
}

// --- integers ---

func genInt(r *rand.Rand, s *propSetting) (any, bool) {
	for tries := 0; tries < 50; tries++ {
		var n int64
		switch r.IntN(4) {
		case 0:
			n = r.Int64N(2)
		case 1:
			n = r.Int64N(1 << 62) // beyond float64's exact integers on config items
		default:
			n = r.Int64N(int64(math.Pow10(1 + r.IntN(9))))
		}
		if s.hasRange && r.IntN(2) == 0 {
			n = int64(s.inRangeValue(r, 1e12))
		}
		if s.inRange(float64(n)) {
			return n, true
		}
	}
	return nil, false
}

// sameInt: SHOW CONFIG prints every number through a float64, so two
// integers a float64 cannot tell apart are one config value.
func sameInt(s *propSetting, a, b any) bool {
	if s.variable() {
		return a == b
	}
	return float64(a.(int64)) == float64(b.(int64))
}

func declareInt(r *rand.Rand, _ *propSetting, v any) state.Value {
	n := v.(int64)
	forms := []string{strconv.FormatInt(n, 10), "+" + strconv.FormatInt(n, 10), strconv.FormatInt(n, 10) + ".0"}
	if n < 1<<53 {
		forms = append(forms, strconv.FormatFloat(float64(n), 'e', -1, 64))
	}
	text := pick(r, forms...)
	if text == forms[0] {
		return hcl(text, state.LiteralNumber)
	}
	return hcl(spaced(r, text), state.LiteralString)
}

func renderInt(r *rand.Rand, s *propSetting, v any) string {
	text := strconv.FormatInt(v.(int64), 10)
	if !s.variable() {
		return tidbsim.RenderConfigNumber(text)
	}
	show, sel, err := tidbsim.RenderVariable("int", nil, text)
	if err != nil {
		panic(err)
	}
	return pick(r, show, sel)
}

// --- floats ---

func genFloat(r *rand.Rand, s *propSetting) (any, bool) {
	for tries := 0; tries < 50; tries++ {
		f := float64(r.IntN(1000000)) / math.Pow10(r.IntN(7))
		if s.hasRange && r.IntN(2) == 0 {
			f = math.Round(s.inRangeValue(r, 1e6)*1000) / 1000
		}
		if s.inRange(f) {
			return f, true
		}
	}
	return nil, false
}

func declareFloat(r *rand.Rand, _ *propSetting, v any) state.Value {
	f := v.(float64)
	short := strconv.FormatFloat(f, 'f', -1, 64)
	forms := []string{short, strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'e', -1, 64)}
	if strings.Contains(short, ".") {
		forms = append(forms, short+"0")
	} else {
		forms = append(forms, short+".0")
	}
	text := pick(r, forms...)
	if text == short {
		return hcl(text, state.LiteralNumber)
	}
	return hcl(spaced(r, text), state.LiteralString)
}

func renderFloat(r *rand.Rand, s *propSetting, v any) string {
	f := v.(float64)
	if !s.variable() {
		return tidbsim.RenderConfigNumber(strconv.FormatFloat(f, 'f', -1, 64))
	}
	// TiDB keeps a float variable's text as it was set, by tiform or by
	// anyone else.
	text := pick(r, strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(f, 'f', 6, 64))
	show, _, err := tidbsim.RenderVariable("float", nil, text)
	if err != nil {
		panic(err)
	}
	return show
}

// --- enums ---

func genEnum(r *rand.Rand, s *propSetting) (any, bool) { return r.IntN(len(s.enum)), true }

func declareEnum(r *rand.Rand, s *propSetting, v any) state.Value {
	e := s.enum[v.(int)]
	if s.entry == nil && !s.variable() {
		return hcl(e, state.LiteralString) // TiKV matches its enums exactly
	}
	return hcl(spaced(r, pick(r, e, strings.ToUpper(e), strings.ToLower(e))), state.LiteralString)
}

func renderEnum(r *rand.Rand, s *propSetting, v any) string {
	e := s.enum[v.(int)]
	if !s.variable() {
		return e
	}
	// TiDB stores its own spelling whatever case was set.
	show, _, err := tidbsim.RenderVariable("enum", s.enum, pick(r, e, strings.ToLower(e)))
	if err != nil {
		panic(err)
	}
	return show
}

// --- lists ---

var listItems = []string{"zone", "rack", "host", "dc", "region", "az"}

func genList(r *rand.Rand, _ *propSetting) (any, bool) {
	items := slices.Clone(listItems)
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return items[:1+r.IntN(4)], true
}

func sameList(_ *propSetting, a, b any) bool { return slices.Equal(a.([]string), b.([]string)) }

func declareList(r *rand.Rand, _ *propSetting, v any) state.Value {
	items := v.([]string)
	if r.IntN(3) == 0 {
		b, _ := json.Marshal(items)
		return hcl(string(b), state.LiteralString)
	}
	return hcl(strings.Join(items, pick(r, ",", ", ", " , ")), state.LiteralString)
}

func renderList(r *rand.Rand, s *propSetting, v any) string {
	items := v.([]string)
	b, _ := json.Marshal(items)
	switch {
	case s.entry == nil:
		return string(b) // a JSON array, as TiDB flattens one
	case s.variable():
		return strings.Join(items, ",")
	}
	return pick(r, strings.Join(items, ","), string(b)) // PD's StringSlice prints "a,b"
}

// --- strings ---

func genString(r *rand.Rand, _ *propSetting) (any, bool) {
	const letters = "abcdefghijklmnopqrstuvwxyz-/_"
	b := []byte{"xyz"[r.IntN(3)]}
	for n := 2 + r.IntN(8); n > 0; n-- {
		b = append(b, letters[r.IntN(len(letters))])
	}
	return string(b), true
}

// sameString: a variable the catalog does not know compares case-insensitively
// (TiDB stores an enum's own spelling); everything else exactly.
func sameString(s *propSetting, a, b any) bool {
	if s.variable() && s.entry == nil {
		return strings.EqualFold(a.(string), b.(string))
	}
	return a == b
}

func declareString(r *rand.Rand, s *propSetting, v any) state.Value {
	text := v.(string)
	if s.variable() && s.entry == nil {
		text = pick(r, text, strings.ToUpper(text))
	}
	return hcl(spaced(r, text), state.LiteralString)
}

func renderString(_ *rand.Rand, _ *propSetting, v any) string { return v.(string) }

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
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// TestComparisonProperty states the invariant of the one comparison owner:
// for every value kind, on settings the catalog knows and on settings it does
// not (a newer release's), for any spelling an operator declares and every
// rendering a component prints for the same value, the three places that
// compare values agree with each other and with the value:
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
// fixed seed; every kind gets at least propCases of them.
func TestComparisonProperty(t *testing.T) {
	for ki, k := range propKinds() {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			settings := propSettings(t, k)
			if len(settings) == 0 {
				t.Fatalf("no setting of kind %s to test", k.name)
			}
			r := rand.New(rand.NewPCG(20261130, uint64(ki)))
			per := (propCases + len(settings) - 1) / len(settings)
			n := 0
			for _, s := range settings {
				for i, ran := 0, 0; ran < per; i++ {
					if i > 4*per {
						t.Fatalf("%s: only %d of %d cases could be generated", s.label, ran, per)
					}
					done, ok := propCase(t, r, k, s)
					if !ok {
						return // one reported failure per kind is enough to read
					}
					if done {
						ran++
						n++
					}
				}
			}
			if n < propCases {
				t.Fatalf("%d cases, want at least %d", n, propCases)
			}
		})
	}
}

// propCases is the number of generated cases per kind.
const propCases = 10000

// propSetting is one setting the property is checked on.
type propSetting struct {
	label     string
	kind      Kind // KindConfig or KindVariable
	component state.Component
	key       string
	entry     *catalog.Entry // nil: not in the catalog
	enum      []string       // enum values (the entry's, or the newer variable's)
	// lo, hi bound generated values in the kind's base unit (bytes, seconds,
	// the number itself) when the entry documents a range.
	lo, hi   float64
	hasRange bool
}

func (s *propSetting) variable() bool { return s.kind == KindVariable }

// config reports a TiKV (or TiFlash proxy) config item.
func (s *propSetting) tikv() bool { return s.kind == KindConfig && s.component != state.PD }

func (s *propSetting) pd() bool { return s.kind == KindConfig && s.component == state.PD }

func (s *propSetting) inRange(f float64) bool {
	if !s.hasRange {
		return true
	}
	if f < s.lo || f > s.hi {
		return false
	}
	return f != s.lo || !s.entry.MinExclusive
}

// inRangeValue draws a number within the documented range (capped so that
// huge ranges still yield ordinary values), for kinds that have one.
func (s *propSetting) inRangeValue(r *rand.Rand) float64 {
	return s.lo + r.Float64()*(math.Min(s.hi, s.lo+1e12)-s.lo)
}

// propKind generates values of one kind. Values are model values (uint64
// bytes, time.Duration, bool, int64, float64, enum index, []string, string).
type propKind struct {
	name    string
	catalog catalog.Kind
	// targets are the (kind, component) pairs to test a catalogued setting
	// on, and unknown those to test a setting the catalog does not know on.
	targets, unknown []propTarget
	gen              func(r *rand.Rand, s *propSetting) (any, bool)
	same             func(s *propSetting, a, b any) bool
	declare          func(r *rand.Rand, s *propSetting, v any) state.Value
	render           func(r *rand.Rand, s *propSetting, v any) string
}

type propTarget struct {
	kind      Kind
	component state.Component
}

var (
	onTiKV     = propTarget{KindConfig, state.TiKV}
	onPD       = propTarget{KindConfig, state.PD}
	onVariable = propTarget{KindVariable, state.TiDB}
	propV      = version.MustParse("v8.5.1")
)

// propSettings returns, for each target of k, the first catalogued setting of
// that kind (by address) and a setting of that kind the catalog does not know.
func propSettings(t *testing.T, k propKind) []*propSetting {
	var out []*propSetting
	for _, tg := range k.targets {
		if e := cataloguedOfKind(tg, k.catalog); e != nil {
			s := &propSetting{label: e.Address(), kind: tg.kind, component: tg.component, key: e.Key, entry: e, enum: e.Enum}
			if e.HasRange {
				s.lo, s.hi, s.hasRange = e.Min, e.Max, true
			}
			out = append(out, s)
		}
	}
	for _, tg := range k.unknown {
		key := "newer-feature." + k.name
		if tg.kind == KindVariable {
			key = "tidb_newer_" + k.name
		}
		if _, known := catalog.Config(string(tg.component), key); known {
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
	return out
}

func cataloguedOfKind(tg propTarget, k catalog.Kind) *catalog.Entry {
	target, comp := catalog.TargetConfig, string(tg.component)
	if tg.kind == KindVariable {
		target, comp = catalog.TargetVariable, "tidb"
	}
	for _, e := range catalog.Entries() {
		if e.Target != target || e.Component != comp || e.Kind != k || !e.Online || e.ReadOnly || e.Prefix ||
			e.RestartIfEnabled || e.Scope == catalog.ScopeSession || !e.ExistsIn(propV) {
			continue
		}
		if k == catalog.KindEnum && len(e.Enum) < 2 {
			continue
		}
		return e
	}
	return nil
}

// propCase checks one generated case. done is false when no case could be
// drawn; ok is false after reporting a failure.
func propCase(t *testing.T, r *rand.Rand, k propKind, s *propSetting) (done, ok bool) {
	t.Helper()
	v, ok := k.gen(r, s)
	if !ok {
		return false, true
	}
	var w any
	for tries := 0; ; tries++ {
		if tries == 100 {
			return false, true // no other value in range
		}
		if w, ok = k.gen(r, s); ok && !k.same(s, v, w) {
			break
		}
	}
	done, ok = true, propCheck(t, r, k, s, v, w)
	return done, ok
}

// propCheck checks the three comparisons on value v, another value w and
// generated spellings and renderings of both.
func propCheck(t *testing.T, r *rand.Rand, k propKind, s *propSetting, v, w any) bool {
	t.Helper()
	d := k.declare(r, s, v)
	r1, r2 := k.render(r, s, v), k.render(r, s, v)
	rw, rw2 := k.render(r, s, w), k.render(r, s, w)
	fail := func(format string, args ...any) bool {
		t.Errorf("%s: declared %q (value %v), renderings %q %q, other value %v rendered %q %q: %s",
			s.label, d.Text, v, r1, r2, w, rw, rw2, fmt.Sprintf(format, args...))
		return false
	}
	same, err := propPlan(s, d, r1)
	if err != nil {
		return fail("plan: %v", err)
	}
	if len(same.Changes) != 0 {
		return fail("planner equality: a change %s against a rendering of the same value", same.Changes[0].Reason)
	}
	moved, err := propPlan(s, d, rw)
	if err != nil {
		return fail("plan: %v", err)
	}
	if len(moved.Changes) != 1 || len(moved.Changes[0].Verify) != 1 {
		return fail("planner equality: %d changes against another value, want 1", len(moved.Changes))
	}
	c := moved.Changes[0].Verify[0]
	if !c.Satisfied(r1) || !c.Satisfied(r2) {
		return fail("read-back: want %q not satisfied by a rendering of the declared value", c.Want)
	}
	if c.Satisfied(rw) {
		return fail("read-back: want %q satisfied by another value", c.Want)
	}
	dc := propDesired(s, d)
	if st := Stale(moved.Fingerprint, Fingerprint(dc, propLive(s, rw2))); len(st) != 0 {
		return fail("stale check: another rendering of the planned value is stale: %+v", st)
	}
	if st := Stale(moved.Fingerprint, same.Fingerprint); len(st) != 1 {
		return fail("stale check: a moved value is not stale exactly once: %+v", st)
	}
	return true
}

func noGuards(guard.Input) []guard.Finding { return nil }

func propPlan(s *propSetting, d state.Value, rendered string) (*ClusterPlan, error) {
	return BuildCluster(propDesired(s, d), propLive(s, rendered), Options{Now: testNow, Guards: noGuards})
}

func propDesired(s *propSetting, d state.Value) *state.DesiredCluster {
	dc := &state.DesiredCluster{Name: "prop"}
	if s.variable() {
		dc.Variables = []state.VariableSetting{{Name: s.key, Value: d}}
	} else {
		dc.Config = []state.ConfigSetting{{Component: s.component, Key: s.key, Value: d}}
	}
	return dc
}

// propLive is a cluster of one TiDB, one PD and one TiKV where the setting
// reads as rendered.
func propLive(s *propSetting, rendered string) *state.Live {
	l := &state.Live{
		ServerVersion: "8.0.11-TiDB-v8.5.1", ConnectedInstance: "10.0.1.1:4000", ServerVersionParsed: propV,
		Instances:  propInstances,
		ConfigRead: []state.Component{state.TiKV, state.PD}, VariablesRead: true, ResourceGroupsRead: true, UsersRead: true,
	}
	if s.variable() {
		l.Variables = map[string]string{s.key: rendered}
	} else {
		l.Config = []state.ConfigRow{{Component: s.component, Instance: l.InstancesOf(s.component)[0], Key: s.key, Value: rendered}}
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
			v = uint64(s.inRangeValue(r))
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
			d = time.Duration(s.inRangeValue(r)) * time.Second
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
			n = int64(s.inRangeValue(r))
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
			f = math.Round(s.inRangeValue(r)*1000) / 1000
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

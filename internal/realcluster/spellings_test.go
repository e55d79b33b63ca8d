package realcluster

import (
	"math/big"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// spellingVersions are the release lines TestNoFalseDiffsInUserSpellings
// emulates (issue 13's bar: v7.5, v8.1 and v8.5).
var spellingVersions = []string{"v7.5.6", "v8.1.2", "v8.5.1"}

// TestNoFalseDiffsInUserSpellings: every TiKV and PD key and every GLOBAL
// variable of the table that the cluster reports at its default, declared in
// HCL in each spelling an operator writes for that value rather than as the
// component prints it (sizes 1G, 1GiB, 1024MiB, 1073741824; durations 10s,
// 10000ms; booleans ON, true, 1; enums in either case), plans no change, on
// an emulated v7.5, v8.1 and v8.5 cluster (or the real cluster of
// TIFORM_TEST_DSN). The spellings are written here from the rendering, with
// this test's own parser, not with the catalog's: a catalog that read a
// rendering wrong would plan a change.
func TestNoFalseDiffsInUserSpellings(t *testing.T) {
	versions := append(spellingVersions, "")
	if os.Getenv("TIFORM_TEST_DSN") != "" {
		versions = []string{""}
	}
	for _, v := range versions {
		name := "version " + v
		if v == "" {
			name = "real"
		}
		t.Run(name, func(t *testing.T) {
			tg := spellingTarget(t, v)
			l := inspect(t, tg, live.Everything())
			if len(l.Incomplete()) > 0 {
				t.Fatalf("the cluster could not be read completely: %v", l.Incomplete())
			}
			settings := declarable(t, l)
			used := map[string]int{}
			rounds := 0
			for _, s := range settings {
				rounds = max(rounds, len(s.spellings))
			}
			for round := 0; round < rounds; round++ {
				dc := &state.DesiredCluster{Name: "probe"}
				for _, s := range settings {
					if round >= len(s.spellings) {
						continue
					}
					sp := s.spellings[round]
					used[sp.form]++
					if s.variable {
						dc.Variables = append(dc.Variables, state.VariableSetting{Name: s.key, Value: sp.value})
					} else {
						dc.Config = append(dc.Config, state.ConfigSetting{Component: s.component, Key: s.key, Value: sp.value})
					}
				}
				cp, err := planner.BuildCluster(dc, inspect(t, tg, live.RequestFor(dc)), planner.Options{Now: time.Now()})
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				for _, c := range cp.Changes {
					t.Errorf("false diff: %s %s (before %v, declared %q)", c.Action, c.Addr, c.Before, c.After)
				}
			}
			// Every spelling the issue names was exercised, many times.
			forms := []string{"1073741824", "10s", "10000ms", "ON", "true", "1", "enum upper", "enum lower"}
			if tg.storage { // sizes with units are config spellings: variables take a byte count
				forms = append(forms, "1G", "1GiB", "1024MiB")
			}
			for _, form := range forms {
				if used[form] < 3 {
					t.Errorf("the spelling %s was declared %d times, want at least 3 (the table or the rendering changed?)", form, used[form])
				}
			}
			t.Logf("%d settings in %d rounds; declarations per spelling: %v", len(settings), rounds, used)
		})
	}
}

// spellingTarget is an emulated cluster of version v, or with v "" the
// cluster of TIFORM_TEST_DSN, else the real-TiDB tier's tidb-server.
func spellingTarget(t *testing.T, v string) target {
	if v == "" && os.Getenv("TIFORM_TEST_DSN") != "" {
		return targets()["dsn"](t)
	}
	if v == "" {
		return targets()["tidb-server"](t)
	}
	s := tidbsimtest.Start(t, tidbsim.Options{Version: v, TiKV: 1, PD: 1})
	return target{dsn: s.DSN("root", "")}
}

// declSetting is one setting the cluster reports, with the spellings to
// declare it in.
type declSetting struct {
	variable  bool
	component state.Component
	key       string
	spellings []spelling
}

// spelling is one way of writing a value in HCL; form names the spelling
// ("1GiB" stands for "a binary unit", "1073741824" for "bytes as a number").
type spelling struct {
	form  string
	value state.Value
}

// declarable lists the TiKV and PD keys and the GLOBAL variables l reports
// that the table has in l's version and tiform may manage, each with its
// spellings; the rendering itself comes first.
func declarable(t *testing.T, l *state.Live) []declSetting {
	var out []declSetting
	keys, vals := configValues(l)
	for _, k := range keys {
		comp, key, _ := strings.Cut(k, "\x00")
		distinct := map[string]bool{}
		var v string
		for _, x := range vals[k] {
			distinct[x], v = true, x
		}
		ver, _ := l.MinVersion(state.Component(comp))
		e, ok := catalog.Config(comp, key)
		// SHOW CONFIG prints an unset Option as null, which cannot be
		// declared.
		if !ok || len(distinct) != 1 || v == "null" || !manageable(e, ver) {
			continue
		}
		out = append(out, declSetting{component: state.Component(comp), key: key, spellings: spellingsOf(e, v)})
	}
	ver, _ := l.MinVersion(state.TiDB)
	names := make([]string, 0, len(l.Variables))
	for name := range l.Variables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		e, ok := catalog.Variable(name)
		if !ok || e.ScopeIn(ver) != catalog.ScopeGlobal || !manageable(e, ver) {
			continue
		}
		out = append(out, declSetting{variable: true, component: state.TiDB, key: name, spellings: spellingsOf(e, l.Variables[name])})
	}
	if len(out) < 300 {
		t.Fatalf("only %d settings to declare: the table or the read is too thin", len(out))
	}
	return out
}

// configValues groups l's TiKV and PD config rows by "component\x00key"
// (instance → value) and returns the keys sorted.
func configValues(l *state.Live) ([]string, map[string]map[string]string) {
	vals := map[string]map[string]string{}
	for _, r := range l.Config {
		if r.Component != state.TiKV && r.Component != state.PD {
			continue
		}
		k := string(r.Component) + "\x00" + r.Key
		if vals[k] == nil {
			vals[k] = map[string]string{}
		}
		vals[k][r.Instance] = r.Value
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, vals
}

func catalogued(comp, key string) bool {
	_, ok := catalog.Config(comp, key)
	return ok
}

func manageable(e *catalog.Entry, v version.Version) bool {
	return !e.ReadOnlyIn(v) && !e.Prefix && (v.IsZero() || e.ExistsIn(v))
}

// spellingsOf is the rendering r of e's value, then every other way the
// issue lists of writing the same value.
func spellingsOf(e *catalog.Entry, r string) []spelling {
	str := func(form, s string) spelling { return spelling{form, state.Value{Text: s, Type: state.LiteralString}} }
	num := func(form, s string) spelling { return spelling{form, state.Value{Text: s, Type: state.LiteralNumber}} }
	out := []spelling{str("rendering", r)}
	switch e.Kind {
	case catalog.KindSize:
		n, ok := renderedBytes(r)
		if !ok {
			break
		}
		out = append(out, num("1073741824", n.String()))
		if e.Target == catalog.TargetVariable {
			break // variables take a byte count
		}
		for i := len(binaryUnits) - 1; i >= 1; i-- {
			u := binaryUnits[i]
			q, m := new(big.Int).QuoRem(n, u.bytes, new(big.Int))
			if m.Sign() != 0 || n.Sign() == 0 && i != 3 {
				continue
			}
			smaller := new(big.Int).Quo(n, binaryUnits[i-1].bytes)
			out = append(out, str("1GiB", q.String()+u.name), str("1024MiB", smaller.String()+binaryUnits[i-1].name))
			if e.Component == string(state.TiKV) {
				out = append(out, str("1G", q.String()+u.name[:1]))
			}
			break
		}
	case catalog.KindDuration:
		d, ok := renderedDuration(r)
		if !ok {
			break
		}
		if d%time.Millisecond == 0 {
			out = append(out, str("10000ms", strconv.FormatInt(int64(d/time.Millisecond), 10)+"ms"))
		}
		if d%time.Second == 0 {
			out = append(out, str("10s", strconv.FormatInt(int64(d/time.Second), 10)+"s"))
		}
	case catalog.KindBool:
		b, ok := renderedBool(r)
		if !ok {
			break
		}
		onOff, one := "OFF", "0"
		if b {
			onOff, one = "ON", "1"
		}
		out = append(out, spelling{"true", state.Value{Text: strconv.FormatBool(b), Type: state.LiteralBool}})
		if e.Target == catalog.TargetVariable {
			out = append(out, str("ON", onOff), num("1", one))
		}
	case catalog.KindEnum:
		if up := strings.ToUpper(r); up != r {
			out = append(out, str("enum upper", up))
		}
		if low := strings.ToLower(r); low != r {
			out = append(out, str("enum lower", low))
		}
	case catalog.KindInt, catalog.KindFloat:
		if _, err := strconv.ParseFloat(r, 64); err == nil {
			out = append(out, num("number", r))
		}
	}
	return out
}

var binaryUnits = []struct {
	name  string
	bytes *big.Int
}{
	{"B", big.NewInt(1)},
	{"KiB", big.NewInt(1 << 10)},
	{"MiB", big.NewInt(1 << 20)},
	{"GiB", big.NewInt(1 << 30)},
	{"TiB", big.NewInt(1 << 40)},
	{"PiB", big.NewInt(1 << 50)},
}

var sizeRendering = regexp.MustCompile(`^([0-9]+)(B|KiB|MiB|GiB|TiB|PiB)?$`)

// renderedBytes reads a size as TiKV (ReadableSize), PD (go-units) and
// byte-count variables print it: an integer with an optional binary unit.
// A fractional rendering is not spelled differently.
func renderedBytes(r string) (*big.Int, bool) {
	m := sizeRendering.FindStringSubmatch(r)
	if m == nil {
		return nil, false
	}
	n, _ := new(big.Int).SetString(m[1], 10)
	for _, u := range binaryUnits {
		if u.name == m[2] {
			return n.Mul(n, u.bytes), true
		}
	}
	return n, true // no unit: bytes
}

var durationPart = regexp.MustCompile(`([0-9]+)(ms|us|µs|ns|d|h|m|s)`)

// renderedDuration reads a duration as TiKV (ReadableDuration: 1d2h3m4s5ms)
// and Go (1h2m3.5s) print it; a fractional part is not spelled differently.
func renderedDuration(r string) (time.Duration, bool) {
	if r == "" || durationPart.ReplaceAllString(r, "") != "" {
		return 0, false
	}
	var d time.Duration
	for _, m := range durationPart.FindAllStringSubmatch(r, -1) {
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return 0, false
		}
		unit := map[string]time.Duration{"d": 24 * time.Hour, "h": time.Hour, "m": time.Minute, "s": time.Second,
			"ms": time.Millisecond, "us": time.Microsecond, "µs": time.Microsecond, "ns": time.Nanosecond}[m[2]]
		d += time.Duration(n) * unit
	}
	return d, true
}

// renderedBool reads a boolean as SHOW CONFIG (true/false) and SHOW
// VARIABLES (ON/OFF, 1/0) print it.
func renderedBool(r string) (bool, bool) {
	switch strings.ToUpper(r) {
	case "TRUE", "ON", "1":
		return true, true
	case "FALSE", "OFF", "0":
		return false, true
	}
	return false, false
}

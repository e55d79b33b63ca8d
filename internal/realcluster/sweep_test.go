package realcluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/cmd"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// run runs tiform in-process with args in dir, returning its exit code,
// stdout and stderr.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cmd.Main(append([]string{"--chdir", dir}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// harmless are the values the sweep declares instead of the next valid one
// where that one would stop the test's own later sessions (one connection
// per account, a 1 ms statement limit) or its own apply: valid values, which
// tiform applies, but the test must connect again to re-plan. The next value
// of tidb_store_limit after its default 0 (no limit) is 1: one request in
// flight per store, and a SET GLOBAL later in the same apply then failed, in
// about one run in four, with "9008: Store token is up to the limit" while
// TiDB's background work held the token
// (https://docs.pingcap.com/tidb/stable/system-variables#tidb_store_limit-new-in-v304-and-v40).
var harmless = map[string]cty.Value{
	"max_execution_time":   cty.NumberIntVal(600000),
	"max_user_connections": cty.NumberIntVal(1000),
	"max_connections":      cty.NumberIntVal(1000),
	"tidb_store_limit":     cty.NumberIntVal(10000),
}

// sweepValue is another valid value of a variable than cur, as a user would
// write it in HCL; ok is false when none can be derived from the catalog.
func sweepValue(e *catalog.Entry, cur string) (cty.Value, bool) {
	set := catalog.SettingFor(catalog.TargetVariable, "tidb", e.Key)
	switch e.Kind {
	case catalog.KindBool:
		b, err := catalog.ParseBool(cur)
		if err != nil {
			return cty.NilVal, false
		}
		return cty.BoolVal(!b), true
	case catalog.KindEnum:
		for _, v := range e.Enum {
			if !set.Equal(v, cur) && set.Check(v) == nil {
				return cty.StringVal(v), true
			}
		}
	case catalog.KindInt, catalog.KindFloat:
		f, err := strconv.ParseFloat(cur, 64)
		if err != nil {
			return cty.NilVal, false
		}
		for _, c := range []float64{f + 1, f - 1, f * 2, f / 2} {
			if e.Kind == catalog.KindInt {
				c = math.Trunc(c)
			}
			text := strconv.FormatFloat(c, 'f', -1, 64)
			if c != f && set.Check(text) == nil {
				return cty.NumberFloatVal(c), true
			}
		}
	case catalog.KindSize, catalog.KindDuration:
		f, err := strconv.ParseFloat(cur, 64)
		if err != nil {
			return cty.NilVal, false
		}
		for _, c := range []float64{f * 2, f + 1024, f / 2, f + 1} {
			text := strconv.FormatFloat(math.Trunc(c), 'f', -1, 64)
			if math.Trunc(c) != f && set.Check(text) == nil && !set.Equal(text, cur) {
				return cty.NumberFloatVal(math.Trunc(c)), true
			}
		}
	}
	return cty.NilVal, false
}

// TestSweepVariables: every system variable tiform can set on the real
// server (GLOBAL and INSTANCE, in the catalog, with another valid value the
// catalog can derive), declared at another valid value, in one
// configuration. Each is either refused at plan time, with a reason that
// names it, or applied and verified in one apply with no failure half-way;
// the plan afterwards shows no changes. Then every variable is declared at
// the value the server reports, and the plan shows no changes.
func TestSweepVariables(t *testing.T) {
	r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{})
	t.Setenv("TIFORM_DSN", r.RootDSN())
	t.Setenv("HOME", t.TempDir())
	tg := target{dsn: r.RootDSN(), real: true}
	l := inspect(t, tg, live.Request{AllVariables: true})
	tidb, _ := l.MinVersion(state.TiDB)
	var names []string
	vals := map[string]cty.Value{}
	var underived []string
	for name := range l.Variables {
		e, ok := catalog.Variable(name)
		if !ok || !e.OnlineIn(tidb) {
			continue
		}
		v, ok := harmless[name]
		if !ok {
			v, ok = sweepValue(e, l.Variables[name])
		}
		if !ok {
			underived = append(underived, name)
			continue
		}
		names = append(names, name)
		vals[name] = v
	}
	sort.Strings(names)
	t.Logf("%d variables read; %d settable ones with another value; %d with none the catalog can derive (strings)", len(l.Variables), len(names), len(underived))

	dir := t.TempDir()
	refused := map[string]string{}
	for round := 0; ; round++ {
		var left []string
		for _, n := range names {
			if _, gone := refused[n]; !gone {
				left = append(left, n)
			}
		}
		lines := writeSweep(t, dir, left, vals)
		code, out, _ := run(t, dir, "plan", "--format", "json", "--detailed-exitcode")
		if code == 2 {
			break
		}
		found := refusedIn(t, out, lines)
		if len(found) == 0 || round == 10 {
			t.Fatalf("plan exit %d and no refusal found in round %d:\n%s", code, round, tailLines(out, 40))
		}
		for n, why := range found {
			if !strings.Contains(why, n) {
				t.Errorf("the refusal of %s does not name it: %s", n, why)
			}
			refused[n] = why
		}
	}
	t.Logf("%d refused at plan time:", len(refused))
	for _, n := range sortedKeys(refused) {
		t.Logf("  %s: %s", n, refused[n])
	}
	code, out, errOut := run(t, dir, "apply", "--auto-approve")
	if code != 0 {
		t.Fatalf("apply of %d changes: exit %d:\n%s\n%s", len(names)-len(refused), code, tailLines(out, 60), tailLines(errOut, 20))
	}
	if applied := strings.Count(out, ": applied"); applied < len(names)-len(refused) {
		t.Logf("apply output: %s", tailLines(out, 30))
	}
	if code, out, errOut := run(t, dir, "plan", "--detailed-exitcode"); code != 0 {
		t.Fatalf("re-plan after the apply: exit %d, want 0 (no changes):\n%s\n%s", code, tailLines(out, 40), errOut)
	}
	// Every refusal is one the server would answer with an error or by
	// storing another value: at least these, seen on the real server, must
	// be among them (read-only, a precondition, a fixed deprecated value).
	for _, n := range []string{"tidb_evolve_plan_baselines", "require_secure_transport", "tidb_enable_table_partition"} {
		if _, ok := refused[n]; !ok && vals[n] != cty.NilVal {
			t.Errorf("%s was not refused at plan time", n)
		}
	}
	if len(names)-len(refused) < 250 {
		t.Errorf("only %d of %d variables applied: the sweep no longer exercises the apply", len(names)-len(refused), len(names))
	}
	t.Logf("applied and verified %d variables in one apply; re-plan: no changes", len(names)-len(refused))

	// Every variable the server reports that SET GLOBAL reaches (the
	// catalog's or not: the probe gives the server's own scope), declared
	// at the value it reports: no changes. (No-op variables are hidden now
	// that the sweep turned tidb_enable_noop_variables OFF.)
	l = inspect(t, tg, live.Request{AllVariables: true})
	at := map[string]cty.Value{}
	var all []string
	for n, v := range l.Variables {
		if settable(tidb, n) {
			all = append(all, n)
			at[n] = cty.StringVal(v)
		}
	}
	sort.Strings(all)
	writeSweep(t, dir, all, at)
	if code, out, errOut := run(t, dir, "plan", "--detailed-exitcode"); code != 0 {
		t.Fatalf("%d variables declared at their live values: exit %d, want 0:\n%s\n%s", len(all), code, tailLines(out, 40), errOut)
	}
}

// settable reports whether SET GLOBAL reaches name on TiDB v, as the
// probed server says (GLOBAL or INSTANCE scope, not read-only) or, for a
// variable it does not list, the catalog.
func settable(v version.Version, name string) bool {
	if e, ok := catalog.Variable(name); ok {
		sc := e.ScopeIn(v)
		return (sc == catalog.ScopeGlobal || sc == catalog.ScopeInstance) && !e.ReadOnlyIn(v)
	}
	return catalog.VariableSettable(v, name)
}

// refusedIn maps each variable the plan refused (an error diagnostic or an
// error finding whose range is one of the configuration's lines) to its
// message.
func refusedIn(t *testing.T, planJSON string, lines map[int]string) map[string]string {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(planJSON), &doc); err != nil {
		t.Fatalf("plan JSON: %v\n%s", err, tailLines(planJSON, 20))
	}
	out := map[string]string{}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if x["severity"] == "error" {
				if rg, ok := x["range"].(map[string]any); ok {
					line := int(rg["start"].(map[string]any)["line"].(float64))
					if n, ok := lines[line]; ok {
						out[n] = fmt.Sprint(x["summary"])
					}
				}
			}
			for _, v := range x {
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(doc)
	return out
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writeSweep writes names = vals as the configuration, opting in to
// INSTANCE variables, and returns which line declares which variable.
func writeSweep(t *testing.T, dir string, names []string, vals map[string]cty.Value) map[int]string {
	t.Helper()
	var vs []cty.Value
	for _, n := range names {
		vs = append(vs, vals[n])
	}
	writeVars(t, dir, names, vs)
	b, err := os.ReadFile(filepath.Join(dir, "main.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]string{}
	group := ""
	for i, l := range strings.Split(string(b), "\n") {
		name, _, ok := strings.Cut(strings.TrimSpace(l), " ")
		switch {
		case strings.HasSuffix(strings.TrimSpace(l), "{") && name != "variables":
			group = name + "."
		case strings.TrimSpace(l) == "}":
			group = ""
		case ok:
			if _, known := vals[group+name]; known {
				lines[i+1] = group + name
			}
		}
	}
	return lines
}

func writeVars(t *testing.T, dir string, names []string, vals []cty.Value) {
	t.Helper()
	f := hclwrite.NewEmptyFile()
	f.Body().SetAttributeValue("instance_variables", cty.StringVal("allow"))
	b := f.Body().AppendNewBlock("variables", nil).Body()
	groups := map[string]*hclwrite.Body{}
	for i, n := range names {
		if group, leaf, dotted := strings.Cut(n, "."); dotted { // validate_password { length = … }
			if groups[group] == nil {
				groups[group] = b.AppendNewBlock(group, nil).Body()
			}
			groups[group].SetAttributeValue(leaf, vals[i])
			continue
		}
		b.SetAttributeValue(n, vals[i])
	}
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return fmt.Sprint(strings.Join(lines, "\n"))
}

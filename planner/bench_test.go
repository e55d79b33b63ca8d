package planner

import (
	"fmt"
	"testing"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/cpumeter"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// BenchmarkBuildLargeCluster: 200 TiKV instances, 40 declared keys (one drifted
// on every fifth instance), 50 resource groups, 500 users.
func BenchmarkBuildLargeCluster(b *testing.B) {
	l := cluster("8.5.4")
	l.Instances = l.Instances[:3]
	var config []state.ConfigSetting
	for k := 0; k < 40; k++ {
		key := fmt.Sprintf("bench.key-%02d", k)
		config = append(config, cfgS("tikv", key, "8GiB", k+1))
	}
	for i := 0; i < 200; i++ {
		a := fmt.Sprintf("10.1.%d.%d:20160", i/250, i%250)
		l.Instances = append(l.Instances, inst(state.TiKV, a, "8.5.4"))
		for k := 0; k < 40; k++ {
			v := "8GiB"
			if i%5 == 0 {
				v = "4GiB"
			}
			l.Config = append(l.Config, state.ConfigRow{Component: state.TiKV, Instance: a, Key: fmt.Sprintf("bench.key-%02d", k), Value: v})
		}
	}
	var groups []state.ResourceGroup
	for g := 0; g < 50; g++ {
		var users []state.UserRef
		for u := 0; u < 10; u++ {
			ref := state.UserRef{User: fmt.Sprintf("u%d_%d", g, u), Host: "%"}
			users = append(users, ref)
			l.Users = append(l.Users, state.UserBinding{UserRef: ref})
		}
		groups = append(groups, state.ResourceGroup{Name: fmt.Sprintf("g%02d", g), RUPerSec: i64(1000), Users: users})
	}
	dc := &state.DesiredCluster{Name: "big", Config: config, ResourceGroups: groups}
	b.ReportAllocs()
	b.ResetTimer()
	stop := cpumeter.Start(b)
	for i := 0; i < b.N; i++ {
		if _, err := BuildCluster(dc, l, Options{Now: testNow}); err != nil {
			b.Fatal(err)
		}
	}
	stop()
}

// syntheticState is the large state: 300 instances (3 TiDB, 3 PD, 294
// TiKV) each printing every catalogued config key of its component, the whole
// config catalog declared (at its v8.5.4 default, every tenth TiKV drifted on
// every key), 500 variables declared (the catalogued ones, the rest newer
// ones the catalog does not know; half differ live) and the given number of
// resource groups declared (half exist live with another rate: alters; half
// are created).
func syntheticState(groups int) (*state.DesiredCluster, *state.Live) {
	const v = "8.5.4"
	ver := version.MustParse(v)
	l := &state.Live{ReadAt: testNow, ServerVersion: "8.0.11-TiDB-v" + v, ServerVersionParsed: ver,
		ConfigRead: []state.Component{state.TiDB, state.PD, state.TiKV}, VariablesRead: true, ResourceGroupsRead: true,
		UsersRead: true, Variables: map[string]string{}}
	counts := map[state.Component]int{state.TiDB: 3, state.PD: 3, state.TiKV: 294}
	dc := &state.DesiredCluster{Name: "synthetic"}
	for _, comp := range []state.Component{state.TiDB, state.PD, state.TiKV} {
		var keys, defaults []string
		for _, e := range catalog.Entries() {
			if e.Target == catalog.TargetConfig && e.Component == string(comp) && !e.Prefix && !e.ReadOnly && e.ExistsIn(ver) {
				if d, ok := e.DefaultIn(ver); ok && d != "" {
					keys, defaults = append(keys, e.Key), append(defaults, d)
				}
			}
		}
		for j, key := range keys {
			dc.Config = append(dc.Config, state.ConfigSetting{Component: comp, Key: key, Value: state.Value{Text: defaults[j], Type: state.LiteralString}})
		}
		for i := 0; i < counts[comp]; i++ {
			a := fmt.Sprintf("10.%d.%d.%d:20160", len(comp), i/250, i%250)
			l.Instances = append(l.Instances, inst(comp, a, v))
			for j, key := range keys {
				d := defaults[j]
				if comp == state.TiKV && i%10 == 0 {
					d = "" // drifted: an empty rendering, never a default
				}
				l.Config = append(l.Config, state.ConfigRow{Component: comp, Instance: a, Key: key, Value: d})
			}
		}
	}
	n := 0
	for _, e := range catalog.Entries() {
		if d, ok := e.DefaultIn(ver); ok && e.Target == catalog.TargetVariable && !e.ReadOnly && e.ScopeIn(ver) != catalog.ScopeSession && e.ExistsIn(ver) && d != "" && n < 500 {
			dc.Variables = append(dc.Variables, state.VariableSetting{Name: e.Key, Value: state.Value{Text: d, Type: state.LiteralString}})
			l.Variables[e.Key] = d
			n++
		}
	}
	for ; n < 500; n++ {
		name := fmt.Sprintf("tidb_newer_setting_%03d", n)
		dc.Variables = append(dc.Variables, state.VariableSetting{Name: name, Value: state.Value{Text: "ON", Type: state.LiteralString}})
		l.Variables[name] = map[bool]string{true: "ON", false: "OFF"}[n%2 == 0]
	}
	for g := 0; g < groups; g++ {
		name := fmt.Sprintf("g%04d", g)
		dc.ResourceGroups = append(dc.ResourceGroups, state.ResourceGroup{Name: name, RUPerSec: i64(1000)})
		if g%2 == 0 {
			l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: name, RUPerSec: i64(500), Priority: str("MEDIUM"), Burstable: str(state.BurstOff)})
		}
	}
	l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "default", RUPerSec: i64(2147483647), Priority: str("MEDIUM"), Burstable: str(state.BurstUnlimited)})
	return dc, l
}

// BenchmarkBuildSynthetic plans the synthetic state (syntheticState
// with 2,000 resource groups): CPU and memory of the planner alone, guards
// included.
func BenchmarkBuildSynthetic(b *testing.B) {
	dc, l := syntheticState(2000)
	b.ReportAllocs()
	b.ResetTimer()
	stop := cpumeter.Start(b)
	for i := 0; i < b.N; i++ {
		cp, err := BuildCluster(dc, l, Options{Now: testNow})
		if err != nil {
			b.Fatal(err)
		}
		if len(cp.Changes) == 0 {
			b.Fatal("no changes")
		}
	}
	stop()
	b.ReportMetric(float64(len(l.Config)), "live-rows")
}

// BenchmarkBuildGroups plans resource groups alone (half altered, half
// created) for 125 to 2,000 groups: the cost must grow linearly.
func BenchmarkBuildGroups(b *testing.B) {
	for _, n := range []int{125, 500, 2000} {
		b.Run(fmt.Sprintf("groups=%d", n), func(b *testing.B) {
			full, l := syntheticState(n)
			dc := &state.DesiredCluster{Name: full.Name, ResourceGroups: full.ResourceGroups}
			b.ReportAllocs()
			b.ResetTimer()
			stop := cpumeter.Start(b)
			for i := 0; i < b.N; i++ {
				if _, err := BuildCluster(dc, l, Options{Now: testNow}); err != nil {
					b.Fatal(err)
				}
			}
			stop()
		})
	}
}

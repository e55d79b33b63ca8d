package planner

import (
	"fmt"
	"testing"

	"github.com/tiform/tiform/state"
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
	for i := 0; i < b.N; i++ {
		if _, err := BuildCluster(dc, l, Options{Now: testNow}); err != nil {
			b.Fatal(err)
		}
	}
}

package catalog

import (
	"testing"

	"github.com/tiform/tiform/version"
)

// Judge is the one decision import and unmanaged drift share: a value is at
// its default, tuned, or undecidable, compared by meaning.
func TestJudge(t *testing.T) {
	v := version.MustParse("v8.5.1")
	gc, _ := Config("tikv", "gc.ratio-threshold")
	quota, _ := Variable("tidb_mem_quota_query")
	onePC, _ := Variable("tidb_enable_1pc")
	gcTrigger, _ := Variable("tidb_server_memory_limit_gc_trigger")
	for _, tc := range []struct {
		name string
		e    *Entry
		text string
		h    Host
		want Standing
	}{
		{"config at default", gc, "1.1", Host{}, AtDefault},
		{"config tuned", gc, "1.5", Host{}, Tuned},
		{"variable at default, another spelling", quota, "1073741824", Host{}, AtDefault},
		{"variable tuned", quota, "2147483648", Host{}, Tuned},
		// The docs' default is "70%"; TiDB shows the fraction it stores.
		{"percentage default shown as a fraction", gcTrigger, "0.7", Host{}, AtDefault},
		{"fraction tuned", gcTrigger, "0.8", Host{}, Tuned},
		// GlobalSystemVariableInitialValue: ON on store tikv, OFF otherwise.
		{"1pc ON on tikv", onePC, "ON", Host{Store: "tikv"}, AtDefault},
		{"1pc ON, store unknown (tikv)", onePC, "ON", Host{}, AtDefault},
		{"1pc OFF on tikv", onePC, "OFF", Host{Store: "tikv"}, Tuned},
		{"1pc OFF on unistore", onePC, "OFF", Host{Store: "unistore"}, AtDefault},
		{"1pc ON on unistore", onePC, "ON", Host{Store: "unistore"}, Tuned},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Judge(v, tc.text, tc.h).Standing; got != tc.want {
				t.Errorf("Judge(%s, %q) = %d, want %d", tc.e.Address(), tc.text, got, tc.want)
			}
		})
	}
	// A default TiKV computes from its host is judged on that host, and
	// not at all on a host that was not read.
	cap, _ := Config("tikv", "storage.block-cache.capacity")
	if got := cap.Judge(v, "1GiB", Host{}).Standing; got != ComputedUnknown {
		t.Errorf("block cache on an unread host: %d, want ComputedUnknown", got)
	}

	// memory-usage-limit follows the block cache TiKV started with: on a
	// 64GiB host with the computed cache, 48GiB (less the f64 truncation);
	// started with a 12GiB cache, 20GiB. After an online change of the cache
	// to 8GiB it still shows what it computed at start: not tuned. Any other
	// value is.
	mul, _ := Config("tikv", "memory-usage-limit")
	host := Machine{CPU: 16, Memory: 64 << 30}
	cache := func(c string) func(string) (string, bool) {
		return func(k string) (string, bool) { return c, k == "storage.block-cache.capacity" }
	}
	for _, tc := range []struct {
		cache, shown string
		want         Standing
	}{
		{"30923764531B", "51539607551B", AtDefault}, // the computed cache
		{"12GiB", "20GiB", AtDefault},               // started with 12GiB
		{"8GiB", "51539607551B", AtDefault},         // cache changed online since the start
		{"8GiB", "30GiB", Tuned},
		{"12GiB", "30GiB", Tuned},
	} {
		if got := mul.Judge(v, tc.shown, Host{Machine: host, Lookup: cache(tc.cache)}).Standing; got != tc.want {
			t.Errorf("memory-usage-limit %s with a %s block cache: %d, want %d", tc.shown, tc.cache, got, tc.want)
		}
	}
}

// Every variable of the probed tidb-server is at its default on a fresh
// server of that build (the probe recorded DEFAULT_VALUE on store unistore):
// unmanaged drift of a fresh cluster is empty. Against the defaults the
// documentation gives the release, the same values differ (the reason the
// probe records them); the test says how many, so that the figure in
// docs/decisions/0022-unmanaged-drift.md stays true.
func TestProbedBuildFresh(t *testing.T) {
	exact, err := version.Parse(probe.Server)
	if err != nil {
		t.Fatal(err)
	}
	release := version.Version{Major: exact.Major, Minor: exact.Minor, Patch: exact.Patch}
	docsNoise := 0
	for _, pv := range probe.Variables {
		e, ok := Variable(pv.Name)
		if pv.Default == nil || !ok || e.Declarable(exact) != Declarable {
			continue
		}
		if j := e.Judge(exact, *pv.Default, Host{Store: "unistore"}); j.Standing == Tuned {
			t.Errorf("%s: a fresh %s shows %q, judged tuned against default %q", pv.Name, probe.Server, *pv.Default, j.Default)
		}
		if e.Judge(release, *pv.Default, Host{Store: "unistore"}).Standing == Tuned {
			docsNoise++
		}
	}
	if docsNoise == 0 {
		t.Errorf("no variable of %s differs from the documented %s defaults: the probed defaults may no longer be needed", probe.Server, release.Short())
	}
	t.Logf("%d variables of %s differ from the documented %s defaults", docsNoise, probe.Server, release.Short())
}

// tidb_server_memory_limit_gc_trigger: a percentage is the fraction TiDB
// stores, within the range its validation accepts.
func TestFractionVariable(t *testing.T) {
	e, _ := Variable("tidb_server_memory_limit_gc_trigger")
	s := SettingFor(TargetVariable, "tidb", e.Key)
	if !s.Equal("70%", "0.7") || s.Equal("70%", "0.07") {
		t.Error(`"70%" must equal 0.7 and only it`)
	}
	for text, ok := range map[string]bool{"0.51": true, "1": true, "85%": true, "0.5": false, "1.7": false, "101%": false} {
		if err := e.Check(text); (err == nil) != ok {
			t.Errorf("Check(%q) = %v, want ok %v", text, err, ok)
		}
	}
}

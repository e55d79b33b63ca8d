package catalog

import (
	"testing"

	"github.com/tiform/tiform/version"
)

// TestUpstreamCorrections pins the facts the hand-written catalog had wrong
// when it was checked against the code and docs at each release tag (issue
// 13), each with the upstream source that states it. They hold because the
// catalog now reads the generated table; this test fails if a
// regeneration or an overlay brings a wrong one back.
func TestUpstreamCorrections(t *testing.T) {
	at := version.MustParse
	tests := []struct {
		fact, source string
		ok           func() bool
	}{
		{"split.split-balance-score defaults to 0.25 through v8.5.6",
			"tikv/tikv@v8.5.6:components/raftstore/src/store/worker/split_config.rs (DEFAULT_SPLIT_BALANCE_SCORE = 0.25)",
			func() bool { return defaultIs(t, mustConfig(t, "tikv", "split.split-balance-score"), "v8.5.6", "0.25") }},
		{"split.split-balance-score defaults to 0.8 from v8.5.7",
			"tikv/tikv@v8.5.7:components/raftstore/src/store/worker/split_config.rs (DEFAULT_SPLIT_BALANCE_SCORE = 0.8)",
			func() bool { return defaultIs(t, mustConfig(t, "tikv", "split.split-balance-score"), "v8.5.7", "0.8") }},
		{"raftstore.hibernate-timeout is not a TiKV setting in any version since v6.5",
			"tikv/tikv@v6.5.0…v8.5.7:components/raftstore/src/store/config.rs (no hibernate_timeout field)",
			func() bool { _, ok := Config("tikv", "raftstore.hibernate-timeout"); return !ok }},
		{"import.num-threads is restart-only in v8.2.0–v8.5.1 and online from v8.5.2",
			"tikv/tikv@v8.2.0 and @v8.5.1:components/sst_importer/src/config.rs (#[online_config(skip)] num_threads); @v8.5.2 without it",
			func() bool {
				e := mustConfig(t, "tikv", "import.num-threads")
				return !e.OnlineIn(at("v8.2.0")) && !e.OnlineIn(at("v8.5.1")) && e.OnlineIn(at("v8.5.2")) && e.OnlineIn(at("v8.1.2"))
			}},
		{"backup.sst-max-size is online",
			"tikv/tikv@v8.5.7:components/backup/src/config.rs via src/config/mod.rs (#[online_config(submodule)] backup, sst_max_size not skipped)",
			func() bool { return mustConfig(t, "tikv", "backup.sst-max-size").OnlineIn(at("v8.5.7")) }},
		{"tidb_enable_collect_execution_info is INSTANCE-scoped",
			"pingcap/docs-cn@release-8.5:system-variables.md (是否持久化到集群：否，仅作用于当前连接的 TiDB 实例)",
			func() bool {
				return mustVariable(t, "tidb_enable_collect_execution_info").ScopeIn(at("v8.5.7")) == ScopeInstance
			}},
		{"tidb_low_resolution_tso is SESSION-only before v8.3.0",
			"pingcap/docs-cn@release-8.2:system-variables.md (作用域：SESSION); @release-8.3 (SESSION | GLOBAL)",
			func() bool {
				e := mustVariable(t, "tidb_low_resolution_tso")
				return e.ScopeIn(at("v8.2.0")) == ScopeSession && e.ScopeIn(at("v8.3.0")) == ScopeGlobal
			}},
		{"tidb_opt_projection_push_down is SESSION-only before v8.3.0",
			"pingcap/docs-cn@release-8.2:system-variables.md (作用域：SESSION); @release-8.3 (SESSION | GLOBAL)",
			func() bool {
				e := mustVariable(t, "tidb_opt_projection_push_down")
				return e.ScopeIn(at("v8.1.2")) == ScopeSession && e.ScopeIn(at("v8.3.0")) == ScopeGlobal
			}},
		{"settings catalogued for all versions arrived in v7.6–v8.5",
			"tikv/tikv and tikv/pd at each tag (first tag with the field); pingcap/docs-cn system-variables.md version marks",
			func() bool {
				for ref, first := range map[string]string{
					"tikv:raftstore.periodic-full-compact-start-max-cpu": "v7.6.0",
					"tikv:raftstore.max-apply-unpersisted-log-limit":     "v8.1.0",
					"tikv:pessimistic-txn.in-memory-peer-size-limit":     "v8.4.0",
					"tikv:resource-control.historical-usage-window-mins": "v8.5.7",
					"pd:schedule.enable-heartbeat-breakdown-metrics":     "v8.0.0",
					"pd:schedule.enable-heartbeat-concurrent-runner":     "v8.2.0",
					"pd:schedule.patrol-region-worker-count":             "v8.5.0",
					"variable:tidb_enable_global_index":                  "v7.6.0",
					"variable:pd_enable_follower_handle_region":          "v7.6.0",
					"variable:tidb_schema_cache_size":                    "v8.0.0",
					"variable:tidb_enable_fast_create_table":             "v8.0.0",
					"variable:tidb_hash_join_version":                    "v8.4.0",
					"variable:tidb_auto_analyze_concurrency":             "v8.4.0",
				} {
					e, ok := Lookup(ref)
					if !ok || e.Introduced.Compare(at(first)) != 0 || e.ExistsIn(at("v7.5.7")) {
						t.Logf("%s: introduced %s, exists in v7.5.7: %v; want introduced %s", ref, e.Introduced.Short(), e.ExistsIn(at("v7.5.7")), first)
						return false
					}
				}
				return true
			}},
		{"the resource-control items of v8.5.7 have kinds: sizes, percentages, a count",
			"tikv/tikv@v8.5.7:components/resource_control/src/config.rs (bg_write_io_ceiling: ReadableSize, bg_cpu_throttle_threshold: f64, admission_max_delayed_count: usize)",
			func() bool {
				ceiling := mustConfig(t, "tikv", "resource-control.bg-write-io-ceiling")
				a, _ := ceiling.Canonical("1GiB")
				b, _ := ceiling.Canonical("1024MiB")
				return ceiling.Kind == KindSize && a == b &&
					mustConfig(t, "tikv", "resource-control.bg-cpu-throttle-threshold").Kind == KindFloat &&
					mustConfig(t, "tikv", "resource-control.admission-max-delayed-count").Kind == KindInt
			}},
		{"tidb_enable_historical_stats defaults to OFF in v6.5, ON in v7.5.0–v7.5.6 and OFF from v7.5.7",
			"pingcap/docs-cn@master:releases/release-6.6.0.md (OFF → ON in v6.6.0); @release-7.5:system-variables.md (在 v7.5.7 之前，默认值为 ON)",
			func() bool {
				e := mustVariable(t, "tidb_enable_historical_stats")
				return defaultIs(t, e, "v6.5.12", "OFF") && defaultIs(t, e, "v7.5.6", "ON") && defaultIs(t, e, "v7.5.7", "OFF") && defaultIs(t, e, "v8.2.0", "OFF")
			}},
		{"tidb_enable_column_tracking keeps the default OFF (deprecated in v8.3.0)",
			"pingcap/docs-cn@release-8.3:system-variables.md (默认值：OFF; 从 v8.3.0 开始，该变量被废弃)",
			func() bool {
				e := mustVariable(t, "tidb_enable_column_tracking")
				return defaultIs(t, e, "v8.4.0", "OFF") && e.Deprecated.Compare(at("v8.3.0")) == 0
			}},
		{"log_bin is read-only",
			"pingcap/docs-cn@release-8.3:system-variables.md (log_bin 作用域：NONE)",
			func() bool { e := mustVariable(t, "log_bin"); return e.ReadOnly && !e.OnlineIn(at("v8.3.0")) }},
		{"tidb_enable_parallel_hashagg_spill defaults to ON in v8.1.0 and OFF from v8.1.1 (found by TestNoFalseDiffsInUserSpellings)",
			"pingcap/docs-cn@release-8.1:system-variables.md (在 v8.1.0 中为 `ON`，在 v8.1.1 及后续的 8.1 补丁版本中为 `OFF`)",
			func() bool {
				e := mustVariable(t, "tidb_enable_parallel_hashagg_spill")
				return defaultIs(t, e, "v8.1.0", "ON") && defaultIs(t, e, "v8.1.1", "OFF") && defaultIs(t, e, "v8.1.2", "OFF")
			}},
		{"pd security.redact-info-log is false, true or \"MARKER\", not an integer (found by TestNoFalseDiffsInUserSpellings); PD v8.5 prints false at its default",
			"tikv/pd@v8.5.7:pkg/utils/logutil/log.go (RedactInfoLogType int with its own MarshalJSON: false, true, \"MARKER\"); PD v8.5.1's config code run by tools/pdsurface prints false",
			func() bool {
				e := mustConfig(t, "pd", "security.redact-info-log")
				_, err := e.Canonical("false")
				return e.Kind == KindString && err == nil && defaultIs(t, e, "v8.5.1", "false") && defaultIs(t, e, "v7.5.6", "false")
			}},
		{"tidb_load_based_replica_read_threshold defaults to 1s, not the quoted \"1s\" the docs write (issue 24)",
			"pingcap/docs-cn@release-8.5:system-variables.md (默认值：`\"1s\"`)",
			func() bool {
				return defaultIs(t, mustVariable(t, "tidb_load_based_replica_read_threshold"), "v8.5.1", "1s")
			}},
		{"pd-server.enable-gogc-tuner is a ,string boolean",
			"tikv/pd@v8.5.7:server/config/config.go (EnableGOGCTuner bool `json:\"enable-gogc-tuner,string\"`)",
			func() bool { return mustConfig(t, "pd", "pd-server.enable-gogc-tuner").StringBool }},
	}
	for _, tt := range tests {
		if !tt.ok() {
			t.Errorf("%s — wrong again; the upstream source says so: %s", tt.fact, tt.source)
		}
	}
}

func defaultIs(t *testing.T, e *Entry, v, want string) bool {
	t.Helper()
	got, ok := e.DefaultIn(version.MustParse(v))
	if !ok {
		t.Logf("%s: no default in %s", e.Address(), v)
		return false
	}
	a, _ := e.Canonical(got)
	b, _ := e.Canonical(want)
	if a != b {
		t.Logf("%s in %s: default %q, want %q", e.Address(), v, got, want)
	}
	return a == b
}

// TestCoverage: the bar, measured against the generated table at
// its newest release.
func TestCoverage(t *testing.T) {
	c := Stats()
	if len(c.Groups) != 4 {
		t.Fatalf("groups: %+v", c.Groups)
	}
	for _, g := range c.Groups {
		t.Logf("%s at %s: %d upstream, %d catalogued (%.1f%%), %d with a kind upstream states (%.1f%%)",
			g.Name, c.Release, g.Upstream, g.Catalogued, g.Percent(), g.Typed, g.TypedPercent())
		if g.Upstream < 20 {
			t.Errorf("%s: only %d upstream settings: table broken?", g.Name, g.Upstream)
		}
		if g.Percent() < 98 {
			t.Errorf("%s: %.1f%% catalogued, the bar is 98%%", g.Name, g.Percent())
		}
	}
	restart := c.Groups[1]
	if restart.Catalogued != restart.Upstream {
		t.Errorf("every restart-only TiKV key must be known as such: %d of %d", restart.Catalogued, restart.Upstream)
	}
	for _, i := range []int{0, 2} { // TiKV and PD kinds come from Rust and Go types
		if g := c.Groups[i]; g.TypedPercent() < 98 {
			t.Errorf("%s: %.1f%% with a kind upstream states, want >= 98%%", g.Name, g.TypedPercent())
		}
	}
}

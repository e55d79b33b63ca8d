package catalog

import "testing"

func TestSuggestConfig(t *testing.T) {
	tests := []struct{ component, key, want string }{
		{"tikv", "coprocessor.region-split-sise", "coprocessor.region-split-size"},
		{"tikv", "coprocessor.regionsplit-size", "coprocessor.region-split-size"},
		{"TIKV", "Coprocessor.Region-Max-Kyes", "coprocessor.region-max-keys"},
		{"tikv", "raftstore.region-split-size", "coprocessor.region-split-size"}, // right leaf, wrong section
		{"pd", "schedule.max-merge-region-sizes", "schedule.max-merge-region-size"},
		{"pd", "schedule.max-merge-regoin-keys", "schedule.max-merge-region-keys"},
		{"tikv", "in-memory-engine.enabled", "in-memory-engine.enable"},
		{"tikv", "completely.unrelated.thing", ""},
		{"pd", "coprocessor.region-split-size", ""}, // other component's key
		{"tikv", "", ""},
		{"nosuch", "coprocessor.region-split-size", ""},
	}
	for _, tt := range tests {
		if got := SuggestConfig(tt.component, tt.key); got != tt.want {
			t.Errorf("SuggestConfig(%q, %q) = %q, want %q", tt.component, tt.key, got, tt.want)
		}
	}
}

func TestSuggestVariable(t *testing.T) {
	tests := []struct{ name, want string }{
		{"tidb_enable_instance_plan_cach", "tidb_enable_instance_plan_cache"},
		{"tidb_enable_non_prepared_plan_cahce", "tidb_enable_non_prepared_plan_cache"},
		{"@@TIDB_SESSION_PLAN_CACHE_SIZ", "tidb_session_plan_cache_size"},
		{"tidb_enable_resource_contrl", "tidb_enable_resource_control"},
		{"sql_mode", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		if got := SuggestVariable(tt.name); got != tt.want {
			t.Errorf("SuggestVariable(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSection(t *testing.T) {
	tests := []struct {
		component, key string
		first          string // first key of the section, "" for none
		n              int    // at least this many keys
	}{
		{"tikv", "coprocessor", "coprocessor.batch-split-limit", 9},
		{"TIKV", "Storage.Flow-Control", "storage.flow-control.enable", 5},
		{"pd", "schedule", "schedule.affinity-schedule-limit", 50},
		{"tikv", "coprocessor.region-split-size", "", 0}, // a key, not a section
		{"tikv", "coproc", "", 0},                        // a prefix of a name is not a section
		{"pd", "coprocessor", "", 0},
		{"tiflash", "raftstore-proxy", "raftstore-proxy.server.snap-io-max-bytes-per-sec", 1}, // the prefix rule itself is not listed
		{"tikv", "", "", 0},
	}
	for _, tt := range tests {
		got := Section(tt.component, tt.key)
		first := ""
		if len(got) > 0 {
			first = got[0]
		}
		if first != tt.first || len(got) < tt.n || (tt.n == 0 && len(got) != 0) {
			t.Errorf("Section(%q, %q) = %d keys starting %q, want >= %d starting %q", tt.component, tt.key, len(got), first, tt.n, tt.first)
		}
	}
}

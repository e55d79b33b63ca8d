package catalog

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/version"
)

// sourceRE is the form of a public source: a URL, or a repository path at a
// ref ("tikv/tikv@v8.5.7:components/raftstore/src/store/config.rs#L120").
var sourceRE = regexp.MustCompile(`^(https://\S+|[\w.-]+/[\w.-]+@[\w.+-]+:\S+)$`)

// TestSources: every entry cites at least one public source, each a URL or
// a repository path at a tag (TestNoPrivateCitations, at the repository root,
// checks that no text cites the team's notebook).
func TestSources(t *testing.T) {
	for _, e := range Entries() {
		if len(e.Sources) == 0 {
			t.Errorf("%s: no source", e.Address())
		}
		for _, s := range e.Sources {
			if !sourceRE.MatchString(s) {
				t.Errorf("%s: source %q is neither a URL nor repo@ref:path", e.Address(), s)
			}
		}
	}
}

func TestRegistryConsistent(t *testing.T) {
	if len(duplicates) != 0 {
		t.Errorf("registered twice: %v", duplicates)
	}
	for _, e := range Entries() {
		addr := e.Address()
		if e.Doc == "" {
			t.Errorf("%s: no Doc", addr)
		}
		if e.Key != strings.ToLower(e.Key) || e.Component != strings.ToLower(e.Component) {
			t.Errorf("%s: keys and components must be lower case (lookups lower-case them)", addr)
		}
		if e.Target == TargetVariable && (e.Component != "tidb" || e.Scope == ScopeNone) {
			t.Errorf("%s: variables need component tidb and a scope", addr)
		}
		if e.Target == TargetConfig && e.Scope != ScopeNone {
			t.Errorf("%s: config items have no scope", addr)
		}
		if e.Kind == KindEnum && len(e.Enum) == 0 {
			t.Errorf("%s: enum without values", addr)
		}
		if !e.Online && e.RestartNote == "" && !e.ReadOnly {
			t.Errorf("%s: restart-only without a RestartNote saying what to do instead", addr)
		}
		if e.OnlineText() != "" && e.RestartNote == "" && e.Component == "tikv" {
			// a TiKV key online in some versions only needs the TiUP step for the others
			if !strings.Contains(restartNote("tikv", e.up.Spans[0]), "tiup cluster reload") {
				t.Errorf("%s: online in some versions only, but no restart step for the others", addr)
			}
		}
		if e.Prefix != strings.HasSuffix(e.Key, ".") {
			t.Errorf("%s: prefix rules, and only they, end with \".\"", addr)
		}
		if e.StringBool && (e.Component != "pd" || e.Kind != KindBool) {
			t.Errorf("%s: StringBool is for PD booleans only", addr)
		}
		if !e.Removed.IsZero() && !e.Introduced.IsZero() && e.Removed.Compare(e.Introduced) <= 0 {
			t.Errorf("%s: removed before introduced", addr)
		}
		for _, r := range append(append([]string{}, e.Related...), e.ReplacedBy) {
			if r == "" {
				continue
			}
			if _, ok := Lookup(r); !ok {
				t.Errorf("%s: related %q does not resolve", addr, r)
			}
		}
		prev := version.Version{}
		for i, d := range e.Defaults {
			if i > 0 && d.Since.Compare(prev) <= 0 {
				t.Errorf("%s: defaults not in version order", addr)
			}
			prev = d.Since
		}
		checkDefaults(t, e)
		if ex := e.Example(); !e.ReadOnly {
			if err := e.Check(ex); err != nil {
				t.Errorf("%s: Example %q does not pass Check: %v", addr, ex, err)
			}
		}
	}
}

// checkDefaults: every default parses in the kind of the version it applies
// to, and the component's rendering of it means the same value. (Docs state
// some defaults in another spelling than TiDB prints, "168h" for "168h0m0s";
// read-only variables may have values outside their kind, have_ssl
// "DISABLED".)
func checkDefaults(t *testing.T, e *Entry) {
	t.Helper()
	if e.ReadOnly {
		return
	}
	check := func(x *Entry, value, where string) {
		c, err := x.Canonical(value)
		if err != nil {
			t.Errorf("%s: default %q (%s) does not parse: %v", e.Address(), value, where, err)
			return
		}
		if r, _ := x.Canonical(x.Render(value)); r != c {
			t.Errorf("%s: default %q (%s) renders as %q, which means something else", e.Address(), value, where, x.Render(value))
		}
	}
	if e.up == nil {
		for _, d := range e.Defaults {
			check(e, d.Value, "hand-modelled")
		}
		return
	}
	for _, sp := range e.up.Spans {
		x := *e
		x.Kind, x.Enum = kindOf(sp.Kind), sp.Values
		if kindVaries(e.up) && e.Kind == KindString {
			x.Kind = KindString
		}
		if x.Kind == KindEnum && len(x.Enum) == 0 {
			x.Kind = KindString
		}
		if d, ok := e.DefaultIn(mustVersion(sp.To)); ok {
			check(&x, d, sp.From+"–"+sp.To)
		}
	}
}

// TestRestartOnly: restart-only TiKV items (#[online_config(skip)] in
// tikv/tikv) say what to do instead.
func TestRestartOnly(t *testing.T) {
	for _, key := range []string{"resource-control.enabled", "resource-control.historical-usage-window-mins",
		"coprocessor.consistency-check-method", "in-memory-engine.cross-check-interval"} {
		e := mustConfig(t, "tikv", key)
		if e.Online {
			t.Errorf("%s: must be restart-only", key)
		}
		for _, want := range []string{"tiup cluster edit-config", "tiup cluster reload", "-R tikv", "TidbCluster"} {
			if !strings.Contains(e.RestartNote, want) {
				t.Errorf("%s: RestartNote lacks %q", key, want)
			}
		}
	}
	ime := mustConfig(t, "tikv", "in-memory-engine.enable")
	if !ime.Online || !ime.RestartIfEnabled || !strings.Contains(ime.RestartNote, "tiup cluster reload") {
		t.Errorf("in-memory-engine.enable: want online with RestartIfEnabled and a restart note, got %+v", ime)
	}
}

func TestDefaultIn(t *testing.T) {
	tests := []struct {
		name      string
		e         *Entry
		version   string
		want      string
		wantFound bool
	}{
		{"split size v8.3.9", mustConfig(t, "tikv", "coprocessor.region-split-size"), "v8.3.9", "96MiB", true},
		{"split size v8.4.0", mustConfig(t, "tikv", "coprocessor.region-split-size"), "v8.4.0", "256MiB", true},
		{"split size v7.5.1", mustConfig(t, "tikv", "coprocessor.region-split-size"), "v7.5.1", "96MiB", true},
		{"split size dev build of 8.4", mustConfig(t, "tikv", "coprocessor.region-split-size"), "8.4.0-alpha-44-gdd2d54ad4", "256MiB", true},
		{"max size v8.3.0", mustConfig(t, "tikv", "coprocessor.region-max-size"), "v8.3.0", "144MiB", true},
		{"max size v8.5.1", mustConfig(t, "tikv", "coprocessor.region-max-size"), "v8.5.1", "384MiB", true},
		{"split keys v8.3.0", mustConfig(t, "tikv", "coprocessor.region-split-keys"), "v8.3.0", "960000", true},
		{"max keys v8.4.0", mustConfig(t, "tikv", "coprocessor.region-max-keys"), "v8.4.0", "3840000", true},
		{"PD merge size v8.3.0", mustConfig(t, "pd", "schedule.max-merge-region-size"), "v8.3.0", "20", true},
		{"PD merge size v8.4.0", mustConfig(t, "pd", "schedule.max-merge-region-size"), "v8.4.0", "54", true},
		{"PD merge keys v8.5.0", mustConfig(t, "pd", "schedule.max-merge-region-keys"), "v8.5.0", "540000", true},
		{"IME enable v8.5.0", mustConfig(t, "tikv", "in-memory-engine.enable"), "v8.5.0", "false", true},
		{"IME enable v8.4.0 (absent)", mustConfig(t, "tikv", "in-memory-engine.enable"), "v8.4.0", "", false},
		{"IME gc interval v8.5.0", mustConfig(t, "tikv", "in-memory-engine.gc-run-interval"), "v8.5.0", "3m", true},
		{"IME capacity has no fixed default", mustConfig(t, "tikv", "in-memory-engine.capacity"), "v8.5.0", "", false},
		{"resource control v6.6.0", mustConfig(t, "tikv", "resource-control.enabled"), "v6.6.0", "false", true},
		{"resource control v7.0.0", mustConfig(t, "tikv", "resource-control.enabled"), "v7.0.0", "true", true},
		{"non-prepared cache v7.2.0", mustVariable(t, "tidb_enable_non_prepared_plan_cache"), "v7.2.0", "ON", true},
		{"non-prepared cache v7.3.0", mustVariable(t, "tidb_enable_non_prepared_plan_cache"), "v7.3.0", "ON", true},
		{"non-prepared cache v7.4.0", mustVariable(t, "tidb_enable_non_prepared_plan_cache"), "v7.4.0", "OFF", true},
		{"partition batch v7.6.0", mustVariable(t, "tidb_auto_analyze_partition_batch_size"), "v7.6.0", "128", true},
		{"partition batch v8.2.0", mustVariable(t, "tidb_auto_analyze_partition_batch_size"), "v8.2.0", "8192", true},
		{"resource control switch before it existed", mustVariable(t, "tidb_enable_resource_control"), "v6.5.0", "", false},
		{"resource control switch v6.6.0", mustVariable(t, "tidb_enable_resource_control"), "v6.6.0", "OFF", true},
		{"removed variable", mustVariable(t, "tidb_enable_general_plan_cache"), "v7.5.0", "", false},
		{"new-cluster default carries its note", mustVariable(t, "tidb_auto_analyze_concurrency"), "v8.5.7", "3", true},
		{"unknown version gives newest", mustConfig(t, "tikv", "coprocessor.region-split-size"), "", "256MiB", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := version.Version{}
			if tt.version != "" {
				v = version.MustParse(tt.version)
			}
			got, found := tt.e.DefaultIn(v)
			if diff := cmp.Diff([]any{tt.want, tt.wantFound}, []any{got, found}); diff != "" {
				t.Errorf("DefaultIn(%s) mismatch (-want +got):\n%s", tt.version, diff)
			}
		})
	}
}

func TestDefaultRecordIn(t *testing.T) {
	d, ok := mustVariable(t, "tidb_auto_analyze_concurrency").DefaultRecordIn(version.MustParse("v9.0.0"))
	if !ok || d.Value != "3" || d.Since.Short() != "v8.5.7" || !strings.Contains(d.Note, "new clusters only") {
		t.Errorf("DefaultRecordIn(v9.0.0) = %+v, %v", d, ok)
	}
	d, ok = mustVariable(t, "tidb_auto_analyze_concurrency").DefaultRecordIn(version.MustParse("v8.5.6"))
	if !ok || d.Value != "1" || d.Note != "" {
		t.Errorf("DefaultRecordIn(v8.5.6) = %+v, %v", d, ok)
	}
}

func TestExistsIn(t *testing.T) {
	tests := []struct {
		e       *Entry
		version string
		want    bool
	}{
		{mustConfig(t, "tikv", "in-memory-engine.enable"), "v8.4.0", false},
		{mustConfig(t, "tikv", "in-memory-engine.enable"), "v8.5.0", true},
		{mustConfig(t, "tikv", "in-memory-engine.enable"), "8.0.11-TiDB-v8.5.1", true},
		{mustConfig(t, "tikv", "resource-control.priority-ctl-strategy"), "v8.3.0", false},
		{mustConfig(t, "tikv", "resource-control.priority-ctl-strategy"), "v8.4.0", true},
		{mustConfig(t, "tikv", "resource-control.enable-fair-scheduling"), "v8.5.6", false},
		{mustConfig(t, "tikv", "resource-control.enable-fair-scheduling"), "v8.5.7", true},
		{mustVariable(t, "tidb_enable_instance_plan_cache"), "v8.3.0", false},
		{mustVariable(t, "tidb_enable_instance_plan_cache"), "v8.4.0", true},
		{mustVariable(t, "log_bin"), "v8.3.9", true},
		{mustVariable(t, "log_bin"), "v8.4.0", false},
		{mustVariable(t, "tidb_enable_general_plan_cache"), "v6.5.3", true},
		{mustVariable(t, "tidb_enable_general_plan_cache"), "v6.6.0", false},
		// older than the table's oldest release: treated as that release
		{mustVariable(t, "tidb_enable_general_plan_cache"), "v6.2.0", true},
		// a key in some releases only (backported to v6.5.9, v7.1.6, v7.5.5)
		{mustConfig(t, "pd", "replication-mode.dr-auto-sync.wait-recover-timeout"), "v6.5.8", false},
		{mustConfig(t, "pd", "replication-mode.dr-auto-sync.wait-recover-timeout"), "v6.5.9", true},
		{mustConfig(t, "pd", "replication-mode.dr-auto-sync.wait-recover-timeout"), "v7.1.5", false},
		{mustConfig(t, "pd", "replication-mode.dr-auto-sync.wait-recover-timeout"), "v7.5.5", true},
		{mustVariable(t, "tidb_stats_update_during_ddl"), "v8.5.3", false},
		{mustVariable(t, "tidb_stats_update_during_ddl"), "v8.5.4", true},
		{mustConfig(t, "pd", "schedule.max-affinity-merge-region-size"), "v8.5.4", false},
		{mustConfig(t, "pd", "schedule.max-affinity-merge-region-size"), "v8.5.5", true},
		{mustConfig(t, "tikv", "coprocessor.region-split-size"), "v4.0.0", true},
	}
	for _, tt := range tests {
		if got := tt.e.ExistsIn(version.MustParse(tt.version)); got != tt.want {
			t.Errorf("%s ExistsIn(%s) = %v, want %v", tt.e.Address(), tt.version, got, tt.want)
		}
	}
}

func TestVersionsText(t *testing.T) {
	tests := []struct {
		e    *Entry
		want string
	}{
		{mustConfig(t, "tikv", "coprocessor.region-split-size"), "v6.5.0+"},
		{mustConfig(t, "tikv", "resource-control.priority-ctl-strategy"), "v8.4.0+"},
		{mustVariable(t, "log_bin"), "v6.5.0–v8.3.0"},
		{mustVariable(t, "tidb_enable_general_plan_cache"), "v6.5.0–v6.5.12"},
		{mustVariable(t, "tidb_prepared_plan_cache_size"), "v6.5.0+ (deprecated since v7.1.0)"},
		{mustConfig(t, "pd", "replication-mode.dr-auto-sync.wait-recover-timeout"), "v6.5.9–v6.5.12, v7.1.6, v7.5.5+"},
		{&Entry{Introduced: version.MustParse("v8.5.0"), Removed: version.MustParse("v8.5.3")}, "v8.5.0–v8.5.2"},
		{&Entry{Introduced: version.MustParse("v8.1.0"), Removed: version.MustParse("v9.0.0")}, "v8.1.0–before v9.0.0"},
	}
	for _, tt := range tests {
		if got := tt.e.VersionsText(); got != tt.want {
			t.Errorf("%s VersionsText() = %q, want %q", tt.e.Address(), got, tt.want)
		}
	}
}

func TestFamily(t *testing.T) {
	addrs := func(es []*Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Address())
		}
		return out
	}
	want := []string{"tikv.coprocessor.region-max-keys", "tikv.coprocessor.region-max-size",
		"tikv.coprocessor.region-split-keys", "tikv.coprocessor.region-split-size"}
	if diff := cmp.Diff(want, addrs(Family("region-size"))); diff != "" {
		t.Errorf("Family(region-size) (-want +got):\n%s", diff)
	}
	want = []string{"pd.schedule.max-merge-region-keys", "pd.schedule.max-merge-region-size"}
	if diff := cmp.Diff(want, addrs(Family("pd-merge"))); diff != "" {
		t.Errorf("Family(pd-merge) (-want +got):\n%s", diff)
	}
	if got := Family("nope"); got != nil {
		t.Errorf("Family(nope) = %v", got)
	}
	if got := Family(""); got != nil {
		t.Errorf("Family(\"\") = %v, want nil (entries without a family)", got)
	}
	split := mustConfig(t, "tikv", "coprocessor.region-split-size")
	var rel []string
	for _, r := range split.RelatedEntries() {
		rel = append(rel, r.Address())
	}
	if !strings.Contains(strings.Join(rel, " "), "pd.schedule.max-merge-region-size") {
		t.Errorf("region-split-size must relate to PD merge size, got %v", rel)
	}
}

func TestPrefixRule(t *testing.T) {
	e, ok := Config("tiflash", "raftstore-proxy.raftstore.apply-pool-size")
	if !ok {
		t.Fatal("raftstore-proxy.* not resolved by the prefix rule")
	}
	got := []string{e.Address(), e.Pattern, e.Key, e.Kind.String()}
	want := []string{"tiflash.raftstore-proxy.raftstore.apply-pool-size", "raftstore-proxy.*", "raftstore-proxy.raftstore.apply-pool-size", "string"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prefix entry (-want +got):\n%s", diff)
	}
	rule, _ := Config("tiflash", "raftstore-proxy.")
	if rule == nil || !rule.Prefix || rule.Key != "raftstore-proxy." {
		t.Errorf("the rule itself must stay unchanged after a lookup: %+v", rule)
	}
	specific := mustConfig(t, "TiFlash", "RAFTSTORE-PROXY.server.snap-io-max-bytes-per-sec")
	if specific.Kind != KindSize || specific.Pattern != "" {
		t.Errorf("a specific entry wins over the prefix rule: %+v", specific)
	}
	for _, key := range []string{"raftstore-proxy", "profiles.default.max_threads", "raftstore-proxy."} {
		if e, ok := Config("tiflash", key); ok && e.Pattern != "" {
			t.Errorf("Config(tiflash, %q) matched the prefix rule", key)
		}
	}
	if _, ok := Config("tikv", "raftstore-proxy.x"); ok {
		t.Error("prefix rules are per component")
	}
}

func TestSetConfigSupported(t *testing.T) {
	for _, tt := range []struct {
		component, key string
		wantErr        string
	}{
		{"tikv", "coprocessor.region-split-size", ""},
		{"PD", "schedule.max-merge-region-size", ""},
		{"tiflash", "raftstore-proxy.server.snap-io-max-bytes-per-sec", ""},
		{"tiflash", "profiles.default.max_threads", "raftstore-proxy."},
		{"tidb", "instance.tidb_slow_log_threshold", "system variable"},
		{"ticdc", "x", "only the types tikv, pd and tiflash"},
	} {
		err := SetConfigSupported(tt.component, tt.key)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("SetConfigSupported(%s, %s) = %v, want %q", tt.component, tt.key, err, tt.wantErr)
		}
	}
}

// TestSampleKeys: settings named in the issue and the docs that must never
// disappear.
func TestSampleKeys(t *testing.T) {
	for _, ref := range []string{
		"tikv:coprocessor.region-split-size", "tikv:raftstore.raft-log-gc-size-limit", "tikv:split.qps-threshold",
		"tikv:storage.block-cache.capacity", "tikv:resource-control.enabled", "tikv:in-memory-engine.enable",
		"tikv:log.level", "tikv:quota.max-delay-duration", "tikv:pessimistic-txn.pipelined", "tikv:gc.ratio-threshold",
		"tikv:server.grpc-concurrency", "tikv:rocksdb.defaultcf.titan.min-blob-size", "tikv:gc.auto-compaction.check-interval",
		"pd:schedule.max-merge-region-size", "pd:replication.max-replicas", "pd:pd-server.key-type",
		"variable:tidb_enable_resource_control", "variable:tidb_request_source_type",
		"variable:tidb_enable_non_prepared_plan_cache", "variable:tidb_enable_instance_plan_cache",
		"variable:tidb_instance_plan_cache_max_size", "variable:log_bin", "variable:tidb_schema_cache_size",
		"tikv:backup.sst-max-size", "tikv:storage.enable-ttl", "variable:tidb_gc_life_time",
		"tikv:resource-control.priority-ctl-strategy", "tikv:resource-control.admission-max-delayed-count",
		"pd:schedule.max-affinity-merge-region-size", "variable:tidb_resource_control_strict_mode",
		"variable:tidb_enable_cache_prepare_stmt", "variable:tiflash_hash_join_version",
		"variable:tidb_server_memory_limit", "variable:tidb_mem_quota_query", "variable:tidb_enable_auto_analyze",
		"variable:tidb_gc_enable", "variable:tidb_txn_mode", "variable:sql_mode", "variable:max_execution_time",
		"variable:tidb_replica_read", "variable:tidb_opt_fix_control",
	} {
		if _, ok := Lookup(ref); !ok {
			t.Errorf("%s missing from the catalog", ref)
		}
	}
	if e := mustConfig(t, "tikv", "server.grpc-concurrency"); e.Online {
		t.Error("server.grpc-concurrency is restart-only")
	}
	if diff := cmp.Diff([]string{"pd", "tiflash", "tikv"}, Components()); diff != "" {
		t.Errorf("Components (-want +got):\n%s", diff)
	}
}

func TestLookupForms(t *testing.T) {
	for _, name := range []string{"tidb_enable_instance_plan_cache", "TIDB_ENABLE_INSTANCE_PLAN_CACHE", "@@tidb_enable_instance_plan_cache", "@@GLOBAL.tidb_enable_instance_plan_cache", " tidb_enable_instance_plan_cache "} {
		if _, ok := Variable(name); !ok {
			t.Errorf("Variable(%q) not found", name)
		}
	}
	if _, ok := Variable("global.tidb_enable_instance_plan_cache"); ok {
		t.Error(`"global." without "@@" is not a variable name`)
	}
	if _, ok := Config("TiKV", "Coprocessor.Region-Split-Size"); !ok {
		t.Error("Config must be case-insensitive")
	}
	for _, ref := range []string{"variable:tidb_enable_instance_plan_cache", "pd:schedule.max-merge-region-size", "tiflash:raftstore-proxy.a.b"} {
		if _, ok := Lookup(ref); !ok {
			t.Errorf("Lookup(%q) failed", ref)
		}
	}
	if _, ok := Lookup("no-colon"); ok {
		t.Error("Lookup without component must fail")
	}
}

func BenchmarkCanonicalSize(b *testing.B) {
	e, _ := Config("tikv", "coprocessor.region-split-size")
	for i := 0; i < b.N; i++ {
		if _, err := e.Canonical("0.25GiB"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkConfigPrefixLookup(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, ok := Config("tiflash", "raftstore-proxy.server.grpc-concurrency"); !ok {
			b.Fatal("not found")
		}
	}
}

func TestOnlineIn(t *testing.T) {
	if mustConfig(t, "tikv", "resource-control.enabled").OnlineIn(version.MustParse("v8.5.0")) {
		t.Error("restart-only items are never online")
	}
	if !mustConfig(t, "tikv", "coprocessor.region-split-size").OnlineIn(version.Version{}) {
		t.Error("an unknown version counts as the newest release")
	}
	low := mustVariable(t, "tidb_low_resolution_tso")
	for v, want := range map[string]bool{"v8.2.0": false, "v8.3.0": true} {
		if got := low.OnlineIn(version.MustParse(v)); got != want {
			t.Errorf("tidb_low_resolution_tso OnlineIn(%s) = %v, want %v (SET GLOBAL works once it has GLOBAL scope)", v, got, want)
		}
	}
}

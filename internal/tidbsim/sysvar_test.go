package tidbsim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/version"
)

func target(v string) VarTarget {
	return VarTarget{Instance: "127.0.0.1:4000", Version: version.MustParse(v)}
}

func sqlCode(err error) uint16 {
	if se, ok := err.(*SQLError); ok {
		return se.Code
	}
	return 0
}

// TestSysVarSetGlobal drives SET GLOBAL through the store and reads the value
// back with SHOW GLOBAL VARIABLES semantics (GlobalValue) and SELECT
// semantics (SelectVar).
func TestSysVarSetGlobal(t *testing.T) {
	tests := []struct {
		name     string
		ver      string
		varName  string
		val      Value
		want     string // GlobalValue after the set
		wantSel  Value  // SELECT @@global.x
		warnings []Warning
		errCode  uint16
		errMsg   string
	}{
		// Booleans render ON/OFF, SELECT gives 0/1 (catalog/testdata/corpus/variables.tsv).
		{name: "bool ON string", ver: "v8.5.1", varName: "tidb_enable_instance_plan_cache", val: Str("on"), want: "ON", wantSel: Int(1)},
		{name: "bool 1", ver: "v8.5.1", varName: "tidb_enable_instance_plan_cache", val: Int(1), want: "ON", wantSel: Int(1)},
		{name: "bool TRUE literal", ver: "v8.5.1", varName: "tidb_enable_non_prepared_plan_cache", val: Value{Kind: KindInt, I: 1, Bool: true}, want: "ON", wantSel: Int(1)},
		{name: "bool FALSE literal", ver: "v8.5.1", varName: "tidb_enable_prepared_plan_cache", val: Value{Kind: KindInt, I: 0, Bool: true}, want: "OFF", wantSel: Int(0)},
		{name: "bool 'TRUE' string rejected", ver: "v8.5.1", varName: "tidb_enable_prepared_plan_cache", val: Str("TRUE"), errCode: 1231, errMsg: "Variable 'tidb_enable_prepared_plan_cache' can't be set to the value of 'TRUE'"},
		{name: "bool 2 rejected", ver: "v8.5.1", varName: "tidb_enable_prepared_plan_cache", val: Int(2), errCode: 1231, errMsg: "Variable 'tidb_enable_prepared_plan_cache' can't be set to the value of '2'"},
		{name: "bool NULL rejected with empty value", ver: "v8.5.1", varName: "tidb_enable_prepared_plan_cache", val: Null, errCode: 1231, errMsg: "Variable 'tidb_enable_prepared_plan_cache' can't be set to the value of ''"},
		// Instance plan cache max size accepts units, reads back bytes.
		{name: "size GiB", ver: "v8.5.1", varName: "tidb_instance_plan_cache_max_size", val: Str("2GiB"), want: "2147483648", wantSel: Str("2147483648")},
		{name: "size bytes", ver: "v8.4.0", varName: "tidb_instance_plan_cache_max_size", val: Int(123456), want: "123456", wantSel: Str("123456")},
		{name: "size garbage", ver: "v8.5.1", varName: "tidb_instance_plan_cache_max_size", val: Str("2 GiB"), errCode: 1105, errMsg: "invalid tidb_instance_plan_cache_max_mem_size value 2 GiB"},
		// Clamping with 1292 (corpus messages.tsv).
		{name: "float clamp low", ver: "v8.5.1", varName: "tidb_instance_plan_cache_reserved_percentage", val: Int(-1), want: "0", wantSel: Str("0"),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_instance_plan_cache_reserved_percentage value: '-1'"}}},
		{name: "float clamp high keeps literal text", ver: "v8.5.1", varName: "tidb_instance_plan_cache_reserved_percentage", val: Value{Kind: KindDecimal, S: "1.1100"}, want: "1", wantSel: Str("1"),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_instance_plan_cache_reserved_percentage value: '1.1100'"}}},
		{name: "int clamp max_prepared_stmt_count", ver: "v7.5.4", varName: "max_prepared_stmt_count", val: Int(1048577), want: "1048576", wantSel: Str("1048576"),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect max_prepared_stmt_count value: '1048577'"}}},
		{name: "unsigned clamp", ver: "v8.1.2", varName: "tidb_session_plan_cache_size", val: Int(0), want: "1", wantSel: Int(1),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_session_plan_cache_size value: '0'"}}},
		{name: "unsigned not a number", ver: "v8.1.2", varName: "tidb_session_plan_cache_size", val: Str("abc"), errCode: 1232, errMsg: "Incorrect argument type to variable 'tidb_session_plan_cache_size'"},
		{name: "plan size units rejected (code)", ver: "v8.5.1", varName: "tidb_plan_cache_max_plan_size", val: Str("2MiB"), errCode: 1232},
		{name: "deprecated prepared size warns", ver: "v8.5.1", varName: "tidb_prepared_plan_cache_size", val: Int(200), want: "200", wantSel: Int(200),
			warnings: []Warning{{Level: "Warning", Code: 1287, Message: "'tidb_prepared_plan_cache_size' is deprecated and will be removed in a future release. Please use tidb_session_plan_cache_size instead"}}},
		// Durations.
		{name: "duration normalised", ver: "v8.5.1", varName: "tidb_gc_life_time", val: Str("72h"), want: "72h0m0s", wantSel: Str("72h0m0s")},
		{name: "duration clamped", ver: "v8.5.1", varName: "tidb_gc_life_time", val: Str("1m"), want: "10m0s", wantSel: Str("10m0s"),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_gc_life_time value: '1m'"}}},
		{name: "duration bad", ver: "v8.5.1", varName: "tidb_gc_life_time", val: Str("10 minutes"), errCode: 1232},
		// Enum.
		{name: "enum case-folded", ver: "v8.5.1", varName: "tidb_txn_mode", val: Str("OPTIMISTIC"), want: "optimistic", wantSel: Str("optimistic")},
		{name: "enum ordinal", ver: "v8.5.1", varName: "tidb_txn_mode", val: Int(1), want: "optimistic", wantSel: Str("optimistic")},
		{name: "enum bad", ver: "v8.5.1", varName: "tidb_txn_mode", val: Str("lazy"), errCode: 1231},
		{name: "mem quota raised to 128", ver: "v8.5.1", varName: "tidb_mem_quota_query", val: Int(5), want: "128", wantSel: Str("128"),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_mem_quota_query value: '5'"}}},
		{name: "slow log threshold -1 reads as uint64", ver: "v8.5.1", varName: "tidb_slow_log_threshold", val: Int(-1), want: "18446744073709551615", wantSel: Str("18446744073709551615")},
		// Schema cache size keeps its spelling.
		{name: "schema cache size text", ver: "v8.5.1", varName: "tidb_schema_cache_size", val: Str("1GiB"), want: "1GiB", wantSel: Str("1GiB")},
		{name: "schema cache size raised", ver: "v8.5.1", varName: "tidb_schema_cache_size", val: Str("1MB"), want: "64MB", wantSel: Str("64MB"),
			warnings: []Warning{{Level: "Warning", Code: 1292, Message: "Truncated incorrect tidb_schema_cache_size value: '1MB'"}}},
		// Telemetry deprecated in 8.1.
		{name: "telemetry 7.5", ver: "v7.5.4", varName: "tidb_enable_telemetry", val: Str("ON"), want: "ON", wantSel: Int(1)},
		{name: "telemetry 8.1 always OFF", ver: "v8.1.2", varName: "tidb_enable_telemetry", val: Str("ON"), want: "OFF", wantSel: Int(0),
			warnings: []Warning{{Level: "Warning", Code: 1681, Message: "tidb_enable_telemetry is deprecated since Telemetry has been removed, this variable is 'OFF' always."}}},
		// Existence by version.
		{name: "instance plan cache absent before 8.4", ver: "v8.1.2", varName: "tidb_enable_instance_plan_cache", val: Str("ON"), errCode: 1193, errMsg: "Unknown system variable 'tidb_enable_instance_plan_cache'"},
		{name: "log_bin removed in 8.4", ver: "v8.5.1", varName: "sql_log_bin", val: Str("OFF"), errCode: 1193, errMsg: "Unknown system variable 'sql_log_bin'"},
		{name: "sql_log_bin exists in 8.1", ver: "v8.1.2", varName: "sql_log_bin", val: Str("OFF"), want: "OFF", wantSel: Int(0)},
		{name: "strict mode absent in 8.1", ver: "v8.1.2", varName: "tidb_resource_control_strict_mode", val: Str("OFF"), errCode: 1193},
		// Scope errors.
		{name: "read only", ver: "v8.1.2", varName: "log_bin", val: Str("ON"), errCode: 1238, errMsg: "Variable 'log_bin' is a read only variable"},
		{name: "version read only", ver: "v8.5.1", varName: "version", val: Str("x"), errCode: 1238},
		{name: "session only", ver: "v8.5.1", varName: "last_plan_from_cache", val: Str("ON"), errCode: 1238},
		{name: "unknown", ver: "v8.5.1", varName: "autcommit", val: Str("OFF"), errCode: 1193, errMsg: "Unknown system variable 'autcommit'"},
		// Deprecations (release notes of v8.0.0 and v8.4.0).
		{name: "txn auto retry 7.5 settable", ver: "v7.5.4", varName: "tidb_disable_txn_auto_retry", val: Str("OFF"), want: "OFF", wantSel: Int(0)},
		{name: "txn auto retry 8.1 fixed ON", ver: "v8.1.2", varName: "tidb_disable_txn_auto_retry", val: Str("OFF"), want: "ON", wantSel: Int(1),
			warnings: []Warning{{Level: "Warning", Code: 1287, Message: "'OFF' is deprecated and will be removed in a future release. Please use ON instead"}}},
		{name: "table partition 8.1 settable", ver: "v8.1.2", varName: "tidb_enable_table_partition", val: Str("off"), want: "OFF", wantSel: Str("OFF")},
		{name: "table partition 8.5 fixed ON", ver: "v8.5.1", varName: "tidb_enable_table_partition", val: Str("OFF"), want: "ON", wantSel: Str("ON"),
			warnings: []Warning{{Level: "Warning", Code: 1105, Message: "tidb_enable_table_partition is always turned on. This variable has been deprecated and will be removed in the future releases"}}},
		// DEFAULT restores the version's default.
		{name: "default 8.5 fast create table", ver: "v8.5.1", varName: "tidb_enable_fast_create_table", val: Value{Kind: KindDefault}, want: "ON", wantSel: Int(1)},
		{name: "default 8.1 fast create table", ver: "v8.1.2", varName: "tidb_enable_fast_create_table", val: Value{Kind: KindDefault}, want: "OFF", wantSel: Int(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := NewSysVarStore(SysVarOptions{})
			tg := target(tt.ver)
			warns, err := st.SetGlobal(tg, tt.varName, tt.val)
			if tt.errCode != 0 {
				if sqlCode(err) != tt.errCode {
					t.Fatalf("SetGlobal error = %v, want code %d", err, tt.errCode)
				}
				if tt.errMsg != "" && err.(*SQLError).Message != tt.errMsg {
					t.Fatalf("message = %q, want %q", err.(*SQLError).Message, tt.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatalf("SetGlobal: %v", err)
			}
			if diff := cmp.Diff(tt.warnings, warns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			got, err := st.GlobalValue(tg, tt.varName)
			if err != nil || got != tt.want {
				t.Errorf("GlobalValue = %q, %v; want %q", got, err, tt.want)
			}
			sel, err := st.SelectVar(nil, tg, "global", tt.varName)
			if err != nil {
				t.Fatalf("SelectVar: %v", err)
			}
			if diff := cmp.Diff(tt.wantSel, sel); diff != "" {
				t.Errorf("SELECT @@global (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSysVarDefaultsByVersion(t *testing.T) {
	tests := []struct {
		ver, name, want string
		errCode         uint16
	}{
		{"v7.5.4", "tidb_enable_fast_create_table", "", 1193},
		{"v8.1.2", "tidb_enable_fast_create_table", "OFF", 0},
		{"v8.5.1", "tidb_enable_fast_create_table", "ON", 0},
		{"v8.1.2", "tidb_schema_cache_size", "0", 0},
		{"v8.5.1", "tidb_schema_cache_size", "536870912", 0},
		{"v7.5.4", "tidb_enable_dist_task", "OFF", 0},
		{"v8.1.2", "tidb_enable_dist_task", "ON", 0},
		{"v8.5.1", "tidb_instance_plan_cache_max_size", "125829120", 0},
		{"v8.5.1", "tidb_enable_resource_control", "ON", 0},
		{"v8.5.1", "tidb_resource_control_strict_mode", "ON", 0},
		{"v8.5.3", "tidb_enable_cache_prepare_stmt", "", 1193},
		{"v8.5.7", "tidb_enable_cache_prepare_stmt", "OFF", 0},
		{"v9.0.0-beta.2", "tidb_enable_cache_prepare_stmt", "OFF", 0},
		{"v7.5.4", "log_bin", "OFF", 0},
		{"v8.4.0", "log_bin", "", 1193},
		{"v8.5.1", "version", "8.0.11-TiDB-v8.5.1", 0},
		{"v7.5.4", "version", "8.0.11-TiDB-v7.5.4", 0},
		{"v8.5.1", "max_connections", "0", 0},
		{"v8.5.1", "tidb_slow_log_threshold", "300", 0},
		{"v8.5.1", "tidb_gc_life_time", "10m0s", 0},
		{"v8.5.1", "tidb_mem_quota_query", "1073741824", 0},
		{"v8.5.1", "tidb_txn_mode", "pessimistic", 0},
		{"v8.5.1", "tidb_enable_telemetry", "OFF", 0},
		{"v8.5.1", "tidb_auto_analyze_ratio", "0.5", 0},
		{"v8.5.1", "last_plan_from_cache", "", 1238},
		{"v8.1.2", "tidb_opt_prefer_range_scan", "OFF", 0},
		{"v8.5.1", "tidb_opt_prefer_range_scan", "ON", 0},
		{"v8.1.2", "tidb_enable_historical_stats", "ON", 0},
		{"v8.5.1", "tidb_enable_historical_stats", "OFF", 0},
	}
	for _, tt := range tests {
		t.Run(tt.ver+"/"+tt.name, func(t *testing.T) {
			st := NewSysVarStore(SysVarOptions{})
			got, err := st.GlobalValue(target(tt.ver), tt.name)
			if tt.errCode != 0 {
				if sqlCode(err) != tt.errCode {
					t.Fatalf("err = %v, want code %d", err, tt.errCode)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("GlobalValue = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestSysVarUpgradeDefaults: strict mode OFF after upgrading from < 8.2;
// invalidation on fresh stats OFF after upgrading from < 7.1.
func TestSysVarUpgradeDefaults(t *testing.T) {
	tg := target("v8.5.1")
	fresh := NewSysVarStore(SysVarOptions{})
	upgraded := NewSysVarStore(SysVarOptions{UpgradedFrom: version.MustParse("v7.0.0")})
	from81 := NewSysVarStore(SysVarOptions{UpgradedFrom: version.MustParse("v8.1.2")})
	for _, tc := range []struct {
		st   *SysVarStore
		name string
		want string
	}{
		{fresh, "tidb_resource_control_strict_mode", "ON"},
		{upgraded, "tidb_resource_control_strict_mode", "OFF"},
		{from81, "tidb_resource_control_strict_mode", "OFF"},
		{fresh, "tidb_plan_cache_invalidation_on_fresh_stats", "ON"},
		{upgraded, "tidb_plan_cache_invalidation_on_fresh_stats", "OFF"},
		{from81, "tidb_plan_cache_invalidation_on_fresh_stats", "ON"},
	} {
		got, err := tc.st.GlobalValue(tg, tc.name)
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	// VARIABLES_INFO keeps the compiled-in default.
	for _, r := range upgraded.VariablesInfo(nil, tg) {
		if r.Name == "tidb_resource_control_strict_mode" && (r.Default != "ON" || r.Current != "OFF") {
			t.Errorf("VARIABLES_INFO row = %+v", r)
		}
	}
}

// TestSysVarInstanceScope: INSTANCE variables affect only the connected tidb
// (INSTANCE scope); SET SESSION on them is applied globally with warning 8142 while
// tidb_enable_legacy_instance_scope is ON, else 1229.
func TestSysVarInstanceScope(t *testing.T) {
	st := NewSysVarStore(SysVarOptions{})
	a := VarTarget{Instance: "10.0.0.1:4000", Version: version.MustParse("v8.5.1")}
	b := VarTarget{Instance: "10.0.0.2:4000", Version: version.MustParse("v8.5.1")}
	if _, err := st.SetGlobal(a, "max_connections", Int(500)); err != nil {
		t.Fatal(err)
	}
	if v, _ := st.GlobalValue(a, "max_connections"); v != "500" {
		t.Errorf("instance a = %q", v)
	}
	if v, _ := st.GlobalValue(b, "max_connections"); v != "0" {
		t.Errorf("instance b = %q, want default 0", v)
	}
	sv := st.NewSession(a)
	warns, err := st.SetSession(sv, a, "tidb_slow_log_threshold", Int(100))
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{{Level: "Warning", Code: 8142, Message: "modifying tidb_slow_log_threshold will require SET GLOBAL in a future version of TiDB"}}
	if diff := cmp.Diff(want, warns); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if v, _ := st.GlobalValue(a, "tidb_slow_log_threshold"); v != "100" {
		t.Errorf("slow log threshold = %q", v)
	}
	if _, err := st.SetSession(sv, a, "tidb_enable_legacy_instance_scope", Str("OFF")); err != nil {
		t.Fatal(err)
	}
	_, err = st.SetSession(sv, a, "tidb_slow_log_threshold", Int(100))
	if sqlCode(err) != 1229 || err.(*SQLError).Message != "Variable 'tidb_slow_log_threshold' is a GLOBAL variable and should be set with SET GLOBAL" {
		t.Errorf("err = %v, want 1229", err)
	}
	// SET SESSION on a GLOBAL-only variable.
	if _, err := st.SetSession(sv, a, "tidb_gc_life_time", Str("20m")); sqlCode(err) != 1229 {
		t.Errorf("err = %v, want 1229", err)
	}
	// @@session. of a GLOBAL-only variable and @@global. of a SESSION-only one.
	if _, err := st.SelectVar(sv, a, "session", "tidb_gc_life_time"); sqlCode(err) != 1238 || err.(*SQLError).Message != "Variable 'tidb_gc_life_time' is a GLOBAL variable" {
		t.Errorf("err = %v", err)
	}
	if _, err := st.SelectVar(sv, a, "global", "last_plan_from_cache"); sqlCode(err) != 1238 || err.(*SQLError).Message != "Variable 'last_plan_from_cache' is a SESSION variable" {
		t.Errorf("err = %v", err)
	}
}

// TestSysVarSessionSnapshot: a session sees GLOBAL values current at its
// creation; SET GLOBAL later does not change it; aliases follow.
func TestSysVarSessionSnapshot(t *testing.T) {
	st := NewSysVarStore(SysVarOptions{})
	tg := target("v8.5.1")
	old := st.NewSession(tg)
	if _, err := st.SetGlobal(tg, "tidb_session_plan_cache_size", Int(200)); err != nil {
		t.Fatal(err)
	}
	fresh := st.NewSession(tg)
	for _, tc := range []struct {
		sv   *SessionVars
		name string
		want Value
	}{
		{old, "tidb_session_plan_cache_size", Int(100)},
		{fresh, "tidb_session_plan_cache_size", Int(200)},
		// Alias (corpus variables.tsv test-tidb-plancache-sizeswitch: 200).
		{fresh, "tidb_prepared_plan_cache_size", Int(200)},
	} {
		got, err := st.SelectVar(tc.sv, tg, "", tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if _, err := st.SetSession(old, tg, "tidb_session_plan_cache_size", Value{Kind: KindDefault}); err != nil {
		t.Fatal(err)
	}
	if v, _ := st.Value(old, tg, "tidb_session_plan_cache_size"); v != "200" {
		t.Errorf("SET SESSION = DEFAULT should take the global value, got %q", v)
	}
}

func TestSysVarShowAndInfo(t *testing.T) {
	st := NewSysVarStore(SysVarOptions{})
	tg := target("v8.5.1")
	sv := st.NewSession(tg)
	global := st.ShowVariables(sv, tg, true)
	session := st.ShowVariables(sv, tg, false)
	has := func(rows []VariableRow, name string) bool {
		for _, r := range rows {
			if r.Name == name {
				return true
			}
		}
		return false
	}
	if has(global, "last_plan_from_cache") || !has(session, "last_plan_from_cache") {
		t.Errorf("SESSION-only variables must be hidden from SHOW GLOBAL VARIABLES only")
	}
	if !has(global, "max_connections") || !has(global, "version") {
		t.Errorf("INSTANCE and NONE variables belong to SHOW GLOBAL VARIABLES")
	}
	for i := 1; i < len(global); i++ {
		if global[i-1].Name >= global[i].Name {
			t.Fatalf("rows not sorted: %q before %q", global[i-1].Name, global[i].Name)
		}
	}
	info := map[string]VariablesInfoRow{}
	for _, r := range st.VariablesInfo(sv, tg) {
		info[r.Name] = r
	}
	i64 := func(n int64) *int64 { return &n }
	u64 := func(n uint64) *uint64 { return &n }
	str := func(s string) *string { return &s }
	want := map[string]VariablesInfoRow{
		"tidb_session_plan_cache_size": {Name: "tidb_session_plan_cache_size", Scope: "SESSION,GLOBAL", Default: "100", Current: "100", Min: i64(1), Max: u64(100000), IsNoop: "NO"},
		"tidb_txn_mode":                {Name: "tidb_txn_mode", Scope: "SESSION,GLOBAL", Default: "pessimistic", Current: "pessimistic", PossibleValues: str("pessimistic,optimistic"), IsNoop: "NO"},
		"max_connections":              {Name: "max_connections", Scope: "INSTANCE", Default: "0", Current: "0", Min: i64(0), Max: u64(100000), IsNoop: "NO"},
		"tidb_enable_resource_control": {Name: "tidb_enable_resource_control", Scope: "GLOBAL", Default: "ON", Current: "ON", IsNoop: "NO"},
		"version":                      {Name: "version", Scope: "NONE", Default: "8.0.11-TiDB-v8.5.1", Current: "8.0.11-TiDB-v8.5.1", IsNoop: "NO"},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, info[name]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestParseByteSize(t *testing.T) {
	tests := []struct {
		in   string
		n    uint64
		norm string
		ok   bool
	}{
		{"0", 0, "0", true},
		{"123", 123, "123", true},
		{"2GiB", 2 << 30, "2GiB", true},
		{"64MB", 64 << 20, "64MB", true},
		{"1KiB", 1024, "1KiB", true},
		{"3TB", 3 << 40, "3TB", true},
		{"2gib", 0, "", false},
		{"2 GiB", 0, "", false},
		{"-1", 0, "", false},
		{"1.5GiB", 0, "", false},
		{"", 0, "", false},
	}
	for _, tt := range tests {
		n, norm, ok := parseByteSize(tt.in)
		if n != tt.n || norm != tt.norm || ok != tt.ok {
			t.Errorf("parseByteSize(%q) = %d, %q, %v; want %d, %q, %v", tt.in, n, norm, ok, tt.n, tt.norm, tt.ok)
		}
	}
}

package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/upstream"
)

func mustConfig(t *testing.T, component, key string) *Entry {
	t.Helper()
	e, ok := Config(component, key)
	if !ok {
		t.Fatalf("Config(%q, %q): not in the catalog", component, key)
	}
	return e
}

func mustVariable(t *testing.T, name string) *Entry {
	t.Helper()
	e, ok := Variable(name)
	if !ok {
		t.Fatalf("Variable(%q): not in the catalog", name)
	}
	return e
}

// TestCanonical covers every kind on both spellings: what an HCL author
// writes and what the component renders.
func TestCanonical(t *testing.T) {
	splitSize := mustConfig(t, "tikv", "coprocessor.region-split-size")
	maxKeys := mustConfig(t, "tikv", "coprocessor.region-max-keys")
	mergeSize := mustConfig(t, "pd", "schedule.max-merge-region-size")
	mergeIntv := mustConfig(t, "pd", "schedule.split-merge-interval")
	gcRun := mustConfig(t, "tikv", "in-memory-engine.gc-run-interval")
	crossTable := mustConfig(t, "pd", "schedule.enable-cross-table-merge")
	ime := mustConfig(t, "tikv", "in-memory-engine.enable")
	ratio := mustConfig(t, "pd", "schedule.high-space-ratio")
	strategy := mustConfig(t, "tikv", "resource-control.priority-ctl-strategy")
	labels := mustConfig(t, "pd", "replication.location-labels")
	logLevel := mustConfig(t, "tikv", "log.level")
	ipc := mustVariable(t, "tidb_enable_instance_plan_cache")
	ipcSize := mustVariable(t, "tidb_instance_plan_cache_max_size")
	reserved := mustVariable(t, "tidb_instance_plan_cache_reserved_percentage")
	partition := mustVariable(t, "tidb_enable_table_partition")
	skipTypes := mustVariable(t, "tidb_analyze_skip_column_types")
	byteThr := mustConfig(t, "tikv", "split.byte-threshold")

	tests := []struct {
		name string
		e    *Entry
		in   string
		want string
	}{
		// size: HCL spellings and TiKV ReadableSize renderings, all binary
		{"size MiB", splitSize, "256MiB", "268435456"},
		{"size MB is binary", splitSize, "256MB", "268435456"},
		{"size M", splitSize, "256M", "268435456"},
		{"size bytes", splitSize, "268435456", "268435456"},
		{"size fraction", splitSize, "0.25GiB", "268435456"},
		{"size decimal GiB", splitSize, "1.5GiB", "1610612736"},
		{"size lower case", splitSize, "256mib", "268435456"},
		{"size space before unit", splitSize, "256 MiB", "268435456"},
		{"size B suffix", splitSize, "1000B", "1000"},
		{"size zero rendering", splitSize, "0KiB", "0"},
		{"size PiB", splitSize, "1PiB", "1125899906842624"},
		{"size TiKV rendering 4920MiB", splitSize, "4920MiB", "5158993920"},
		{"size float64 rendering", splitSize, "2.68435456e+08", "268435456"},
		{"size surrounding space", splitSize, " 96MiB ", "100663296"},
		{"plain-bytes size", byteThr, "30MiB", "31457280"},
		{"sysvar size bytes", ipcSize, "125829120", "125829120"},
		{"sysvar size unit", ipcSize, "2GiB", "2147483648"},
		// duration: TiKV ReadableDuration and PD Go durations
		{"duration TiKV", mergeIntv, "10m", "10m0s"},
		{"duration Go", mergeIntv, "10m0s", "10m0s"},
		{"duration seconds", mergeIntv, "600s", "10m0s"},
		{"duration PD hour", mergeIntv, "1h0m0s", "1h0m0s"},
		{"duration TiKV day", gcRun, "1d", "24h0m0s"},
		{"duration mixed", gcRun, "1h30m", "1h30m0s"},
		{"duration ms", gcRun, "500ms", "500ms"},
		{"duration us", gcRun, "1500us", "1.5ms"},
		{"duration zero", gcRun, "0s", "0s"},
		{"duration bare zero", gcRun, "0", "0s"},
		{"duration fraction", gcRun, "1.5h", "1h30m0s"},
		{"duration Go 48h", mergeIntv, "48h", "48h0m0s"},
		// bool
		{"bool true", crossTable, "true", "true"},
		{"bool ON", crossTable, "ON", "true"},
		{"bool on", ime, "on", "true"},
		{"bool 1", ime, "1", "true"},
		{"bool FALSE", ime, "FALSE", "false"},
		{"bool off", ime, "off", "false"},
		{"bool 0", ime, "0", "false"},
		{"sysvar bool ON", ipc, "ON", "true"},
		{"sysvar bool 0", ipc, "0", "false"},
		// int, including float64 renderings
		{"int plain", maxKeys, "1440000", "1440000"},
		{"int exponent", maxKeys, "1.44e+06", "1440000"},
		{"int exponent upper", maxKeys, "1.44E6", "1440000"},
		{"int trailing fraction", maxKeys, "1440000.0", "1440000"},
		{"int PD", mergeSize, "54", "54"},
		// SHOW CONFIG prints numbers through a float64: u64::MAX reads back
		// as 18446744073709552000, and both spellings are one value.
		{"int huge through float64", maxKeys, "18446744073709551615", "18446744073709551616"},
		{"int huge float64 rendering", maxKeys, "18446744073709552000", "18446744073709551616"},
		{"int 2^53+1 through float64", maxKeys, "9007199254740993", "9007199254740992"},
		{"int plus sign", maxKeys, "+54", "54"},
		// float
		{"float", ratio, "0.7", "0.7"},
		{"float trailing zero", ratio, "0.70", "0.7"},
		{"float integer", ratio, "1", "1"},
		{"float tiny (Go encoding/json form)", reserved, "0.0000001", "1e-7"},
		{"float tiny, exponent with zero", reserved, "1e-07", "1e-7"},
		{"float exponent", reserved, "1e-1", "0.1"},
		// enum
		{"enum exact", strategy, "moderate", "moderate"},
		{"enum case", strategy, "Conservative", "conservative"},
		{"enum ON/OFF from bool", partition, "1", "ON"},
		{"enum AUTO", partition, "auto", "AUTO"},
		// string
		{"string as is", logLevel, "info", "info"},
		// null: an unset TiKV Option in SHOW CONFIG
		{"null size", splitSize, "null", "null"},
		{"null duration", gcRun, "null", "null"},
		// list
		{"list spaces", skipTypes, "json, blob ,mediumtext", "json,blob,mediumtext"},
		{"list JSON array", labels, `["zone","rack","host"]`, "zone,rack,host"},
		{"list empty", labels, "", ""},
		{"list order kept", labels, "host,zone", "host,zone"},
		{"list not JSON is a comma list", labels, `["zone"`, `["zone"`},
		{"size EiB (PD go-units)", splitSize, "1EiB", "1152921504606846976"},
		{"TiKV duration truncated to microseconds", gcRun, "1500ns", "1µs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.e.Canonical(tt.in)
			if err != nil {
				t.Fatalf("Canonical(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Canonical(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCanonicalErrors(t *testing.T) {
	splitSize := mustConfig(t, "tikv", "coprocessor.region-split-size")
	mergeIntv := mustConfig(t, "pd", "schedule.split-merge-interval")
	mergeSize := mustConfig(t, "pd", "schedule.max-merge-region-size")
	ime := mustConfig(t, "tikv", "in-memory-engine.enable")
	ratio := mustConfig(t, "pd", "schedule.high-space-ratio")
	strategy := mustConfig(t, "tikv", "resource-control.priority-ctl-strategy")

	tests := []struct {
		name     string
		e        *Entry
		in       string
		contains string
	}{
		{"size word", splitSize, "big", `expected a size such as "256MiB"`},
		{"size unknown unit", splitSize, "256XiB", `expected a size such as "256MiB"`},
		{"size negative", splitSize, "-1MiB", "expected a size"},
		{"size empty", splitSize, "", "expected a size"},
		{"size overflow", splitSize, "99999999PiB", "expected a size"},
		{"size non-ASCII", splitSize, "256M\u00edB", "expected a size"},
		{"duration word", mergeIntv, "soon", `expected a duration such as "1h"`},
		{"duration no unit", mergeIntv, "10", "expected a duration"},
		{"duration negative", mergeIntv, "-1s", "expected a duration"},
		{"duration unknown unit", mergeIntv, "10y", "expected a duration"},
		{"duration overflow", mergeIntv, "999999999999d", "expected a duration"},
		{"bool yes", ime, "yes", `expected a boolean such as "false"`},
		{"int fraction", mergeSize, "54.5", `expected an integer such as "54" (unit: MiB)`},
		{"int word", mergeSize, "many", "expected an integer"},
		{"int hex", mergeSize, "0x10", "expected an integer"},
		{"float word", ratio, "high", "expected a number"},
		{"float NaN", ratio, "NaN", "expected a number"},
		{"float Inf", ratio, "Inf", "expected a number"},
		{"enum unknown", strategy, "fast", `one of "aggressive", "moderate", "conservative"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.e.Canonical(tt.in)
			if err == nil {
				t.Fatalf("Canonical(%q) = %q, want an error", tt.in, got)
			}
			var ve *ValueError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T is not a *ValueError", err)
			}
			if !strings.Contains(err.Error(), tt.contains) || !strings.HasPrefix(err.Error(), tt.e.Address()+": ") {
				t.Errorf("error %q: want prefix %q and to contain %q", err, tt.e.Address(), tt.contains)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		e        *Entry
		in       string
		contains string // "" = valid
	}{
		{"in range", mustVariable(t, "tidb_session_plan_cache_size"), "100", ""},
		{"range low", mustVariable(t, "tidb_session_plan_cache_size"), "0", `"0" is outside the documented range; expected an integer such as "100", in [1, 100000]`},
		{"range high", mustVariable(t, "tidb_session_plan_cache_size"), "100001", "outside the documented range"},
		{"range high exponent", mustVariable(t, "tidb_session_plan_cache_size"), "1e6", "outside the documented range"},
		{"open low bound", mustVariable(t, "tidb_auto_analyze_ratio"), "0", "in (0, 1]"},
		{"open low bound ok", mustVariable(t, "tidb_auto_analyze_ratio"), "0.5", ""},
		{"closed high bound ok", mustVariable(t, "tidb_auto_analyze_ratio"), "1", ""},
		{"at least", mustConfig(t, "tikv", "coprocessor.batch-split-limit"), "0", "at least 1"},
		{"duration range low", mustConfig(t, "tikv", "in-memory-engine.gc-run-interval"), "5s", "in [10s, 10m]"},
		{"duration range edge", mustConfig(t, "tikv", "in-memory-engine.gc-run-interval"), "10m0s", ""},
		{"duration at least", mustConfig(t, "tikv", "in-memory-engine.load-evict-interval"), "1m", "at least 2m"},
		{"float range", mustVariable(t, "tidb_instance_plan_cache_reserved_percentage"), "1.5", "in [0, 1]"},
		{"kind error", mustConfig(t, "tikv", "coprocessor.region-split-size"), "1h", `expected a size such as "256MiB"`},
		{"duration kind error", mustConfig(t, "pd", "schedule.max-store-down-time"), "30", `expected a duration such as "30m"`},
		{"read-only", mustVariable(t, "last_plan_from_cache"), "1", "read-only"},
		{"null not declarable", mustConfig(t, "tikv", "coprocessor.region-split-size"), "null", "unset value"},
		{"unbounded size", mustConfig(t, "tikv", "storage.block-cache.capacity"), "24GiB", ""},
		// The documented maximum as written (pingcap/docs-cn@release-8.5:system-variables.md,
		// [-1, 9223372036854775807]), not float64's 9223372036854776000.
		{"int64 maximum", mustVariable(t, "tidb_mem_quota_query"), "1GiB", "in [-1, 9223372036854775807]"},
		// An integer config key without a documented range still lives in a
		// field of at most 64 bits.
		{"config int beyond 64 bits", mustConfig(t, "tikv", "raftstore.store-pool-size"), "1e300", `"1e300" does not fit in 64 bits; expected an integer such as "2", in [-9223372036854775808, 18446744073709551615]`},
		{"config int beyond 64 bits negative", mustConfig(t, "pd", "schedule.leader-schedule-limit"), "-1e20", "does not fit in 64 bits"},
		{"config int spelt out", mustConfig(t, "tikv", "raftstore.store-pool-size"), "1" + strings.Repeat("0", 300), `"1e+300" does not fit in 64 bits`},
		{"config int at 64 bits", mustConfig(t, "tikv", "raftstore.store-pool-size"), "4", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.e.Check(tt.in)
			if tt.contains == "" {
				if err != nil {
					t.Fatalf("Check(%q): %v", tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.contains) {
				t.Fatalf("Check(%q) = %v, want an error containing %q", tt.in, err, tt.contains)
			}
		})
	}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		e    *Entry
		in   string
		want string
	}{
		{"TiKV size", mustConfig(t, "tikv", "coprocessor.region-split-size"), "268435456", "256MiB"},
		{"TiKV size GiB", mustConfig(t, "tikv", "coprocessor.region-split-size"), "1073741824", "1GiB"},
		{"TiKV size odd", mustConfig(t, "tikv", "coprocessor.region-split-size"), "1000", "1000B"},
		{"TiKV size zero", mustConfig(t, "tikv", "coprocessor.region-split-size"), "0", "0KiB"},
		{"TiKV size 4920MiB stays", mustConfig(t, "tikv", "in-memory-engine.evict-threshold"), "4920MiB", "4920MiB"},
		{"TiKV plain-bytes size", mustConfig(t, "tikv", "split.byte-threshold"), "30MiB", "31457280"},
		{"TiKV duration", mustConfig(t, "tikv", "in-memory-engine.gc-run-interval"), "3m0s", "3m"},
		{"TiKV duration day", mustConfig(t, "tikv", "raftstore.snap-gc-timeout"), "24h0m0s", "1d"},
		{"TiKV duration mixed", mustConfig(t, "tikv", "raftstore.snap-gc-timeout"), "1m30s", "1m30s"},
		{"TiKV duration ms", mustConfig(t, "tikv", "raftstore.snap-gc-timeout"), "0.5s", "500ms"},
		{"TiKV duration zero", mustConfig(t, "tikv", "in-memory-engine.cross-check-interval"), "0s", "0s"},
		{"PD duration", mustConfig(t, "pd", "schedule.split-merge-interval"), "1h", "1h0m0s"},
		{"PD duration ms", mustConfig(t, "pd", "schedule.patrol-region-interval"), "10ms", "10ms"},
		{"PD duration from TiKV day", mustConfig(t, "pd", "schedule.max-store-down-time"), "1d", "24h0m0s"},
		{"TiKV bool", mustConfig(t, "tikv", "in-memory-engine.enable"), "ON", "true"},
		{"sysvar bool", mustVariable(t, "tidb_enable_instance_plan_cache"), "true", "ON"},
		{"sysvar bool off", mustVariable(t, "tidb_enable_instance_plan_cache"), "0", "OFF"},
		{"sysvar size", mustVariable(t, "tidb_instance_plan_cache_max_size"), "2GiB", "2147483648"},
		{"int exponent", mustConfig(t, "tikv", "coprocessor.region-max-keys"), "1.44e+06", "1440000"},
		{"float", mustConfig(t, "pd", "schedule.high-space-ratio"), "0.70", "0.7"},
		{"unparseable unchanged", mustConfig(t, "tikv", "coprocessor.region-split-size"), "huge", "huge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.e.Render(tt.in)); diff != "" {
				t.Errorf("Render(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestRenderPDSize(t *testing.T) {
	// go-units BytesSize: "%.4g" in the largest binary unit.
	tests := map[uint64]string{268435456: "256MiB", 1610612736: "1.5GiB", 1000: "1000B", 0: "0B", 1234567: "1.177MiB"}
	for in, want := range tests {
		if got := upstream.PDByteSize(in); got != want {
			t.Errorf("upstream.PDByteSize(%d) = %q, want %q", in, got, want)
		}
	}
}

// TestSQLValue checks the literal per component
// (https://docs.pingcap.com/tidb/stable/sql-statement-set-config).
func TestSQLValue(t *testing.T) {
	tests := []struct {
		name string
		e    *Entry
		in   string
		want string
	}{
		{"TiKV size quoted", mustConfig(t, "tikv", "coprocessor.region-split-size"), "256MB", "'256MiB'"},
		{"TiKV size from bytes", mustConfig(t, "tikv", "coprocessor.region-split-size"), "268435456", "'256MiB'"},
		{"TiKV plain-bytes size unquoted", mustConfig(t, "tikv", "split.byte-threshold"), "30MiB", "31457280"},
		{"TiKV duration quoted TiKV form", mustConfig(t, "tikv", "in-memory-engine.gc-run-interval"), "3m0s", "'3m'"},
		{"TiKV bool keyword", mustConfig(t, "tikv", "coprocessor.split-region-on-table"), "ON", "TRUE"},
		{"TiKV bool false", mustConfig(t, "tikv", "coprocessor.split-region-on-table"), "0", "FALSE"},
		{"TiKV int unquoted", mustConfig(t, "tikv", "coprocessor.region-split-keys"), "2.56e+06", "2560000"},
		{"TiKV float", mustConfig(t, "tikv", "split.split-balance-score"), "0.80", "0.8"},
		{"TiKV enum quoted", mustConfig(t, "tikv", "resource-control.priority-ctl-strategy"), "Moderate", "'moderate'"},
		{"TiKV string quoted", mustConfig(t, "tikv", "log.level"), "info", "'info'"},
		{"PD int unquoted", mustConfig(t, "pd", "schedule.max-merge-region-size"), "54", "54"},
		{"PD string-bool quoted", mustConfig(t, "pd", "schedule.enable-cross-table-merge"), "ON", "'true'"},
		{"PD string-bool false", mustConfig(t, "pd", "replication.enable-placement-rules"), "false", "'false'"},
		{"PD plain bool keyword", mustConfig(t, "pd", "keyspace.wait-region-split"), "true", "TRUE"},
		{"PD ,string bool quoted", mustConfig(t, "pd", "pd-server.enable-gogc-tuner"), "true", "'true'"},
		{"PD duration Go form", mustConfig(t, "pd", "schedule.split-merge-interval"), "1h", "'1h0m0s'"},
		{"PD duration from day", mustConfig(t, "pd", "schedule.max-store-down-time"), "1d", "'24h0m0s'"},
		{"PD float unquoted", mustConfig(t, "pd", "schedule.low-space-ratio"), "0.8", "0.8"},
		{"PD list quoted", mustConfig(t, "pd", "replication.location-labels"), `["zone", "host"]`, "'zone,host'"},
		{"TiFlash proxy size", mustConfig(t, "tiflash", "raftstore-proxy.server.snap-io-max-bytes-per-sec"), "300MiB", "'300MiB'"},
		{"TiFlash prefix rule text", mustConfig(t, "tiflash", "raftstore-proxy.raftstore.foo"), "5", "'5'"},
		{"sysvar bool ON", mustVariable(t, "tidb_enable_instance_plan_cache"), "true", "ON"},
		{"sysvar bool OFF", mustVariable(t, "tidb_enable_instance_plan_cache"), "0", "OFF"},
		{"sysvar int", mustVariable(t, "tidb_session_plan_cache_size"), "50", "50"},
		{"sysvar size bytes", mustVariable(t, "tidb_instance_plan_cache_max_size"), "2GiB", "2147483648"},
		{"sysvar float", mustVariable(t, "tidb_instance_plan_cache_reserved_percentage"), "0.2", "0.2"},
		{"sysvar enum quoted", mustVariable(t, "tidb_hash_join_version"), "OPTIMIZED", "'optimized'"},
		{"sysvar string quoted", mustVariable(t, "tidb_scatter_region"), "table", "'table'"},
		{"sysvar duration quoted", mustVariable(t, "tidb_mpp_store_fail_ttl"), "0s", "'0s'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.e.SQLValue(tt.in)
			if err != nil {
				t.Fatalf("SQLValue(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SQLValue(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestSQLValueRejects(t *testing.T) {
	for _, tt := range []struct {
		e  *Entry
		in string
	}{
		{mustConfig(t, "pd", "schedule.max-merge-region-size"), "54'; DROP TABLE t; --"},
		{mustConfig(t, "tikv", "coprocessor.region-split-size"), "256MiB' OR '1"},
		{mustConfig(t, "tikv", "coprocessor.split-region-on-table"), "TRUE; SET GLOBAL x=1"},
		{mustVariable(t, "tidb_session_plan_cache_size"), "1 OR 1=1"},
		{mustVariable(t, "tidb_session_plan_cache_size"), "0"}, // out of range
		{mustVariable(t, "last_plan_from_cache"), "1"},         // read-only
	} {
		if got, err := tt.e.SQLValue(tt.in); err == nil {
			t.Errorf("%s: SQLValue(%q) = %q, want an error", tt.e.Address(), tt.in, got)
		}
	}
}

// TestSQLValueInjection: text values with quotes, backslashes and control
// characters stay inside exactly one string literal.
func TestSQLValueInjection(t *testing.T) {
	str := mustConfig(t, "tikv", "log.level")
	pdStr := mustConfig(t, "pd", "replication.isolation-level")
	variable := mustVariable(t, "tidb_slow_log_rules")
	proxy := mustConfig(t, "tiflash", "raftstore-proxy.x.y")
	for _, in := range []string{
		`info'; SET GLOBAL tidb_enable_resource_control = OFF; --`,
		`a\'b`,
		`\`,
		`'`,
		"line\nbreak\x00nul\x1a",
		`"double"`,
		"`backtick`",
	} {
		for _, e := range []*Entry{str, pdStr, variable, proxy} {
			got, err := e.SQLValue(in)
			if err != nil {
				t.Fatalf("%s: SQLValue(%q): %v", e.Address(), in, err)
			}
			if back, ok := unquoteSQL(got); !ok || back != in {
				t.Errorf("%s: SQLValue(%q) = %s: not one literal that reads back as the input (got %q, %v)", e.Address(), in, got, back, ok)
			}
		}
		for _, target := range []Target{TargetConfig, TargetVariable} {
			s := SettingFor(target, "pd", "uncatalogued.key")
			if got, err := s.SQLValue(in, "", KindString); err != nil || !isOneLiteral(got, in) {
				t.Errorf("uncatalogued %v SQLValue(%q) = %s, %v", target, in, got, err)
			}
		}
	}
}

func isOneLiteral(lit, want string) bool {
	back, ok := unquoteSQL(lit)
	return ok && back == want
}

// unquoteSQL reads a single-quoted MySQL string literal (doubled quotes,
// backslash escapes: the default sql_mode, which tiform's sessions run in) and
// reports whether lit is exactly one literal. quote's FuzzStringLiteral checks
// quote.String against the emulator's lexer in both modes.
func unquoteSQL(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
		return "", false
	}
	var b strings.Builder
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'') // a doubled quote is one quote
				i++
				continue
			}
			return "", false // a single quote would end the literal early
		case '\\':
			i++
			if i == len(s) {
				return "", false
			}
			switch s[i] {
			case '0':
				b.WriteByte(0)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 'Z':
				b.WriteByte(0x1a)
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func TestAdvise(t *testing.T) {
	e := mustConfig(t, "tikv", "coprocessor.region-split-size")
	for in, want := range map[string]string{
		"96MiB":  "",
		"256MiB": "",
		"48MiB":  "",
		"512MiB": "tikv.coprocessor.region-split-size: 512MiB (512MiB) is outside the recommended range [48MiB, 256MiB]: docs recommend",
		"256":    "tikv.coprocessor.region-split-size: 256 (256B) is outside the recommended range",
		"junk":   "",
	} {
		got := e.Advise(in)
		if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("Advise(%q) = %q, want prefix %q", in, got, want)
		}
	}
	if got := mustConfig(t, "tikv", "log.level").Advise("debug"); got != "" {
		t.Errorf("no advice configured, got %q", got)
	}
}

package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/upstream"
)

// TestSettingEqualUncatalogued: a setting the catalog does not know compares
// in the kind the component's rendering shows, on every rendering a
// component prints for that kind.
func TestSettingEqualUncatalogued(t *testing.T) {
	variable := SettingFor(TargetVariable, "", "tidb_newer_feature")
	tikv := SettingFor(TargetConfig, "tikv", "newer-feature.value")
	pd := SettingFor(TargetConfig, "pd", "schedule.newer-value")
	tests := []struct {
		name            string
		s               Setting
		value, rendered string
		want            bool
	}{
		// bool: SHOW VARIABLES prints ON/OFF, SELECT @@ prints 1/0, SHOW CONFIG true/false
		{"variable bool HCL true vs ON", variable, "true", "ON", true},
		{"variable bool HCL true vs SELECT 1", variable, "true", "1", true},
		{"variable bool ON vs SELECT 1 (stale check)", variable, "ON", "1", true},
		{"variable bool 1 vs ON", variable, "1", "ON", true},
		{"variable bool false vs OFF", variable, "false", "off", true},
		{"variable bool true vs OFF", variable, "true", "OFF", false},
		{"variable bool true vs 0", variable, "true", "0", false},
		{"tikv bool", tikv, "ON", "true", true},
		{"tikv bool differs", tikv, "true", "false", false},
		{"pd bool", pd, "1", "true", true},
		// sizes: TiKV ReadableSize, PD go-units, TiDB byte-size text, plain bytes
		{"tikv size", tikv, "512MB", "512MiB", true},
		{"tikv size bytes", tikv, "536870912", "512MiB", true},
		{"tikv size differs", tikv, "256MiB", "512MiB", false},
		{"tikv plain-bytes rendering", tikv, "1GiB", "1073741824", true},
		{"pd go-units size", pd, "1536MiB", "1.5GiB", true},
		{"pd go-units lossy size", pd, "1025MiB", "1.001GiB", true},
		{"variable byte-size text", variable, "1024MiB", "1GiB", true},
		{"variable size as bytes", variable, "1GiB", "1073741824", true},
		// durations: TiKV ReadableDuration, Go durations (PD, variables)
		{"tikv duration", tikv, "600s", "10m", true},
		{"tikv duration day", tikv, "24h", "1d", true},
		{"pd duration", pd, "1h", "1h0m0s", true},
		{"variable duration", variable, "10m", "10m0s", true},
		{"duration differs", variable, "10m", "20m0s", false},
		// numbers, including float64 renderings
		{"number exponent", tikv, "1440000", "1.44e+06", true},
		{"number fraction", pd, "0.80", "0.8", true},
		{"number differs", pd, "0.7", "0.8", false},
		// enums and text
		{"variable enum case", variable, "PESSIMISTIC", "pessimistic", true},
		{"variable enum ON/OFF/AUTO", variable, "AUTO", "ON", false},
		{"tikv text exact", tikv, "MVCC", "mvcc", false},
		{"tikv text", tikv, " mvcc ", "mvcc", true},
		{"list", pd, "zone, host", `["zone","host"]`, true},
		{"list order", pd, "host,zone", `["zone","host"]`, false},
		// an unset TiKV Option is not a value
		{"null", tikv, "true", "null", false},
		{"null null", tikv, "null", "null", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.s.Known() {
				t.Fatalf("%s is in the catalog; the test needs an unknown key", tt.s.Key)
			}
			if got := tt.s.Equal(tt.value, tt.rendered); got != tt.want {
				t.Errorf("Equal(%q, %q) = %v, want %v", tt.value, tt.rendered, got, tt.want)
			}
		})
	}
}

// TestSettingEqualCatalogued: a known setting compares through its entry,
// and text that does not parse compares as text.
func TestSettingEqualCatalogued(t *testing.T) {
	split := SettingFor(TargetConfig, "TiKV", "Coprocessor.Region-Split-Size")
	if !split.Known() || split.Key != "coprocessor.region-split-size" {
		t.Fatalf("SettingFor did not find the entry: %+v", split)
	}
	for _, tt := range []struct {
		value, rendered string
		want            bool
	}{
		{"256MB", "256MiB", true},
		{"268435456", "256MiB", true},
		{"96MiB", "256MiB", false},
		{"garbage", "garbage", true},
		{"garbage", "256MiB", false},
	} {
		if got := split.Equal(tt.value, tt.rendered); got != tt.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tt.value, tt.rendered, got, tt.want)
		}
	}
	ipc := SettingFor(TargetVariable, "tidb", "tidb_enable_instance_plan_cache")
	if !ipc.Equal("true", "ON") || !ipc.Equal("ON", "1") || ipc.Equal("true", "0") {
		t.Error("catalogued bool variable: ON, 1 and true are one value")
	}
}

// TestSettingSQLValueUncatalogued: the literal follows the kind read from the
// live rendering, or the HCL literal's kind when there is none, and each is
// one the component accepts (TiDB's checkBoolSystemVar takes ON/OFF/1/0, not
// 'true'; TiKV parses sizes and durations from strings; PD needs numbers
// unquoted and ,string booleans quoted).
func TestSettingSQLValueUncatalogued(t *testing.T) {
	variable := SettingFor(TargetVariable, "", "tidb_newer_feature")
	tikv := SettingFor(TargetConfig, "tikv", "newer-feature.value")
	pd := SettingFor(TargetConfig, "pd", "schedule.newer-value")
	tests := []struct {
		name           string
		s              Setting
		text, rendered string
		hint           Kind
		want           string
	}{
		{"variable bool from rendering", variable, "true", "OFF", KindString, "ON"},
		{"variable bool from SELECT rendering", variable, "false", "1", KindString, "OFF"},
		{"variable bool from HCL", variable, "true", "", KindBool, "ON"},
		{"variable enum", variable, "AUTO", "ON", KindString, "'AUTO'"},
		{"variable duration", variable, "20m", "10m0s", KindString, "'20m0s'"},
		{"variable number", variable, "200", "100", KindString, "200"},
		{"variable size in bytes", variable, "2GiB", "1GiB", KindString, "2147483648"},
		{"variable text", variable, "table", "", KindString, "'table'"},
		{"tikv size", tikv, "512MB", "256MiB", KindString, "'512MiB'"},
		{"tikv plain bytes", tikv, "1GiB", "1024", KindString, "1073741824"},
		{"tikv duration", tikv, "90s", "10m", KindString, "'1m30s'"},
		{"tikv bool", tikv, "ON", "false", KindString, "TRUE"},
		{"tikv enum", tikv, "raw", "mvcc", KindString, "'raw'"},
		{"tikv number from HCL", tikv, "42", "", KindFloat, "42"},
		{"pd bool quoted", pd, "true", "false", KindString, "'true'"},
		{"pd number unquoted", pd, "54", "20", KindString, "54"},
		{"pd duration", pd, "2h", "1h0m0s", KindString, "'2h0m0s'"},
		{"pd size exact", pd, "1025MiB", "1GiB", KindString, "'1025MiB'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.SQLValue(tt.text, tt.rendered, tt.hint)
			if err != nil {
				t.Fatalf("SQLValue: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SQLValue(%q, rendered %q) (-want +got):\n%s", tt.text, tt.rendered, diff)
			}
		})
	}
}

// TestRestoreSQL: a rendering read from the cluster is sent back as it was,
// outside the documented range too; "null" cannot be sent.
func TestRestoreSQL(t *testing.T) {
	tests := []struct {
		s        Setting
		rendered string
		want     string
		ok       bool
	}{
		{SettingFor(TargetVariable, "", "tidb_session_plan_cache_size"), "0", "0", true}, // below the documented range
		{SettingFor(TargetVariable, "", "tidb_enable_instance_plan_cache"), "OFF", "OFF", true},
		{SettingFor(TargetConfig, "tikv", "coprocessor.region-split-size"), "96MiB", "'96MiB'", true},
		{SettingFor(TargetConfig, "tikv", "coprocessor.region-split-size"), "null", "", false},
		{SettingFor(TargetConfig, "tikv", "newer-feature.value"), "10m", "'10m'", true},
		{SettingFor(TargetVariable, "", "tidb_newer_feature"), "ON", "ON", true},
		{SettingFor(TargetConfig, "pd", "schedule.newer-value"), "it's", `'it''s'`, true},
	}
	for _, tt := range tests {
		got, ok := tt.s.RestoreSQL(tt.rendered)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s RestoreSQL(%q) = %q, %v; want %q, %v", tt.s.Key, tt.rendered, got, ok, tt.want, tt.ok)
		}
	}
}

// TestPDSizePrecision: sizes PD shows alike are one value, and rounding is a
// fixed point.
func TestPDSizePrecision(t *testing.T) {
	for in, want := range map[uint64]string{
		0:           "0B",
		1023:        "1023B",
		1025 << 20:  "1.001GiB",
		2047:        "1.999KiB",
		1536 << 20:  "1.5GiB",
		256 << 20:   "256MiB",
		1<<64 - 1:   "16EiB",
		123456789:   "117.7MiB",
		10000 << 30: "9.766TiB",
	} {
		r := pdSizePrecision(in)
		if got := upstream.PDByteSize(r); got != want {
			t.Errorf("upstream.PDByteSize(pdSizePrecision(%d) = %d) = %q, want %q", in, r, got, want)
		}
		if again := pdSizePrecision(r); again != r {
			t.Errorf("pdSizePrecision(%d) = %d, then %d: not a fixed point", in, r, again)
		}
	}
}

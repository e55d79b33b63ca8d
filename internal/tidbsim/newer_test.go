package tidbsim

import (
	"strings"
	"testing"
)

// newerOptions is a cluster with settings of a newer release of every type.
func newerOptions() Options {
	return Options{TiKV: 2,
		NewerVariables: []NewerVariable{
			{Name: "tidb_newer_switch", Type: "bool", Default: "ON"},
			{Name: "tidb_newer_mode", Type: "enum", Possible: []string{"OFF", "ON", "AUTO"}, Default: "ON"},
			{Name: "tidb_newer_timeout", Type: "duration", Default: "10m"},
			{Name: "tidb_newer_quota", Type: "unsigned", Default: "1024"},
		},
		NewerConfig: []NewerConfigItem{
			{Type: "tikv", Name: "newer-feature.cache-size", Kind: "size", Default: "64MiB"},
			{Type: "tikv", Name: "newer-feature.tick", Kind: "duration", Default: "1m"},
			{Type: "tikv", Name: "newer-feature.enable", Kind: "bool", Default: "false"},
			{Type: "tikv", Name: "newer-feature.mode", Kind: "enum", Enum: []string{"fast", "safe"}, Default: "safe"},
			{Type: "pd", Name: "schedule.newer-switch", Kind: "bool", Default: "false"},
			{Type: "pd", Name: "schedule.newer-interval", Kind: "duration", Default: "30m"},
		},
	}
}

// TestNewerSettings: settings of a newer release render, parse and validate
// exactly like the modelled settings of their type.
func TestNewerSettings(t *testing.T) {
	srv := startServer(t, newerOptions())
	db := openDB(t, srv)
	runSteps(t, db, []sqlStep{
		// variables: SHOW VARIABLES prints ON/OFF and Go durations, SELECT @@ prints booleans as 1/0
		{sql: "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_newer_switch', 'tidb_newer_mode', 'tidb_newer_timeout', 'tidb_newer_quota')",
			rows: [][]string{{"tidb_newer_mode", "ON"}, {"tidb_newer_quota", "1024"}, {"tidb_newer_switch", "ON"}, {"tidb_newer_timeout", "10m0s"}}},
		{sql: "SELECT @@GLOBAL.tidb_newer_switch", rows: [][]string{{"1"}}},
		{sql: "SET GLOBAL tidb_newer_switch = 'true'", errCode: 1231, errMsg: "Variable 'tidb_newer_switch' can't be set to the value of 'true'"},
		{sql: "SET GLOBAL tidb_newer_switch = OFF"},
		{sql: "SELECT @@GLOBAL.tidb_newer_switch", rows: [][]string{{"0"}}},
		{sql: "SET GLOBAL tidb_newer_mode = 'auto'"},
		{sql: "SET GLOBAL tidb_newer_timeout = '1h'"},
		{sql: "SHOW GLOBAL VARIABLES LIKE 'tidb_newer_%'",
			rows: [][]string{{"tidb_newer_mode", "AUTO"}, {"tidb_newer_quota", "1024"}, {"tidb_newer_switch", "OFF"}, {"tidb_newer_timeout", "1h0m0s"}}},
		// TiKV: ReadableSize / ReadableDuration, parsed from strings; bools only true/false
		{sql: "SELECT INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'tikv' AND `KEY` LIKE 'newer-feature.%' AND INSTANCE = '127.0.0.1:20160'",
			rows: [][]string{{"127.0.0.1:20160", "newer-feature.cache-size", "64MiB"}, {"127.0.0.1:20160", "newer-feature.enable", "false"},
				{"127.0.0.1:20160", "newer-feature.mode", "safe"}, {"127.0.0.1:20160", "newer-feature.tick", "1m"}}},
		{sql: "SET CONFIG tikv `newer-feature.cache-size` = '512MB'", warnings: [][]string{}},
		{sql: "SET CONFIG tikv `newer-feature.tick` = '90s'", warnings: [][]string{}},
		{sql: "SET CONFIG tikv `newer-feature.mode` = 'FAST'", warnings: [][]string{
			{"Warning", "1105", `bad request to http://127.0.0.1:20180/config: failed to update, error: "failed to parse: FAST"`},
			{"Warning", "1105", `bad request to http://127.0.0.1:20181/config: failed to update, error: "failed to parse: FAST"`}}},
		{sql: "SELECT DISTINCT `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = 'tikv' AND `KEY` IN ('newer-feature.cache-size', 'newer-feature.tick', 'newer-feature.mode')",
			rows: [][]string{{"newer-feature.cache-size", "512MiB"}, {"newer-feature.mode", "safe"}, {"newer-feature.tick", "1m30s"}}},
		// PD: a ,string bool needs a quoted value; durations print in Go form
		{sql: "SET CONFIG pd `schedule.newer-switch` = TRUE", warnings: [][]string{
			{"Warning", "1105", "bad request to http://127.0.0.1:2379/pd/api/v1/config: \"json: invalid use of ,string struct tag, trying to unmarshal unquoted value into bool\"\n"}}},
		{sql: "SET CONFIG pd `schedule.newer-switch` = 'true'", warnings: [][]string{}},
		{sql: "SHOW CONFIG WHERE type = 'pd' AND name LIKE 'schedule.newer-%'",
			rows: [][]string{{"pd", "127.0.0.1:2379", "schedule.newer-interval", "30m0s"}, {"pd", "127.0.0.1:2379", "schedule.newer-switch", "true"}}},
	})
}

// TestNewerSettingsRejected: a newer setting must be new, typed and have a
// valid default.
func TestNewerSettingsRejected(t *testing.T) {
	for name, o := range map[string]Options{
		"modelled variable":   {NewerVariables: []NewerVariable{{Name: "tidb_gc_life_time", Type: "duration", Default: "10m"}}},
		"unknown type":        {NewerVariables: []NewerVariable{{Name: "tidb_x", Type: "list", Default: "a"}}},
		"bad default":         {NewerVariables: []NewerVariable{{Name: "tidb_x", Type: "bool", Default: "maybe"}}},
		"enum without values": {NewerVariables: []NewerVariable{{Name: "tidb_x", Type: "enum", Default: "a"}}},
		"modelled item":       {NewerConfig: []NewerConfigItem{{Type: "tikv", Name: "coprocessor.region-split-size", Kind: "size", Default: "96MiB"}}},
		"pd size":             {NewerConfig: []NewerConfigItem{{Type: "pd", Name: "schedule.x", Kind: "size", Default: "1MiB"}}},
		"tidb item":           {NewerConfig: []NewerConfigItem{{Type: "tidb", Name: "x", Kind: "string", Default: "a"}}},
		"bad item default":    {NewerConfig: []NewerConfigItem{{Type: "tikv", Name: "x.y", Kind: "duration", Default: "10"}}},
		"tiflash non-proxy":   {NewerConfig: []NewerConfigItem{{Type: "tiflash", Name: "x.y", Kind: "int", Default: "1"}}},
	} {
		if srv, err := Start(o); err == nil {
			srv.Close()
			t.Errorf("%s: Start accepted %+v", name, o)
		} else if !strings.Contains(err.Error(), "newer") {
			t.Errorf("%s: error %q does not say which newer setting", name, err)
		}
	}
}

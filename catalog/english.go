package catalog

import "strings"

// English for the text the generated table carries from the Chinese
// documentation. The table's system-variable facts are read from
// pingcap/docs-cn (tools/catalogen), so a unit or a computed default arrives
// in Chinese ("毫秒", "（随系统）"); every message tiform prints is English.
// Each entry gives the English of the English documentation where it has
// the same line (https://docs.pingcap.com/tidb/stable/system-variables, the
// pingcap/docs counterpart of docs-cn's system-variables.md), with the
// variable it was checked on. A text the table does not have is shown as
// it is, and TestNoChineseInEntries fails until it is added here.

// englishText is one translation and where its English comes from.
type englishText struct {
	text   string
	source string
}

// docsCNUnits are the unit words of docs-cn's "单位：" lines; the English
// docs write "Unit: Milliseconds" and so on.
var docsCNUnits = map[string]englishText{
	"毫秒": {"milliseconds", "https://docs.pingcap.com/tidb/stable/system-variables#tidb_slow_log_threshold (Unit: Milliseconds)"},
	"秒":  {"seconds", "https://docs.pingcap.com/tidb/stable/system-variables#innodb_lock_wait_timeout (Unit: Seconds)"},
	"行":  {"rows", "https://docs.pingcap.com/tidb/stable/system-variables#tidb_dml_batch_size (Unit: Rows)"},
	"线程": {"threads", "https://docs.pingcap.com/tidb/stable/system-variables#tidb_executor_concurrency (Unit: Threads)"},
	"天":  {"days", "https://docs.pingcap.com/tidb/stable/system-variables#tidb_stmt_summary_file_max_days-new-in-v810 (Unit: Days)"},
}

// docsCNPhrases are whole texts: computed defaults the docs describe in
// words ("默认值：…") and the generator's notes that quote the docs.
var docsCNPhrases = map[string]englishText{
	"使用的组件和部署方式不同，默认值也不同。": {
		"it depends on the components used and the deployment method",
		"https://docs.pingcap.com/tidb/stable/system-variables#datadir"},
	"（系统主机名）": {"(the system hostname)", "https://docs.pingcap.com/tidb/stable/system-variables#hostname"},
	"（随系统）":   {"(system dependent)", "https://docs.pingcap.com/tidb/stable/system-variables#system_time_zone"},
	"当配置项 [`pessimistic-txn.constraint-check-in-place-pessimistic`](/tidb-configuration-file.md#constraint-check-in-place-pessimistic-从-v640-版本开始引入) 为默认值 `true` 时，该变量的默认值为 `ON`。当配置项 [`pessimistic-txn.constraint-check-in-place-pessimistic`](/tidb-configuration-file.md#constraint-check-in-place-pessimistic-从-v640-版本开始引入) 为 `false` 时，该变量的默认值为 `OFF`。": {
		"ON when the TiDB configuration item pessimistic-txn.constraint-check-in-place-pessimistic is true (its default), OFF when it is false",
		"https://docs.pingcap.com/tidb/stable/system-variables#tidb_constraint_check_in_place_pessimistic-new-in-v630"},
	"对于 TiDB v6.5.0，默认值为 `ON`；对于 v6.5.1 以及之后的 v6.5.x 版本，默认值为 `OFF`。": {
		"ON for TiDB v6.5.0; OFF for v6.5.1 and later v6.5.x versions",
		"https://docs.pingcap.com/tidb/v6.5/system-variables#tidb_enable_telemetry-new-in-v402"},
	`an integer number of bytes the docs say may be written with a unit ("带单位")`: {
		"an integer number of bytes the docs say may be written with a unit (such as 128MiB)",
		"https://docs.pingcap.com/tidb/stable/system-variables#tidb_server_memory_limit_sess_min_size-new-in-v640"},
}

// englishUnit is the English of a unit the table states ("毫秒" →
// "milliseconds"); units already in English are kept.
func englishUnit(u string) string {
	if t, ok := docsCNUnits[strings.TrimSpace(u)]; ok {
		return t.text
	}
	return u
}

// english is the English of a text the table carries from the docs; a text
// with no entry is returned as it is.
func english(s string) string {
	if t, ok := docsCNPhrases[s]; ok {
		return t.text
	}
	return s
}

// hasCJK reports whether s holds a CJK ideograph, kana, hangul or a
// full-width form: text no user of tiform's English output should see.
func hasCJK(s string) bool {
	for _, r := range s {
		switch {
		case r >= 0x2E80 && r <= 0x9FFF, // CJK radicals, punctuation, kana, ideographs
			r >= 0xAC00 && r <= 0xD7AF, // hangul
			r >= 0xF900 && r <= 0xFAFF, // compatibility ideographs
			r >= 0xFF00 && r <= 0xFFEF: // full-width forms
			return true
		}
	}
	return false
}

// HasCJK reports whether s holds Chinese, Japanese or Korean text (tests of
// every output use it).
func HasCJK(s string) bool { return hasCJK(s) }

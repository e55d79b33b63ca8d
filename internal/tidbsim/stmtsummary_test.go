package tidbsim

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Statement summary tables (stmtsummary.go).

var stmtClock = time.Date(2026, 11, 30, 9, 10, 0, 0, time.UTC)

func stmtOptions(ver string, stats ...StatementStat) Options {
	return Options{Version: ver, StatementsSummary: stats, Now: func() time.Time { return stmtClock }}
}

func pointSelect(windows ...int) StatementStat {
	return StatementStat{WindowsAgo: windows, Columns: map[string]any{
		"DIGEST_TEXT": "select * from `t` where `id` = ?", "SCHEMA_NAME": "test", "TABLE_NAMES": "test.t",
		"SAMPLE_USER": "app", "EXEC_COUNT": 10, "SUM_LATENCY": 5000000, "PLAN_CACHE_HITS": 9,
		"PLAN_CACHE_UNQUALIFIED": 1, "PLAN_CACHE_UNQUALIFIED_LAST_REASON": "query has 'limit ?' is un-cacheable",
	}}
}

// The column set follows the TiDB version: PLAN_CACHE_UNQUALIFIED from
// v8.2.0, AVG_TIDB_CPU_TIME from v8.4.0, STORAGE_KV from v8.5.5.
func TestStatementsSummaryColumnsByVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ver                       string
		unqualified, cpu, storage bool
	}{
		{"v7.5.1", false, false, false},
		{"v8.1.2", false, false, false},
		{"v8.2.0", true, false, false},
		{"v8.5.1", true, true, false},
		{"v8.5.5", true, true, true},
	} {
		srv := startServer(t, stmtOptions(tc.ver, pointSelect(0)))
		db := openDB(t, srv)
		rows, err := db.Query("SELECT * FROM information_schema.statements_summary")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		rows.Close()
		has := func(name string) bool {
			for _, c := range cols {
				if c == name {
					return true
				}
			}
			return false
		}
		if has("PLAN_CACHE_UNQUALIFIED") != tc.unqualified || has("PLAN_CACHE_UNQUALIFIED_LAST_REASON") != tc.unqualified ||
			has("AVG_TIDB_CPU_TIME") != tc.cpu || has("STORAGE_KV") != tc.storage {
			t.Errorf("%s: columns %v", tc.ver, cols)
		}
		if cols[0] != "SUMMARY_BEGIN_TIME" || !has("AVG_ROCKSDB_DELETE_SKIPPED_COUNT") || !has("PREPARED") {
			t.Errorf("%s: columns %v", tc.ver, cols)
		}
		_, err = queryRowsErr(db, "SELECT PLAN_CACHE_UNQUALIFIED FROM information_schema.statements_summary")
		if (err == nil) != tc.unqualified {
			t.Errorf("%s: selecting PLAN_CACHE_UNQUALIFIED: %v", tc.ver, err)
		} else if err != nil && mysqlErr(t, err).Number != 1054 {
			t.Errorf("%s: %v, want 1054", tc.ver, err)
		}
	}
}

// Windows begin at a multiple of the refresh interval; STATEMENTS_SUMMARY
// shows the current one, the history every kept window including it.
func TestStatementsSummaryWindows(t *testing.T) {
	t.Parallel()
	srv := startServer(t, stmtOptions("v8.5.1", pointSelect(0, 1, 30)))
	db := openDB(t, srv)
	q := "SELECT SUMMARY_BEGIN_TIME, SUMMARY_END_TIME, EXEC_COUNT, AVG_LATENCY, PLAN_CACHE_UNQUALIFIED_LAST_REASON, DIGEST FROM information_schema.%s"
	cur := queryRows(t, db, strings.Replace(q, "%s", "statements_summary", 1))
	sum := sha256.Sum256([]byte("select * from `t` where `id` = ?"))
	digest := hex.EncodeToString(sum[:])
	want := [][]string{{"2026-11-30 09:00:00", "2026-11-30 09:30:00", "10", "500000", "query has 'limit ?' is un-cacheable", digest}}
	if d := cmp.Diff(want, cur); d != "" {
		t.Errorf("current window (-want +got):\n%s", d)
	}
	hist := queryRows(t, db, strings.Replace(q, "%s", "statements_summary_history", 1)+" ORDER BY SUMMARY_BEGIN_TIME")
	var begins []string
	for _, r := range hist {
		begins = append(begins, r[0])
	}
	// window 30 is beyond tidb_stmt_summary_history_size (24): not kept
	if d := cmp.Diff([]string{"2026-11-30 08:30:00", "2026-11-30 09:00:00"}, begins); d != "" {
		t.Errorf("history windows (-want +got):\n%s", d)
	}
}

// The CLUSTER_ variants add INSTANCE and gather every TiDB instance; the
// plain tables show the connected instance only.
func TestClusterStatementsSummary(t *testing.T) {
	t.Parallel()
	second := pointSelect(0)
	second.Instance = 1
	o := stmtOptions("v8.5.1", pointSelect(0), second)
	o.TiDB = 2
	srv := startServer(t, o)
	db := openDB(t, srv)
	rows := queryRows(t, db, "SELECT INSTANCE, EXEC_COUNT FROM information_schema.cluster_statements_summary_history ORDER BY INSTANCE")
	tidbs := srv.Cluster.InstancesOf(TypeTiDB)
	want := [][]string{{tidbs[0].Address, "10"}, {tidbs[1].Address, "10"}}
	if tidbs[0].Address > tidbs[1].Address {
		want[0], want[1] = want[1], want[0]
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if n := len(queryRows(t, db, "SELECT EXEC_COUNT FROM information_schema.statements_summary_history")); n != 1 {
		t.Errorf("local history shows %d rows, want the connected instance's 1", n)
	}
}

// Without PROCESS a user sees only the statements they ran.
func TestStatementsSummaryNeedsProcessForOthers(t *testing.T) {
	t.Parallel()
	mine := pointSelect(0)
	mine.Columns = map[string]any{"DIGEST_TEXT": "select ?", "SAMPLE_USER": "reader", "EXEC_COUNT": 1}
	o := stmtOptions("v8.5.1", pointSelect(0), mine)
	o.SQL = []string{SeedCreateUser("reader", "%", "pw", "")}
	srv := startServer(t, o)
	got := queryRows(t, openDBAs(t, srv, "reader", "pw"), "SELECT SAMPLE_USER FROM information_schema.cluster_statements_summary")
	if d := cmp.Diff([][]string{{"reader"}}, got); d != "" {
		t.Errorf("without PROCESS (-want +got):\n%s", d)
	}
	if n := len(queryRows(t, openDB(t, srv), "SELECT SAMPLE_USER FROM information_schema.cluster_statements_summary")); n != 2 {
		t.Errorf("root sees %d rows, want 2", n)
	}
}

// A v8.1 cluster drops a seeded column v8.1 lacks; a name no version has is
// refused at start, as are derived columns and impossible values.
func TestStatementStatValidation(t *testing.T) {
	t.Parallel()
	srv := startServer(t, stmtOptions("v8.1.2", pointSelect(0)))
	if n := len(queryRows(t, openDB(t, srv), "SELECT EXEC_COUNT FROM information_schema.statements_summary")); n != 1 {
		t.Errorf("v8.1: %d rows", n)
	}
	bad := []struct {
		name string
		st   StatementStat
		want string
	}{
		{"unknown column", StatementStat{Columns: map[string]any{"DIGEST_TEXT": "x", "EXEC_CNT": 1}}, `"EXEC_CNT" is not a statement summary column`},
		{"derived", StatementStat{Columns: map[string]any{"DIGEST_TEXT": "x", "SUMMARY_BEGIN_TIME": "2026-01-01 00:00:00"}}, "derived from the window"},
		{"no text", StatementStat{Columns: map[string]any{"EXEC_COUNT": 1}}, "DIGEST_TEXT"},
		{"type", StatementStat{Columns: map[string]any{"DIGEST_TEXT": "x", "EXEC_COUNT": "many"}}, "want a number"},
		{"negative", StatementStat{Columns: map[string]any{"DIGEST_TEXT": "x", "AVG_TOTAL_KEYS": -1}}, "negative"},
		{"fraction", StatementStat{Columns: map[string]any{"DIGEST_TEXT": "x", "EXEC_COUNT": 1.5}}, "want an integer"},
		{"zero executions", StatementStat{Columns: map[string]any{"DIGEST_TEXT": "x", "EXEC_COUNT": 0}}, "at least 1"},
		{"instance", StatementStat{Instance: 3, Columns: map[string]any{"DIGEST_TEXT": "x"}}, "instance 3"},
		{"window", StatementStat{WindowsAgo: []int{-1}, Columns: map[string]any{"DIGEST_TEXT": "x"}}, "windows_ago -1"},
	}
	for _, tc := range bad {
		_, err := Start(stmtOptions("v8.5.1", tc.st))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// tidb_enable_stmt_summary, the refresh interval and the history size come
// from the variable store when it models them, else TiDB's defaults; the
// time functions run on the cluster's clock.
func TestStatementsSummaryTimeFunctions(t *testing.T) {
	t.Parallel()
	srv := startServer(t, stmtOptions("v8.5.1", pointSelect(0, 1, 2)))
	db := openDB(t, srv)
	got := queryRows(t, db, "SELECT NOW(), UNIX_TIMESTAMP(), FROM_UNIXTIME(UNIX_TIMESTAMP() - 3600), UNIX_TIMESTAMP('2026-11-30 09:00:00'), FROM_UNIXTIME(-1)")
	want := [][]string{{"2026-11-30 09:10:00", "1796029800", "2026-11-30 08:10:00", "1796029200", "NULL"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	rows := queryRows(t, db, "SELECT COUNT(*) FROM information_schema.statements_summary_history WHERE SUMMARY_END_TIME > FROM_UNIXTIME(UNIX_TIMESTAMP() - 3600)")
	if d := cmp.Diff([][]string{{"3"}}, rows); d != "" { // ending 09:30, 09:00 and 08:30
		t.Errorf("windows ending in the last hour (-want +got):\n%s", d)
	}
}

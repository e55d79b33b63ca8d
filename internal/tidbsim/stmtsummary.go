package tidbsim

import (
	"strconv"
	"sync"
	"time"

	"github.com/tiform/tiform/version"
)

// INFORMATION_SCHEMA.STATEMENTS_SUMMARY, STATEMENTS_SUMMARY_HISTORY and their
// CLUSTER_ variants, served from seeded statistics (Options.StatementsSummary,
// seed "statements_summary"). How TiDB fills them
// (https://docs.pingcap.com/tidb/stable/statement-summary-tables and
// pingcap/tidb pkg/util/stmtsummary):
//
//   - Statistics are aggregated per window of tidb_stmt_summary_refresh_interval
//     seconds (default 1800). A window begins at a multiple of the interval
//     since the Unix epoch (statement_summary.go: "beginTimeForCurInterval is a
//     multiple of intervalSeconds") and SUMMARY_END_TIME = begin + interval.
//   - STATEMENTS_SUMMARY shows the current window only (getStmtByDigestRow
//     skips elements older than beginTimeForCurInterval).
//   - STATEMENTS_SUMMARY_HISTORY shows every window kept, the current one
//     included (collectHistorySummaries walks the whole history list, whose
//     last element is the current window; v2 with persistence: "history table
//     should return all rows including mem and disk"), at most
//     tidb_stmt_summary_history_size (default 24) per statement.
//   - Both are per TiDB instance; CLUSTER_STATEMENTS_SUMMARY[_HISTORY] add
//     INSTANCE and gather every TiDB instance's rows.
//   - A user without the PROCESS privilege sees only the statements they ran
//     (stmtSummaryReader.isAuthed; here: SAMPLE_USER is the executing user).
//   - tidb_enable_stmt_summary = OFF empties the tables (docs: "statement
//     summary 关闭后，系统表里的数据会被清空").
//
// Not modelled: eviction (tidb_stmt_summary_max_stmt_count and the
// "other" row), a down TiDB instance behind the CLUSTER_ tables.

func init() {
	for _, t := range []struct {
		name             string
		history, cluster bool
	}{
		{"statements_summary", false, false},
		{"statements_summary_history", true, false},
		{"cluster_statements_summary", false, true},
		{"cluster_statements_summary_history", true, true},
	} {
		t := t
		RegisterTable(&Table{
			Schema: "information_schema", Name: t.name,
			ColumnsFor: func(s *Session) []Column { return stmtTableColumns(s, t.cluster) },
			Rows: func(s *Session, _ *Filter) ([][]Value, error) {
				return stmtTableRows(s, t.history, t.cluster), nil
			},
		})
	}
}

// Statement summary settings and their TiDB defaults
// (https://docs.pingcap.com/tidb/stable/statement-summary-tables, 参数配置).
const (
	defaultRefreshInterval = 1800
	defaultHistorySize     = 24
)

func stmtTableColumns(s *Session, cluster bool) []Column {
	key := stmtTableKey{s.Instance.Version, cluster}
	stmtTableColumnsCache.RLock()
	out, ok := stmtTableColumnsCache.m[key]
	stmtTableColumnsCache.RUnlock()
	if ok {
		return out
	}
	if cluster {
		out = append(out, Column{Name: "INSTANCE"})
	}
	for _, c := range stmtColumnsFor(s.Instance.Version) {
		out = append(out, c.column())
	}
	stmtTableColumnsCache.Lock()
	defer stmtTableColumnsCache.Unlock()
	stmtTableColumnsCache.m[key] = out
	return out
}

// stmtTableKey names a statement summary table's column set: the TiDB
// version, and whether it is a CLUSTER_ table (an INSTANCE column first).
type stmtTableKey struct {
	ver     version.Version
	cluster bool
}

// stmtTableColumnsCache holds stmtTableColumns's answers, built once per key;
// the slices are shared, read-only.
var stmtTableColumnsCache = struct {
	sync.RWMutex
	m map[stmtTableKey][]Column
}{m: map[stmtTableKey][]Column{}}

// stmtSettings reads the statement summary variables through the variable
// store; a variable the store does not model keeps TiDB's default.
func stmtSettings(s *Session) (enabled bool, interval, history int64) {
	enabled, interval, history = true, defaultRefreshInterval, defaultHistorySize
	store := clusterVars(s.Cluster)
	t := varTarget(s)
	if v, err := store.GlobalValue(t, "tidb_enable_stmt_summary"); err == nil {
		enabled = v != "OFF" && v != "0"
	}
	if v, err := store.GlobalValue(t, "tidb_stmt_summary_refresh_interval"); err == nil {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			interval = n
		}
	}
	if v, err := store.GlobalValue(t, "tidb_stmt_summary_history_size"); err == nil {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			history = n
		}
	}
	return enabled, interval, history
}

// stmtTableRows returns the rows session s sees: the current window only, or
// every kept window (history); its own instance or all (cluster).
func stmtTableRows(s *Session, history, cluster bool) [][]Value {
	c := s.Cluster
	enabled, interval, keep := stmtSettings(s)
	if !enabled {
		return nil
	}
	if keep < 1 {
		keep = 1 // "Even if history is set to 0, current summary is still needed."
	}
	now := c.Now()
	cur := now.Unix() / interval * interval
	cols := stmtColumnsFor(s.Instance.Version)
	tidbs := c.InstancesOf(TypeTiDB)
	seeAll := s.HasPrivilege("PROCESS")
	var rows [][]Value
	for _, st := range c.opts.StatementsSummary {
		in := tidbs[st.Instance]
		if !cluster && in != s.Instance {
			continue
		}
		if !seeAll {
			if u, _ := lookupColumn(st.Columns, "SAMPLE_USER"); u != s.User {
				continue
			}
		}
		windows := st.WindowsAgo
		if len(windows) == 0 {
			windows = []int{0}
		}
		for _, k := range windows {
			if (!history && k != 0) || int64(k) >= keep {
				continue
			}
			begin := time.Unix(cur-int64(k)*interval, 0)
			w := stmtWindow{Begin: begin, End: begin.Add(time.Duration(interval) * time.Second)}
			rows = append(rows, st.materialize(cols, w, now, in.Address, cluster))
		}
	}
	return rows
}

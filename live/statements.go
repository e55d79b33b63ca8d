package live

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/workload"
)

// Statement statistics: the read behind `tiform check plan-cache`, `tiform
// check mvcc` and a plan's evidence. One SELECT on
// INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY, then SHOW WARNINGS:
//
//   - the history table holds every kept window, the current one included
//     (https://docs.pingcap.com/tidb/stable/statement-summary-tables; pingcap/tidb
//     pkg/util/stmtsummary collectHistorySummaries), so STATEMENTS_SUMMARY is
//     not read as well: its rows would be counted twice;
//   - the CLUSTER_ variant gathers every TiDB instance; where it is hidden
//     (1142/1146: TiDB Cloud, Security Enhanced Mode) the connected TiDB's own
//     STATEMENTS_SUMMARY_HISTORY is read instead and the sample says so;
//   - bounded: windows that ended within Query.Since (server clock), grouped
//     per digest in the server, at most Query.Limit rows (+1 to detect that
//     more exist);
//   - PLAN_CACHE_UNQUALIFIED and its last reason exist from TiDB v8.2.0
//     (pingcap/tidb#52725): older versions get the same read without them.
//
// Every statement is a read; nothing in it comes from user input but two
// integers.

// Statement summary tables.
const (
	tableClusterStmtHistory = "INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY"
	tableStmtHistory        = "INFORMATION_SCHEMA.STATEMENTS_SUMMARY_HISTORY"
)

// statementColumns describes what a read selects for a TiDB version.
type statementColumns struct {
	unqualified bool // PLAN_CACHE_UNQUALIFIED, PLAN_CACHE_UNQUALIFIED_LAST_REASON (v8.2.0+)
	rocksdb     bool // AVG_ROCKSDB_*_SKIPPED_COUNT (v5.0.0+)
}

func columnsFor(v version.Version) statementColumns {
	return statementColumns{unqualified: v.PlanCacheUnqualified(), rocksdb: v.AtLeast(5, 0, 0)}
}

// StatementsQuery returns the SELECT that reads q from table for a TiDB
// whose statement summary has cols. Aliases never repeat a column name, so
// ORDER BY names the aggregate.
func statementsQuery(table string, q workload.Query, cols statementColumns) string {
	sel := []string{
		"DIGEST", "MAX(DIGEST_TEXT) AS STMT_TEXT", "MAX(SCHEMA_NAME) AS STMT_SCHEMA", "MAX(TABLE_NAMES) AS STMT_TABLES",
		"MAX(STMT_TYPE) AS STMT_KIND", "MAX(SAMPLE_USER) AS STMT_USER", "PREPARED",
	}
	group := "DIGEST, PREPARED"
	if cols.unqualified {
		sel = append(sel, "PLAN_CACHE_UNQUALIFIED_LAST_REASON")
		group += ", PLAN_CACHE_UNQUALIFIED_LAST_REASON"
	}
	sel = append(sel, "SUM(EXEC_COUNT) AS EXECUTIONS", "SUM(SUM_LATENCY) AS TOTAL_LATENCY",
		"SUM(EXEC_COUNT * AVG_COMPILE_LATENCY) AS TOTAL_COMPILE", "SUM(PLAN_CACHE_HITS) AS CACHE_HITS")
	if cols.unqualified {
		sel = append(sel, "SUM(PLAN_CACHE_UNQUALIFIED) AS UNQUALIFIED")
	}
	sel = append(sel, "MAX("+pointPlan+") AS POINT_PLAN", "MAX(MAX_PARSE_LATENCY) AS MAX_PARSE", "SUM(SUM_COP_TASK_NUM) AS COP_TASKS")
	sel = append(sel, "SUM(EXEC_COUNT * AVG_TOTAL_KEYS) AS SCANNED_KEYS", "SUM(EXEC_COUNT * AVG_PROCESSED_KEYS) AS KEPT_KEYS")
	if cols.rocksdb {
		sel = append(sel, "SUM(EXEC_COUNT * AVG_ROCKSDB_DELETE_SKIPPED_COUNT) AS DELETE_SKIPPED",
			"SUM(EXEC_COUNT * AVG_ROCKSDB_KEY_SKIPPED_COUNT) AS KEY_SKIPPED")
	}
	sel = append(sel, "UNIX_TIMESTAMP(MIN(SUMMARY_BEGIN_TIME)) AS FIRST_BEGIN", "UNIX_TIMESTAMP(MAX(SUMMARY_END_TIME)) AS LAST_END")
	order := "TOTAL_LATENCY"
	if q.Order == workload.ByScannedKeys {
		order = "SCANNED_KEYS"
	}
	return fmt.Sprintf("SELECT %s FROM %s WHERE SUMMARY_END_TIME > FROM_UNIXTIME(UNIX_TIMESTAMP() - %d) GROUP BY %s ORDER BY %s DESC, DIGEST LIMIT %d",
		strings.Join(sel, ", "), table, int64(q.Since/time.Second), group, order, q.Limit+1)
}

// pointPlan is true for a PLAN (the decoded plan text: a header line, then
// one line per operator, "\t" + tree prefix + operator ID) whose root is
// Point_Get or Batch_Point_Get, or an UPDATE or DELETE whose only child is
// one: the plans TiDB builds without the optimizer
// (pingcap/tidb@e4e814fdc0af:pkg/planner/core/point_get_plan.go,
// TryFastPlan). The root's line has no tree prefix; a child's starts "└─".
// The literals hold a newline and a tab as they are, and "!" escapes "_" in
// the patterns (LIKE … ESCAPE '!'): the statement holds no backslash, so it
// means the same whatever NO_BACKSLASH_ESCAPES says and costs no sql_mode
// check (session.go).
const pointPlan = "(PLAN LIKE '%\n\tPoint!_Get!_%' ESCAPE '!' OR PLAN LIKE '%\n\tBatch!_Point!_Get!_%' ESCAPE '!' OR " +
	"((PLAN LIKE '%\n\tUpdate!_%' ESCAPE '!' OR PLAN LIKE '%\n\tDelete!_%' ESCAPE '!') AND " +
	"(PLAN LIKE '%\n\t└─Point!_Get!_%' ESCAPE '!' OR PLAN LIKE '%\n\t└─Batch!_Point!_Get!_%' ESCAPE '!') AND PLAN NOT LIKE '%\n\t  └─%'))"

// StatementsRequest is what ReadStatements reads.
type StatementsRequest struct {
	Query workload.Query
	// Variables also reads the variables a report shows (the plan-cache
	// switches and sizes, the statement-summary settings, tidb_gc_life_time)
	// in one statement first, for a caller whose inspection did not read
	// them (a plan reads only the declared variables).
	Variables bool
	// User is the account reading (the DSN's user), "" when unknown: when
	// every statement read is its own, it lacks PROCESS and the sample says so.
	User string
}

// evidenceVariables are the variables StatementsRequest.Variables reads.
func evidenceVariables() []string {
	return append(append([]string(nil), workload.ReportedVariables...), workload.VarGCLifeTime)
}

// StatementsStatements returns the statements ReadStatements sends for req
// on l's cluster when the cluster table is readable (docs/inspection.md).
func StatementsStatements(l *state.Live, req StatementsRequest) []string {
	var out []string
	if req.Variables {
		out = append(out, variablesQuery(Request{Variables: evidenceVariables()}.variableNames()), stmtWarnings)
	}
	return append(out, statementsQuery(tableClusterStmtHistory, req.Query, columnsFor(statementsVersion(l))), stmtWarnings)
}

// statementsVersion is the version whose columns the read selects: the
// connected TiDB's (the CLUSTER_ table has its columns), else the lowest
// TiDB version, else VERSION().
func statementsVersion(l *state.Live) version.Version {
	for _, in := range l.Instances {
		if in.Component == state.TiDB && in.Address == l.ConnectedInstance && !in.Version.IsZero() {
			return in.Version
		}
	}
	if v, ok := l.MinVersion(state.TiDB); ok {
		return v
	}
	return l.ServerVersionParsed
}

// StatementReader reads statement statistics from a cluster already
// inspected (Live gives the version and, unless Variables is set, the
// variables reported with them).
type StatementReader struct {
	DB        *sql.DB
	Live      *state.Live
	Variables bool
	User      string
}

// ReadStatements implements workload.Reader.
func (r StatementReader) ReadStatements(ctx context.Context, q workload.Query) (*workload.Sample, error) {
	return ReadStatements(ctx, r.DB, r.Live, StatementsRequest{Query: q, Variables: r.Variables, User: r.User})
}

// ReadStatements reads the statement statistics req asks for (see the top
// of this file). An error means nothing could be read.
func ReadStatements(ctx context.Context, db *sql.DB, l *state.Live, req StatementsRequest) (*workload.Sample, error) {
	q := req.Query
	if err := q.Validate(); err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, Explain(err, OpConnect, "")
	}
	defer conn.Close()
	ver := statementsVersion(l)
	cols := columnsFor(ver)
	in := &inspector{conn: conn, l: &state.Live{}}
	vars := l.Variables
	if req.Variables {
		if err := in.readVariables(ctx, variablesQuery(Request{Variables: evidenceVariables()}.variableNames())); err != nil {
			return nil, err
		}
		vars = in.l.Variables
	}
	s := &workload.Sample{Source: tableClusterStmtHistory, ClusterWide: true, Query: q, Version: ver.Short(),
		Unqualified: cols.unqualified, RocksDB: cols.rocksdb, Variables: reportedVariables(vars)}
	for _, g := range in.l.Gaps {
		s.Notes = append(s.Notes, g.Reason)
	}
	if ver.IsZero() {
		s.Version = ""
		s.Notes = append(s.Notes, "the TiDB version is unknown: PLAN_CACHE_UNQUALIFIED (v8.2.0+) was not read")
	}
	t, err := in.query(ctx, OpReadStatements, statementsQuery(s.Source, q, cols))
	if err != nil && hidden(err) {
		s.Source, s.ClusterWide = tableStmtHistory, false
		s.Notes = append(s.Notes, fmt.Sprintf("%s is not visible (%s): only the connected TiDB instance's statements were read", tableClusterStmtHistory, err))
		t, err = in.query(ctx, OpReadStatements, statementsQuery(s.Source, q, cols))
	}
	if err != nil {
		return nil, err
	}
	if err := fillSample(s, t, q.Limit); err != nil {
		return nil, err
	}
	ws, err := in.warnings(ctx, "statement statistics")
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if serious(w) {
			s.Notes = append(s.Notes, "reading the statement statistics reported "+w.String()+": a TiDB instance's statements may be missing")
		}
	}
	if len(s.Users) == 1 && req.User != "" && s.Users[0] == req.User {
		s.Notes = append(s.Notes, fmt.Sprintf("every statement read was run by %q, the account tiform reads with: either nothing else ran in the window, or the account lacks the PROCESS privilege, without which it sees only its own statements (grant PROCESS to see the workload)", req.User))
	}
	if s.Variables[workload.VarStmtSummary] != "" && !isOnText(s.Variables[workload.VarStmtSummary]) {
		s.Notes = append(s.Notes, "tidb_enable_stmt_summary is OFF: TiDB records no statement statistics")
	}
	return s, nil
}

// reportedVariables copies the variables a report shows.
func reportedVariables(vars map[string]string) map[string]string {
	out := map[string]string{}
	for _, name := range evidenceVariables() {
		if v, ok := vars[name]; ok {
			out[name] = v
		}
	}
	return out
}

func isOnText(v string) bool {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "ON", "1", "TRUE":
		return true
	}
	return false
}

// MaxStatementText bounds a statement's text in every report: TiDB keeps
// at most tidb_stmt_summary_max_sql_length bytes of it (default 4096,
// https://docs.pingcap.com/tidb/stable/system-variables#tidb_stmt_summary_max_sql_length-new-in-v40),
// and a report of Query.Limit statements stays a few MiB whatever a server
// sends.
const MaxStatementText = 4096

// fillSample turns the result rows into Statements, keeping at most limit.
func fillSample(s *workload.Sample, t *table, limit int) error {
	idx := map[string]int{}
	for i, c := range t.cols {
		idx[strings.ToUpper(c)] = i
	}
	get := func(r []*string, name string) string {
		if i, ok := idx[name]; ok {
			return str(r, i)
		}
		return ""
	}
	num := func(r []*string, name string) (float64, error) {
		v := get(r, name)
		if v == "" {
			return 0, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("live: statement statistics: column %s: %q is not a number", name, v)
		}
		return f, nil
	}
	rows := t.rows
	if len(rows) > limit {
		rows, s.Truncated = rows[:limit], true
		s.Notes = append(s.Notes, fmt.Sprintf("the cluster has more than %d statement shapes in the window: the figures cover the %d kept (%s)", limit, limit, orderText(s.Query.Order)))
	}
	users := map[string]bool{}
	var first, last float64
	for _, r := range rows {
		st := workload.Statement{Digest: get(r, "DIGEST"), Text: Clip(get(r, "STMT_TEXT"), MaxStatementText), Schema: get(r, "STMT_SCHEMA"),
			Tables: workload.SplitTables(get(r, "STMT_TABLES")), Type: get(r, "STMT_KIND"), Prepared: truthyCell(get(r, "PREPARED"))}
		vals := map[string]float64{}
		for _, name := range []string{"EXECUTIONS", "TOTAL_LATENCY", "TOTAL_COMPILE", "CACHE_HITS", "UNQUALIFIED", "POINT_PLAN", "MAX_PARSE", "COP_TASKS",
			"SCANNED_KEYS", "KEPT_KEYS", "DELETE_SKIPPED", "KEY_SKIPPED", "FIRST_BEGIN", "LAST_END"} {
			f, err := num(r, name)
			if err != nil {
				return err
			}
			vals[name] = f
		}
		st.Executions, st.CacheHits, st.Unqualified = int64(vals["EXECUTIONS"]), int64(vals["CACHE_HITS"]), int64(vals["UNQUALIFIED"])
		st.Latency, st.CompileTime = time.Duration(vals["TOTAL_LATENCY"]), time.Duration(vals["TOTAL_COMPILE"])
		st.TotalKeys, st.ProcessedKeys = vals["SCANNED_KEYS"], vals["KEPT_KEYS"]
		st.DeleteSkipped, st.KeySkipped = vals["DELETE_SKIPPED"], vals["KEY_SKIPPED"]
		st.PointPlan, st.TextProtocol, st.CopTasks = vals["POINT_PLAN"] > 0, vals["MAX_PARSE"] > 0, int64(vals["COP_TASKS"])
		if reason := get(r, "PLAN_CACHE_UNQUALIFIED_LAST_REASON"); reason != "" && st.Unqualified > 0 {
			st.Reasons = map[string]int64{reason: st.Unqualified}
		}
		if u := get(r, "STMT_USER"); u != "" {
			users[u] = true
		}
		if f := vals["FIRST_BEGIN"]; f > 0 && (first == 0 || f < first) {
			first = f
		}
		if l := vals["LAST_END"]; l > last {
			last = l
		}
		s.Statements = append(s.Statements, st)
	}
	for u := range users {
		s.Users = append(s.Users, u)
	}
	sort.Strings(s.Users)
	if first > 0 {
		s.From = time.Unix(int64(first), 0).UTC()
	}
	if last > 0 {
		s.To = time.Unix(int64(last), 0).UTC()
	}
	return nil
}

func truthyCell(v string) bool { return v == "1" || strings.EqualFold(v, "true") }

func orderText(o workload.Order) string {
	if o == workload.ByScannedKeys {
		return "those that scanned most MVCC versions"
	}
	return "those with the most statement time"
}

package tidbsim

import (
	"strings"
	"sync"

	"github.com/tiform/tiform/version"
)

// The columns of INFORMATION_SCHEMA.STATEMENTS_SUMMARY and
// STATEMENTS_SUMMARY_HISTORY, in TiDB's order, with the type DESC shows and
// the first version that has the column. Sources:
//   - names, order, types and nullability: tableStatementsSummaryCols in
//     pingcap/tidb pkg/infoschema/tables.go (the v8.5 list);
//   - presence by version: the field lists of docs
//     https://docs.pingcap.com/tidb/stable/statement-summary-tables at
//     release-7.5, release-8.1 and release-8.5 (identical for 7.5 and 8.1);
//     PLAN_CACHE_UNQUALIFIED / _LAST_REASON from v8.2.0 (pingcap/tidb#52725,
//     renamed by #54218, issue #50618); AVG_TIDB_CPU_TIME / AVG_TIKV_CPU_TIME
//     from v8.4.0 (pingcap/tidb#55542, docs PR pingcap/docs#21113 for 8.4 and
//     8.5); STORAGE_KV / STORAGE_MPP from v8.5.5 (docs, release-8.5: "从 v8.5.5
//     开始引入"; their tinyint(1) type is derived from their yes/no meaning,
//     not read from the source).
//
// The CLUSTER_ variants put INSTANCE (varchar(64)) first
// (ClusterTableInstanceColumnNameStr in pkg/util/stmtsummary/reader.go).

type stmtColumn struct {
	Name     string
	SQLType  string
	Nullable bool
	Since    version.Version // zero: in every modelled version
}

func sinceV(major, minor, patch int) version.Version {
	return version.Version{Major: major, Minor: minor, Patch: patch}
}

var stmtSummaryColumns = []stmtColumn{
	{"SUMMARY_BEGIN_TIME", "timestamp", false, version.Version{}},
	{"SUMMARY_END_TIME", "timestamp", false, version.Version{}},
	{"STMT_TYPE", "varchar(64)", false, version.Version{}},
	{"SCHEMA_NAME", "varchar(64)", true, version.Version{}},
	{"DIGEST", "varchar(64)", true, version.Version{}},
	{"DIGEST_TEXT", "text", false, version.Version{}},
	{"TABLE_NAMES", "text", true, version.Version{}},
	{"INDEX_NAMES", "text", true, version.Version{}},
	{"SAMPLE_USER", "varchar(64)", true, version.Version{}},
	{"EXEC_COUNT", "bigint unsigned", false, version.Version{}},
	{"SUM_ERRORS", "int unsigned", false, version.Version{}},
	{"SUM_WARNINGS", "int unsigned", false, version.Version{}},
	{"SUM_LATENCY", "bigint unsigned", false, version.Version{}},
	{"MAX_LATENCY", "bigint unsigned", false, version.Version{}},
	{"MIN_LATENCY", "bigint unsigned", false, version.Version{}},
	{"AVG_LATENCY", "bigint unsigned", false, version.Version{}},
	{"AVG_PARSE_LATENCY", "bigint unsigned", false, version.Version{}},
	{"MAX_PARSE_LATENCY", "bigint unsigned", false, version.Version{}},
	{"AVG_COMPILE_LATENCY", "bigint unsigned", false, version.Version{}},
	{"MAX_COMPILE_LATENCY", "bigint unsigned", false, version.Version{}},
	{"SUM_COP_TASK_NUM", "bigint unsigned", false, version.Version{}},
	{"MAX_COP_PROCESS_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_COP_PROCESS_ADDRESS", "varchar(256)", true, version.Version{}},
	{"MAX_COP_WAIT_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_COP_WAIT_ADDRESS", "varchar(256)", true, version.Version{}},
	{"AVG_PROCESS_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_PROCESS_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_WAIT_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_WAIT_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_BACKOFF_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_BACKOFF_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_TOTAL_KEYS", "bigint unsigned", false, version.Version{}},
	{"MAX_TOTAL_KEYS", "bigint unsigned", false, version.Version{}},
	{"AVG_PROCESSED_KEYS", "bigint unsigned", false, version.Version{}},
	{"MAX_PROCESSED_KEYS", "bigint unsigned", false, version.Version{}},
	{"AVG_ROCKSDB_DELETE_SKIPPED_COUNT", "double unsigned", false, version.Version{}},
	{"MAX_ROCKSDB_DELETE_SKIPPED_COUNT", "int unsigned", false, version.Version{}},
	{"AVG_ROCKSDB_KEY_SKIPPED_COUNT", "double unsigned", false, version.Version{}},
	{"MAX_ROCKSDB_KEY_SKIPPED_COUNT", "int unsigned", false, version.Version{}},
	{"AVG_ROCKSDB_BLOCK_CACHE_HIT_COUNT", "double unsigned", false, version.Version{}},
	{"MAX_ROCKSDB_BLOCK_CACHE_HIT_COUNT", "int unsigned", false, version.Version{}},
	{"AVG_ROCKSDB_BLOCK_READ_COUNT", "double unsigned", false, version.Version{}},
	{"MAX_ROCKSDB_BLOCK_READ_COUNT", "int unsigned", false, version.Version{}},
	{"AVG_ROCKSDB_BLOCK_READ_BYTE", "double unsigned", false, version.Version{}},
	{"MAX_ROCKSDB_BLOCK_READ_BYTE", "int unsigned", false, version.Version{}},
	{"AVG_PREWRITE_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_PREWRITE_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_COMMIT_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_COMMIT_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_GET_COMMIT_TS_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_GET_COMMIT_TS_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_COMMIT_BACKOFF_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_COMMIT_BACKOFF_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_RESOLVE_LOCK_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_RESOLVE_LOCK_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_LOCAL_LATCH_WAIT_TIME", "bigint unsigned", false, version.Version{}},
	{"MAX_LOCAL_LATCH_WAIT_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_WRITE_KEYS", "double unsigned", false, version.Version{}},
	{"MAX_WRITE_KEYS", "bigint unsigned", false, version.Version{}},
	{"AVG_WRITE_SIZE", "double unsigned", false, version.Version{}},
	{"MAX_WRITE_SIZE", "bigint unsigned", false, version.Version{}},
	{"AVG_PREWRITE_REGIONS", "double unsigned", false, version.Version{}},
	{"MAX_PREWRITE_REGIONS", "int unsigned", false, version.Version{}},
	{"AVG_TXN_RETRY", "double unsigned", false, version.Version{}},
	{"MAX_TXN_RETRY", "int unsigned", false, version.Version{}},
	{"SUM_EXEC_RETRY", "bigint unsigned", false, version.Version{}},
	{"SUM_EXEC_RETRY_TIME", "bigint unsigned", false, version.Version{}},
	{"SUM_BACKOFF_TIMES", "bigint unsigned", false, version.Version{}},
	{"BACKOFF_TYPES", "varchar(1024)", true, version.Version{}},
	{"AVG_MEM", "bigint unsigned", false, version.Version{}},
	{"MAX_MEM", "bigint unsigned", false, version.Version{}},
	{"AVG_DISK", "bigint unsigned", false, version.Version{}},
	{"MAX_DISK", "bigint unsigned", false, version.Version{}},
	{"AVG_KV_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_PD_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_BACKOFF_TOTAL_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_WRITE_SQL_RESP_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_TIDB_CPU_TIME", "bigint unsigned", false, sinceV(8, 4, 0)},
	{"AVG_TIKV_CPU_TIME", "bigint unsigned", false, sinceV(8, 4, 0)},
	{"MAX_RESULT_ROWS", "bigint", false, version.Version{}},
	{"MIN_RESULT_ROWS", "bigint", false, version.Version{}},
	{"AVG_RESULT_ROWS", "bigint", false, version.Version{}},
	{"PREPARED", "tinyint(1)", false, version.Version{}},
	{"AVG_AFFECTED_ROWS", "double unsigned", false, version.Version{}},
	{"FIRST_SEEN", "timestamp", false, version.Version{}},
	{"LAST_SEEN", "timestamp", false, version.Version{}},
	{"PLAN_IN_CACHE", "tinyint(1)", false, version.Version{}},
	{"PLAN_CACHE_HITS", "bigint", false, version.Version{}},
	{"PLAN_IN_BINDING", "tinyint(1)", false, version.Version{}},
	{"QUERY_SAMPLE_TEXT", "text", true, version.Version{}},
	{"PREV_SAMPLE_TEXT", "text", true, version.Version{}},
	{"PLAN_DIGEST", "varchar(64)", true, version.Version{}},
	{"PLAN", "text", true, version.Version{}},
	{"BINARY_PLAN", "text", true, version.Version{}},
	{"CHARSET", "varchar(64)", true, version.Version{}},
	{"COLLATION", "varchar(64)", true, version.Version{}},
	{"PLAN_HINT", "varchar(64)", true, version.Version{}},
	{"MAX_REQUEST_UNIT_READ", "double unsigned", false, version.Version{}},
	{"AVG_REQUEST_UNIT_READ", "double unsigned", false, version.Version{}},
	{"MAX_REQUEST_UNIT_WRITE", "double unsigned", false, version.Version{}},
	{"AVG_REQUEST_UNIT_WRITE", "double unsigned", false, version.Version{}},
	{"MAX_QUEUED_RC_TIME", "bigint unsigned", false, version.Version{}},
	{"AVG_QUEUED_RC_TIME", "bigint unsigned", false, version.Version{}},
	{"RESOURCE_GROUP", "varchar(64)", true, version.Version{}},
	{"PLAN_CACHE_UNQUALIFIED", "bigint", false, sinceV(8, 2, 0)},
	{"PLAN_CACHE_UNQUALIFIED_LAST_REASON", "text", true, sinceV(8, 2, 0)},
	{"STORAGE_KV", "tinyint(1)", false, sinceV(8, 5, 5)},
	{"STORAGE_MPP", "tinyint(1)", false, sinceV(8, 5, 5)},
}

// stmtColumnsFor returns the columns the tables have on TiDB version ver,
// computed once per version (the slice is shared: read-only).
func stmtColumnsFor(ver version.Version) []stmtColumn {
	if cols, ok := stmtColumnsCache.Load(ver); ok {
		return cols.([]stmtColumn)
	}
	var out []stmtColumn
	for _, c := range stmtSummaryColumns {
		if c.Since.IsZero() || ver.Compare(c.Since) >= 0 {
			out = append(out, c)
		}
	}
	stmtColumnsCache.Store(ver, out)
	return out
}

// stmtColumnsCache maps a version.Version to its stmtColumnsFor.
var stmtColumnsCache sync.Map

// stmtColumnKnown reports whether name is a statement summary column of any
// modelled version.
func stmtColumnKnown(name string) (stmtColumn, bool) {
	for _, c := range stmtSummaryColumns {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return stmtColumn{}, false
}

// wireType is the result-set type the column is sent with.
func (c stmtColumn) wireType() ColumnType {
	switch {
	case strings.HasPrefix(c.SQLType, "double"):
		return ColDouble
	case strings.HasPrefix(c.SQLType, "bigint"), strings.HasPrefix(c.SQLType, "int"), strings.HasPrefix(c.SQLType, "tinyint"):
		return ColBigInt
	}
	return ColVarchar
}

// numeric reports whether the column holds a number.
func (c stmtColumn) numeric() bool { return c.wireType() != ColVarchar }

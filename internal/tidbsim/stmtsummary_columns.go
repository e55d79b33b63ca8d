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
	// Until, when set, is the first version that no longer has the column.
	Until version.Version
}

func sinceV(major, minor, patch int) version.Version {
	return version.Version{Major: major, Minor: minor, Patch: patch}
}

var stmtSummaryColumns = []stmtColumn{
	{Name: "SUMMARY_BEGIN_TIME", SQLType: "timestamp"},
	{Name: "SUMMARY_END_TIME", SQLType: "timestamp"},
	{Name: "STMT_TYPE", SQLType: "varchar(64)"},
	{Name: "SCHEMA_NAME", SQLType: "varchar(64)", Nullable: true},
	{Name: "DIGEST", SQLType: "varchar(64)", Nullable: true},
	{Name: "DIGEST_TEXT", SQLType: "text"},
	{Name: "TABLE_NAMES", SQLType: "text", Nullable: true},
	{Name: "INDEX_NAMES", SQLType: "text", Nullable: true},
	{Name: "SAMPLE_USER", SQLType: "varchar(64)", Nullable: true},
	{Name: "EXEC_COUNT", SQLType: "bigint unsigned"},
	{Name: "SUM_ERRORS", SQLType: "int unsigned"},
	{Name: "SUM_WARNINGS", SQLType: "int unsigned"},
	{Name: "SUM_LATENCY", SQLType: "bigint unsigned"},
	{Name: "MAX_LATENCY", SQLType: "bigint unsigned"},
	{Name: "MIN_LATENCY", SQLType: "bigint unsigned"},
	{Name: "AVG_LATENCY", SQLType: "bigint unsigned"},
	{Name: "AVG_PARSE_LATENCY", SQLType: "bigint unsigned"},
	{Name: "MAX_PARSE_LATENCY", SQLType: "bigint unsigned"},
	{Name: "AVG_COMPILE_LATENCY", SQLType: "bigint unsigned"},
	{Name: "MAX_COMPILE_LATENCY", SQLType: "bigint unsigned"},
	{Name: "SUM_COP_TASK_NUM", SQLType: "bigint unsigned"},
	{Name: "MAX_COP_PROCESS_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_COP_PROCESS_ADDRESS", SQLType: "varchar(256)", Nullable: true},
	{Name: "MAX_COP_WAIT_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_COP_WAIT_ADDRESS", SQLType: "varchar(256)", Nullable: true},
	{Name: "AVG_PROCESS_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_PROCESS_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_WAIT_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_WAIT_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_BACKOFF_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_BACKOFF_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_TOTAL_KEYS", SQLType: "bigint unsigned"},
	{Name: "MAX_TOTAL_KEYS", SQLType: "bigint unsigned"},
	{Name: "AVG_PROCESSED_KEYS", SQLType: "bigint unsigned"},
	{Name: "MAX_PROCESSED_KEYS", SQLType: "bigint unsigned"},
	{Name: "AVG_ROCKSDB_DELETE_SKIPPED_COUNT", SQLType: "double unsigned"},
	{Name: "MAX_ROCKSDB_DELETE_SKIPPED_COUNT", SQLType: "int unsigned"},
	{Name: "AVG_ROCKSDB_KEY_SKIPPED_COUNT", SQLType: "double unsigned"},
	{Name: "MAX_ROCKSDB_KEY_SKIPPED_COUNT", SQLType: "int unsigned"},
	{Name: "AVG_ROCKSDB_BLOCK_CACHE_HIT_COUNT", SQLType: "double unsigned"},
	{Name: "MAX_ROCKSDB_BLOCK_CACHE_HIT_COUNT", SQLType: "int unsigned"},
	{Name: "AVG_ROCKSDB_BLOCK_READ_COUNT", SQLType: "double unsigned"},
	{Name: "MAX_ROCKSDB_BLOCK_READ_COUNT", SQLType: "int unsigned"},
	{Name: "AVG_ROCKSDB_BLOCK_READ_BYTE", SQLType: "double unsigned"},
	{Name: "MAX_ROCKSDB_BLOCK_READ_BYTE", SQLType: "int unsigned"},
	{Name: "AVG_PREWRITE_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_PREWRITE_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_COMMIT_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_COMMIT_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_GET_COMMIT_TS_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_GET_COMMIT_TS_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_COMMIT_BACKOFF_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_COMMIT_BACKOFF_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_RESOLVE_LOCK_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_RESOLVE_LOCK_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_LOCAL_LATCH_WAIT_TIME", SQLType: "bigint unsigned"},
	{Name: "MAX_LOCAL_LATCH_WAIT_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_WRITE_KEYS", SQLType: "double unsigned"},
	{Name: "MAX_WRITE_KEYS", SQLType: "bigint unsigned"},
	{Name: "AVG_WRITE_SIZE", SQLType: "double unsigned"},
	{Name: "MAX_WRITE_SIZE", SQLType: "bigint unsigned"},
	{Name: "AVG_PREWRITE_REGIONS", SQLType: "double unsigned"},
	{Name: "MAX_PREWRITE_REGIONS", SQLType: "int unsigned"},
	{Name: "AVG_TXN_RETRY", SQLType: "double unsigned"},
	{Name: "MAX_TXN_RETRY", SQLType: "int unsigned"},
	{Name: "SUM_EXEC_RETRY", SQLType: "bigint unsigned"},
	{Name: "SUM_EXEC_RETRY_TIME", SQLType: "bigint unsigned"},
	{Name: "SUM_BACKOFF_TIMES", SQLType: "bigint unsigned"},
	{Name: "BACKOFF_TYPES", SQLType: "varchar(1024)", Nullable: true},
	{Name: "AVG_MEM", SQLType: "bigint unsigned"},
	{Name: "MAX_MEM", SQLType: "bigint unsigned"},
	{Name: "AVG_DISK", SQLType: "bigint unsigned"},
	{Name: "MAX_DISK", SQLType: "bigint unsigned"},
	{Name: "AVG_KV_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_PD_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_BACKOFF_TOTAL_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_WRITE_SQL_RESP_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_TIDB_CPU_TIME", SQLType: "bigint unsigned", Since: sinceV(8, 4, 0)},
	{Name: "AVG_TIKV_CPU_TIME", SQLType: "bigint unsigned", Since: sinceV(8, 4, 0)},
	{Name: "MAX_RESULT_ROWS", SQLType: "bigint"},
	{Name: "MIN_RESULT_ROWS", SQLType: "bigint"},
	{Name: "AVG_RESULT_ROWS", SQLType: "bigint"},
	{Name: "PREPARED", SQLType: "tinyint(1)"},
	{Name: "AVG_AFFECTED_ROWS", SQLType: "double unsigned"},
	{Name: "FIRST_SEEN", SQLType: "timestamp"},
	{Name: "LAST_SEEN", SQLType: "timestamp"},
	{Name: "PLAN_IN_CACHE", SQLType: "tinyint(1)"},
	{Name: "PLAN_CACHE_HITS", SQLType: "bigint"},
	{Name: "PLAN_IN_BINDING", SQLType: "tinyint(1)"},
	{Name: "QUERY_SAMPLE_TEXT", SQLType: "text", Nullable: true},
	{Name: "PREV_SAMPLE_TEXT", SQLType: "text", Nullable: true},
	{Name: "PLAN_DIGEST", SQLType: "varchar(64)", Nullable: true},
	{Name: "PLAN", SQLType: "text", Nullable: true},
	{Name: "BINARY_PLAN", SQLType: "text", Nullable: true},
	{Name: "CHARSET", SQLType: "varchar(64)", Nullable: true},
	{Name: "COLLATION", SQLType: "varchar(64)", Nullable: true},
	{Name: "PLAN_HINT", SQLType: "varchar(64)", Nullable: true},
	{Name: "MAX_REQUEST_UNIT_READ", SQLType: "double unsigned"},
	{Name: "AVG_REQUEST_UNIT_READ", SQLType: "double unsigned"},
	{Name: "MAX_REQUEST_UNIT_WRITE", SQLType: "double unsigned"},
	{Name: "AVG_REQUEST_UNIT_WRITE", SQLType: "double unsigned"},
	{Name: "MAX_QUEUED_RC_TIME", SQLType: "bigint unsigned"},
	{Name: "AVG_QUEUED_RC_TIME", SQLType: "bigint unsigned"},
	{Name: "RESOURCE_GROUP", SQLType: "varchar(64)", Nullable: true},
	{Name: "PLAN_CACHE_UNQUALIFIED", SQLType: "bigint", Since: sinceV(8, 2, 0)},
	{Name: "PLAN_CACHE_UNQUALIFIED_LAST_REASON", SQLType: "text", Nullable: true, Since: sinceV(8, 2, 0)},
	// on the 8.5 line only: master of 2025-11-26 has neither
	// (pingcap/tidb@e4e814fdc0af:pkg/infoschema/tables.go
	// tableStatementsSummaryCols ends with PLAN_CACHE_UNQUALIFIED_LAST_REASON)
	{Name: "STORAGE_KV", SQLType: "tinyint(1)", Since: sinceV(8, 5, 5), Until: sinceV(8, 6, 0)},
	{Name: "STORAGE_MPP", SQLType: "tinyint(1)", Since: sinceV(8, 5, 5), Until: sinceV(8, 6, 0)},
}

// stmtColumnsFor returns the columns the tables have on TiDB version ver,
// computed once per version (the slice is shared: read-only).
func stmtColumnsFor(ver version.Version) []stmtColumn {
	if cols, ok := stmtColumnsCache.Load(ver); ok {
		return cols.([]stmtColumn)
	}
	var out []stmtColumn
	for _, c := range stmtSummaryColumns {
		if (c.Since.IsZero() || ver.Compare(c.Since) >= 0) && (c.Until.IsZero() || ver.Compare(c.Until) < 0) {
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

// column is the result column TiDB sends for it: its type and NOT NULL
// flag (tableStatementsSummaryCols).
func (c stmtColumn) column() Column {
	col := Column{Name: c.Name, NotNull: !c.Nullable}
	switch t := c.SQLType; {
	case t == "timestamp":
		col.Type = ColTimestamp
	case t == "text":
		col.Type = ColText
	case t == "bigint unsigned":
		col.Type = ColUnsignedBigInt
	case t == "int unsigned":
		col.Type = ColUnsignedInt
	case t == "bigint":
		col.Type = ColBigInt
	case t == "tinyint(1)":
		col.Type = ColTinyInt
	case strings.HasPrefix(t, "double"):
		col.Type = ColDouble
	}
	return col
}

// numeric reports whether the column holds a number.
func (c stmtColumn) numeric() bool { return c.wireType() != ColVarchar }

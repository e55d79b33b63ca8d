package tidbsim

import (
	"database/sql"
	"testing"

	"github.com/tiform/tiform/internal/cpumeter"
)

// planStatements are the statements `tiform plan` sends to one cluster
// declaring a TiKV key, a plan-cache variable and a resource group (cmd's
// BenchmarkFleetPlan), in order, each followed by SHOW WARNINGS.
var planStatements = []string{
	"SELECT @@SESSION.sql_mode",
	"SELECT VERSION()",
	"SELECT TYPE, INSTANCE, STATUS_ADDRESS, VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO",
	"SHOW WARNINGS",
	"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('tikv') AND LOWER(`KEY`) IN ('coprocessor.region-max-keys', 'coprocessor.region-max-size', 'coprocessor.region-split-keys', 'coprocessor.region-split-size', 'gc.ratio-threshold', 'in-memory-engine.enable', 'resource-control.enabled')",
	"SHOW WARNINGS",
	"SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_enable_non_prepared_plan_cache')",
	"SHOW WARNINGS",
	"SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS",
	"SHOW WARNINGS",
	"SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_enable_instance_plan_cache', 'tidb_enable_non_prepared_plan_cache', 'tidb_enable_non_prepared_plan_cache_for_dml', 'tidb_enable_prepared_plan_cache', 'tidb_enable_stmt_summary', 'tidb_gc_life_time', 'tidb_instance_plan_cache_max_size', 'tidb_non_prepared_plan_cache_size', 'tidb_prepared_plan_cache_size', 'tidb_session_plan_cache_size', 'tidb_stmt_summary_history_size', 'tidb_stmt_summary_refresh_interval')",
	"SHOW WARNINGS",
	"SELECT DIGEST, MAX(DIGEST_TEXT) AS STMT_TEXT, MAX(SCHEMA_NAME) AS STMT_SCHEMA, MAX(TABLE_NAMES) AS STMT_TABLES, MAX(STMT_TYPE) AS STMT_KIND, MAX(SAMPLE_USER) AS STMT_USER, PREPARED, PLAN_CACHE_UNQUALIFIED_LAST_REASON, SUM(EXEC_COUNT) AS EXECUTIONS, SUM(SUM_LATENCY) AS TOTAL_LATENCY, SUM(EXEC_COUNT * AVG_COMPILE_LATENCY) AS TOTAL_COMPILE, SUM(PLAN_CACHE_HITS) AS CACHE_HITS, SUM(PLAN_CACHE_UNQUALIFIED) AS UNQUALIFIED, SUM(EXEC_COUNT * AVG_TOTAL_KEYS) AS SCANNED_KEYS, SUM(EXEC_COUNT * AVG_PROCESSED_KEYS) AS KEPT_KEYS, SUM(EXEC_COUNT * AVG_ROCKSDB_DELETE_SKIPPED_COUNT) AS DELETE_SKIPPED, SUM(EXEC_COUNT * AVG_ROCKSDB_KEY_SKIPPED_COUNT) AS KEY_SKIPPED, UNIX_TIMESTAMP(MIN(SUMMARY_BEGIN_TIME)) AS FIRST_BEGIN, UNIX_TIMESTAMP(MAX(SUMMARY_END_TIME)) AS LAST_END FROM INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY WHERE SUMMARY_END_TIME > FROM_UNIXTIME(UNIX_TIMESTAMP() - 86400) GROUP BY DIGEST, PREPARED, PLAN_CACHE_UNQUALIFIED_LAST_REASON ORDER BY TOTAL_LATENCY DESC, DIGEST LIMIT 501",
	"SHOW WARNINGS",
}

// BenchmarkPlanStatements: the emulator's cost of answering one cluster's
// `tiform plan` reads (BENCHMARKS.md, "Fleet plans"): session runs them on a
// Go-level session (parsing and execution only); wire opens a connection per
// operation and runs them over the MySQL protocol with go-sql-driver/mysql,
// as tiform does (the client's side is in the same process, so its CPU is
// counted too).
func BenchmarkPlanStatements(b *testing.B) {
	srv, err := Start(Options{TiKV: 3})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	b.Run("session", func(b *testing.B) {
		s := srv.NewSession("root")
		defer s.close()
		stop := cpumeter.Start(b)
		for b.Loop() {
			for _, q := range planStatements {
				if _, err := s.Exec(q); err != nil {
					b.Fatalf("%s: %v", q, err)
				}
			}
		}
		stop()
	})
	b.Run("wire", func(b *testing.B) {
		stop := cpumeter.Start(b)
		for b.Loop() {
			db, err := sql.Open("mysql", srv.DSN("root", ""))
			if err != nil {
				b.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			for _, q := range planStatements {
				rows, err := db.Query(q)
				if err != nil {
					b.Fatalf("%s: %v", q, err)
				}
				for rows.Next() {
				}
				if err := rows.Close(); err != nil {
					b.Fatalf("%s: %v", q, err)
				}
			}
			db.Close()
		}
		stop()
	})
}

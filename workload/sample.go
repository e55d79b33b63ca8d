package workload

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Order says which statements a bounded read keeps when the cluster has more
// than the row cap.
type Order int

const (
	// ByLatency keeps the statements the cluster spent most time in (SUM of
	// SUM_LATENCY): the plan-cache check.
	ByLatency Order = iota
	// ByScannedKeys keeps the statements whose coprocessor reads scanned most
	// MVCC versions (SUM of EXEC_COUNT × AVG_TOTAL_KEYS): the MVCC check.
	ByScannedKeys
)

// Query is what a statement-statistics read asks for. It is bounded: one
// statement, windows that end within Since, at most Limit rows.
type Query struct {
	// Since keeps the summary windows that ended less than Since before the
	// read (the current window always counts).
	Since time.Duration
	// Limit caps the rows read (statement shapes).
	Limit int
	// Order chooses the rows kept under the cap.
	Order Order
}

// Query bounds.
const (
	DefaultSince = 24 * time.Hour
	DefaultLimit = 500
	MaxSince     = 31 * 24 * time.Hour
	MaxLimit     = 5000
)

// Validate checks a query's bounds; the error names the flag to fix.
func (q Query) Validate() error {
	if q.Since < time.Minute || q.Since > MaxSince {
		return fmt.Errorf("--since %s: use a duration from 1m to %s (e.g. 30m, 24h, 168h)", q.Since, "744h")
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return fmt.Errorf("--limit %d: use 1 to %d statements", q.Limit, MaxLimit)
	}
	return nil
}

// Statement is the statistics of one statement shape over the windows read:
// one digest, prepared or not, and one last plan-cache reason. TiDB keeps the
// last reason per window, so a digest whose reason changed between windows
// comes as several Statements; Merge folds them.
type Statement struct {
	Digest string
	// Text is DIGEST_TEXT, the normalized statement.
	Text   string
	Schema string
	// Tables are TABLE_NAMES split at commas ("db.table").
	Tables []string
	// Type is STMT_TYPE: Select, Insert, Update, Delete, Replace, Commit, …
	Type     string
	Prepared bool
	// Executions is SUM(EXEC_COUNT).
	Executions int64
	// Latency is SUM(SUM_LATENCY); CompileTime SUM(EXEC_COUNT ×
	// AVG_COMPILE_LATENCY): the time spent optimizing, which a cached plan
	// saves.
	Latency, CompileTime time.Duration
	// CacheHits is SUM(PLAN_CACHE_HITS).
	CacheHits int64
	// Unqualified is SUM(PLAN_CACHE_UNQUALIFIED), the executions that could
	// not use the cache (TiDB v8.2.0+; 0 when Sample.Unqualified is false).
	Unqualified int64
	// Reasons maps PLAN_CACHE_UNQUALIFIED_LAST_REASON to the unqualified
	// executions of the windows whose last reason it was.
	Reasons map[string]int64
	// PointPlan: the statement's plan is a point get (Point_Get or
	// Batch_Point_Get at the root, or under the UPDATE or DELETE it feeds):
	// the plan TiDB builds without the optimizer (TryFastPlan). Read from
	// PLAN; a digest with several plans counts as a point get when any is.
	PointPlan bool
	// TextProtocol: some execution parsed SQL text (MAX_PARSE_LATENCY > 0).
	// A binary-protocol EXECUTE parses nothing, so false means every
	// execution was a prepared statement's, whatever PREPARED says: TiDB
	// records a prepared point get with PREPARED = 0
	// (pingcap/tidb@e4e814fdc0af:pkg/executor/compiler.go reuses the cached
	// point plan instead of the EXECUTE plan that marks it prepared).
	TextProtocol bool
	// CopTasks is SUM(SUM_COP_TASK_NUM): coprocessor requests sent, which
	// the MVCC check needs to tell "no reads" from "reads without key
	// figures".
	CopTasks int64
	// TotalKeys and ProcessedKeys are SUM(EXEC_COUNT × AVG_TOTAL_KEYS) and
	// SUM(EXEC_COUNT × AVG_PROCESSED_KEYS): versions the coprocessor scanned
	// and keys it kept. DeleteSkipped and KeySkipped are the same for
	// AVG_ROCKSDB_DELETE_SKIPPED_COUNT and AVG_ROCKSDB_KEY_SKIPPED_COUNT.
	TotalKeys, ProcessedKeys, DeleteSkipped, KeySkipped float64
}

// AvgTotalKeys and the others are per execution.
func (s Statement) AvgTotalKeys() float64     { return per(s.TotalKeys, s.Executions) }
func (s Statement) AvgProcessedKeys() float64 { return per(s.ProcessedKeys, s.Executions) }
func (s Statement) AvgDeleteSkipped() float64 { return per(s.DeleteSkipped, s.Executions) }

// AvgLatency is the mean latency per execution.
func (s Statement) AvgLatency() time.Duration {
	if s.Executions == 0 {
		return 0
	}
	return s.Latency / time.Duration(s.Executions)
}

func per(x float64, n int64) float64 {
	if n == 0 {
		return 0
	}
	return x / float64(n)
}

// Sample is one bounded read of the statement statistics.
type Sample struct {
	Statements []Statement
	// Source is the table read, e.g.
	// INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY. ClusterWide is
	// false when only the connected TiDB's own table could be read.
	Source      string
	ClusterWide bool
	// Query is what was asked.
	Query Query
	// From is the earliest SUMMARY_BEGIN_TIME and To the latest
	// SUMMARY_END_TIME among the rows read (zero when none).
	From, To time.Time
	// Truncated is set when the cluster had more statement shapes than
	// Query.Limit: the figures cover the rows kept (Query.Order).
	Truncated bool
	// Unqualified is set when PLAN_CACHE_UNQUALIFIED and its last reason
	// were read (TiDB v8.2.0+). RocksDB is set when the
	// AVG_ROCKSDB_*_SKIPPED_COUNT columns were read.
	Unqualified, RocksDB bool
	// Version is the TiDB version the columns were chosen for ("v8.5.1").
	Version string
	// Variables are the global variables read with the sample (lower-case
	// names): the plan-cache switches and sizes, the statement-summary
	// settings, tidb_gc_life_time. Missing names were not read.
	Variables map[string]string
	// Users are the distinct SAMPLE_USER values read: a single one may mean
	// the reading account lacks PROCESS and sees only its own statements.
	Users []string
	// Notes say what the read could not see.
	Notes []string
}

// Reader reads statement statistics: live reads a cluster, tests feed
// fixed samples.
type Reader interface {
	ReadStatements(ctx context.Context, q Query) (*Sample, error)
}

// Read describes the read behind a report: what was asked, what it covered
// and what it could not see.
type Read struct {
	// Version is the TiDB version ("v8.5.1"); Source the table read;
	// ClusterWide false when only the connected TiDB's own table was read.
	Version     string
	Source      string
	ClusterWide bool
	Since       time.Duration
	// From and To are the earliest window begin and the latest window end
	// read; Truncated is set when the cluster had more than Limit statement
	// shapes; StatementsRead counts the shapes analysed.
	From, To       time.Time
	Truncated      bool
	Limit          int
	StatementsRead int
	Notes          []string
}

// read describes s, of which n statement shapes were analysed.
func (s Sample) read(n int) Read {
	return Read{Version: s.Version, Source: s.Source, ClusterWide: s.ClusterWide, Since: s.Query.Since, From: s.From, To: s.To,
		Truncated: s.Truncated, Limit: s.Query.Limit, StatementsRead: n, Notes: append([]string(nil), s.Notes...)}
}

// Merge folds the Statements of one digest and kind (prepared or not) into
// one, summing figures and reasons, and returns them sorted by digest then
// prepared (prepared last). Statements without a digest (TiDB's evicted
// "other" row) keep an empty Digest.
func Merge(in []Statement) []Statement {
	type key struct {
		digest   string
		prepared bool
	}
	byKey := map[key]*Statement{}
	var order []key
	for _, s := range in {
		k := key{s.Digest, s.Prepared}
		m, ok := byKey[k]
		if !ok {
			c := s
			c.Reasons = map[string]int64{}
			for r, n := range s.Reasons {
				c.Reasons[r] += n
			}
			c.Tables = append([]string(nil), s.Tables...)
			byKey[k] = &c
			order = append(order, k)
			continue
		}
		m.Executions += s.Executions
		m.Latency += s.Latency
		m.CompileTime += s.CompileTime
		m.CacheHits += s.CacheHits
		m.Unqualified += s.Unqualified
		m.TotalKeys += s.TotalKeys
		m.ProcessedKeys += s.ProcessedKeys
		m.DeleteSkipped += s.DeleteSkipped
		m.KeySkipped += s.KeySkipped
		m.CopTasks += s.CopTasks
		m.PointPlan = m.PointPlan || s.PointPlan
		m.TextProtocol = m.TextProtocol || s.TextProtocol
		for r, n := range s.Reasons {
			m.Reasons[r] += n
		}
		if m.Text == "" {
			m.Text = s.Text
		}
		for _, t := range s.Tables {
			if !slices.Contains(m.Tables, t) {
				m.Tables = append(m.Tables, t)
			}
		}
	}
	out := make([]Statement, 0, len(order))
	for _, k := range order {
		s := byKey[k]
		sort.Strings(s.Tables)
		out = append(out, *s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Digest != out[j].Digest {
			return out[i].Digest < out[j].Digest
		}
		return !out[i].Prepared && out[j].Prepared
	})
	return out
}

// SplitTables splits TABLE_NAMES ("db.a,db.b") into trimmed, non-empty names.
func SplitTables(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

package workload

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The MVCC check: statements whose coprocessor scans step over far more MVCC
// versions than the keys they keep. AVG_TOTAL_KEYS counts the versions
// scanned, AVG_PROCESSED_KEYS the keys kept; "if avg_total_keys and
// avg_processed_keys differ greatly, there are many old versions"
// (https://docs.pingcap.com/tidb/stable/statement-summary-tables). Such reads
// are what the TiKV MVCC In-Memory Engine accelerates: "queries whose
// total_keys far exceed processed_keys", frequently updated or deleted rows,
// a long tidb_gc_life_time; it loads a Region when (next + prev) /
// processed_keys exceeds in-memory-engine.mvcc-amplification-threshold
// (default 10) and does not help writes
// (https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine).

// MVCC thresholds (docs/checks.md).
const (
	// DefaultAmplification is in-memory-engine.mvcc-amplification-threshold's
	// default: the IME loads Regions read with more amplification.
	DefaultAmplification = 10
	// MinStaleVersions: a statement is listed only when it steps over at
	// least this many stale versions per execution (tiny scans do not matter).
	MinStaleVersions = 100
	// LikelyStaleVersions: from this many stale versions per execution the
	// IME is likely to help the table's reads.
	LikelyStaleVersions = 1000
	topMVCCStatements   = 5
)

// MVCCVerdict is the In-Memory Engine recommendation in one word.
type MVCCVerdict string

const (
	MVCCNoData MVCCVerdict = "no-data"
	// MVCCCannotJudge: statements sent coprocessor requests, but the storage
	// reported no keys scanned or kept for any of them: the figures the
	// check rests on are missing (a TiDB on unistore, tidb-server -store
	// unistore, reports none).
	MVCCCannotJudge MVCCVerdict = "cannot-judge"
	MVCCLikely      MVCCVerdict = "likely-to-help"
	MVCCPossible    MVCCVerdict = "may-help"
	MVCCUnlikely    MVCCVerdict = "unlikely-to-help"
)

// MVCCStatement is one statement with heavy MVCC read amplification.
type MVCCStatement struct {
	Digest, Text, Type string
	Prepared           bool
	Executions         int64
	AvgTotalKeys       float64
	AvgProcessedKeys   float64
	// AvgDeleteSkipped is AVG_ROCKSDB_DELETE_SKIPPED_COUNT (tombstones RocksDB
	// skipped), when read.
	AvgDeleteSkipped float64
	// Amplification is AvgTotalKeys / AvgProcessedKeys (AvgTotalKeys when
	// nothing was processed).
	Amplification float64
	// StaleVersions is executions × (total − processed keys).
	StaleVersions float64
	AvgLatency    time.Duration
	Latency       time.Duration
}

// MVCCTable is a table whose reads step over many stale versions.
type MVCCTable struct {
	Table      string
	Statements []MVCCStatement
	Executions int64
	// Amplification is the table's scanned versions over kept keys, over its
	// listed statements.
	Amplification float64
	StaleVersions float64
	Latency       time.Duration
	Verdict       MVCCVerdict
	Why           string
}

// MVCCOptions tune the MVCC analysis.
type MVCCOptions struct {
	// Threshold is the amplification from which a statement is listed; 0
	// means DefaultAmplification. ThresholdSource says where it comes from.
	Threshold       float64
	ThresholdSource string
}

// MVCCReport is the result of the MVCC analysis.
type MVCCReport struct {
	Read
	Threshold       float64
	ThresholdSource string
	RocksDB         bool
	Tables          []MVCCTable
	Verdict         MVCCVerdict
	Summary         string
	GCLifeTime      string
	Watch           []string
}

// WatchAfterEnabling is what to observe once the In-Memory Engine is on
// (https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine).
var WatchAfterEnabling = []string{
	"Grafana TiKV-Details → In Memory Engine: the Regions loaded, the memory used and how many reads it serves.",
	"the listed statements' AVG_LATENCY and scanned versions: run `tiform check mvcc` again after a day of traffic.",
	"TiKV memory and the block cache: the engine takes its capacity (about 10% of memory, at most 5 GiB) from the block cache.",
	"the TiKV log: \"in-memory engine is disabled because …\" means it did not start.",
	"`SHOW CONFIG WHERE type = 'tikv' AND name LIKE 'in-memory-engine.%'` shows enable = true on every TiKV after the restart.",
}

// MVCC analyses a sample for MVCC read amplification.
func MVCC(s Sample, o MVCCOptions) MVCCReport {
	stmts := Merge(s.Statements)
	rep := MVCCReport{Read: s.read(len(stmts)), RocksDB: s.RocksDB, Threshold: o.Threshold,
		ThresholdSource: o.ThresholdSource, GCLifeTime: s.Variables[VarGCLifeTime], Watch: WatchAfterEnabling}
	if rep.Threshold <= 0 {
		rep.Threshold, rep.ThresholdSource = DefaultAmplification, "the In-Memory Engine's default mvcc-amplification-threshold"
	}
	byTable := map[string]*MVCCTable{}
	reads := false
	var copExecutions int64
	for _, st := range stmts {
		if st.TotalKeys > 0 {
			reads = true
		}
		if st.CopTasks > 0 {
			copExecutions += st.Executions
		}
		m, ok := amplified(st, rep.Threshold)
		if !ok {
			continue
		}
		tables := st.Tables
		if len(tables) == 0 {
			tables = []string{"(no table named)"}
		}
		for _, t := range tables {
			tb := byTable[t]
			if tb == nil {
				tb = &MVCCTable{Table: t}
				byTable[t] = tb
			}
			tb.Statements = append(tb.Statements, m)
		}
	}
	for _, tb := range byTable {
		rep.Tables = append(rep.Tables, finishTable(*tb))
	}
	sort.Slice(rep.Tables, func(i, j int) bool {
		if rep.Tables[i].StaleVersions != rep.Tables[j].StaleVersions {
			return rep.Tables[i].StaleVersions > rep.Tables[j].StaleVersions
		}
		return rep.Tables[i].Table < rep.Tables[j].Table
	})
	rep.Verdict, rep.Summary = mvccVerdict(rep, reads, copExecutions)
	return rep
}

// amplified returns st as an MVCCStatement when its reads step over many
// stale versions.
func amplified(st Statement, threshold float64) (MVCCStatement, bool) {
	total, processed := st.AvgTotalKeys(), st.AvgProcessedKeys()
	if total <= 0 || total-processed < MinStaleVersions {
		return MVCCStatement{}, false
	}
	amp := total
	if processed > 0 {
		amp = total / processed
	}
	if amp < threshold {
		return MVCCStatement{}, false
	}
	return MVCCStatement{
		Digest: st.Digest, Text: st.Text, Type: st.Type, Prepared: st.Prepared, Executions: st.Executions,
		AvgTotalKeys: total, AvgProcessedKeys: processed, AvgDeleteSkipped: st.AvgDeleteSkipped(),
		Amplification: amp, StaleVersions: st.TotalKeys - st.ProcessedKeys, AvgLatency: st.AvgLatency(), Latency: st.Latency,
	}, true
}

// finishTable sums a table's statements and decides its verdict.
func finishTable(tb MVCCTable) MVCCTable {
	sort.Slice(tb.Statements, func(i, j int) bool {
		if tb.Statements[i].StaleVersions != tb.Statements[j].StaleVersions {
			return tb.Statements[i].StaleVersions > tb.Statements[j].StaleVersions
		}
		return tb.Statements[i].Digest < tb.Statements[j].Digest
	})
	var total, processed float64
	maxStale := 0.0
	for _, m := range tb.Statements {
		tb.Executions += m.Executions
		tb.StaleVersions += m.StaleVersions
		tb.Latency += m.Latency
		total += m.AvgTotalKeys * float64(m.Executions)
		processed += m.AvgProcessedKeys * float64(m.Executions)
		if per := m.AvgTotalKeys - m.AvgProcessedKeys; per > maxStale {
			maxStale = per
		}
	}
	tb.Amplification = total
	if processed > 0 {
		tb.Amplification = total / processed
	}
	if len(tb.Statements) > topMVCCStatements {
		tb.Statements = tb.Statements[:topMVCCStatements]
	}
	if maxStale >= LikelyStaleVersions {
		tb.Verdict = MVCCLikely
		tb.Why = fmt.Sprintf("its reads step over up to %s stale versions per execution (%s versions scanned per key kept): "+
			"a queue-like or frequently updated table", count(int64(maxStale)), amp(tb.Amplification))
	} else {
		tb.Verdict = MVCCPossible
		tb.Why = fmt.Sprintf("%s versions scanned per key kept, but fewer than %d stale versions per execution: a small gain at most",
			amp(tb.Amplification), LikelyStaleVersions)
	}
	return tb
}

func amp(f float64) string {
	if f >= 100 {
		return count(int64(f + 0.5))
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f), "0"), ".")
}

// Amp renders an amplification ratio for the views ("12.5", "1,358,517").
func Amp(f float64) string { return amp(f) }

// mvccVerdict decides from the listed tables; reads says whether any
// statement reported keys scanned, copExecutions counts the executions of
// statements that sent coprocessor requests.
func mvccVerdict(rep MVCCReport, reads bool, copExecutions int64) (MVCCVerdict, string) {
	switch {
	case !reads && copExecutions > 0:
		return MVCCCannotJudge, fmt.Sprintf("cannot judge: %s execution%s over %s sent coprocessor requests, but the storage reported no keys "+
			"scanned or kept for any (AVG_TOTAL_KEYS and AVG_PROCESSED_KEYS are 0): TiKV reports them, this storage does not "+
			"(a TiDB on unistore), so the MVCC amplification the In-Memory Engine would cut is unknown", count(copExecutions), plural(int(copExecutions)), Span(rep.Since))
	case !reads:
		return MVCCNoData, fmt.Sprintf("no coprocessor reads in the statement statistics over %s: nothing to judge", Span(rep.Since))
	}
	var likely []string
	for _, tb := range rep.Tables {
		if tb.Verdict == MVCCLikely {
			likely = append(likely, tb.Table)
		}
	}
	switch {
	case len(likely) > 0:
		return MVCCLikely, fmt.Sprintf("the In-Memory Engine is likely to help reads of %s: they scan far more MVCC versions than they keep",
			strings.Join(likely, ", "))
	case len(rep.Tables) > 0:
		return MVCCPossible, fmt.Sprintf("some reads scan %sx or more versions than they keep, but few per execution: the In-Memory Engine may help a little",
			amp(rep.Threshold))
	}
	return MVCCUnlikely, fmt.Sprintf("no statement scans %sx more versions than it keeps: the In-Memory Engine is unlikely to help", amp(rep.Threshold))
}

// IMEThresholdKey is the TiKV item whose value the MVCC check uses as its
// threshold when the TiKV config is readable.
const IMEThresholdKey = "in-memory-engine.mvcc-amplification-threshold"

// IMEState summarises in-memory-engine.enable across TiKV instances: "true",
// "false", "mixed", or "" when no instance reported it.
func IMEState(values []string) string {
	state := ""
	for _, v := range values {
		s := "false"
		if strings.EqualFold(strings.TrimSpace(v), "true") {
			s = "true"
		}
		switch {
		case state == "":
			state = s
		case state != s:
			return "mixed"
		}
	}
	return state
}

// ThresholdFrom returns the MVCC options for the live values of
// in-memory-engine.mvcc-amplification-threshold: the value when every TiKV
// instance agrees on a positive number, else the default.
func ThresholdFrom(values []string) MVCCOptions {
	var th float64
	for i, v := range values {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f <= 0 || (i > 0 && f != th) {
			return MVCCOptions{}
		}
		th = f
	}
	if th == 0 {
		return MVCCOptions{}
	}
	return MVCCOptions{Threshold: th, ThresholdSource: IMEThresholdKey + " on TiKV"}
}

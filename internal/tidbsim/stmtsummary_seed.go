package tidbsim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// StatementStat seeds the statement summary tables with the statistics of
// one statement (one digest, one plan) executed on one TiDB instance, in one
// or more summary windows. In a seed file (bin/tidbsim --seed) it is an entry
// of "statements_summary":
//
//	{"instance": 0, "windows_ago": [0, 1, 2],
//	 "columns": {"SCHEMA_NAME": "shop", "DIGEST_TEXT": "select * from `orders` where `id` = ?",
//	             "TABLE_NAMES": "shop.orders", "EXEC_COUNT": 12000, "SUM_LATENCY": 6000000000,
//	             "PREPARED": 1, "PLAN_CACHE_HITS": 2400}}
//
// Columns are named as in TiDB (any case) and hold what TiDB would show for
// the window: numbers for numeric columns, strings otherwise. A column the
// running version does not have (PLAN_CACHE_UNQUALIFIED before v8.2.0) is
// dropped, as that TiDB would not record it; a name no version has is an
// error. What TiDB derives is derived: DIGEST (SHA-256 of DIGEST_TEXT, as
// TiDB's digester), AVG_x from SUM_x / EXEC_COUNT (integer division, as
// avgInt in pkg/util/stmtsummary/reader.go) or SUM_LATENCY from AVG_LATENCY,
// MIN/MAX_LATENCY from the average, STMT_TYPE from the first word,
// SUMMARY_BEGIN_TIME / _END_TIME, FIRST_SEEN and LAST_SEEN from the window.
type StatementStat struct {
	// Instance is the index of the TiDB instance that ran the statements
	// (0: the first).
	Instance int `json:"instance"`
	// WindowsAgo lists the summary windows the statistics appear in: 0 is
	// the current window (STATEMENTS_SUMMARY and _HISTORY), 1 the window
	// before it, and so on. Empty means [0].
	WindowsAgo []int `json:"windows_ago"`
	// Columns maps column names to values.
	Columns map[string]any `json:"columns"`
}

// derivedOnly are the columns a seed may not set: TiDB computes them from
// the window.
var derivedOnly = map[string]bool{"SUMMARY_BEGIN_TIME": true, "SUMMARY_END_TIME": true, "INSTANCE": true}

// maxWindowsAgo bounds windows_ago (more than any history size TiDB allows).
const maxWindowsAgo = 10000

// validateStatementStats checks seeded statistics before the cluster starts:
// known columns of the right kind, an instance that exists, sane windows.
func validateStatementStats(stats []StatementStat, tidbs int) error {
	for i, st := range stats {
		where := fmt.Sprintf("tidbsim: statements_summary[%d]", i)
		if st.Instance < 0 || st.Instance >= tidbs {
			return fmt.Errorf("%s: instance %d: the cluster has %d TiDB instances (0-based)", where, st.Instance, tidbs)
		}
		for _, w := range st.WindowsAgo {
			if w < 0 || w > maxWindowsAgo {
				return fmt.Errorf("%s: windows_ago %d: want 0 (the current window) to %d", where, w, maxWindowsAgo)
			}
		}
		text, _ := lookupColumn(st.Columns, "DIGEST_TEXT")
		if s, ok := text.(string); !ok || strings.TrimSpace(s) == "" {
			return fmt.Errorf("%s: DIGEST_TEXT (the normalized statement) is required", where)
		}
		for name, val := range st.Columns {
			col, ok := stmtColumnKnown(name)
			if !ok {
				return fmt.Errorf("%s: %q is not a statement summary column", where, name)
			}
			if derivedOnly[col.Name] {
				return fmt.Errorf("%s: %s is derived from the window and cannot be seeded", where, col.Name)
			}
			if _, err := seedValue(col, val); err != nil {
				return fmt.Errorf("%s: %s: %w", where, col.Name, err)
			}
		}
		if n, _ := lookupColumn(st.Columns, "EXEC_COUNT"); n != nil {
			if v, _ := seedValue(stmtColumn{Name: "EXEC_COUNT", SQLType: "bigint unsigned"}, n); v.I < 1 {
				return fmt.Errorf("%s: EXEC_COUNT must be at least 1 (TiDB keeps no row for a statement never run)", where)
			}
		}
	}
	return nil
}

// lookupColumn finds a seeded column by name, any case.
func lookupColumn(cols map[string]any, name string) (any, bool) {
	for k, v := range cols {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// seedValue converts a seeded JSON/Go value to the column's kind.
func seedValue(col stmtColumn, val any) (Value, error) {
	if !col.numeric() {
		s, ok := val.(string)
		if !ok {
			return Null, fmt.Errorf("want a string, got %v", val)
		}
		return Str(s), nil
	}
	var f float64
	switch x := val.(type) {
	case json.Number:
		g, err := x.Float64()
		if err != nil {
			return Null, fmt.Errorf("want a number, got %q", x.String())
		}
		f = g
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case float64:
		f = x
	case bool:
		if x {
			f = 1
		}
	default:
		return Null, fmt.Errorf("want a number, got %v", val)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Null, fmt.Errorf("want a finite number")
	}
	if col.wireType() == ColDouble {
		if strings.Contains(col.SQLType, "unsigned") && f < 0 {
			return Null, fmt.Errorf("%v is negative; the column is unsigned", f)
		}
		return Float(f), nil
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<62 {
		return Null, fmt.Errorf("want an integer, got %v", f)
	}
	if strings.Contains(col.SQLType, "unsigned") && f < 0 {
		return Null, fmt.Errorf("%v is negative; the column is unsigned", f)
	}
	return Int(int64(f)), nil
}

// stmtWindow is one summary window: [Begin, End).
type stmtWindow struct {
	Begin, End time.Time
}

// timestampText renders a TIMESTAMP as TiDB sends it (the session time zone;
// the emulator's SYSTEM zone is UTC).
func timestampText(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }

// materialize builds the row of st for window w on instance addr, in the
// column order of cols (cluster: INSTANCE first). now bounds LAST_SEEN.
func (st StatementStat) materialize(cols []stmtColumn, w stmtWindow, now time.Time, addr string, cluster bool) []Value {
	vals := map[string]Value{}
	for name, raw := range st.Columns {
		col, _ := stmtColumnKnown(name)
		v, _ := seedValue(col, raw)
		vals[col.Name] = v
	}
	derive(vals, w, now)
	var row []Value
	if cluster {
		row = append(row, Str(addr))
	}
	for _, c := range cols {
		v, ok := vals[c.Name]
		if !ok {
			v = zeroValue(c)
		}
		row = append(row, v)
	}
	return row
}

// zeroValue is what TiDB shows for a statistic never recorded: 0 for
// numbers; NULL for the columns TiDB converts from "" to NULL
// (convertEmptyToNil in pkg/util/stmtsummary/reader.go: SCHEMA_NAME, DIGEST,
// TABLE_NAMES, INDEX_NAMES, SAMPLE_USER, MAX_COP_*_ADDRESS); "" for the other
// strings (PLAN_CACHE_UNQUALIFIED_LAST_REASON, PREV_SAMPLE_TEXT, …).
func zeroValue(c stmtColumn) Value {
	switch {
	case c.wireType() == ColDouble:
		return Float(0)
	case c.numeric():
		return Int(0)
	}
	switch c.Name {
	case "SCHEMA_NAME", "DIGEST", "TABLE_NAMES", "INDEX_NAMES", "SAMPLE_USER", "MAX_COP_PROCESS_ADDRESS", "MAX_COP_WAIT_ADDRESS", "PLAN_DIGEST":
		return Null
	}
	return Str("")
}

// derive fills the columns TiDB computes (see StatementStat).
func derive(vals map[string]Value, w stmtWindow, now time.Time) {
	text := vals["DIGEST_TEXT"].S
	if _, ok := vals["DIGEST"]; !ok {
		sum := sha256.Sum256([]byte(text))
		vals["DIGEST"] = Str(hex.EncodeToString(sum[:]))
	}
	if _, ok := vals["STMT_TYPE"]; !ok {
		first := strings.Fields(text)
		if len(first) > 0 {
			vals["STMT_TYPE"] = Str(strings.ToUpper(first[0][:1]) + strings.ToLower(first[0][1:]))
		}
	}
	if _, ok := vals["QUERY_SAMPLE_TEXT"]; !ok {
		vals["QUERY_SAMPLE_TEXT"] = Str(text)
	}
	exec := vals["EXEC_COUNT"].I
	if exec < 1 {
		exec = 1
		vals["EXEC_COUNT"] = Int(1)
	}
	sum, hasSum := vals["SUM_LATENCY"]
	avg, hasAvg := vals["AVG_LATENCY"]
	switch {
	case hasSum && !hasAvg:
		vals["AVG_LATENCY"] = Int(sum.I / exec)
	case hasAvg && !hasSum:
		vals["SUM_LATENCY"] = Int(avg.I * exec)
	}
	for _, m := range []string{"MIN_LATENCY", "MAX_LATENCY"} {
		if _, ok := vals[m]; !ok {
			vals[m] = vals["AVG_LATENCY"]
		}
	}
	if _, ok := vals["PLAN_IN_CACHE"]; !ok && vals["PLAN_CACHE_HITS"].I > 0 {
		vals["PLAN_IN_CACHE"] = Int(1)
	}
	vals["SUMMARY_BEGIN_TIME"] = Str(timestampText(w.Begin))
	vals["SUMMARY_END_TIME"] = Str(timestampText(w.End))
	if _, ok := vals["FIRST_SEEN"]; !ok {
		vals["FIRST_SEEN"] = Str(timestampText(w.Begin))
	}
	if _, ok := vals["LAST_SEEN"]; !ok {
		last := w.End.Add(-time.Second)
		if now.Before(last) {
			last = now
		}
		vals["LAST_SEEN"] = Str(timestampText(last))
	}
}

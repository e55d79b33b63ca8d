package cmd

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

// `tiform check plan-cache` and `tiform check mvcc` on workloads this test
// runs on the upstream tidb-server (the emulator only reports seeded
// statistics), each report checked against a direct read of
// INFORMATION_SCHEMA.STATEMENTS_SUMMARY: the server's own figures and
// reason texts. The workload runs as "app" through the driver: text
// statements with interpolateParams=true, server-side prepared statements
// with interpolateParams=false.

// realWorkload is a server with the table the workloads use.
type realWorkload struct {
	r               *tidbsimtest.Real
	admin           *sql.DB
	text, prepared  *sql.DB
	appDSN, rootDSN string
}

func startRealWorkload(t *testing.T) *realWorkload {
	t.Helper()
	r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{})
	w := &realWorkload{r: r, admin: r.DB(), rootDSN: r.RootDSN()}
	r.Exec(t,
		"CREATE DATABASE w",
		"CREATE TABLE w.t (id INT PRIMARY KEY, a INT, b VARCHAR(20), c INT, KEY ka (a))",
		"CREATE TABLE w.u (id INT PRIMARY KEY, t_id INT)",
		// One window for the whole test: a window boundary would split
		// STATEMENTS_SUMMARY from the history tiform reads.
		"SET GLOBAL tidb_stmt_summary_refresh_interval = 86400")
	for i := 0; i < 100; i++ {
		r.Exec(t, fmt.Sprintf("INSERT INTO w.t VALUES (%d, %d, 's%d', %d)", i, i%10, i, i%7), fmt.Sprintf("INSERT INTO w.u VALUES (%d, %d)", i, i))
	}
	r.Exec(t, "ANALYZE TABLE w.t", "ANALYZE TABLE w.u")
	w.appDSN = strings.Replace(r.AddUser(t, "app", "App-pw-1"), ")/?", ")/w?", 1)
	return w
}

// connect opens the app's connections, after the global settings a phase
// wants (a session takes the global values when it connects).
func (w *realWorkload) connect(t *testing.T) {
	t.Helper()
	for _, db := range []*sql.DB{w.text, w.prepared} {
		if db != nil {
			db.Close()
		}
	}
	var err error
	if w.text, err = sql.Open("mysql", w.appDSN); err != nil {
		t.Fatal(err)
	}
	if w.prepared, err = sql.Open("mysql", strings.Replace(w.appDSN, "interpolateParams=true", "interpolateParams=false", 1)); err != nil {
		t.Fatal(err)
	}
	w.text.SetMaxOpenConns(1)
	w.prepared.SetMaxOpenConns(1)
	t.Cleanup(func() { w.text.Close(); w.prepared.Close() })
}

// reset empties the statement summary (turning it off drops what it holds).
func (w *realWorkload) reset(t *testing.T, settings ...string) {
	t.Helper()
	w.r.Exec(t, append(settings, "SET GLOBAL tidb_enable_stmt_summary = OFF", "SET GLOBAL tidb_enable_stmt_summary = ON")...)
	w.connect(t)
}

func drain(t *testing.T, rows *sql.Rows, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
}

// runText sends n statements as SQL text.
func (w *realWorkload) runText(t *testing.T, n int, q func(i int) string) {
	t.Helper()
	for i := 0; i < n; i++ {
		rows, err := w.text.Query(q(i))
		drain(t, rows, err)
	}
}

// runPrepared prepares q once on the server and executes it n times.
func (w *realWorkload) runPrepared(t *testing.T, n int, q string, args func(i int) []any) {
	t.Helper()
	st, err := w.prepared.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < n; i++ {
		rows, err := st.Query(args(i)...)
		drain(t, rows, err)
	}
}

// summaryRow is one STATEMENTS_SUMMARY row of the workload's statements.
type summaryRow struct {
	text, kind, reason, plan           string
	prepared                           bool
	execs, hits, unqualified, maxParse int64
	copTasks                           int64
	totalKeys, processedKeys           float64
}

// pointPlan reads the decoded plan text the test's way: the first operator
// line (after the header) is a point get, or an UPDATE/DELETE whose only
// other line is one.
func (s summaryRow) pointPlan() bool {
	lines := strings.Split(strings.TrimRight(s.plan, "\n"), "\n")
	if len(lines) < 2 {
		return false
	}
	op := func(l string) string { return strings.TrimLeft(strings.TrimSpace(l), "└─ ") }
	isPoint := func(l string) bool {
		return strings.HasPrefix(op(l), "Point_Get_") || strings.HasPrefix(op(l), "Batch_Point_Get_")
	}
	first := op(lines[1])
	if isPoint(lines[1]) {
		return true
	}
	return (strings.HasPrefix(first, "Update_") || strings.HasPrefix(first, "Delete_")) && len(lines) == 3 && isPoint(lines[2])
}

// summary reads the rows of the statements run in schema w: the workload's
// (tiform and the test's admin connection run in no schema). A batch point
// get shows no TABLE_NAMES, so the schema is what tells them.
func (w *realWorkload) summary(t *testing.T) []summaryRow {
	t.Helper()
	rows, err := w.admin.Query("SELECT DIGEST_TEXT, STMT_TYPE, IFNULL(PLAN_CACHE_UNQUALIFIED_LAST_REASON, ''), IFNULL(PLAN, ''), PREPARED, " +
		"EXEC_COUNT, PLAN_CACHE_HITS, PLAN_CACHE_UNQUALIFIED, MAX_PARSE_LATENCY, SUM_COP_TASK_NUM, AVG_TOTAL_KEYS, AVG_PROCESSED_KEYS " +
		"FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY WHERE SCHEMA_NAME = 'w'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []summaryRow
	for rows.Next() {
		var s summaryRow
		if err := rows.Scan(&s.text, &s.kind, &s.reason, &s.plan, &s.prepared, &s.execs, &s.hits, &s.unqualified, &s.maxParse,
			&s.copTasks, &s.totalKeys, &s.processedKeys); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("the statement summary has none of the workload's statements")
	}
	return out
}

// brief lists rows for a failure message, without their plans.
func brief(rows []summaryRow) string {
	var b strings.Builder
	for _, r := range rows {
		op := ""
		if lines := strings.SplitN(r.plan, "\n", 3); len(lines) > 1 {
			op = strings.Fields(lines[1])[0]
		}
		fmt.Fprintf(&b, "%s | prepared %v | %d executions, %d hits, %d unqualified | max parse %d | %s\n", r.text, r.prepared, r.execs, r.hits, r.unqualified, r.maxParse, op)
	}
	return b.String()
}

func find(t *testing.T, rows []summaryRow, text string) summaryRow {
	t.Helper()
	for _, r := range rows {
		if r.text == text {
			return r
		}
	}
	var texts []string
	for _, r := range rows {
		texts = append(texts, r.text)
	}
	t.Fatalf("no summary row %q among %q", text, texts)
	return summaryRow{}
}

// checkPlanCache runs `tiform check plan-cache --format json` as root and
// decodes it (checked against its schema).
func (w *realWorkload) checkPlanCache(t *testing.T) views.PlanCacheReport {
	t.Helper()
	out, errs, code := runCheckCmd(t, "check", "plan-cache", "--format", "json", "--since", "1h", "--dsn", w.rootDSN)
	if code != 0 {
		t.Fatalf("check plan-cache: exit %d\n%s\n%s", code, out, errs)
	}
	viewstest.Validate(t, "check-plan-cache.schema.json", []byte(out))
	var doc views.PlanCacheCheck
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.PlanCache
}

// sums are the figures of rows.
func sums(rows []summaryRow) (execs, hits, unqualified int64) {
	for _, r := range rows {
		if !slices.Contains([]string{"Select", "Insert", "Update", "Delete", "Replace"}, r.kind) {
			continue // USE w, …
		}
		execs, hits, unqualified = execs+r.execs, hits+r.hits, unqualified+r.unqualified
	}
	return
}

func notCounted(rep views.PlanCacheReport, kind string) int64 {
	for _, nc := range rep.NotCounted {
		if nc.Kind == kind {
			return nc.Executions
		}
	}
	return 0
}

// sizeAdvice are the verdicts that ask for a larger or shared cache.
var sizeAdvice = []string{"raise-session-cache-size", "raise-instance-cache-size", "consider-instance-cache"}

func TestRealPlanCacheCheck(t *testing.T) {
	w := startRealWorkload(t)

	// The bar: point gets plus cached statements. The non-prepared cache is
	// on (the old report counted the point gets as its misses).
	t.Run("point gets and cached statements", func(t *testing.T) {
		w.reset(t, "SET GLOBAL tidb_enable_non_prepared_plan_cache = ON")
		w.runText(t, 1500, func(i int) string { return fmt.Sprintf("SELECT * FROM t WHERE id = %d", i%100) })
		w.runText(t, 300, func(i int) string { return fmt.Sprintf("SELECT * FROM t WHERE id IN (%d, %d)", i%100, (i+1)%100) })
		w.runText(t, 100, func(i int) string { return fmt.Sprintf("UPDATE t SET c = c + 1 WHERE id = %d", i%100) })
		w.runPrepared(t, 1200, "SELECT * FROM t WHERE a = ?", func(i int) []any { return []any{i % 10} })
		w.runPrepared(t, 300, "SELECT b FROM t WHERE id = ?", func(i int) []any { return []any{i % 100} })
		w.runText(t, 300, func(i int) string { return fmt.Sprintf("SELECT * FROM t WHERE a = %d AND b > 's'", i%10) })
		// Outside the non-prepared cache, with no reason recorded: DML while
		// its DML switch is off, and a join of three tables.
		w.runText(t, 50, func(i int) string { return fmt.Sprintf("UPDATE t SET c = 1 WHERE a = %d", i%10) })
		w.runText(t, 50, func(i int) string {
			return fmt.Sprintf("SELECT COUNT(*) FROM t JOIN u ON u.t_id = t.id JOIN t t2 ON t2.id = u.id WHERE t.a = %d", i%10)
		})
		rep := w.checkPlanCache(t)
		rows := w.summary(t)

		execs, hits, unq := sums(rows)
		if rep.All.Executions != execs || rep.All.Hits != hits || rep.All.Unqualified == nil || *rep.All.Unqualified != unq {
			t.Errorf("all: %d executions, %d hits, %v unqualified; STATEMENTS_SUMMARY: %d, %d, %d", rep.All.Executions, rep.All.Hits, rep.All.Unqualified, execs, hits, unq)
		}
		// The server's evidence: a point get sent as text never hits and
		// records no reason; the same plan prepared hits, recorded as
		// PREPARED = 0 without parsing.
		var textPoint int64
		for _, r := range rows {
			if r.pointPlan() && r.maxParse > 0 {
				if r.hits != 0 || r.unqualified != 0 {
					t.Errorf("a text point get used the cache: %+v", r)
				}
				textPoint += r.execs
			}
		}
		if textPoint != 1500+300+100 {
			t.Errorf("text point gets in STATEMENTS_SUMMARY: %d, want 1900:\n%s", textPoint, brief(rows))
		}
		pb := find(t, rows, "select `b` from `t` where `id` = ?")
		if !pb.pointPlan() || pb.prepared || pb.maxParse != 0 || pb.hits < 299 {
			t.Errorf("the prepared point get: %+v", pb)
		}
		if got := notCounted(rep, "point-get"); got != textPoint {
			t.Errorf("point gets not counted: %d, want %d", got, textPoint)
		}
		dml := find(t, rows, "update `t` set `c` = ? where `a` = ?")
		if got := notCounted(rep, "non-prepared-dml"); dml.hits != 0 || got != dml.execs {
			t.Errorf("non-prepared DML not counted: %d; STATEMENTS_SUMMARY %+v", got, dml)
		}
		join := find(t, rows, "select count ( ? ) from `t` join `u` on `u` . `t_id` = `t` . `id` join `t` `t2` on `t2` . `id` = `u` . `id` where `t` . `a` = ?")
		if got := notCounted(rep, "not-recorded"); join.hits != 0 || join.unqualified != 0 || got != join.execs {
			t.Errorf("the join is not recorded: %d; STATEMENTS_SUMMARY %+v", got, join)
		}
		// ... though the server knows why, and says so to EXPLAIN.
		var warn string
		conn, err := w.admin.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, q := range []string{"SET SESSION tidb_enable_non_prepared_plan_cache = ON",
			"EXPLAIN FORMAT='plan_cache' SELECT COUNT(*) FROM w.t JOIN w.u ON u.t_id = t.id JOIN w.t t2 ON t2.id = u.id WHERE t.a = 1"} {
			rows, err := conn.QueryContext(t.Context(), q)
			drain(t, rows, err)
		}
		if err := conn.QueryRowContext(t.Context(), "SHOW WARNINGS").Scan(new(string), new(int), &warn); err != nil || !strings.Contains(warn, "more than 2 tables") {
			t.Errorf("EXPLAIN FORMAT='plan_cache' warning %q (%v)", warn, err)
		}
		// The non-prepared cache serves the plain SELECT it is meant for.
		if np := find(t, rows, "select * from `t` where `a` = ? and `b` > ?"); np.hits < 290 {
			t.Errorf("the non-prepared cache did not serve %+v", np)
		}

		if rep.Advice.Verdict != "working" || slices.Contains(sizeAdvice, rep.Advice.Verdict) || len(rep.Advice.Changes) > 0 {
			t.Errorf("verdict %s (%s), changes %+v: want working, no cache change", rep.Advice.Verdict, rep.Advice.Summary, rep.Advice.Changes)
		}
		if len(rep.Reasons) != 0 {
			t.Errorf("reasons %+v: nothing was unqualified", rep.Reasons)
		}
	})

	// String-vs-integer comparisons (prepared and as text) and an OR
	// predicate: the top reason is the server's own text.
	t.Run("string-vs-integer and OR predicates", func(t *testing.T) {
		w.reset(t)
		w.runPrepared(t, 800, "SELECT * FROM t WHERE c = ?", func(i int) []any { return []any{fmt.Sprint(i % 7)} })
		w.runText(t, 300, func(i int) string { return fmt.Sprintf("SELECT a FROM t WHERE c = '%d'", i%7) })
		w.runPrepared(t, 300, "SELECT * FROM t WHERE a = ? AND (b = ? OR c = ?)", func(i int) []any { return []any{i % 10, "s1", i % 7} })
		rep := w.checkPlanCache(t)
		rows := w.summary(t)

		var reasons []string
		var unq int64
		for _, r := range rows {
			if r.unqualified > 0 {
				unq += r.unqualified
				if !slices.Contains(reasons, r.reason) {
					reasons = append(reasons, r.reason)
				}
			}
		}
		slices.Sort(reasons)
		if len(rep.Reasons) == 0 {
			t.Fatalf("no reasons; STATEMENTS_SUMMARY: %+v", rows)
		}
		top := rep.Reasons[0]
		if top.Key != "int-conversion" || !slices.Equal(top.Texts, reasons) || top.Unqualified != unq || !strings.Contains(reasons[0], "may be converted to INT") {
			t.Errorf("top reason %s %q (%d), want int-conversion with the server's %q (%d)", top.Key, top.Texts, top.Unqualified, reasons, unq)
		}
		// At this version an OR predicate does not stop the cache
		// (pingcap/tidb#56136 was narrowed by #61515 and #64265).
		or := find(t, rows, "select * from `t` where `a` = ? and ( `b` = ? or `c` = ? )")
		if or.unqualified != 0 || or.hits < 290 {
			t.Errorf("the OR predicate: %+v", or)
		}
		for _, r := range rep.Reasons {
			if r.Key == "or-simplification" {
				t.Errorf("an OR reason the server did not give: %+v", r)
			}
		}
		if rep.Advice.Verdict != "not-worth-enabling" || !strings.Contains(rep.Advice.Summary, "string value compared with an integer column") {
			t.Errorf("verdict %s: %s", rep.Advice.Verdict, rep.Advice.Summary)
		}
	})

	// A statement prepared, executed and closed for every execution (the
	// driver's db.Query with arguments) never hits a session cache; the
	// advice is the instance plan cache, and on the server it works.
	t.Run("prepared per execution: the instance plan cache", func(t *testing.T) {
		perExecution := func() {
			w.reset(t)
			for i := 0; i < 1200; i++ {
				rows, err := w.prepared.Query("SELECT * FROM t WHERE a = ? AND b > ?", i%10, "s")
				drain(t, rows, err)
			}
		}
		perExecution()
		rep := w.checkPlanCache(t)
		row := find(t, w.summary(t), "select * from `t` where `a` = ? and `b` > ?")
		if row.hits != 0 || !row.prepared {
			t.Fatalf("prepared per execution: %+v", row)
		}
		if rep.Advice.Verdict != "consider-instance-cache" || len(rep.Advice.Changes) != 1 || rep.Advice.Changes[0].Variable != "tidb_enable_instance_plan_cache" {
			t.Fatalf("verdict %s (%s), changes %+v", rep.Advice.Verdict, rep.Advice.Summary, rep.Advice.Changes)
		}
		w.r.Exec(t, "SET GLOBAL tidb_enable_instance_plan_cache = ON")
		perExecution()
		rep = w.checkPlanCache(t)
		row = find(t, w.summary(t), "select * from `t` where `a` = ? and `b` > ?")
		if row.hits < 1100 || rep.Advice.Verdict != "working" {
			t.Errorf("with the instance plan cache: %d hits, verdict %s (%s)", row.hits, rep.Advice.Verdict, rep.Advice.Summary)
		}
		w.r.Exec(t, "SET GLOBAL tidb_enable_instance_plan_cache = OFF")
	})

	// `check mvcc`: unistore sends coprocessor requests but reports no
	// keys, so the check says it cannot judge instead of "no reads".
	t.Run("mvcc on unistore", func(t *testing.T) {
		w.reset(t)
		w.runText(t, 20, func(i int) string { return fmt.Sprintf("UPDATE t SET c = c + 1 WHERE a = %d", i%10) })
		w.runText(t, 50, func(int) string { return "SELECT COUNT(*) FROM t WHERE c > 0" })
		out, errs, code := runCheckCmd(t, "check", "mvcc", "--format", "json", "--since", "1h", "--dsn", w.rootDSN)
		if code != 0 {
			t.Fatalf("check mvcc: exit %d\n%s\n%s", code, out, errs)
		}
		viewstest.Validate(t, "check-mvcc.schema.json", []byte(out))
		var doc views.MVCCCheck
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var cop int64
		for _, r := range w.summary(t) {
			cop += r.copTasks
			if r.totalKeys != 0 || r.processedKeys != 0 {
				t.Errorf("unistore reported keys: %+v", r)
			}
		}
		if cop == 0 || doc.MVCC.Verdict != "cannot-judge" || len(doc.MVCC.Tables) != 0 {
			t.Errorf("%d coprocessor tasks; verdict %s: %s", cop, doc.MVCC.Verdict, doc.MVCC.Summary)
		}
	})
}

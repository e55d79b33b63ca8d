package live

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/workload"
)

// The statement-statistics read against the emulator's seeded workloads
// (internal/tidbsim/testdata/workloads).

// clock pins the emulator's clock 10 minutes into a 30-minute window.
var clock = time.Date(2026, 11, 30, 9, 10, 0, 0, time.UTC)

func startWorkload(t *testing.T, name, ver string, faults ...tidbsim.FailRule) *tidbsimtest.Cluster {
	t.Helper()
	path := filepath.Join("..", "internal", "tidbsim", "testdata", "workloads", name+".json")
	return tidbsimtest.StartSeed(t, path, func(o *tidbsim.Options) {
		if ver != "" {
			o.Version = ver
		}
		o.Now = func() time.Time { return clock }
		o.Faults.FailStatements = faults
	})
}

// readWorkload inspects the variables and reads the statement statistics,
// returning the sample and the statements the read sent.
func readWorkload(t *testing.T, s *tidbsimtest.Cluster, q workload.Query) (*workload.Sample, []string) {
	t.Helper()
	db := openSim(t, s, "root", "")
	l, err := Inspect(ctxT(t), db, Request{AllVariables: true})
	if err != nil {
		t.Fatal(err)
	}
	mark := s.Mark()
	sample, err := ReadStatements(ctxT(t), db, l, StatementsRequest{Query: q})
	if err != nil {
		t.Fatalf("ReadStatements: %v", err)
	}
	sent := s.Since(mark)
	if diff := cmp.Diff(StatementsStatements(l, StatementsRequest{Query: q}), sent); diff != "" && sample.ClusterWide {
		t.Errorf("statements sent differ from StatementsStatements (-want +got):\n%s", diff)
	}
	return sample, sent
}

var day = workload.Query{Since: 24 * time.Hour, Limit: workload.DefaultLimit}

// The bar: a workload dominated by string-vs-number comparisons and OR
// predicates gives those as the top reasons and "not worth enabling".
func TestPlanCacheUnqualifiedWorkload(t *testing.T) {
	s := startWorkload(t, "plancache-unqualified", "")
	sample, sent := readWorkload(t, s, day)
	if len(sent) != 2 || !strings.Contains(sent[0], "CLUSTER_STATEMENTS_SUMMARY_HISTORY") || !strings.Contains(sent[0], "PLAN_CACHE_UNQUALIFIED_LAST_REASON") {
		t.Fatalf("sent %q", sent)
	}
	rep := workload.PlanCache(*sample)
	if rep.Reduced {
		t.Fatal("v8.5.1 report is reduced")
	}
	var keys []string
	for _, r := range rep.Reasons {
		keys = append(keys, r.Key)
	}
	if diff := cmp.Diff([]string{"int-conversion", "or-simplification"}, keys); diff != "" {
		t.Errorf("top reasons (-want +got):\n%s", diff)
	}
	if rep.Advice.Verdict != workload.VerdictNotWorth {
		t.Errorf("verdict %s (%s), want not-worth-enabling", rep.Advice.Verdict, rep.Advice.Summary)
	}
	if got, want := rep.All.Executions, int64(6*(8000+6000+2000)); got != want {
		t.Errorf("executions %d, want %d (commit left out)", got, want)
	}
	if rep.All.Unqualified != 6*(8000+6000) || rep.All.Hits != 6*1900 {
		t.Errorf("unqualified %d hits %d", rep.All.Unqualified, rep.All.Hits)
	}
	if !sample.From.Equal(time.Date(2026, 11, 30, 6, 30, 0, 0, time.UTC)) || !sample.To.Equal(time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("window %s – %s", sample.From, sample.To)
	}
}

// The bar: repeated point selects with a low hit ratio because the cache is
// too small give "raise tidb_session_plan_cache_size".
func TestPlanCacheSmallCacheWorkload(t *testing.T) {
	s := startWorkload(t, "plancache-small-cache", "")
	sample, _ := readWorkload(t, s, day)
	rep := workload.PlanCache(*sample)
	a := rep.Advice
	if a.Verdict != workload.VerdictRaiseSessionSize {
		t.Fatalf("verdict %s (%s), want raise-session-cache-size", a.Verdict, a.Summary)
	}
	want := []workload.Suggestion{{Variable: "tidb_session_plan_cache_size", Current: "20", Suggested: "50"}}
	if diff := cmp.Diff(want, a.Changes, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Why" }, cmp.Ignore())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// The bar: a v8.1 cluster gets the reduced report, which says what it cannot
// see; the read selects no column v8.1 lacks.
func TestPlanCacheReducedOnV81(t *testing.T) {
	s := startWorkload(t, "plancache-unqualified", "v8.1.2")
	sample, sent := readWorkload(t, s, day)
	if strings.Contains(sent[0], "PLAN_CACHE_UNQUALIFIED") {
		t.Errorf("v8.1 read selects PLAN_CACHE_UNQUALIFIED: %s", sent[0])
	}
	rep := workload.PlanCache(*sample)
	if !rep.Reduced || len(rep.CannotSee) == 0 || len(rep.Reasons) != 0 {
		t.Fatalf("reduced %v cannot-see %q reasons %v", rep.Reduced, rep.CannotSee, rep.Reasons)
	}
	if !strings.Contains(rep.CannotSee[0], "v8.1.2") || !strings.Contains(rep.CannotSee[0], "v8.2.0") {
		t.Errorf("cannot-see does not name the versions: %q", rep.CannotSee[0])
	}
	if rep.Advice.Verdict != workload.VerdictUndetermined {
		t.Errorf("verdict %s (%s), want undetermined", rep.Advice.Verdict, rep.Advice.Summary)
	}
}

// The bar: a queue-like table with total/processed keys above the threshold
// is found.
func TestMVCCQueueWorkload(t *testing.T) {
	s := startWorkload(t, "mvcc-queue", "")
	q := day
	q.Order = workload.ByScannedKeys
	sample, sent := readWorkload(t, s, q)
	if !strings.Contains(sent[0], "ORDER BY SCANNED_KEYS DESC") || !strings.Contains(sent[0], "AVG_ROCKSDB_DELETE_SKIPPED_COUNT") {
		t.Errorf("read: %s", sent[0])
	}
	rep := workload.MVCC(*sample, workload.MVCCOptions{})
	if rep.Verdict != workload.MVCCLikely || len(rep.Tables) == 0 || rep.Tables[0].Table != "shop.jobs" {
		t.Fatalf("verdict %s tables %+v", rep.Verdict, rep.Tables)
	}
	jobs := rep.Tables[0]
	if jobs.Verdict != workload.MVCCLikely || jobs.Statements[0].AvgDeleteSkipped != 1201000 {
		t.Errorf("jobs: %+v", jobs)
	}
	for _, tb := range rep.Tables {
		if tb.Table == "shop.orders" {
			t.Errorf("point selects listed: %+v", tb)
		}
	}
}

// Where CLUSTER_STATEMENTS_SUMMARY_HISTORY is hidden, the connected TiDB's
// own history is read and the sample says so.
func TestStatementsFallBackToLocalTable(t *testing.T) {
	s := startWorkload(t, "plancache-unqualified", "", tidbsim.FailRule{Match: "CLUSTER_STATEMENTS_SUMMARY_HISTORY", Code: 1142,
		Message: "SELECT command denied to user 'root'@'%' for table 'cluster_statements_summary_history'"})
	sample, sent := readWorkload(t, s, day)
	if len(sent) != 3 || !strings.Contains(sent[1], "FROM INFORMATION_SCHEMA.STATEMENTS_SUMMARY_HISTORY") {
		t.Fatalf("sent %q", sent)
	}
	if sample.ClusterWide || len(sample.Notes) == 0 || !strings.Contains(sample.Notes[0], "only the connected TiDB instance") {
		t.Errorf("cluster-wide %v notes %q", sample.ClusterWide, sample.Notes)
	}
	if len(sample.Statements) == 0 {
		t.Error("nothing read from the local table")
	}
}

// The row cap: more statement shapes than Limit are cut, and the sample says so.
func TestStatementsRowCap(t *testing.T) {
	s := startWorkload(t, "plancache-small-cache", "")
	q := day
	q.Limit = 5
	sample, sent := readWorkload(t, s, q)
	if !strings.HasSuffix(sent[0], "LIMIT 6") {
		t.Errorf("read: %s", sent[0])
	}
	if !sample.Truncated || len(sample.Statements) != 5 {
		t.Errorf("truncated %v, %d statements", sample.Truncated, len(sample.Statements))
	}
}

// --since keeps the windows that overlap it: at 09:10, 1h keeps the windows
// ending 09:30, 09:00 and 08:30.
func TestStatementsSince(t *testing.T) {
	s := startWorkload(t, "plancache-unqualified", "")
	q := day
	q.Since = time.Hour
	sample, _ := readWorkload(t, s, q)
	rep := workload.PlanCache(*sample)
	if got, want := rep.All.Executions, int64(3*(8000+6000+2000)); got != want {
		t.Errorf("executions over 1h: %d, want %d", got, want)
	}
}

// A plan's evidence read also reads the variables the report shows (a plan
// inspects only the declared ones): one more statement, and the advice sees
// the cluster's plan-cache settings.
func TestStatementsWithVariables(t *testing.T) {
	s := startWorkload(t, "plancache-small-cache", "")
	db := openSim(t, s, "root", "")
	l, err := Inspect(ctxT(t), db, Request{Variables: []string{"tidb_enable_instance_plan_cache"}})
	if err != nil {
		t.Fatal(err)
	}
	req := StatementsRequest{Query: day, Variables: true}
	n := len(s.QueryLog())
	sample, err := ReadStatements(ctxT(t), db, l, req)
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, e := range s.QueryLog()[n:] {
		sent = append(sent, e.SQL)
	}
	if diff := cmp.Diff(StatementsStatements(l, req), sent); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(sent) != 4 || !strings.HasPrefix(sent[0], "SHOW GLOBAL VARIABLES WHERE Variable_name IN (") {
		t.Errorf("sent %q", sent)
	}
	if got := sample.Variables["tidb_session_plan_cache_size"]; got != "20" {
		t.Errorf("tidb_session_plan_cache_size = %q, want the seeded 20", got)
	}
	if rep := workload.PlanCache(*sample); rep.Advice.Verdict != workload.VerdictRaiseSessionSize {
		t.Errorf("verdict %s", rep.Advice.Verdict)
	}
}

// An account without PROCESS sees only its own statements; the sample says
// so when every statement read is the reading account's.
func TestStatementsWithoutProcessPrivilege(t *testing.T) {
	seed, err := tidbsim.LoadSeed(filepath.Join("..", "internal", "tidbsim", "testdata", "workloads", "plancache-unqualified.json"))
	if err != nil {
		t.Fatal(err)
	}
	o := seed.Options()
	o.Now = func() time.Time { return clock }
	o.StatementsSummary = append(o.StatementsSummary, tidbsim.StatementStat{Columns: map[string]any{
		"DIGEST_TEXT": "select ?", "SAMPLE_USER": "tiform", "EXEC_COUNT": 3}})
	o.SQL = append(o.SQL, tidbsim.SeedCreateUser("tiform", "%", "pw", ""), tidbsim.SeedGrant("tiform", "%", "SELECT"))
	s := tidbsimtest.Start(t, o)
	db := openSim(t, s, "tiform", "pw")
	l, err := Inspect(ctxT(t), db, Request{AllVariables: true})
	if err != nil {
		t.Fatal(err)
	}
	sample, err := ReadStatements(ctxT(t), db, l, StatementsRequest{Query: day, User: "tiform"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sample.Statements) != 1 || len(sample.Notes) != 1 || !strings.Contains(sample.Notes[0], "PROCESS") {
		t.Errorf("statements %d, notes %q", len(sample.Statements), sample.Notes)
	}
}

// Clip cuts at a character boundary, says the size the cluster sent, and
// keeps that size when a text cut before is cut again.
func TestClip(t *testing.T) {
	if got := Clip("short", 10); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := Clip(long, 11)
	if want := strings.Repeat("é", 5) + ClippedSuffix + "0.2 KiB)"; got != want {
		t.Errorf("Clip = %q, want %q", got, want)
	}
	big := strings.Repeat("x", 30<<20)
	once := Clip(big, MaxCellBytes)
	twice := Clip(once, MaxStatementText)
	if !strings.HasSuffix(twice, ClippedSuffix+"30.0 MiB)") || len(twice) > MaxStatementText+len(ClippedSuffix)+20 {
		t.Errorf("clipped twice: %d bytes ending %q", len(twice), twice[len(twice)-60:])
	}
}

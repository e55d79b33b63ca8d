package workload

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Every reason text TiDB writes (pkg/planner/core/plan_cacheable_checker.go,
// the expression rewriter, predicate simplification) finds its explanation.
func TestExplain(t *testing.T) {
	for text, want := range map[string]string{
		"'12345' may be converted to INT":                                                             "int-conversion",
		"OR predicate simplification is triggered":                                                    "or-simplification",
		"True/False predicate simplification is triggered":                                            "true-false-simplification",
		"query has sub-queries is un-cacheable":                                                       "subquery",
		"queries that have sub-queries are not supported":                                             "subquery",
		"the switch 'tidb_enable_plan_cache_for_subquery' is off":                                     "subquery",
		"PhysicalApply plan is un-cacheable":                                                          "subquery",
		"queries that have more than 2 tables are not supported":                                      "join-too-wide",
		"queries that have hints, having-clause, window-function are not supported":                   "non-prepared-shape",
		"queries that access views are not supported":                                                 "non-prepared-shape",
		"query has 'limit ?' is un-cacheable":                                                         "limit",
		"the switch 'tidb_enable_plan_cache_for_param_limit' is off":                                  "limit",
		"query has 'order by ?' is un-cacheable":                                                      "order-group-by-param",
		"only support group by {columns}'":                                                            "order-group-by-param",
		"query has ? in window function frames is un-cacheable":                                       "order-group-by-param",
		"query has 'database' is un-cacheable":                                                        "uncacheable-function",
		"query has un-cacheable functions":                                                            "uncacheable-function",
		"query has user-defined variables is un-cacheable":                                            "user-variable",
		"query has null constants":                                                                    "null-constant",
		"query has some filters with JSON, Enum, Set or Bit columns":                                  "json-enum-set-bit",
		"query accesses partitioned tables is un-cacheable if tidb_partition_pruning_mode = 'static'": "table-kind",
		"query accesses temporary tables is un-cacheable":                                             "table-kind",
		"not a SELECT statement":                                                                      "not-cacheable-statement",
		"too many values in in-list":                                                                  "too-many-parameters",
		"query has too many constants":                                                                "too-many-parameters",
		"plan is too large(decided by the variable @@tidb_plan_cache_max_plan_size)":                  "plan-too-large",
		"get a TableDual plan":                                                                        "plan-shape",
		"TiFlash plan is un-cacheable":                                                                "plan-shape",
		"ignore plan cache by hint":                                                                   "hint",
		"something TiDB adds later":                                                                   "other",
	} {
		r := Explain(text)
		if r.Key != want {
			t.Errorf("Explain(%q) = %s, want %s", text, r.Key, want)
		}
		if r.Title == "" || r.Meaning == "" || r.Fix == "" || !strings.HasPrefix(r.Link, "https://") {
			t.Errorf("%s: incomplete explanation %+v", r.Key, r)
		}
	}
}

// stmt is a prepared SELECT: n executions, hits, unqualified with reason,
// lat and compile in ms per execution.
func stmt(digest string, n, hits, unq int64, lat, compile float64, reason string) Statement {
	s := Statement{Digest: digest, Text: "select " + digest, Tables: []string{"app." + digest}, Type: "Select", Prepared: true,
		Executions: n, CacheHits: hits, Unqualified: unq,
		Latency: time.Duration(lat * float64(n) * float64(time.Millisecond)), CompileTime: time.Duration(compile * float64(n) * float64(time.Millisecond))}
	if reason != "" {
		s.Reasons = map[string]int64{reason: unq}
	}
	return s
}

func sample(ver string, vars map[string]string, stmts ...Statement) Sample {
	return Sample{Statements: stmts, Source: "INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY", ClusterWide: true,
		Query: Query{Since: 24 * time.Hour, Limit: DefaultLimit}, Version: ver, Unqualified: ver >= "v8.2.0", Variables: vars}
}

func shapes(n int, execs, hits int64) []Statement {
	var out []Statement
	for i := 0; i < n; i++ {
		out = append(out, stmt(string(rune('a'+i%26))+strings.Repeat("x", i/26), execs, hits, 0, 1.0, 0.3, ""))
	}
	return out
}

// Each branch of the recommendation, from the figures that decide it.
func TestPlanCacheAdvice(t *testing.T) {
	on := map[string]string{VarPreparedCache: "ON", VarNonPreparedCache: "OFF", VarInstanceCache: "OFF", VarSessionCacheSize: "100"}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range on {
			m[a] = b
		}
		m[k] = v
		return m
	}
	nonPrepared := stmt("np", 50000, 0, 0, 1, 0.3, "")
	nonPrepared.Prepared = false
	for _, tc := range []struct {
		name    string
		s       Sample
		verdict Verdict
		summary string
	}{
		{"too little traffic", sample("v8.5.1", on, stmt("a", 500, 0, 0, 1, 0.3, "")), VerdictNoData, "too little traffic to judge: 500 executions"},
		{"mostly uncacheable", sample("v8.5.1", on, stmt("a", 8000, 0, 8000, 2, 0.4, "'1' may be converted to INT"), stmt("b", 2000, 1900, 0, 1, 0.3, "")),
			VerdictNotWorth, "80% of executions cannot use the cache; top reason: string value compared with an integer column"},
		{"compiling is negligible", sample("v8.5.1", on, stmt("a", 5000, 0, 0, 50, 0.1, "")), VerdictNotWorth, "compiling the misses takes only <1% of statement time"},
		{"working", sample("v8.5.1", on, stmt("a", 10000, 9500, 0, 1, 0.3, "")), VerdictWorking, "95% of the executions that can use it hit"},
		{"session cache too small", sample("v8.5.1", with(VarSessionCacheSize, "20"), shapes(40, 3000, 300)...), VerdictRaiseSessionSize, "raise tidb_session_plan_cache_size from 20 to 50"},
		{"instance cache too small", sample("v8.5.1", with(VarInstanceCache, "ON"), shapes(40, 3000, 300)...), VerdictRaiseInstanceSize, "raise tidb_instance_plan_cache_max_size"},
		{"fits but misses: v8.5", sample("v8.5.1", on, shapes(10, 3000, 300)...), VerdictInstanceCache, "plans are compiled per session"},
		{"fits but misses: v8.2 has no instance cache", sample("v8.2.0", on, shapes(10, 3000, 300)...), VerdictUndetermined, "TiDB v8.2.0 has no instance plan cache"},
		{"reduced", sample("v8.1.2", on, shapes(10, 3000, 300)...), VerdictUndetermined, "does not record why statements miss"},
		{"reduced, working", sample("v8.1.2", on, stmt("a", 10000, 9500, 0, 1, 0.3, "")), VerdictWorking, "the plan cache works"},
		{"no cache for non-prepared statements", sample("v8.5.1", on, nonPrepared), VerdictIdle, "the non-prepared cache is OFF"},
	} {
		rep := PlanCache(tc.s)
		if rep.Advice.Verdict != tc.verdict || !strings.Contains(rep.Advice.Summary, tc.summary) {
			t.Errorf("%s: %s: %s\nwant %s containing %q", tc.name, rep.Advice.Verdict, rep.Advice.Summary, tc.verdict, tc.summary)
		}
		if len(rep.Advice.Evidence) == 0 {
			t.Errorf("%s: advice without evidence", tc.name)
		}
	}
}

// The figures: weighted by executions and by latency, split prepared / not,
// other statement kinds and system tables left out, reasons grouped by kind.
func TestPlanCacheFigures(t *testing.T) {
	commit := Statement{Digest: "c", Text: "commit", Type: "Commit", Executions: 9000, Latency: time.Second}
	own := Statement{Digest: "i", Text: "select * from information_schema.cluster_info", Type: "Select", Tables: []string{"information_schema.cluster_info"}, Executions: 7}
	a := stmt("a", 1000, 900, 0, 1, 0.2, "")
	b := stmt("b", 1000, 0, 1000, 3, 0.5, "'7' may be converted to INT")
	b2 := stmt("b", 500, 0, 500, 3, 0.5, "'8' may be converted to INT") // another window, another literal
	np := stmt("n", 2000, 1000, 500, 1, 0.2, "query has null constants")
	np.Prepared = false
	rep := PlanCache(sample("v8.5.1", map[string]string{VarNonPreparedCache: "ON"}, a, b, b2, np, commit, own))
	want := Ratio{Digests: 3, Executions: 4500, Hits: 1900, Unqualified: 2000, Latency: 7500 * time.Millisecond,
		HitLatency: 1900 * time.Millisecond, CompileTime: 1350 * time.Millisecond, MissCompileTime: 970 * time.Millisecond}
	if diff := cmp.Diff(want, rep.All); diff != "" {
		t.Errorf("all (-want +got):\n%s", diff)
	}
	if rep.Prepared.Executions != 2500 || rep.NonPrepared.Executions != 2000 || rep.OtherExecutions != 9007 {
		t.Errorf("prepared %d non-prepared %d other %d", rep.Prepared.Executions, rep.NonPrepared.Executions, rep.OtherExecutions)
	}
	if got := []float64{rep.All.ByExecutions(), rep.All.ByLatency()}; !cmp.Equal(got, []float64{1900.0 / 4500, 1900.0 / 7500}, cmpopts.EquateApprox(0, 1e-9)) {
		t.Errorf("ratios %v", got)
	}
	var keys []string
	for _, r := range rep.Reasons {
		keys = append(keys, r.Key)
	}
	if diff := cmp.Diff([]string{"int-conversion", "null-constant"}, keys); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if r := rep.Reasons[0]; r.Unqualified != 1500 || r.Digests != 1 || !cmp.Equal(r.Texts, []string{"'7' may be converted to INT", "'8' may be converted to INT"}) {
		t.Errorf("int-conversion %+v", r)
	}
	if g := rep.Gains[0]; g.Digest != "b" || g.Blocker.Key != "int-conversion" || g.MissCompileTime != 750*time.Millisecond {
		t.Errorf("top gain %+v", g)
	}
	if rep.CacheableShapes != 2 { // a, and n (non-prepared cache ON); b never qualifies
		t.Errorf("cacheable shapes %d", rep.CacheableShapes)
	}
}

// What the real server shows (cmd/real_workload_test.go, tidb-server at
// pingcap/tidb@e4e814fdc0af): a point get sent as text never uses a cache;
// a prepared one does, recorded as PREPARED = 0; non-prepared DML is outside
// the non-prepared cache while its DML switch is off; a non-prepared
// statement the cache refuses before planning records nothing. None of them
// is a miss, and a statement that reads no table is left out.
func TestPlanCacheNotCounted(t *testing.T) {
	text := func(s Statement) Statement { s.Prepared, s.TextProtocol = false, true; return s }
	point := func(s Statement) Statement { s.PointPlan = true; return s }
	pointText := point(text(stmt("pt", 5000, 0, 0, 0.2, 0.01, ""))) // SELECT … WHERE id = 1, as text
	mixed := point(text(stmt("pm", 1000, 400, 0, 0.2, 0.01, "")))   // the same digest prepared and as text
	pointBinary := point(stmt("pb", 1000, 990, 0, 0.2, 0.01, ""))   // prepared: binary protocol only
	pointBinary.Prepared = false                                    // as TiDB records it
	cached := stmt("c", 3000, 2970, 0, 1, 0.3, "")
	dml := text(stmt("u", 700, 0, 0, 1, 0.3, ""))
	dml.Type, dml.Text = "Update", "update `t` set `c` = ? where `a` = ?"
	forUpdate := text(stmt("f", 300, 0, 0, 1, 0.3, ""))
	forUpdate.Text = "select * from `t` where `a` = ? for update"
	join3 := text(stmt("j", 200, 0, 0, 2, 0.5, ""))
	noTable := text(stmt("v", 900, 0, 0, 0.1, 0.05, ""))
	noTable.Tables = nil
	batch := point(text(stmt("b", 250, 0, 0, 0.2, 0.01, ""))) // a batch point get shows no TABLE_NAMES
	batch.Tables = nil
	on := map[string]string{VarNonPreparedCache: "ON"}
	rep := PlanCache(sample("v9.0.0", on, pointText, mixed, pointBinary, cached, dml, forUpdate, join3, noTable, batch))

	got := map[NotCountedKind]int64{}
	for _, nc := range rep.NotCounted {
		got[nc.Kind] = nc.Executions
		if nc.Title == "" || nc.Meaning == "" || nc.Check == "" || nc.Example == "" {
			t.Errorf("%s: incomplete %+v", nc.Kind, nc)
		}
	}
	want := map[NotCountedKind]int64{NotCountedPointGet: 5000 + 600 + 250, NotCountedNonPreparedDML: 700 + 300, NotCountedNotRecorded: 200}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("not counted (-want +got):\n%s", diff)
	}
	if rep.OtherExecutions != 900 {
		t.Errorf("a statement without tables is other: %d", rep.OtherExecutions)
	}
	if rep.All.Bypassed != 6850 || rep.All.NotRecorded != 200 || rep.All.Judged() != 11450-7050 {
		t.Errorf("all %+v", rep.All)
	}
	// The binary-protocol point get is a prepared statement's.
	if rep.Prepared.Executions != 1000+3000 {
		t.Errorf("prepared %+v", rep.Prepared)
	}
	// Hits 400 + 990 + 2970 of 4400 judged: the cache works, no size advice.
	if rep.Advice.Verdict != VerdictWorking {
		t.Errorf("verdict %s: %s", rep.Advice.Verdict, rep.Advice.Summary)
	}
	if !strings.Contains(strings.Join(rep.Advice.Evidence, "\n"), "not counted as misses: 5,850 point gets sent as SQL text") {
		t.Errorf("evidence %q", rep.Advice.Evidence)
	}
	// With the DML switch on, DML is judged (and, never hitting, not recorded).
	rep = PlanCache(sample("v9.0.0", map[string]string{VarNonPreparedCache: "ON", VarNonPreparedDML: "ON"}, dml))
	if len(rep.NotCounted) != 1 || rep.NotCounted[0].Kind != NotCountedNotRecorded {
		t.Errorf("DML switch on: %+v", rep.NotCounted)
	}
	// A workload of text point gets alone is no evidence for any cache.
	rep = PlanCache(sample("v9.0.0", on, pointText))
	if rep.Advice.Verdict != VerdictNoData || !strings.Contains(rep.Advice.Summary, "5,000 more that no plan cache serves") {
		t.Errorf("point gets only: %s: %s", rep.Advice.Verdict, rep.Advice.Summary)
	}
}

func TestMVCC(t *testing.T) {
	read := func(digest, table string, n int64, total, processed, deleted float64) Statement {
		return Statement{Digest: digest, Text: "select " + digest, Type: "Select", Tables: SplitTables(table), Executions: n,
			Latency: time.Duration(n) * 10 * time.Millisecond, TotalKeys: total * float64(n), ProcessedKeys: processed * float64(n), DeleteSkipped: deleted * float64(n)}
	}
	for _, tc := range []struct {
		name    string
		stmts   []Statement
		opts    MVCCOptions
		verdict MVCCVerdict
		tables  []string
	}{
		{"queue table", []Statement{read("q", "app.jobs", 100, 1358517, 2, 1201000), read("p", "app.users", 1000, 1, 1, 0)}, MVCCOptions{}, MVCCLikely, []string{"app.jobs"}},
		{"nothing processed", []Statement{read("q", "app.jobs", 10, 5000, 0, 0)}, MVCCOptions{}, MVCCLikely, []string{"app.jobs"}},
		{"small amplification", []Statement{read("s", "app.a", 100, 500, 20, 0)}, MVCCOptions{}, MVCCPossible, []string{"app.a"}},
		{"below the live threshold", []Statement{read("s", "app.a", 100, 500, 20, 0)}, MVCCOptions{Threshold: 50, ThresholdSource: "x"}, MVCCUnlikely, nil},
		{"two tables in one statement", []Statement{read("j", "app.a,app.b", 10, 100000, 10, 0)}, MVCCOptions{}, MVCCLikely, []string{"app.a", "app.b"}},
		{"tiny scans", []Statement{read("t", "app.a", 100, 50, 1, 0)}, MVCCOptions{}, MVCCUnlikely, nil},
		{"no reads", []Statement{{Digest: "i", Type: "Insert", Executions: 10}}, MVCCOptions{}, MVCCNoData, nil},
		// unistore sends coprocessor requests but reports no keys.
		{"reads without key figures", []Statement{{Digest: "s", Type: "Select", Tables: []string{"a.t"}, Executions: 10, CopTasks: 10}}, MVCCOptions{}, MVCCCannotJudge, nil},
	} {
		s := sample("v8.5.1", nil, tc.stmts...)
		rep := MVCC(s, tc.opts)
		var tables []string
		for _, tb := range rep.Tables {
			tables = append(tables, tb.Table)
		}
		if rep.Verdict != tc.verdict || !cmp.Equal(tables, tc.tables) {
			t.Errorf("%s: %s %v (%s), want %s %v", tc.name, rep.Verdict, tables, rep.Summary, tc.verdict, tc.tables)
		}
		if rep.Headline() == "" || len(rep.Watch) == 0 {
			t.Errorf("%s: no headline or watch list", tc.name)
		}
	}
}

func TestIMESettings(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"true", "true"}, "true"}, {[]string{"false"}, "false"}, {[]string{"true", "false"}, "mixed"}} {
		if got := IMEState(tc.in); got != tc.want {
			t.Errorf("IMEState(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if o := ThresholdFrom([]string{"20", "20"}); o.Threshold != 20 || o.ThresholdSource == "" {
		t.Errorf("agreeing instances: %+v", o)
	}
	for _, in := range [][]string{nil, {"20", "30"}, {"x"}, {"0"}} {
		if o := ThresholdFrom(in); o.Threshold != 0 {
			t.Errorf("ThresholdFrom(%v) = %+v, want the default", in, o)
		}
	}
}

func TestFormat(t *testing.T) {
	for f, want := range map[float64]string{0: "0%", 0.001: "<1%", 0.125: "13%", 0.9999: ">99%", 1: "100%"} {
		if got := Pct(f); got != want {
			t.Errorf("Pct(%v) = %s, want %s", f, got, want)
		}
	}
	for d, want := range map[time.Duration]string{30 * time.Minute: "30m", 24 * time.Hour: "24h", 90 * time.Minute: "1h30m", 168 * time.Hour: "7d"} {
		if got := Span(d); got != want {
			t.Errorf("Span(%v) = %s, want %s", d, got, want)
		}
	}
	if got := Ms(1500 * time.Microsecond); got != "1.5 ms" {
		t.Errorf("Ms = %s", got)
	}
	if got := Count(1234567); got != "1,234,567" {
		t.Errorf("Count = %s", got)
	}
}

func TestQueryValidate(t *testing.T) {
	if err := (Query{Since: DefaultSince, Limit: DefaultLimit}).Validate(); err != nil {
		t.Error(err)
	}
	for _, q := range []Query{{Since: time.Second, Limit: 1}, {Since: time.Hour, Limit: 0}, {Since: 1000 * time.Hour, Limit: 1}, {Since: time.Hour, Limit: MaxLimit + 1}} {
		if err := q.Validate(); err == nil {
			t.Errorf("%+v accepted", q)
		}
	}
}

func TestNeedFor(t *testing.T) {
	for _, tc := range []struct {
		kind, comp, key string
		want            Need
	}{
		{"variable", "tidb", "tidb_enable_instance_plan_cache", Need{PlanCache: true}},
		{"variable", "tidb", "TIDB_SESSION_PLAN_CACHE_SIZE", Need{PlanCache: true}},
		{"variable", "tidb", "tidb_gc_life_time", Need{}},
		{"config", "tikv", "in-memory-engine.enable", Need{MVCC: true}},
		{"config", "tikv", "in-memory-engine.capacity", Need{}},
		{"config", "pd", "in-memory-engine.enable", Need{}},
	} {
		if got := NeedFor(tc.kind, tc.comp, tc.key); got != tc.want {
			t.Errorf("NeedFor(%s, %s, %s) = %+v", tc.kind, tc.comp, tc.key, got)
		}
	}
}

// A plan file keeps the evidence exactly, and refuses what it does not know.
func TestEvidenceRoundTrip(t *testing.T) {
	pointText := stmt("p", 100, 0, 0, 0.2, 0.01, "")
	pointText.Prepared, pointText.PointPlan, pointText.TextProtocol = false, true, true
	pc := PlanCache(sample("v8.5.1", map[string]string{VarSessionCacheSize: "20"}, append(shapes(3, 3000, 300), stmt("z", 5000, 0, 5000, 2, 0.4, "OR predicate simplification is triggered"), pointText)...))
	if len(pc.NotCounted) != 1 {
		t.Fatalf("not counted %+v", pc.NotCounted)
	}
	pc.From, pc.To = time.Date(2026, 11, 30, 6, 30, 0, 0, time.UTC), time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)
	s := sample("v8.5.1", map[string]string{VarGCLifeTime: "10m0s"}, Statement{Digest: "q", Text: "select q", Type: "Select", Tables: []string{"a.q"},
		Executions: 10, TotalKeys: 10 * 5000, ProcessedKeys: 10})
	m := MVCC(s, MVCCOptions{})
	for _, ev := range []*Evidence{{PlanCache: &pc, MVCC: &m}, {Unavailable: "planned from a snapshot"}} {
		raw, err := MarshalEvidence(ev)
		if err != nil {
			t.Fatal(err)
		}
		got, err := UnmarshalEvidence(raw)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ev, got, cmpopts.IgnoreUnexported(Reason{}), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
	if got, err := UnmarshalEvidence(nil); got != nil || err != nil {
		t.Errorf("empty: %v %v", got, err)
	}
	for _, bad := range []string{`{"format_version": 2}`, `{"format_version": 1, "surprise": 1}`, `[`} {
		if _, err := UnmarshalEvidence(json.RawMessage(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

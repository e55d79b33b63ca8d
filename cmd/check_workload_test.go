package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views/viewstest"
	"github.com/tiform/tiform/workload"
)

// `tiform check plan-cache`, `tiform check mvcc` and a plan's evidence
// against the emulator's seeded workloads (internal/tidbsim/testdata/workloads).

func startWorkloadSim(t *testing.T, name, ver string) *tidbsimtest.Cluster {
	t.Helper()
	return tidbsimtest.StartSeed(t, workloadSeed(name), func(o *tidbsim.Options) {
		if ver != "" {
			o.Version = ver
		}
		o.Now = func() time.Time { return time.Date(2026, 11, 30, 9, 10, 0, 0, time.UTC) }
	})
}

// sent returns the statements the emulator received since the query log
// had n entries, and how many connections sent them.
func sent(s *tidbsimtest.Cluster, n int) (stmts []string, conns int) {
	ids := map[uint32]bool{}
	for _, e := range s.QueryLog()[n:] {
		ids[e.ConnID] = true
		stmts = append(stmts, strings.TrimSpace(e.SQL))
	}
	return stmts, len(ids)
}

// readOnly is what a statement that cannot write looks like: a SELECT
// without INTO / FOR UPDATE / LOCK, or a SHOW.
var readOnly = regexp.MustCompile(`(?is)^(SELECT\b|SHOW\b)`)
var writes = regexp.MustCompile(`(?i)\b(INTO|FOR\s+UPDATE|LOCK\s+IN|GET_LOCK|SET|INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|GRANT|ADMIN)\b`)

// stringLiterals are the statement's quoted strings, which hold data (a
// LIKE pattern naming an Update_ operator), not keywords.
var stringLiterals = regexp.MustCompile(`'(?:[^']|'')*'`)

// The bar: `check` never sends a statement that writes, in any format, on
// any version (query log).
func TestChecksNeverWrite(t *testing.T) {
	for _, tc := range []struct{ workload, version string }{
		{"plancache-unqualified", ""}, {"plancache-unqualified", "v8.1.2"}, {"plancache-small-cache", ""}, {"mvcc-queue", ""},
	} {
		s := startWorkloadSim(t, tc.workload, tc.version)
		for _, args := range [][]string{
			{"check"}, {"check", "plan-cache"}, {"check", "mvcc"},
			{"check", "plan-cache", "--format", "json"}, {"check", "mvcc", "--format", "markdown", "--since", "1h", "--limit", "3"},
		} {
			n := len(s.QueryLog())
			_, errs, code := runCheckCmd(t, append(args, "--dsn", s.DSN("root", ""))...)
			if code != 0 {
				t.Fatalf("%s %v: exit %d: %s", tc.workload, args, code, errs)
			}
			stmts, _ := sent(s, n)
			if len(stmts) == 0 {
				t.Fatalf("%v sent nothing", args)
			}
			for _, q := range stmts {
				if !readOnly.MatchString(q) || strings.HasPrefix(strings.ToUpper(q), "SELECT") && writes.MatchString(stringLiterals.ReplaceAllString(q, "''")) {
					t.Errorf("%s %v sent a statement that may write: %s", tc.workload, args, q)
				}
			}
		}
	}
}

// One statement on the statement summary, whatever the workload size: on one
// connection, the plan-cache check sends 7 statements, the MVCC check 9 (TiKV
// config too), besides the connection's sql_mode check.
func TestCheckStatementBudget(t *testing.T) {
	for _, tc := range []struct {
		name, workload string
		args           []string
		want           int
	}{
		{"plan-cache, 3 shapes", "plancache-unqualified", []string{"check", "plan-cache"}, 7},
		{"plan-cache, 40 shapes", "plancache-small-cache", []string{"check", "plan-cache"}, 7},
		{"mvcc", "mvcc-queue", []string{"check", "mvcc"}, 9},
	} {
		s := startWorkloadSim(t, tc.workload, "")
		n := len(s.QueryLog())
		if _, errs, code := runCheckCmd(t, append(tc.args, "--dsn", s.DSN("root", ""))...); code != 0 {
			t.Fatalf("%s: %s", tc.name, errs)
		}
		stmts, conns := sent(s, n)
		if conns != 1 {
			t.Errorf("%s: %d connections, want 1", tc.name, conns)
		}
		summary := 0
		for _, q := range stmts {
			if strings.Contains(q, "STATEMENTS_SUMMARY") {
				summary++
			}
		}
		if len(stmts) != tc.want || summary != 1 {
			t.Errorf("%s: %d statements (%d on the statement summary), want %d (1):\n%s", tc.name, len(stmts), summary, tc.want, strings.Join(stmts, "\n"))
		}
	}
}

// The bar's scenarios through the CLI, with the JSON checked against
// workload.schema.json.
func TestCheckWorkloadScenarios(t *testing.T) {
	for _, tc := range []struct {
		name, workload, version string
		args                    []string
		want                    []string
		json                    []string
	}{
		{"string-vs-number and OR predicates", "plancache-unqualified", "", []string{"check", "plan-cache"},
			[]string{"1. string value compared with an integer column: 50% of executions (48,000)",
				"2. OR predicate simplification (tidb#56136): 38% of executions (36,000)",
				"Recommendation (not-worth-enabling): not worth enabling more plan caching: 88% of executions cannot use the cache"},
			[]string{`"verdict": "not-worth-enabling"`, `"key": "int-conversion"`, `"key": "or-simplification"`}},
		{"cache too small", "plancache-small-cache", "", []string{"check", "plan-cache"},
			[]string{"Recommendation (raise-session-cache-size): raise tidb_session_plan_cache_size from 20 to 50",
				"tidb_session_plan_cache_size: 20 → 50"},
			[]string{`"verdict": "raise-session-cache-size"`, `"suggested": "50"`}},
		{"v8.1 reduced", "plancache-unqualified", "v8.1.2", []string{"check", "plan-cache"},
			[]string{"Reduced report. What it cannot see:", "TiDB v8.1.2 does not record PLAN_CACHE_UNQUALIFIED", "cannot use the cache  compile time of misses"},
			[]string{`"reduced": true`, `"unqualified": null`, `"verdict": "undetermined"`}},
		{"queue-like table", "mvcc-queue", "", []string{"check", "mvcc"},
			[]string{"shop.jobs: likely-to-help", "1,358,517 versions scanned for 2 keys kept per execution", "1,201,000 RocksDB tombstones skipped",
				"warning[TF133]: In-Memory Engine on TiKV v8.5.1 has known bugs", "warning[TF131]", "After enabling, watch:"},
			[]string{`"verdict": "likely-to-help"`, `"table": "shop.jobs"`, `"code": "TF133"`, `"enabled": "false"`}},
	} {
		s := startWorkloadSim(t, tc.workload, tc.version)
		dsn := s.DSN("root", "")
		out, errs, code := runCheckCmd(t, append(tc.args, "--dsn", dsn)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: text lacks %q:\n%s", tc.name, w, out)
			}
		}
		js, errs, code := runCheckCmd(t, append(tc.args, "--dsn", dsn, "--format", "json")...)
		if code != 0 {
			t.Fatalf("%s json: %s", tc.name, errs)
		}
		for _, w := range tc.json {
			if !strings.Contains(js, w) {
				t.Errorf("%s: JSON lacks %s:\n%s", tc.name, w, js)
			}
		}
		viewstest.Validate(t, "check-"+tc.args[1]+".schema.json", []byte(js))
		md, _, _ := runCheckCmd(t, append(tc.args, "--dsn", dsn, "--format", "markdown")...)
		if !strings.HasPrefix(md, "## tiform check ") || strings.ContainsRune(md, 0x1b) {
			t.Errorf("%s: markdown:\n%s", tc.name, md)
		}
	}
}

// Bad flags are refused before anything is read.
func TestCheckWorkloadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"check", "plan-cache", "--since", "10s"}, {"check", "mvcc", "--limit", "0"}, {"check", "mvcc", "--limit", "99999"},
		{"check", "plan-cache", "--format", "yaml"}, {"check", "plan-cache", "--since", "800h"},
	} {
		_, errs, code := runCheckCmd(t, append(args, "--dsn", "root@tcp(127.0.0.1:1)/")...)
		if code != 1 || !strings.Contains(errs, "--") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	if _, errs, code := runCheckCmd(t, "check", "plan-cache"); code != 1 || !strings.Contains(errs, "no cluster to read") {
		t.Errorf("no DSN: exit %d, stderr %q", code, errs)
	}
}

// Evidence in plans: one bounded read (the statement summary, followed by
// SHOW WARNINGS) only when the plan changes a plan-cache variable or
// in-memory-engine.enable. The variables shown with the figures are read once,
// with the declared ones, by the inspection (live.RequestFor), whose
// statements are exactly those of live.Statements.
func TestPlanReadsEvidenceOnlyWhenNeeded(t *testing.T) {
	s := startWorkloadSim(t, "plancache-unqualified", "")
	dsn := s.DSN("root", "")
	v851 := &state.Live{ServerVersionParsed: version.MustParse("v8.5.1")}
	evidence := live.StatementsStatements(v851, live.StatementsRequest{
		Query: workload.Query{Since: workload.DefaultSince, Limit: workload.DefaultLimit}})
	declaring := func(name string) live.Request {
		return live.RequestFor(&state.DesiredCluster{Variables: []state.VariableSetting{{Name: name}}})
	}
	for _, tc := range []struct {
		name, hcl string
		inspect   live.Request
		evidence  bool
		want      []string
	}{
		{"no plan-cache change", "tikv {\n  split {\n    qps-threshold = 4000\n  }\n}\n",
			live.RequestFor(&state.DesiredCluster{Config: []state.ConfigSetting{{Component: state.TiKV, Key: "split.qps-threshold"}}}), false, nil},
		{"a plan-cache variable left as it is", "variables {\n  tidb_enable_prepared_plan_cache = true\n}\n",
			declaring("tidb_enable_prepared_plan_cache"), false, nil},
		{"enable the instance plan cache", "variables {\n  tidb_enable_instance_plan_cache = true\n}\n",
			declaring("tidb_enable_instance_plan_cache"), true,
			[]string{"Evidence from the cluster's statement statistics:", "warning[TF126]: enabling tidb_enable_instance_plan_cache against the cluster's figures",
				"info[TF125]: tidb_enable_instance_plan_cache OFF → ON: hit ratio 12% of executions (4% of latency) over 24h"}},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(tc.hcl), 0o644); err != nil {
			t.Fatal(err)
		}
		n := len(s.QueryLog())
		out, errs, code := runCheckCmd(t, "plan", "--chdir", dir, "--dsn", dsn)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errs)
		}
		want := live.Statements(tc.inspect)
		if tc.evidence {
			want = append(want, evidence...)
		}
		got, conns := sent(s, n)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: statements (-want +got):\n%s", tc.name, diff)
		}
		if conns != 1 {
			t.Errorf("%s: %d connections, want 1 (the evidence read reuses the inspection's)", tc.name, conns)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: plan lacks %q:\n%s", tc.name, w, out)
			}
		}
	}
}

// check mvcc without the CONFIG privilege: the TiKV config only refines the
// report, so it goes on without it and says what it could not see.
func TestCheckMVCCWithoutConfigPrivilege(t *testing.T) {
	s := tidbsimtest.StartSeed(t, workloadSeed("mvcc-queue"), func(o *tidbsim.Options) {
		o.SQL = append(o.SQL, tidbsim.SeedCreateUser("reader", "%", "pw", ""), tidbsim.SeedGrant("reader", "%", "SELECT", "PROCESS"))
	})
	out, errs, code := runCheckCmd(t, "check", "mvcc", "--dsn", s.DSN("reader", "pw"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"shop.jobs: likely-to-help", "In-Memory Engine on this cluster: in-memory-engine.enable = unknown.",
		"the TiKV config could not be read", "Threshold: 10 versions scanned per key kept (the In-Memory Engine's default"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

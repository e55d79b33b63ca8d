package tidbsim_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/workload"
)

// The statements tiform itself sends, taken from tiform rather than written
// here: a plan and an apply of tiformHCL run against a scratch emulator of
// the same version, and its query log is the corpus (the session's sql_mode
// check, the inspection, the apply lock, the statements of every change,
// SHOW WARNINGS, the read-backs, the release), followed by a full
// inspection (live.Everything) and the statement-statistics read of `tiform
// check` (live.StatementsStatements). The scratch cluster only decides what
// tiform sends; the corpus then runs on the compared pair like any other.

// tiformHCL declares what the corpus plans: variables of each kind, groups
// with every option, users bound to them.
const tiformHCL = `
variables {
  tidb_enable_non_prepared_plan_cache = true
  tidb_gc_life_time                   = "20m"
  tidb_txn_mode                       = "optimistic"
  tidb_session_plan_cache_size        = 200
  tidb_auto_analyze_ratio             = 0.7
  tidb_mem_quota_query                = 2147483648
}

resource_group "default" {
  background {
    task_types        = ["br", "ddl"]
    utilization_limit = 40
  }
}

resource_group "oltp" {
  ru_per_sec = 20000
  priority   = "HIGH"
  burstable  = true
  users      = ["app@%"]
}

resource_group "batch" {
  ru_per_sec = "UNLIMITED"
  priority   = "low"
  burstable  = false
}

resource_group "reporting" {
  ru_per_sec = 3000
  query_limit {
    exec_elapsed   = "60s"
    processed_keys = 1000000
    action         = "SWITCH_GROUP"
    switch_group   = "batch"
    watch          = "SIMILAR"
    watch_duration = "10m"
  }
  users = ["report@%"]
}
`

// tiformSetup creates the accounts tiformHCL binds, on the scratch cluster
// and (as corpus statements) on the compared pair.
var tiformSetup = []string{
	"CREATE USER 'app'@'%' IDENTIFIED BY 'app-pw'",
	"CREATE USER 'report'@'%' IDENTIFIED BY 'report-pw'",
}

// tiformCorpus returns what tiform sends to plan and apply tiformHCL, then
// to read everything and its statement statistics, on a cluster of version.
func tiformCorpus(t *testing.T, version string) []stmt {
	t.Helper()
	scratch := tidbsimtest.Start(t, tidbsim.Options{Version: version, TiKV: 1})
	scratch.Exec(t, tiformSetup...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mark := scratch.Mark()
	d, diags := schema.LoadFiles(".", map[string][]byte{"main.hcl": []byte(tiformHCL)}, schema.Options{DefaultDSN: scratch.RootDSN()})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	dc := d.Clusters[0]
	db, err := live.Open(ctx, dc.DSN, live.ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := live.Inspect(ctx, db, live.RequestFor(dc))
	if err != nil {
		t.Fatal(err)
	}
	cp, err := planner.BuildCluster(dc, l, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) == 0 {
		t.Fatal("tiform corpus: the plan has no changes")
	}
	rep, err := applier.Apply(ctx, db, cp, applier.Options{Desired: dc, RollbackPath: filepath.Join(t.TempDir(), "rollback.tfplan")})
	if err != nil {
		t.Fatalf("tiform corpus: apply on the scratch cluster: %v", err)
	}
	if !rep.Complete() {
		t.Fatalf("tiform corpus: apply on the scratch cluster did not complete")
	}
	everything, err := live.Inspect(ctx, db, live.Everything())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.ReadStatements(ctx, db, everything, live.StatementsRequest{Query: workload.Query{Since: time.Hour, Limit: 50}, Variables: true}); err != nil {
		t.Fatal(err)
	}
	var out []stmt
	for i, sql := range tiformSetup {
		out = append(out, x("tiform/setup-"+string(rune('a'+i)), sql))
	}
	for i, sql := range scratch.Since(mark) {
		out = append(out, tiformStmt(i, sql))
	}
	// undo what the apply did, so the corpora that follow start from a
	// server in its initial state
	out = append(out,
		x("tiform/undo-users", "DROP USER 'app'@'%', 'report'@'%'"),
		x("tiform/undo-reporting", "DROP RESOURCE GROUP reporting"),
		x("tiform/undo-oltp", "DROP RESOURCE GROUP oltp"),
		x("tiform/undo-batch", "DROP RESOURCE GROUP batch"),
		x("tiform/undo-default", "ALTER RESOURCE GROUP `default` BACKGROUND = NULL"))
	for _, v := range []string{"tidb_enable_non_prepared_plan_cache", "tidb_gc_life_time", "tidb_txn_mode", "tidb_session_plan_cache_size", "tidb_auto_analyze_ratio", "tidb_mem_quota_query"} {
		out = append(out, x("tiform/undo-"+v, "SET GLOBAL "+v+" = DEFAULT"))
	}
	return out
}

// tiformStmt labels one statement tiform sent by what it is; a statement
// whose rows are the server's own (the connection id next to the lock
// holder, the statement statistics, the uptime of CLUSTER_INFO) is compared
// by the rule the other corpora use for it.
func tiformStmt(i int, sql string) stmt {
	words := strings.Fields(strings.ToLower(sql))
	for i, w := range words {
		words[i] = strings.Trim(w, "`'(),*")
	}
	kind := strings.Join(words[:min(2, len(words))], "-")
	s := stmt{Label: "tiform/" + kind + "/" + seq(i), SQL: sql}
	upper := strings.ToUpper(sql)
	switch {
	case strings.HasPrefix(upper, "SET "), strings.HasPrefix(upper, "CREATE "), strings.HasPrefix(upper, "ALTER "), strings.HasPrefix(upper, "DROP "):
		s.Exec = true
	case strings.Contains(upper, "STATEMENTS_SUMMARY"):
		s.Shape = true
	case strings.Contains(upper, "CONNECTION_ID()"):
		s.Normalize = sameConnection
	}
	return s
}

// seq numbers a statement in three digits, so labels sort in order.
func seq(i int) string {
	return string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

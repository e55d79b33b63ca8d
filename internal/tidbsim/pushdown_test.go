package tidbsim

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/version"
)

// exactQueries have WHERE clauses an exact filter serves (Filter.Exact).
var exactQueries = []string{
	"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('tikv') AND LOWER(`KEY`) IN ('gc.ratio-threshold', 'coprocessor.region-split-size', 'no.such-key')",
	"SELECT `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE LCASE(`KEY`) = 'GC.RATIO-THRESHOLD'",
	"SELECT COUNT(*) FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE `KEY` IN ('log.level', 'Log.Level') AND TYPE = 'tidb'",
	"SELECT `KEY` FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE LOWER(`KEY`) = 'a' AND LOWER(`KEY`) = 'b'",
	"SHOW GLOBAL VARIABLES WHERE Variable_name IN ('tidb_gc_life_time', 'TIDB_GC_RUN_INTERVAL', 'no_such_variable')",
	"SHOW VARIABLES WHERE LOWER(Variable_name) IN ('tidb_gc_life_time', 'sql_mode')",
	"SHOW SESSION VARIABLES WHERE Variable_name = 'sql_mode' AND Value = 'x'",
	"SHOW GLOBAL VARIABLES WHERE LOWER(Variable_name) IN ('TIDB_GC_LIFE_TIME') AND Variable_name IN ('tidb_gc_life_time')",
	"SHOW GLOBAL VARIABLES WHERE Variable_name = 'tidb_gc_life_time' AND Variable_name = 'tidb_gc_life_time'",
}

// TestExactFilterChangesNothing: the rows an exact filter lets a table leave
// out (Filter.Keep) change no answer, warning or contact count. Each
// statement runs as written (exact) and with `AND 1 = 1` appended, which
// makes the filter inexact and so reads every row.
func TestExactFilterChangesNothing(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{TiKV: 3})
	srv.Cluster.SetInstanceDown(srv.Cluster.InstancesOf(TypeTiKV)[1].Address, true)
	s := srv.NewSession("root")
	// The first statement must find rows and warn (a TiKV is down), or the
	// comparisons below prove little.
	if rows, warns, _ := execAll(t, s, exactQueries[0]); len(rows) == 0 || len(warns) == 0 {
		t.Fatalf("%s: %d rows, %d warnings; want some of each", exactQueries[0], len(rows), len(warns))
	}
	for _, q := range exactQueries {
		exact, exactWarns, exactContacts := execAll(t, s, q)
		full, fullWarns, fullContacts := execAll(t, s, q+" AND 1 = 1")
		if d := cmp.Diff(full, exact); d != "" {
			t.Errorf("%s: rows differ from the full read (-full +exact):\n%s", q, d)
		}
		if d := cmp.Diff(fullWarns, exactWarns); d != "" {
			t.Errorf("%s: warnings differ from the full read (-full +exact):\n%s", q, d)
		}
		if exactContacts != fullContacts {
			t.Errorf("%s: %d contacts, the full read makes %d", q, exactContacts, fullContacts)
		}
	}
}

// execAll runs q on s and returns its rows, warnings and contacts.
func execAll(t *testing.T, s *Session, q string) ([][]Value, []Warning, int) {
	t.Helper()
	res, err := s.Exec(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res.Rows, s.Warnings(), s.stmtContacts
}

// TestSysVarNamesLowerCase: every variable is keyed by its name, in lower
// case, as VarTarget.matching (and lookupSysVar) assume.
func TestSysVarNamesLowerCase(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"6.5.0", "7.1.0", "7.5.4", "8.1.2", "8.5.1", "9.0.0"} {
		for k, d := range sysVarDefsAt(version.MustParse(v)) {
			if k != d.Name || strings.ToLower(k) != k {
				t.Errorf("v%s: variable %q is keyed %q", v, d.Name, k)
			}
		}
	}
}

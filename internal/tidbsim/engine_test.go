package tidbsim

import (
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testTable is a virtual table used only by the engine tests; its columns
// include the reserved word KEY, like CLUSTER_CONFIG.
// testTableFilters records the filters of reads by the session in
// testTableWatch (nil: record nothing); guarded by testTableMu because
// parallel tests read the table from many connections at once.
var (
	testTableMu      sync.Mutex
	testTableWatch   *Session
	testTableFilters []*Filter
)

func init() {
	RegisterTable(&Table{
		Schema:  "tidbsim_test",
		Name:    "items",
		Columns: []Column{{Name: "TYPE"}, {Name: "KEY"}, {Name: "VALUE"}, {Name: "N", Type: ColBigInt}},
		Rows: func(s *Session, f *Filter) ([][]Value, error) {
			testTableMu.Lock()
			if s != nil && s == testTableWatch {
				testTableFilters = append(testTableFilters, f)
			}
			testTableMu.Unlock()
			return [][]Value{
				{Str("tikv"), Str("coprocessor.region-split-size"), Str("96MiB"), Int(3)},
				{Str("tikv"), Str("log.level"), Str("info"), Int(1)},
				{Str("pd"), Str("schedule.max-merge-region-size"), Str("20"), Int(2)},
				{Str("pd"), Str("a_b%c"), Null, Int(4)},
			}, nil
		},
	})
}

func TestSelectExpressions(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	tests := []struct {
		name, q string
		want    [][]string
	}{
		{"select 1", "SELECT 1", [][]string{{"1"}}},
		{"arith and strings", "select 1+2, 'a', \"b\", -3, 1.50, NULL", [][]string{{"3", "a", "b", "-3", "1.50", "NULL"}}},
		{"comparisons", "SELECT 1=1, 1!=1, 1<>2, 'a'='a', 'a'='A', 2>1, 2<=1", [][]string{{"1", "0", "1", "1", "0", "1", "0"}}},
		{"null logic", "SELECT NULL=1, NULL IS NULL, 1 IS NOT NULL, NULL AND 0, NULL OR 1, NOT NULL", [][]string{{"NULL", "1", "1", "0", "1", "NULL"}}},
		{"in", "SELECT 2 IN (1,2), 'x' NOT IN ('y','z'), 3 IN (1, NULL)", [][]string{{"1", "1", "NULL"}}},
		{"in a list of strings", "SELECT 'b' IN ('a','b'), 'B' IN ('a','b'), 'b' NOT IN ('a','b'), 1 IN ('1','2'), 'x' IN ('y', NULL)", [][]string{{"1", "0", "0", "1", "NULL"}}},
		{"like", `SELECT 'abc' LIKE 'a%', 'abc' LIKE 'a_c', 'abc' LIKE 'A%', 'a%c' LIKE 'a\%c', 'abc' LIKE 'a\%c', 'a_c' LIKE 'a|_c' ESCAPE '|', 'abc' NOT LIKE '%d'`, [][]string{{"1", "1", "0", "1", "0", "1", "1"}}},
		{"parentheses and precedence", "SELECT (1 OR 0) AND 0, 1 OR 0 AND 0, NOT 1 = 2", [][]string{{"0", "1", "1"}}},
		{"from dual", "SELECT 1 FROM DUAL", [][]string{{"1"}}},
		{"version function", "SELECT VERSION()", [][]string{{"8.0.11-TiDB-v8.5.1"}}},
		{"comments", "/* c */ SELECT 1 -- trailing\n", [][]string{{"1"}}},
		{"table scan with reserved column", "SELECT `key`, value FROM tidbsim_test.items WHERE type = 'tikv'", [][]string{{"coprocessor.region-split-size", "96MiB"}, {"log.level", "info"}}},
		{"case-insensitive names", "select `KEY` from TIDBSIM_TEST.Items where TYPE='pd' and `Key` like 'schedule%'", [][]string{{"schedule.max-merge-region-size"}}},
		{"order by desc and limit", "SELECT n FROM tidbsim_test.items ORDER BY n DESC LIMIT 2", [][]string{{"4"}, {"3"}}},
		{"order by alias and offset", "SELECT n AS x FROM tidbsim_test.items ORDER BY x LIMIT 1, 2", [][]string{{"2"}, {"3"}}},
		{"star", "SELECT * FROM tidbsim_test.items WHERE n = 4", [][]string{{"pd", "a_b%c", "NULL", "4"}}},
		{"like escape in table", `SELECT n FROM tidbsim_test.items WHERE ` + "`key`" + ` LIKE 'a\_b\%c'`, [][]string{{"4"}}},
		{"is null in table", "SELECT n FROM tidbsim_test.items WHERE value IS NULL", [][]string{{"4"}}},
		{"or", "SELECT n FROM tidbsim_test.items WHERE n = 1 OR n = 2 ORDER BY 1", [][]string{{"1"}, {"2"}}},
		{"string functions", "SELECT LOWER('TiKV'), UPPER('pd'), CONCAT('a', 1, 'b'), CONCAT('a', NULL), LENGTH('abc'), REPLACE('a-b-c', '-', '_'), TRIM('  x  ')", [][]string{{"tikv", "PD", "a1b", "NULL", "3", "a_b_c", "x"}}},
		{"substring_index", "SELECT SUBSTRING_INDEX('127.0.0.1:20160', ':', 1), SUBSTRING_INDEX('127.0.0.1:20160', ':', -1), SUBSTRING_INDEX('a.b.c', '.', -2), SUBSTRING_INDEX('abc', '.', 1)", [][]string{{"127.0.0.1", "20160", "b.c", "abc"}}},
		{"null functions", "SELECT IFNULL(NULL, 'd'), IFNULL('x', 'd'), COALESCE(NULL, NULL, 3), IF(1 = 1, 'y', 'n'), IF(NULL, 'y', 'n')", [][]string{{"d", "x", "3", "y", "n"}}},
		{"functions over a table", "SELECT UPPER(type), COUNT(*) FROM tidbsim_test.items WHERE LOWER(type) = 'tikv' GROUP BY UPPER(type)", [][]string{{"TIKV", "2"}}},
		{"charset introducer", "SELECT _binary'abc', _utf8mb4'x' = 'x'", [][]string{{"abc", "1"}}},
		{"count star", "SELECT COUNT(*) FROM tidbsim_test.items WHERE type = 'tikv'", [][]string{{"2"}}},
		{"count over nothing", "SELECT COUNT(*), MIN(n), SUM(n) FROM tidbsim_test.items WHERE n > 100", [][]string{{"0", "NULL", "NULL"}}},
		{"aggregates", "SELECT COUNT(value), COUNT(DISTINCT type), MIN(`key`), MAX(n), SUM(n) FROM tidbsim_test.items", [][]string{{"3", "2", "a_b%c", "4", "10"}}},
		{"group by", "SELECT type, COUNT(*) AS c, MIN(n) FROM tidbsim_test.items GROUP BY type ORDER BY c DESC, type", [][]string{{"pd", "2", "2"}, {"tikv", "2", "1"}}},
		{"distinct", "SELECT DISTINCT type FROM tidbsim_test.items ORDER BY type", [][]string{{"pd"}, {"tikv"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := queryRows(t, db, tc.q)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%s (-want +got):\n%s", tc.q, d)
			}
		})
	}
}

func TestAggregateErrors(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	for q, code := range map[string]uint16{
		"SELECT n FROM tidbsim_test.items WHERE COUNT(*) > 1": 1111,
		"SELECT COUNT(*), * FROM tidbsim_test.items":          1140,
		"SELECT COUNT(* FROM tidbsim_test.items":              1064,
	} {
		_, err := db.Exec(q)
		if me := mysqlErr(t, err); me.Number != code {
			t.Errorf("%s: %d %s, want %d", q, me.Number, me.Message, code)
		}
	}
}

func TestColumnNames(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	rows, err := db.Query("SELECT 1, VERSION(), 'x', 2 AS two, `key` k FROM tidbsim_test.items LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if d := cmp.Diff([]string{"1", "VERSION()", "x", "two", "k"}, cols); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
}

func TestPushDownFilter(t *testing.T) {
	// not parallel: reads the package-level testTableFilters.
	srv := startServer(t, Options{})
	s := srv.NewSession("root")
	testTableMu.Lock()
	testTableWatch = s
	testTableMu.Unlock()
	t.Cleanup(func() {
		testTableMu.Lock()
		testTableWatch, testTableFilters = nil, nil
		testTableMu.Unlock()
	})
	type pushed struct {
		Equal, Lower map[string][]string
		Exact        bool
	}
	tests := []struct {
		q    string
		want pushed
		emp  bool
	}{
		{"SELECT 1 FROM tidbsim_test.items WHERE type = 'tikv' AND `key` IN ('a', 'b')", pushed{Equal: map[string][]string{"TYPE": {"tikv"}, "KEY": {"a", "b"}}, Exact: true}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE 'pd' = type OR n = 1", pushed{Equal: map[string][]string{}}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE type = 'pd' AND type IN ('pd','tikv')", pushed{Equal: map[string][]string{"TYPE": {"pd"}}, Exact: true}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE type = 'pd' AND type = 'tikv'", pushed{}, true},
		// LOWER(col) is recorded only while every conjunct compares with
		// string literals; a contradiction in it still reads the table.
		{"SELECT 1 FROM tidbsim_test.items WHERE type IN ('tikv') AND (LOWER(`key`) IN ('log.level', 'x'))", pushed{Equal: map[string][]string{"TYPE": {"tikv"}}, Lower: map[string][]string{"KEY": {"log.level", "x"}}, Exact: true}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE lcase(`key`) = 'a' AND lower(`key`) = 'b'", pushed{Equal: map[string][]string{}, Lower: map[string][]string{"KEY": nil}, Exact: true}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE LOWER(`key`) IN ('log.level') AND n = 1", pushed{Equal: map[string][]string{"N": {"1"}}}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE LOWER(`key`) IN ('log.level') AND value LIKE 'i%'", pushed{Equal: map[string][]string{}}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE type NOT IN ('pd') AND `key` = 'log.level'", pushed{Equal: map[string][]string{"KEY": {"log.level"}}}, false},
		{"SELECT 1 FROM tidbsim_test.items WHERE UPPER(`key`) = 'LOG.LEVEL'", pushed{Equal: map[string][]string{}}, false},
	}
	for _, tc := range tests {
		testTableMu.Lock()
		testTableFilters = nil
		testTableMu.Unlock()
		if _, err := s.Exec(tc.q); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		testTableMu.Lock()
		got := testTableFilters
		testTableMu.Unlock()
		if tc.emp {
			if len(got) != 0 {
				t.Errorf("%s: contradiction must skip the table, got %d reads", tc.q, len(got))
			}
			continue
		}
		if len(got) != 1 {
			t.Fatalf("%s: want one read, got %d", tc.q, len(got))
		}
		if d := cmp.Diff(tc.want, pushed{Equal: got[0].Equal, Lower: got[0].Lower, Exact: got[0].Exact}); d != "" {
			t.Errorf("%s: filter (-want +got):\n%s", tc.q, d)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	tests := []struct {
		q, near string
		col     int
	}{
		// shape of TiDB's parser errors: column just after the offending token,
		// near = the rest of the statement (TiDB parser errors, corpus messages.tsv).
		{"SAVEPOINT sp0x102cf8960", "SAVEPOINT sp0x102cf8960", 9},
		{"SHOW TABLE catalog1.orders", "TABLE catalog1.orders", 10},
		{"INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (1)", 6},
		{"SELECT key FROM tidbsim_test.items", "key FROM tidbsim_test.items", 10},
		{"SELECT 1 FROM", "", 13},
		{"SELECT 1 garbage garbage", "garbage", 24},
		{"SELECT 'unterminated", "'unterminated", 20},
	}
	for _, tc := range tests {
		_, err := db.Exec(tc.q)
		me := mysqlErr(t, err)
		want := fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your TiDB version for the right syntax to use line 1 column %d near \"%s\" ", tc.col, tc.near)
		if me.Number != 1064 || me.Message != want {
			t.Errorf("%s:\n got %d %q\nwant 1064 %q", tc.q, me.Number, me.Message, want)
		}
	}
}

func TestShowWarningsAfterError(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	_, err := db.Exec("SELECT nosuchcol")
	me := mysqlErr(t, err)
	if me.Number != 1054 || me.Message != "Unknown column 'nosuchcol' in 'field list'" {
		t.Fatalf("got %d %q", me.Number, me.Message)
	}
	want := [][]string{{"Error", "1054", "Unknown column 'nosuchcol' in 'field list'"}}
	if d := cmp.Diff(want, warnings(t, db)); d != "" {
		t.Errorf("SHOW WARNINGS (-want +got):\n%s", d)
	}
	// SHOW WARNINGS keeps the diagnostics; SHOW ERRORS shows the error too.
	if d := cmp.Diff(want, queryRows(t, db, "SHOW ERRORS")); d != "" {
		t.Errorf("SHOW ERRORS (-want +got):\n%s", d)
	}
	// the next statement clears them
	queryRows(t, db, "SELECT 1")
	if d := cmp.Diff([][]string{}, warnings(t, db)); d != "" {
		t.Errorf("after SELECT 1 (-want +got):\n%s", d)
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	if err := openDBAs(t, srv, "root", "").Ping(); err != nil {
		t.Fatalf("root with empty password: %v", err)
	}
	err := openDBAs(t, srv, "root", "secret").Ping()
	me := mysqlErr(t, err)
	if me.Number != 1045 {
		t.Errorf("root with wrong password: got %d %s", me.Number, me.Message)
	}
}

func TestNativePasswordCheck(t *testing.T) {
	salt := []byte("0123456789abcdefghij")
	stored := NativePasswordHash("s3cret")
	if !checkNativePassword(stored, salt, scrambleNative(salt, "s3cret")) {
		t.Error("correct password rejected")
	}
	if checkNativePassword(stored, salt, scrambleNative(salt, "other")) {
		t.Error("wrong password accepted")
	}
	if checkNativePassword(stored, salt, nil) {
		t.Error("empty reply accepted for a password user")
	}
	if !checkNativePassword("", salt, nil) || checkNativePassword("", salt, scrambleNative(salt, "x")) {
		t.Error("empty stored password must accept exactly the empty reply")
	}
}

func TestQueryLog(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	queryRows(t, db, "SELECT 1")
	db.Exec("BOGUS")
	var got []string
	for _, e := range srv.QueryLog() {
		got = append(got, e.SQL)
		if e.Instance != srv.Addr() || e.User != "root" {
			t.Errorf("entry %+v: want instance %s user root", e, srv.Addr())
		}
	}
	if d := cmp.Diff([]string{"SELECT 1", "BOGUS"}, got); d != "" {
		t.Errorf("query log (-want +got):\n%s", d)
	}
	// per connection
	other := openDB(t, srv)
	queryRows(t, other, "SELECT 2")
	log := srv.QueryLog()
	if d := cmp.Diff([]string{"SELECT 1", "BOGUS"}, srv.Cluster.QueriesOf(log[0].ConnID)); d != "" {
		t.Errorf("first connection (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"SELECT 2"}, srv.Cluster.QueriesOf(log[2].ConnID)); d != "" {
		t.Errorf("second connection (-want +got):\n%s", d)
	}
}

// Bound parameters are interpolated by the driver (DSN interpolateParams=true),
// including []byte arguments written as _binary'...'.
func TestBoundParameters(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	got := queryRows(t, db, "SELECT `key` FROM tidbsim_test.items WHERE type = ? AND n IN (?, ?) AND value = ?", "tikv", 1, 3, []byte("96MiB"))
	if d := cmp.Diff([][]string{{"coprocessor.region-split-size"}}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	got = queryRows(t, db, "SELECT ?", "it's \"quoted\" \\ ok")
	if got[0][0] != "it's \"quoted\" \\ ok" {
		t.Errorf("escaping: %q", got[0][0])
	}
}

// With CLIENT_MULTI_STATEMENTS each statement of the text runs in turn.
func TestMultiStatements(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db, err := sql.Open("mysql", srv.DSN("root", "")+"&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET CONFIG tikv `log.level` = 'warn'; SET CONFIG pd `log.level` = 'error';"); err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]string{"127.0.0.1:20160": "warn", "127.0.0.1:2379": "error"} {
		if v, _ := srv.Cluster.ConfigValue(addr, "log.level"); v != want {
			t.Errorf("%s: %s, want %s", addr, v, want)
		}
	}
	var got []string
	for _, e := range srv.QueryLog() {
		got = append(got, e.SQL)
	}
	if d := cmp.Diff([]string{"SET CONFIG tikv `log.level` = 'warn';", " SET CONFIG pd `log.level` = 'error';"}, got); d != "" {
		t.Errorf("log (-want +got):\n%s", d)
	}
	if _, err := db.Exec("SELECT 1; BOGUS"); err == nil {
		t.Error("the failing second statement must report its error")
	}
}

// Server-side prepared statements (a DSN without interpolateParams).
func TestPreparedStatements(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db, err := sql.Open("mysql", "root@tcp("+srv.Addr()+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := queryRows(t, db, "SELECT `key`, n FROM tidbsim_test.items WHERE type = ? AND n IN (?, ?) AND value = ?", "tikv", 1, 3, []byte("96MiB"))
	if d := cmp.Diff([][]string{{"coprocessor.region-split-size", "3"}}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	got = queryRows(t, db, "SELECT ?, ?, ?", "it's \\ '?'", nil, 1.5)
	if d := cmp.Diff([][]string{{"it's \\ '?'", "NULL", "1.5"}}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// Unknown functions: 1046 without a current database, 1305 with one (TiDB's
// own tests: "[planner:1046]No database selected", "FUNCTION test.xxx does not exist").
func TestUnknownFunction(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	db := openDB(t, srv)
	_, err := db.Exec("SELECT xxx(1)")
	if me := mysqlErr(t, err); me.Number != 1046 || me.Message != "No database selected" {
		t.Errorf("no db: %d %q", me.Number, me.Message)
	}
	_, err = db.Exec("SELECT * FROM information_schema.nosuch")
	if me := mysqlErr(t, err); me.Number != 1146 || me.Message != "Table 'information_schema.nosuch' doesn't exist" {
		t.Errorf("missing table: %d %q", me.Number, me.Message)
	}
	_, err = db.Exec("SELECT * FROM nosuch")
	if me := mysqlErr(t, err); me.Number != 1046 {
		t.Errorf("no db: %d %q", me.Number, me.Message)
	}
	if _, err := db.Exec("USE nosuchdb"); err == nil || mysqlErr(t, err).Number != 1049 {
		t.Errorf("USE nosuchdb: %v", err)
	}
	if _, err := db.Exec("USE test"); err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec("SELECT xxx(1)")
	if me := mysqlErr(t, err); me.Number != 1305 || me.Message != "FUNCTION test.xxx does not exist" {
		t.Errorf("db test: %d %q", me.Number, me.Message)
	}
}

package tidbsimtest

import (
	"database/sql"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/tiform/tiform/internal/tidbsim"
)

func TestStart(t *testing.T) {
	c := Start(t, tidbsim.Options{TiKV: 2})
	if got := c.Addresses(tidbsim.TypeTiKV); len(got) != 2 {
		t.Fatalf("tikv addresses %q", got)
	}
}

// TestBackends: both backends answer through one harness: a user's DSN, the
// query log of what clients sent, Exec behind the client's back.
func TestBackends(t *testing.T) {
	Each(t, Needs{}, tidbsim.Options{TiKV: 2}, func(t *testing.T, c Backend) {
		testBackend(t, c)
	})
}

func testBackend(t *testing.T, c Backend) {
	dsn := c.AddUser(t, "tiform", "Pw-1")
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mark := c.Mark()
	var v string
	if err := db.QueryRow("SELECT @@GLOBAL.tidb_gc_enable").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if got := c.Since(mark); len(got) != 1 || got[0] != "SELECT @@GLOBAL.tidb_gc_enable" {
		t.Errorf("Since = %q", got)
	}
	if c.Count("tidb_gc_enable") != 1 {
		t.Errorf("Count = %d", c.Count("tidb_gc_enable"))
	}
	c.Exec(t, "SET GLOBAL tidb_gc_enable = OFF")
	WaitFor(t, func() bool {
		_ = db.QueryRow("SELECT @@GLOBAL.tidb_gc_enable").Scan(&v)
		return v == "0"
	})
	// a statement prepared through the driver's binary protocol is logged
	// (the real server's log has its text with placeholders, then EXECUTE;
	// the emulator's the statement it ran)
	db2, err := sql.Open("mysql", strings.Replace(dsn, "interpolateParams=true", "interpolateParams=false", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	mark = c.Mark()
	if err := db2.QueryRow("SELECT @@GLOBAL.tidb_gc_enable + ?", 1).Scan(&v); err != nil {
		t.Fatal(err)
	}
	if got := c.Since(mark); len(got) == 0 || !strings.HasPrefix(got[0], "SELECT @@GLOBAL.tidb_gc_enable + ") {
		t.Errorf("prepared: Since = %q", got)
	}
}

// TestRealVersion: the real server reports the version tools/tidbserver
// labels it with, in every place TiDB prints one.
func TestRealVersion(t *testing.T) {
	r := StartReal(t, RealOptions{})
	if !strings.HasPrefix(r.Version, "v9.0.0-beta.2.pre-20251126-") {
		t.Fatalf("version %q", r.Version)
	}
	db, err := sql.Open("mysql", r.RootDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v, ci string
	if err := db.QueryRow("SELECT VERSION()").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO WHERE TYPE = 'tidb'").Scan(&ci); err != nil {
		t.Fatal(err)
	}
	if v != "8.0.11-TiDB-"+r.Version || "v"+ci != r.Version {
		t.Errorf("VERSION() %q, CLUSTER_INFO %q, want %s", v, ci, r.Version)
	}
}

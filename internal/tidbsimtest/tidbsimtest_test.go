package tidbsimtest

import (
	"database/sql"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/tiform/tiform/internal/tidbsim"
)

func TestStart(t *testing.T) {
	c := Start(t, tidbsim.Options{TiKV: 2})
	if got := c.Addresses(tidbsim.TypeTiKV); len(got) != 2 {
		t.Fatalf("tikv addresses %q", got)
	}
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
}

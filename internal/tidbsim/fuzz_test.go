package tidbsim

import (
	"testing"
	"time"
)

// FuzzStatement: no statement text may panic the engine; every failure is an
// SQL error.
func FuzzStatement(f *testing.F) {
	for _, s := range []string{
		"SELECT 1", "SELECT `key`, value FROM information_schema.cluster_config WHERE type = 'tikv' AND `key` LIKE 'a\\%' ESCAPE '!'",
		"SHOW CONFIG WHERE type='tikv' AND name IN ('a','b')", "SET CONFIG tikv `log.level` = 'warn'", "SET CONFIG '127.0.0.1:20160' a.b = -1.5e3",
		"SELECT COUNT(*), MIN(version) FROM information_schema.cluster_info GROUP BY type ORDER BY 2 DESC LIMIT 1, 2", "SHOW WARNINGS LIMIT 1",
		"/* x */ select @@global.x, @y, 'a''b', \"c\\\"d\"", "SELECT (1", "SELECT 'x", "SET CONFIG pd `schedule.max-merge-region-size` = DEFAULT",
	} {
		f.Add(s)
	}
	srv, err := Start(Options{TiKV: 1, TiFlash: 1})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	s := srv.NewSession("root")
	f.Fuzz(func(t *testing.T, sql string) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, err := s.Exec(sql)
			if err != nil {
				if _, ok := err.(*SQLError); !ok {
					t.Errorf("%q: error %T %v is not an *SQLError", sql, err, err)
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: statement did not finish", sql)
		}
	})
}

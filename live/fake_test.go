package live

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
)

// A scripted database/sql driver for paths the emulator cannot produce
// (TiDB's server-version override, unparseable builds). Each statement's
// answer is looked up by exact text; anything else fails the test.

type fakeAnswer struct {
	cols []string
	rows [][]driver.Value
	err  error
}

type fakeDB struct {
	mu      sync.Mutex
	answers map[string]fakeAnswer
	sent    []string
}

func (f *fakeDB) Open(string) (driver.Conn, error) { return &fakeConn{db: f}, nil }

type fakeConn struct{ db *fakeDB }

func (c *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, fmt.Errorf("fake: no prepare") }
func (c *fakeConn) Close() error                        { return nil }
func (c *fakeConn) Begin() (driver.Tx, error)           { return nil, fmt.Errorf("fake: no tx") }

func (c *fakeConn) QueryContext(_ context.Context, q string, _ []driver.NamedValue) (driver.Rows, error) {
	c.db.mu.Lock()
	defer c.db.mu.Unlock()
	c.db.sent = append(c.db.sent, q)
	a, ok := c.db.answers[q]
	if !ok {
		if q == stmtWarnings {
			return &fakeRows{cols: []string{"Level", "Code", "Message"}}, nil
		}
		return nil, fmt.Errorf("fake: unexpected statement %q", q)
	}
	if a.err != nil {
		return nil, a.err
	}
	return &fakeRows{cols: a.cols, rows: a.rows}, nil
}

type fakeRows struct {
	cols []string
	rows [][]driver.Value
	i    int
}

func (r *fakeRows) Columns() []string { return r.cols }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i >= len(r.rows) {
		return io.EOF
	}
	copy(dest, r.rows[r.i])
	r.i++
	return nil
}

type fakeConnector struct{ db *fakeDB }

func (c fakeConnector) Connect(context.Context) (driver.Conn, error) { return &fakeConn{db: c.db}, nil }
func (c fakeConnector) Driver() driver.Driver                        { return c.db }

func openFake(t *testing.T, answers map[string]fakeAnswer) (*sql.DB, *fakeDB) {
	f := &fakeDB{answers: answers}
	db := sql.OpenDB(fakeConnector{db: f})
	t.Cleanup(func() { db.Close() })
	return db, f
}

func one(col, v string) fakeAnswer {
	return fakeAnswer{cols: []string{col}, rows: [][]driver.Value{{v}}}
}

func clusterInfo(rows ...[4]string) fakeAnswer {
	a := fakeAnswer{cols: []string{"TYPE", "INSTANCE", "STATUS_ADDRESS", "VERSION"}}
	for _, r := range rows {
		a.rows = append(a.rows, []driver.Value{r[0], r[1], r[2], r[3]})
	}
	return a
}

const tidbVersionOutput = "Release Version: v8.5.3\nEdition: Community\nGit Commit Hash: dcbfb10cd28823999e66aae541cdc5d904d231a6\nGit Branch: HEAD\nStore: tikv"

func TestInspectVersionFallbacks(t *testing.T) {
	tests := []struct {
		name      string
		answers   map[string]fakeAnswer
		wantTiDB  string   // ServerVersionParsed.String()
		wantInsts []string // instance versions, String()
		wantSent  []string
		notes     []string // substrings
	}{
		{
			name: "server-version override: VERSION() and CLUSTER_INFO show the configured text",
			answers: map[string]fakeAnswer{
				stmtVersion:     one("VERSION()", "8.0.11"),
				stmtTiDBVersion: one("TIDB_VERSION()", tidbVersionOutput),
				stmtClusterInfo: clusterInfo([4]string{"tidb", "10.0.0.1:4000", "10.0.0.1:10080", "8.0.11"}, [4]string{"tikv", "10.0.0.2:20160", "10.0.0.2:20180", "8.5.3"}),
			},
			wantTiDB:  "v8.5.3",
			wantInsts: []string{"v8.5.3", "v8.5.3"},
			wantSent:  []string{stmtVersion, stmtTiDBVersion, stmtClusterInfo, stmtWarnings},
		},
		{
			name: "bare-hash build: nothing parses, versions unknown with a note",
			answers: map[string]fakeAnswer{
				stmtVersion:     one("VERSION()", "8.0.11-TiDB-5a5186162e"),
				stmtTiDBVersion: one("TIDB_VERSION()", "Release Version: 5a5186162e\nEdition: Community"),
				stmtClusterInfo: clusterInfo([4]string{"tidb", "10.0.0.1:4000", "10.0.0.1:10080", "5a5186162e"}, [4]string{"tikv", "10.0.0.2:20160", "10.0.0.2:20180", "8.5.1"}),
			},
			wantTiDB:  "unknown",
			wantInsts: []string{"unknown", "v8.5.1"},
			wantSent:  []string{stmtVersion, stmtTiDBVersion, stmtClusterInfo, stmtWarnings},
			notes:     []string{"could not be parsed from VERSION()", `tidb 10.0.0.1:4000 reports version "5a5186162e"`},
		},
		{
			name: "serverless: CLUSTER_INFO hidden",
			answers: map[string]fakeAnswer{
				stmtVersion:     one("VERSION()", "8.0.11-TiDB-v7.5.2-serverless"),
				stmtClusterInfo: {err: &mysqlErr1146},
			},
			wantTiDB: "v7.5.2-serverless",
			wantSent: []string{stmtVersion, stmtClusterInfo},
			notes:    []string{"CLUSTER_INFO is not visible"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, f := openFake(t, tt.answers)
			l, err := Inspect(context.Background(), db, Request{})
			if err != nil {
				t.Fatal(err)
			}
			if got := l.ServerVersionParsed.String(); got != tt.wantTiDB {
				t.Errorf("TiDB version = %s, want %s", got, tt.wantTiDB)
			}
			var insts []string
			for _, in := range l.Instances {
				insts = append(insts, in.Version.String())
			}
			if diff := cmp.Diff(tt.wantInsts, insts); diff != "" {
				t.Errorf("instance versions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSent, f.sent); diff != "" {
				t.Errorf("statements (-want +got):\n%s", diff)
			}
			for _, n := range tt.notes {
				if !strings.Contains(strings.Join(l.Notes, "\n"), n) {
					t.Errorf("notes %q lack %q", l.Notes, n)
				}
			}
			if len(l.Incomplete()) != 0 {
				t.Errorf("incomplete: %q", l.Incomplete())
			}
			if strings.HasPrefix(tt.name, "serverless") && !l.SEM {
				t.Error("SEM not set")
			}
		})
	}
}

var mysqlErr1146 = mysql.MySQLError{Number: 1146, Message: "Table 'information_schema.cluster_info' doesn't exist"}

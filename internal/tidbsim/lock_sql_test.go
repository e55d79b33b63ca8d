package tidbsim

import (
	"context"
	"database/sql"
	"testing"
)

// TestLockWire: GET_LOCK / RELEASE_LOCK / IS_USED_LOCK across two
// connections (issue 2 point 8), and the release when the holder disconnects.
func TestLockWire(t *testing.T) {
	for _, ver := range modelledVersions {
		t.Run(ver, func(t *testing.T) {
			srv := startServer(t, Options{Version: ver})
			a := openDB(t, srv)
			b := openDB(t, srv)
			idA := queryRows(t, a, "SELECT CONNECTION_ID()")[0][0]
			idB := queryRows(t, b, "SELECT CONNECTION_ID()")[0][0]
			runSteps(t, a, []sqlStep{
				{sql: "SELECT GET_LOCK('tiform.apply', 0)", rows: [][]string{{"1"}}},
				{sql: "SELECT IS_USED_LOCK('tiform.apply'), IS_FREE_LOCK('tiform.apply')", rows: [][]string{{idA, "0"}}},
			})
			runSteps(t, b, []sqlStep{
				// Held elsewhere: TiDB waits its minimum of 1 s, then 0.
				{sql: "SELECT GET_LOCK('tiform.apply', 0)", rows: [][]string{{"0"}}},
				{sql: "SELECT RELEASE_LOCK('tiform.apply')", rows: [][]string{{"0"}}},
				// TiDB: 0 (MySQL would say NULL).
				{sql: "SELECT RELEASE_LOCK('never.taken')", rows: [][]string{{"0"}}},
				// TiDB: 1 from another session (cannot return the holder's id).
				{sql: "SELECT IS_USED_LOCK('TIFORM.APPLY'), IS_USED_LOCK('never.taken')", rows: [][]string{{"1", "NULL"}}},
				{sql: "SELECT GET_LOCK('', 0)", errCode: 3057, errMsg: "Incorrect user-level lock name ''."},
				{sql: "SELECT GET_LOCK('x')", errCode: 1582},
			})
			runSteps(t, a, []sqlStep{
				{sql: "SELECT RELEASE_LOCK('tiform.apply')", rows: [][]string{{"1"}}},
				{sql: "SELECT IS_USED_LOCK('tiform.apply')", rows: [][]string{{"NULL"}}},
			})
			runSteps(t, b, []sqlStep{
				{sql: "SELECT GET_LOCK('tiform.apply', -1)", rows: [][]string{{"1"}}},
				{sql: "SHOW WARNINGS", rows: [][]string{{"Warning", "1292", "Truncated incorrect get_lock value: '-1'"}}},
				{sql: "SELECT IS_USED_LOCK('tiform.apply')", rows: [][]string{{idB}}},
				{sql: "SELECT GET_LOCK('second', 10), GET_LOCK('second', 10), RELEASE_ALL_LOCKS()", rows: [][]string{{"1", "1", "3"}}},
				{sql: "SELECT GET_LOCK('tiform.apply', 10)", rows: [][]string{{"1"}}},
			})
			// Closing b's connection releases its locks.
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			// The server notices the close asynchronously: wait (without a
			// time assertion) until a blocking GET_LOCK succeeds.
			conn, err := a.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			var got sql.NullInt64
			if err := conn.QueryRowContext(context.Background(), "SELECT GET_LOCK('tiform.apply', 3600)").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if !got.Valid || got.Int64 != 1 {
				t.Fatalf("GET_LOCK after holder disconnected = %v, want 1", got)
			}
		})
	}
}

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
				{sql: "SELECT GET_LOCK('tiform.apply', 0)", rows: [][]string{{"0"}}},
				{sql: "SELECT RELEASE_LOCK('tiform.apply')", rows: [][]string{{"0"}}},
				{sql: "SELECT RELEASE_LOCK('never.taken')", rows: [][]string{{"NULL"}}},
				{sql: "SELECT IS_USED_LOCK('TIFORM.APPLY')", rows: [][]string{{idA}}},
				{sql: "SELECT GET_LOCK('', 0)", errCode: 3057, errMsg: "Incorrect user-level lock name ''."},
				{sql: "SELECT GET_LOCK('x')", errCode: 1582},
			})
			runSteps(t, a, []sqlStep{
				{sql: "SELECT RELEASE_LOCK('tiform.apply')", rows: [][]string{{"1"}}},
				{sql: "SELECT IS_USED_LOCK('tiform.apply')", rows: [][]string{{"NULL"}}},
			})
			runSteps(t, b, []sqlStep{
				{sql: "SELECT GET_LOCK('tiform.apply', 1)", rows: [][]string{{"1"}}},
				{sql: "SELECT IS_USED_LOCK('tiform.apply')", rows: [][]string{{idB}}},
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
			if err := conn.QueryRowContext(context.Background(), "SELECT GET_LOCK('tiform.apply', -1)").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if !got.Valid || got.Int64 != 1 {
				t.Fatalf("GET_LOCK after holder disconnected = %v, want 1", got)
			}
		})
	}
}

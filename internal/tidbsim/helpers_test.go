package tidbsim

import (
	"crypto/sha1"
	"database/sql"
	"errors"
	"strconv"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// startServer starts an emulated cluster for one test and closes it at the end.
func startServer(t *testing.T, o Options) *Server {
	t.Helper()
	srv, err := Start(o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// openDB opens a single-connection pool as root (one connection so that
// SHOW WARNINGS sees the previous statement's diagnostics).
func openDB(t *testing.T, srv *Server) *sql.DB {
	t.Helper()
	return openDBAs(t, srv, "root", "")
}

func openDBAs(t *testing.T, srv *Server, user, pass string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", srv.DSN(user, pass))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// queryRows runs q and returns all rows as strings ("NULL" for NULL).
func queryRows(t *testing.T, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rows, err := queryRowsErr(db, q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rows
}

func queryRowsErr(db *sql.DB, q string, args ...any) ([][]string, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := [][]string{}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = v.String
			} else {
				row[i] = "NULL"
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// mysqlErr extracts the driver error (code and message).
func mysqlErr(t *testing.T, err error) *mysql.MySQLError {
	t.Helper()
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("want a MySQL error, got %v", err)
	}
	return me
}

// warnings returns SHOW WARNINGS as rows.
func warnings(t *testing.T, db *sql.DB) [][]string {
	t.Helper()
	return queryRows(t, db, "SHOW WARNINGS")
}

// scrambleNative computes the client side of mysql_native_password.
func scrambleNative(salt []byte, password string) []byte {
	h1 := sha1.Sum([]byte(password))
	h2 := sha1.Sum(h1[:])
	h := sha1.New()
	h.Write(salt)
	h.Write(h2[:])
	mask := h.Sum(nil)
	out := make([]byte, len(mask))
	for i := range out {
		out[i] = h1[i] ^ mask[i]
	}
	return out
}

type sqlRows = sql.Rows

func itoa(i int) string { return strconv.Itoa(i) }

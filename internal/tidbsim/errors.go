package tidbsim

import (
	"errors"
	"fmt"
	"strings"
)

// SQLError is an error returned to the client with a MySQL error code and
// SQLSTATE. Handlers return *SQLError for every error the client should see;
// any other error is reported as 1105 (HY000), as TiDB does for internal
// errors.
type SQLError struct {
	Code    uint16
	State   string
	Message string
}

func (e *SQLError) Error() string {
	return fmt.Sprintf("Error %d (%s): %s", e.Code, e.State, e.Message)
}

// NewError builds an SQLError; the message is formatted with fmt.Sprintf.
func NewError(code uint16, state, format string, args ...any) *SQLError {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &SQLError{Code: code, State: state, Message: msg}
}

// ErrGeneric is TiDB's catch-all error 1105 (HY000).
func ErrGeneric(format string, args ...any) *SQLError {
	return NewError(1105, "HY000", format, args...)
}

// ErrSpecificAccessDenied is TiDB's ErrSpecificAccessDenied (1227, 42000),
// returned for example by SHOW CONFIG / SET CONFIG without the CONFIG privilege
// (https://docs.pingcap.com/tidb/stable/sql-statement-show-privileges).
func ErrSpecificAccessDenied(privs ...string) *SQLError {
	return NewError(1227, "42000", "Access denied; you need (at least one of) the %s privilege(s) for this operation", strings.Join(privs, " or "))
}

// syntaxMessage is the fixed part of TiDB's parser error 1064.
const syntaxMessage = "You have an error in your SQL syntax; check the manual that corresponds to your TiDB version for the right syntax to use"

// ErrSyntax builds TiDB's 1064 for sql at the byte offsets [start,end) of the
// offending token: `line L column C near "<rest of statement>" ` where C is
// the column just after the offending token and the quoted text runs from the
// token to the end of the statement (TiDB's scanner error format, observed in
// public outputs such as `line 1 column 9 near "SAVEPOINT sp0x102cf8960" `).
func ErrSyntax(sql string, start, end int) *SQLError {
	if start > len(sql) {
		start = len(sql)
	}
	if end > len(sql) {
		end = len(sql)
	}
	if end < start {
		end = start
	}
	line := 1 + strings.Count(sql[:end], "\n")
	col := end
	if i := strings.LastIndexByte(sql[:end], '\n'); i >= 0 {
		col = end - i - 1
	}
	return NewError(1064, "42000", "%s line %d column %d near \"%s\" ", syntaxMessage, line, col, sql[start:])
}

// asSQLError converts any error into the SQLError sent to the client.
// executionError is an error raised while a SELECT's rows are produced (a
// function failing on its arguments, GET_LOCK's 3057): TiDB returns it from
// the result set's Next, after the statement's diagnostics were settled, so
// SHOW WARNINGS does not list it (the server writes it to the client only;
// pingcap/tidb@e4e814fdc0af:pkg/session/session.go ExecuteStmt records the
// errors of compiling and starting a statement, pkg/server/conn.go
// writeResultSet those of fetching its rows to the client).
type executionError struct{ *SQLError }

func (e executionError) Unwrap() error { return e.SQLError }

// isExecutionError reports whether err was raised while rows were produced.
func isExecutionError(err error) bool {
	var ee executionError
	return errors.As(err, &ee)
}

func asSQLError(err error) *SQLError {
	var se *SQLError
	if errors.As(err, &se) {
		return se
	}
	return ErrGeneric("%s", err.Error())
}

// Warning is one row of SHOW WARNINGS.
type Warning struct {
	Level   string // "Note", "Warning" or "Error"
	Code    uint16
	Message string
}

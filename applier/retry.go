package applier

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/go-sql-driver/mysql"
)

// isConnError reports whether err means the connection was lost (the
// statement may or may not have run): driver.ErrBadConn, the MySQL driver's
// "invalid connection", EOF, reset or broken pipe, or a network error. Context
// cancellation is not a connection error.
func isConnError(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, net.ErrClosed) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return false
	}
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "connection reset") || strings.Contains(s, "broken pipe") ||
		strings.Contains(s, "invalid connection") || strings.Contains(s, "bad connection")
}

// idempotent reports whether running sql twice has the same effect as once:
// SET CONFIG, SET GLOBAL and ALTER set a value; CREATE/DROP … IF [NOT] EXISTS
// are guarded. A plain CREATE or DROP is not (a second CREATE RESOURCE GROUP
// fails), so apply re-reads before retrying it.
func idempotent(sql string) bool {
	s := strings.ToUpper(strings.Join(strings.Fields(sql), " "))
	switch {
	case strings.HasPrefix(s, "SET "), strings.HasPrefix(s, "ALTER "):
		return true
	case strings.HasPrefix(s, "CREATE ") && strings.Contains(s, " IF NOT EXISTS "):
		return true
	case strings.HasPrefix(s, "DROP ") && strings.Contains(s, " IF EXISTS "):
		return true
	}
	return false
}

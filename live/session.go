package live

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/tiform/tiform/quote"
)

// Every statement tiform sends is built with quote.String, whose literals mean
// their value only while NO_BACKSLASH_ESCAPES is off in the session (MySQL's
// string-literal rules, which TiDB's lexer follows:
// https://dev.mysql.com/doc/refman/8.0/en/string-literals.html,
// pingcap/tidb@v8.5.1:pkg/parser/lexer.go Scanner.scanString). The mode
// changes the meaning of one byte only, the backslash: quote.String doubles
// quotes, so a statement without a backslash means the same in every
// sql_mode. A session starts with the server's GLOBAL sql_mode, which an
// administrator (or an apply of a sql_mode setting) may have set to include
// it. So before a connection sends its first statement holding a backslash,
// its SESSION sql_mode is read and, when needed, corrected; a connection that
// cannot be corrected sends no such statement (every other statement still
// goes). A connection that never sends a backslash (the apply lock's, most
// reads) is never asked. The check holds for every connection the pool opens,
// including one opened in the middle of an apply that has just changed the
// GLOBAL sql_mode. docs/decisions/0005-sql-literals-and-sql-mode.md and
// docs/decisions/0016-apply-reads-once.md explain the choice.

// stmtSessionSQLMode reads the session's sql_mode.
const stmtSessionSQLMode = "SELECT @@SESSION.sql_mode"

// unsafeSQLModes are the sql_mode parts that change how tiform's statements
// parse: only NO_BACKSLASH_ESCAPES. (ANSI_QUOTES does not: tiform never
// writes a "…" string; PIPES_AS_CONCAT, IGNORE_SPACE and HIGH_NOT_PRECEDENCE
// do not either: its statements use no ||, no space before a function's
// parenthesis and no NOT.)
var unsafeSQLModes = []string{"NO_BACKSLASH_ESCAPES"}

// SafeSQLMode returns mode without the parts that change how tiform's
// statements parse, and whether anything was removed. Parts are compared
// case-insensitively, as TiDB formats the value in upper case.
func SafeSQLMode(mode string) (string, bool) {
	var keep []string
	removed := false
	for _, part := range strings.Split(mode, ",") {
		p := strings.TrimSpace(part)
		if p == "" {
			continue
		}
		unsafe := false
		for _, u := range unsafeSQLModes {
			if strings.EqualFold(p, u) {
				unsafe = true
			}
		}
		if unsafe {
			removed = true
			continue
		}
		keep = append(keep, p)
	}
	return strings.Join(keep, ","), removed
}

// sessionConnector opens connections through the driver, each wrapped so
// that its session is made safe for quote.String before the first statement
// that needs it (see sessionConn).
type sessionConnector struct {
	driver.Connector
}

func (c sessionConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &sessionConn{Conn: conn}, nil
}

// sessionConn is a driver connection whose SESSION sql_mode is checked (and
// corrected: pinSQLMode) before the first statement holding a backslash, the
// only byte NO_BACKSLASH_ESCAPES gives another meaning. Statements without one
// are sent as they are, so a connection that never sends a backslash costs no
// check. A failed check is kept: the connection then refuses every statement
// holding a backslash with the same error, and sends the others.
type sessionConn struct {
	driver.Conn
	checked bool
	refused error
}

// needsMode reports whether query or an argument holds a backslash.
func needsMode(query string, args []driver.NamedValue) bool {
	if strings.IndexByte(query, '\\') >= 0 {
		return true
	}
	for _, a := range args {
		switch v := a.Value.(type) {
		case string:
			if strings.IndexByte(v, '\\') >= 0 {
				return true
			}
		case []byte:
			if bytes.IndexByte(v, '\\') >= 0 {
				return true
			}
		}
	}
	return false
}

// ensureMode runs the sql_mode check once, before the first statement that
// needs it.
func (c *sessionConn) ensureMode(ctx context.Context, query string, args []driver.NamedValue) error {
	if c.checked || !needsMode(query, args) {
		return c.refusedFor(query, args)
	}
	c.checked = true
	c.refused = pinSQLMode(ctx, c.Conn)
	return c.refused
}

func (c *sessionConn) refusedFor(query string, args []driver.NamedValue) error {
	if c.refused != nil && needsMode(query, args) {
		return c.refused
	}
	return nil
}

func (c *sessionConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if err := c.ensureMode(ctx, query, args); err != nil {
		return nil, err
	}
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	return q.QueryContext(ctx, query, args)
}

func (c *sessionConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if err := c.ensureMode(ctx, query, args); err != nil {
		return nil, err
	}
	e, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	return e.ExecContext(ctx, query, args)
}

func (c *sessionConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.ensureMode(ctx, query, nil); err != nil {
		return nil, err
	}
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return c.Conn.Prepare(query)
}

func (c *sessionConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	return nil, errors.New("live: the driver connection cannot begin a transaction")
}

func (c *sessionConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

// ResetSession keeps the driver's answer: a connection it cannot reset is
// dropped from the pool. The session's sql_mode is not reset by it (COM_RESET
// is not sent by go-sql-driver), so the check stays valid.
func (c *sessionConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *sessionConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *sessionConn) CheckNamedValue(nv *driver.NamedValue) error {
	if n, ok := c.Conn.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// pinSQLMode reads the session's sql_mode and, when it holds a part that
// would change how tiform's literals parse, sets the SESSION value without it
// and reads it back. The GLOBAL value is never touched.
func pinSQLMode(ctx context.Context, conn driver.Conn) error {
	mode, err := readSQLMode(ctx, conn)
	if err != nil {
		return &Error{Kind: KindOther, Op: OpConnect, Msg: fmt.Sprintf("live: cannot read the session's sql_mode (%s), which tiform checks before sending any statement: %v", stmtSessionSQLMode, err), cause: err}
	}
	safe, removed := SafeSQLMode(mode)
	if !removed {
		return nil
	}
	ex, ok := conn.(driver.ExecerContext)
	if !ok {
		return errors.New("live: the driver connection cannot execute statements")
	}
	// The mode names are letters and underscores: the literal is the same
	// in every sql_mode.
	set := "SET SESSION sql_mode = " + quote.String(safe)
	if _, err := ex.ExecContext(ctx, set, nil); err != nil {
		return refuseSQLMode(mode, fmt.Sprintf("%s failed: %v", set, err), err)
	}
	again, err := readSQLMode(ctx, conn)
	if err != nil {
		return refuseSQLMode(mode, fmt.Sprintf("reading it back failed: %v", err), err)
	}
	if _, still := SafeSQLMode(again); still {
		return refuseSQLMode(mode, fmt.Sprintf("after %s it is still %q", set, again), nil)
	}
	return nil
}

func refuseSQLMode(mode, what string, cause error) error {
	return &Error{Kind: KindOther, Op: OpConnect, cause: cause, Msg: fmt.Sprintf(
		"live: the session's sql_mode %q includes NO_BACKSLASH_ESCAPES, under which tiform's string literals "+
			"holding a backslash would not mean what they say, and turning it off for tiform's own session did not "+
			"work: %s. tiform sends nothing that holds a backslash over such a connection: connect as a user allowed "+
			"to SET SESSION sql_mode "+
			"(https://docs.pingcap.com/tidb/stable/sql-mode).", mode, what)}
}

// readSQLMode runs stmtSessionSQLMode on conn.
func readSQLMode(ctx context.Context, conn driver.Conn) (string, error) {
	q, ok := conn.(driver.QueryerContext)
	if !ok {
		return "", errors.New("the driver connection cannot run queries")
	}
	rows, err := q.QueryContext(ctx, stmtSessionSQLMode, nil)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	dest := make([]driver.Value, len(rows.Columns()))
	if len(dest) != 1 {
		return "", fmt.Errorf("%d columns, want 1", len(dest))
	}
	if err := rows.Next(dest); err != nil {
		if err == io.EOF {
			return "", errors.New("no row")
		}
		return "", err
	}
	switch v := dest[0].(type) {
	case []byte:
		return string(v), nil
	case string:
		return v, nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("unexpected value %T", dest[0])
}

// checkCharset refuses a DSN whose charset= or collation= would make the
// connection use a character set other than UTF-8. In a multi-byte set such
// as GBK or SJIS a backslash can be the second byte of a character, which
// breaks the meaning of a literal; in UTF-8 it never can.
func checkCharset(dsn string, cfg *mysql.Config) error {
	for _, cs := range dsnCharsets(dsn) {
		if !isUTF8Name(cs) {
			return fmt.Errorf("charset=%s: tiform connects with utf8mb4 only (in a character set such as GBK or SJIS a backslash can be part of a character, which changes the meaning of string literals); remove charset= from the DSN", cs)
		}
	}
	if cfg.Collation != "" && !isUTF8Name(cfg.Collation) {
		return fmt.Errorf("collation=%s: tiform connects with a utf8mb4 collation only; remove collation= from the DSN", cfg.Collation)
	}
	return nil
}

func isUTF8Name(s string) bool {
	s = strings.ToLower(s)
	return s == "utf8" || s == "utf8mb4" || strings.HasPrefix(s, "utf8_") || strings.HasPrefix(s, "utf8mb4_")
}

// dsnCharsets returns the values of the DSN's charset= parameter (a
// comma-separated list, as go-sql-driver reads it).
func dsnCharsets(dsn string) []string {
	slash := strings.LastIndexByte(dsn, '/')
	if slash < 0 {
		return nil
	}
	_, query, ok := strings.Cut(dsn[slash:], "?")
	if !ok {
		return nil
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range vals["charset"] {
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

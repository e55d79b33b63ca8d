package tidbsim

import (
	"sync"
	"time"
)

// Session is one client connection. It is used by one goroutine at a time (the
// connection's), so its fields need no locking; shared state lives in Cluster
// and is guarded by Cluster.Mu.
type Session struct {
	// ID is the connection id sent in the handshake.
	ID uint32
	// User is the authenticated user name; Host the client host.
	User, Host string
	// Cluster is the emulated cluster the session belongs to.
	Cluster *Cluster
	// Instance is the TiDB instance the connection is on. INSTANCE-scoped
	// variables only affect this instance (https://docs.pingcap.com/tidb/stable/system-variables).
	Instance *Instance
	// CurrentDB is the default database (USE / the DSN's database).
	CurrentDB string
	// UserVars holds @user variables (lower-cased names).
	UserVars map[string]Value

	warnings []Warning
	// sysWarningCount and sysErrorCount are @@warning_count and
	// @@error_count: the diagnostics of the statement before the current
	// one (pingcap/tidb@e4e814fdc0af:pkg/executor/select.go
	// ResetContextOfStmt saves them before the context is replaced).
	sysWarningCount, sysErrorCount int
	ext                            map[any]any
	// stmtCount counts statements received (for the drop-connection fault).
	stmtCount int
	// stmtContacts counts the instances the current statement contacted.
	stmtContacts int
	closeConn    func()
	// noLog keeps the statements out of the query log (seed statements are
	// not received from a client).
	noLog bool
	// toks is the token buffer the session's statements are lexed into,
	// reused from one statement to the next (nothing keeps a statement's
	// tokens after it ran; see dispatch).
	toks []Token
}

// maxKeptTokens bounds the token buffer a session keeps between
// statements: a rare huge statement does not pin its tokens.
const maxKeptTokens = 4096

func newSession(c *Cluster, inst *Instance, id uint32, user, host string) *Session {
	return &Session{ID: id, User: user, Host: host, Cluster: c, Instance: inst, UserVars: map[string]Value{}, ext: map[any]any{}}
}

// Ext returns the session-local state stored under key (nil if none).
func (s *Session) Ext(key any) any { return s.ext[key] }

// SetExt stores session-local state under key (use an unexported key type).
func (s *Session) SetExt(key, val any) { s.ext[key] = val }

// AppendWarning adds a Level=Warning row to the statement's diagnostics.
func (s *Session) AppendWarning(code uint16, format string, args ...any) {
	s.warnings = append(s.warnings, Warning{Level: "Warning", Code: code, Message: NewError(code, "", format, args...).Message})
}

// AppendNote adds a Level=Note row (e.g. IF NOT EXISTS on an existing object).
func (s *Session) AppendNote(code uint16, format string, args ...any) {
	s.warnings = append(s.warnings, Warning{Level: "Note", Code: code, Message: NewError(code, "", format, args...).Message})
}

// Warnings returns a copy of the current diagnostics (what SHOW WARNINGS shows).
func (s *Session) Warnings() []Warning { return append([]Warning(nil), s.warnings...) }

// HasPrivilege reports whether the session's user holds one of privs (see
// RegisterPrivilegeChecker).
func (s *Session) HasPrivilege(privs ...string) bool {
	if privilegeChecker == nil {
		return true
	}
	return privilegeChecker(s, privs...)
}

// HasTablePrivilege reports whether the session's user holds priv on
// db.table (see RegisterTablePrivilegeChecker).
func (s *Session) HasTablePrivilege(priv, db, table string) bool {
	if tablePrivilegeChecker == nil {
		return true
	}
	return tablePrivilegeChecker(s, priv, db, table)
}

// Exec runs one statement on the session, with the same logging, faults and
// diagnostics handling as a statement received over the wire. Seeds and tests
// use it to drive a session without a network connection.
func (s *Session) Exec(sql string) (*Result, error) {
	c := s.Cluster
	s.stmtCount++
	s.stmtContacts = 0
	if !s.noLog {
		idx := c.logQuery(s, sql)
		defer func() { c.setLogContacts(idx, s.stmtContacts) }()
	}

	drop, sf, fail := c.statementFault(sql, s.stmtCount, s.closeConn != nil)
	if drop {
		// drop the connection without answering (client sees a broken pipe)
		s.closeConn()
		return nil, errConnectionDropped
	}
	if fail {
		err := NewError(sf.Code, sf.state(), "%s", sf.Message)
		s.warnings = []Warning{{Level: "Error", Code: err.Code, Message: err.Message}}
		return nil, err
	}

	prev := s.warnings
	s.sysWarningCount, s.sysErrorCount = len(prev), 0
	for _, w := range prev {
		if w.Level == "Error" {
			s.sysErrorCount++
		}
	}
	res, err := s.dispatch(sql)
	if err != nil {
		se := asSQLError(err)
		switch {
		case isExecutionError(err):
			// not recorded: SHOW WARNINGS lists what the statement appended
			// before it failed (executionError)
			return nil, se
		case se.Code == 1064:
			// A statement that does not parse never starts: its error is
			// appended to the diagnostics of the statement before it
			// (pingcap/tidb@e4e814fdc0af:pkg/session/session.go Parse:
			// StmtCtx.AppendError on the context not yet reset).
			s.warnings = prev
		}
		// Otherwise the error follows the warnings the statement appended
		// before it failed (dispatch cleared the previous ones).
		s.warnings = append(s.warnings, Warning{Level: "Error", Code: se.Code, Message: se.Message})
		return nil, se
	}
	return res, nil
}

var errConnectionDropped = ErrGeneric("tidbsim: connection dropped by fault injection")

// dispatch parses and runs the statement; a statement that does not keep
// the previous diagnostics (every one but SHOW WARNINGS and SHOW ERRORS)
// clears them first.
func (s *Session) dispatch(sql string) (*Result, error) {
	toks, err := lexAppend(s.toks, sql, sessionLexMode(s))
	if err != nil {
		// The parser meets the invalid text only where it gets to it:
		// the statement fails at the first token it cannot take.
		toks = append(toks, Token{Kind: TokEOF, Start: len(sql), End: len(sql)})
	}
	if cap(toks) <= maxKeptTokens {
		s.toks = toks
	}
	p := &Parser{sql: sql, toks: toks}
	if p.AtEnd() {
		s.warnings = nil
		return nil, NewError(1065, "42000", "Query was empty")
	}
	e, n := matchStatement(p)
	if e == nil {
		s.warnings = nil
		t := p.PeekN(n)
		return nil, ErrSyntax(sql, t.Start, t.End)
	}
	if !e.keepDiagnostics {
		s.warnings = nil
	}
	p.pos += n
	return e.h(s, p)
}

// QueryLogEntry is one statement received by the cluster.
type QueryLogEntry struct {
	ConnID   uint32
	Instance string // address of the TiDB instance the connection is on
	User     string
	SQL      string
	Time     time.Time
	// Contacts is how many instances the statement contacted (config reads
	// and writes; SHOW CONFIG contacts all instances, CLUSTER_CONFIG only
	// those its predicates select: pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go clusterConfigRetriever).
	Contacts int
}

type queryLog struct {
	mu      sync.Mutex
	entries []QueryLogEntry
}

func (c *Cluster) logQuery(s *Session, sql string) int {
	addr := ""
	if s.Instance != nil {
		addr = s.Instance.Address
	}
	c.qlog.mu.Lock()
	defer c.qlog.mu.Unlock()
	c.qlog.entries = append(c.qlog.entries, QueryLogEntry{ConnID: s.ID, Instance: addr, User: s.User, SQL: sql, Time: time.Now()})
	return len(c.qlog.entries) - 1
}

func (c *Cluster) setLogContacts(idx, n int) {
	c.qlog.mu.Lock()
	defer c.qlog.mu.Unlock()
	c.qlog.entries[idx].Contacts = n
}

// QueryLog returns every statement received so far, in arrival order.
func (c *Cluster) QueryLog() []QueryLogEntry {
	c.qlog.mu.Lock()
	defer c.qlog.mu.Unlock()
	return append([]QueryLogEntry(nil), c.qlog.entries...)
}

// QueriesOf returns the statements received on connection id, in order.
func (c *Cluster) QueriesOf(id uint32) []string {
	var out []string
	for _, e := range c.QueryLog() {
		if e.ConnID == id {
			out = append(out, e.SQL)
		}
	}
	return out
}

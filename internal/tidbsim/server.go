package tidbsim

import (
	"context"
	"crypto/sha1"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	vtlog "github.com/dolthub/vitess/go/vt/log"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

func init() {
	// The vendored MySQL server logs every client disconnect; the emulator's
	// diagnostics are the query log and the test assertions instead.
	quiet := func(...any) {}
	quietf := func(string, ...any) {}
	vtlog.Info, vtlog.Warning, vtlog.Error = quiet, quiet, quiet
	vtlog.Infof, vtlog.Warningf, vtlog.Errorf = quietf, quietf, quietf
}

// Server is a running emulated cluster: one MySQL-protocol listener per TiDB
// instance, all sharing one Cluster.
type Server struct {
	Cluster   *Cluster
	listeners []*mysql.Listener
	handlers  []*handler
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// Start builds the cluster described by opts, starts listening, and runs the
// seed statements in opts.SQL as root. Close the server when done.
func Start(opts Options) (*Server, error) {
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("tidbsim: listen address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("tidbsim: listen address %q: bad port", addr)
	}
	n := orDefault(opts.TiDB, 1)
	if n == 0 {
		return nil, fmt.Errorf("tidbsim: a cluster needs at least one tidb instance")
	}
	var nls []net.Listener
	var addrs []string
	for i := 0; i < n; i++ {
		p := 0
		if port != 0 {
			p = port + i
		}
		l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
		if err != nil {
			for _, x := range nls {
				x.Close()
			}
			return nil, fmt.Errorf("tidbsim: listen: %w", err)
		}
		nls = append(nls, l)
		addrs = append(addrs, l.Addr().String())
	}
	cluster, err := newCluster(opts, addrs)
	if err != nil {
		for _, x := range nls {
			x.Close()
		}
		return nil, err
	}
	srv := &Server{Cluster: cluster}
	auth := &authServer{cluster: cluster}
	for i, in := range cluster.InstancesOf(TypeTiDB) {
		h := &handler{cluster: cluster, inst: in, sessions: map[*mysql.Conn]*Session{}}
		l, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{
			Listener:                 roundTripListener{Listener: nls[i], c: cluster},
			AuthServer:               auth,
			Handler:                  h,
			AllowClearTextWithoutTLS: true,
		})
		if err != nil {
			srv.Close()
			for _, x := range nls[i:] {
				x.Close()
			}
			return nil, fmt.Errorf("tidbsim: listener: %w", err)
		}
		l.ServerVersion = tidbVersionString(in)
		srv.listeners = append(srv.listeners, l)
		srv.handlers = append(srv.handlers, h)
		srv.wg.Add(1)
		go func() {
			defer srv.wg.Done()
			l.Accept()
		}()
	}
	if len(opts.SQL) > 0 {
		s := srv.NewSession("root")
		s.noLog = true
		for _, q := range opts.SQL {
			if _, err := s.Exec(q); err != nil {
				srv.Close()
				return nil, fmt.Errorf("tidbsim: seed statement %q: %w", q, err)
			}
		}
		s.close()
	}
	return srv, nil
}

// Addr returns the address of the first TiDB instance.
func (s *Server) Addr() string { return s.Cluster.InstancesOf(TypeTiDB)[0].Address }

// Addrs returns the addresses of all TiDB instances in order.
func (s *Server) Addrs() []string {
	var out []string
	for _, in := range s.Cluster.InstancesOf(TypeTiDB) {
		out = append(out, in.Address)
	}
	return out
}

// DSN returns a go-sql-driver/mysql DSN for the first TiDB instance.
func (s *Server) DSN(user, pass string) string { return s.DSNFor(0, user, pass) }

// DSNFor returns a DSN for TiDB instance i. interpolateParams=true makes the
// driver interpolate bound parameters client-side, as TiDB users commonly do;
// server-side prepared statements work too for statements the vendored MySQL
// parser can parse (it counts the placeholders).
func (s *Server) DSNFor(i int, user, pass string) string {
	addr := s.Addrs()[i]
	if pass != "" {
		return fmt.Sprintf("%s:%s@tcp(%s)/?interpolateParams=true", user, pass, addr)
	}
	return fmt.Sprintf("%s@tcp(%s)/?interpolateParams=true", user, addr)
}

// NewSession returns a session on the first TiDB instance that is not bound
// to a network connection (for seeding and Go-level tests).
func (s *Server) NewSession(user string) *Session {
	c := s.Cluster
	sess := newSession(c, c.InstancesOf(TypeTiDB)[0], c.newConnID(), user, "localhost")
	for _, fn := range sessionInits {
		fn(sess)
	}
	return sess
}

func (s *Session) close() {
	for _, fn := range sessionCloses {
		fn(s)
	}
}

// Close stops the listeners and closes every connection.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		for _, l := range s.listeners {
			l.Close()
		}
		s.wg.Wait()
		for _, h := range s.handlers {
			h.closeAll()
		}
	})
}

// QueryLog is a shortcut for s.Cluster.QueryLog().
func (s *Server) QueryLog() []QueryLogEntry { return s.Cluster.QueryLog() }

// handler implements mysql.Handler for one TiDB instance.
type handler struct {
	cluster  *Cluster
	inst     *Instance
	mu       sync.Mutex
	sessions map[*mysql.Conn]*Session
}

func (h *handler) NewConnection(c *mysql.Conn) {
	c.ConnectionID = h.cluster.newConnID()
}

func (h *handler) session(c *mysql.Conn) *Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[c]
	if !ok {
		host := ""
		if a := c.RemoteAddr(); a != nil {
			host, _, _ = net.SplitHostPort(a.String())
		}
		s = newSession(h.cluster, h.inst, c.ConnectionID, c.User, host)
		s.closeConn = c.Close
		h.sessions[c] = s
		for _, fn := range sessionInits {
			fn(s)
		}
	}
	return s
}

func (h *handler) ConnectionClosed(c *mysql.Conn) {
	h.mu.Lock()
	s, ok := h.sessions[c]
	delete(h.sessions, c)
	h.mu.Unlock()
	if ok {
		s.close()
	}
}

func (h *handler) closeAll() {
	h.mu.Lock()
	var conns []*mysql.Conn
	for c := range h.sessions {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

func (h *handler) ConnectionAborted(c *mysql.Conn, reason string) error { return nil }

func (h *handler) ComInitDB(c *mysql.Conn, schemaName string) error {
	if err := checkDB(schemaName); err != nil {
		return toWire(err)
	}
	h.session(c).CurrentDB = schemaName
	return nil
}

func (h *handler) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	s := h.session(c)
	res, err := s.Exec(query)
	if err != nil {
		return toWire(err)
	}
	return callback(toSQLResult(res), false)
}

// ComMultiQuery runs the first statement of a multi-statement text (the
// client enabled CLIENT_MULTI_STATEMENTS) and returns the rest.
func (h *handler) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	s := h.session(c)
	first, rest := splitFirstStatement(query, sessionLexMode(s))
	res, err := s.Exec(first)
	if err != nil {
		return "", toWire(err)
	}
	return rest, callback(toSQLResult(res), rest != "")
}

// splitFirstStatement splits at the first top-level ";" that is followed by
// another statement. Text that does not lex is returned whole (its error is
// reported by the statement pipeline).
func splitFirstStatement(query string, mode lexMode) (string, string) {
	toks, err := lexWith(query, mode)
	if err != nil {
		return query, ""
	}
	for i, t := range toks {
		if t.Kind == TokOp && t.Text == ";" && i+1 < len(toks) && toks[i+1].Kind != TokEOF {
			return query[:t.End], query[t.End:]
		}
	}
	return query, ""
}

// ComPrepare accepts the statement; the vendored server has already counted
// its "?" placeholders. No result metadata is announced: the columns arrive
// with each execution's result set.
func (h *handler) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) ([]*querypb.Field, error) {
	return nil, nil
}

// ComStmtExecute substitutes the bound values into the statement text as SQL
// literals and runs it like a text query.
func (h *handler) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	s := h.session(c)
	text, err := bindPlaceholders(prepare.PrepareStmt, prepare.BindVars, sessionLexMode(s))
	if err != nil {
		return toWire(err)
	}
	res, err := s.Exec(text)
	if err != nil {
		return toWire(err)
	}
	return callback(toSQLResult(res))
}

// bindPlaceholders replaces the i-th "?" token of query by the literal of
// bind variable "v<i>", written for the session's lex mode (a bound value is
// never parsed by TiDB, so its literal must read back as exactly its bytes).
func bindPlaceholders(query string, vars map[string]*querypb.BindVariable, mode lexMode) (string, error) {
	toks, err := lexWith(query, mode)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last, n := 0, 0
	for _, t := range toks {
		if t.Kind != TokOp || t.Text != "?" {
			continue
		}
		n++
		bv := vars[fmt.Sprintf("v%d", n)]
		b.WriteString(query[last:t.Start])
		b.WriteString(bindLiteral(bv, mode))
		last = t.End
	}
	b.WriteString(query[last:])
	return b.String(), nil
}

func bindLiteral(bv *querypb.BindVariable, mode lexMode) string {
	if bv == nil || bv.Type == sqltypes.Null {
		return "NULL"
	}
	if sqltypes.IsIntegral(bv.Type) || sqltypes.IsFloat(bv.Type) || bv.Type == sqltypes.Decimal {
		return string(bv.Value)
	}
	var b strings.Builder
	b.WriteByte('\'')
	for _, c := range string(bv.Value) {
		switch c {
		case '\'':
			b.WriteString("''")
		case '\\':
			if mode.noBackslashEscapes {
				b.WriteRune(c)
			} else {
				b.WriteString("\\\\")
			}
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func (h *handler) WarningCount(c *mysql.Conn) uint16 {
	h.mu.Lock()
	s, ok := h.sessions[c]
	h.mu.Unlock()
	if !ok {
		return 0
	}
	n := 0
	for _, w := range s.warnings {
		if w.Level != "Error" {
			n++
		}
	}
	return uint16(n)
}

func (h *handler) ComResetConnection(c *mysql.Conn) error {
	s := h.session(c)
	s.warnings = nil
	s.UserVars = map[string]Value{}
	return nil
}

func (h *handler) ParserOptionsForConnection(c *mysql.Conn) (sqlparser.ParserOptions, error) {
	return sqlparser.ParserOptions{}, nil
}

func toWire(err error) error {
	if err == errConnectionDropped {
		return err
	}
	se := asSQLError(err)
	return mysql.NewSQLError(int(se.Code), se.State, "%s", se.Message)
}

func toSQLResult(res *Result) *sqltypes.Result {
	if res == nil || len(res.Columns) == 0 {
		var n uint64
		if res != nil {
			n = res.AffectedRows
		}
		return &sqltypes.Result{RowsAffected: n}
	}
	out := &sqltypes.Result{Fields: make([]*querypb.Field, 0, len(res.Columns))}
	fields := make([]querypb.Field, len(res.Columns))
	for i, c := range res.Columns {
		f := &fields[i]
		f.Name = c.Name
		wireField(f, c)
		out.Fields = append(out.Fields, f)
	}
	if len(res.Rows) > 0 {
		out.Rows = wireRows(res.Rows, fields)
	}
	return out
}

// wireField sets the type, character set, length and flags of a column
// definition. Numbers, times and JSON are sent with the binary character
// set (63), strings with utf8mb4_bin (46) as TiDB sends them; the flags
// are set explicitly (vitess derives them from the type only when none are
// given), so NOT NULL and UNSIGNED reach the client as declared.
func wireField(f *querypb.Field, c Column) {
	const binary, utf8mb4 = 63, 46
	var flags querypb.MySqlFlag
	switch c.Type {
	case ColBigInt:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Int64, binary, 21
	case ColUnsignedBigInt:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Uint64, binary, 21
		flags |= querypb.MySqlFlag_UNSIGNED_FLAG
	case ColUnsignedInt:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Uint32, binary, 10
		flags |= querypb.MySqlFlag_UNSIGNED_FLAG
	case ColUnsignedSmallInt:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Uint16, binary, 5
		flags |= querypb.MySqlFlag_UNSIGNED_FLAG
	case ColTinyInt:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Int8, binary, 1
	case ColDouble:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Float64, binary, 22
	case ColDecimal:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Decimal, binary, 65
	case ColDatetime:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Datetime, binary, 19
	case ColTimestamp:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Timestamp, binary, 19
	case ColText:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Text, utf8mb4, 65535
		flags |= querypb.MySqlFlag_BLOB_FLAG
	case ColJSON:
		f.Type, f.Charset, f.ColumnLength = sqltypes.TypeJSON, binary, 4294967295
	case ColChar:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Char, utf8mb4, 255
	case ColEnum:
		f.Type, f.Charset, f.ColumnLength = sqltypes.Enum, utf8mb4, 1
		flags |= querypb.MySqlFlag_ENUM_FLAG
	case ColNull:
		f.Type, f.Charset = sqltypes.Null, binary
	default:
		f.Type, f.Charset, f.ColumnLength = sqltypes.VarChar, utf8mb4, 1024
	}
	if f.Charset == binary && c.Type != ColNull && c.Type != ColJSON {
		flags |= querypb.MySqlFlag_BINARY_FLAG
	}
	if c.NotNull {
		flags |= querypb.MySqlFlag_NOT_NULL_FLAG
	}
	f.Flags = uint32(flags)
}

// wireRows renders rows as the wire's values: every value's text, then the
// rows as full-capacity windows on one array of values whose bytes are
// windows on one buffer (vitess only reads them).
func wireRows(rows [][]Value, fields []querypb.Field) [][]sqltypes.Value {
	width := 0
	for _, r := range rows {
		width += len(r)
	}
	texts := make([]string, 0, width)
	size := 0
	for _, r := range rows {
		for _, v := range r {
			s := ""
			if !v.IsNull() {
				s = v.String()
			}
			texts = append(texts, s)
			size += len(s)
		}
	}
	buf := make([]byte, 0, size)
	vals := make([]sqltypes.Value, 0, width)
	out := make([][]sqltypes.Value, 0, len(rows))
	k := 0
	for _, r := range rows {
		start := len(vals)
		for i, v := range r {
			s := texts[k]
			k++
			if v.IsNull() {
				vals = append(vals, sqltypes.NULL)
				continue
			}
			buf = append(buf, s...)
			vals = append(vals, sqltypes.MakeTrusted(fields[i].Type, buf[len(buf)-len(s):len(buf):len(buf)]))
		}
		out = append(out, vals[start:len(vals):len(vals)])
	}
	return out
}

// ---- authentication ----

// authServer authenticates with mysql_native_password against root (empty
// password) or the registered user store.
type authServer struct {
	cluster *Cluster
}

func (a *authServer) AuthMethods() []mysql.AuthMethod {
	return []mysql.AuthMethod{mysql.NewMysqlNativeAuthMethod(a, a)}
}

func (a *authServer) DefaultAuthMethodDescription() mysql.AuthMethodDescription {
	return mysql.MysqlNativePassword
}

// HandleUser implements mysql.UserValidator: every user name may try.
func (a *authServer) HandleUser(user string, remoteAddr net.Addr) bool { return true }

// UserEntryWithHash implements mysql.HashStorage.
func (a *authServer) UserEntryWithHash(_ []*x509.Certificate, salt []byte, user string, authResponse []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	host := ""
	if remoteAddr != nil {
		host, _, _ = net.SplitHostPort(remoteAddr.String())
	}
	stored, ok := lookupUser(a.cluster, user, host)
	usingPassword := "NO"
	if len(authResponse) > 0 {
		usingPassword = "YES"
	}
	if ok && checkNativePassword(stored, salt, authResponse) {
		return callerID(user), nil
	}
	return nil, mysql.NewSQLError(1045, "28000", "Access denied for user '%s'@'%s' (using password: %s)", user, host, usingPassword)
}

func lookupUser(c *Cluster, user, host string) (string, bool) {
	if userLookup != nil {
		return userLookup(c, user, host)
	}
	if user == "root" {
		return "", true
	}
	return "", false
}

// NativePasswordHash returns mysql_native_password's stored form of a
// password, "*" + upper-case hex of SHA1(SHA1(password)), or "" for an empty
// password (what mysql.user.authentication_string holds).
func NativePasswordHash(password string) string {
	if password == "" {
		return ""
	}
	h1 := sha1.Sum([]byte(password))
	h2 := sha1.Sum(h1[:])
	return "*" + strings.ToUpper(hex.EncodeToString(h2[:]))
}

// checkNativePassword verifies a mysql_native_password scramble.
func checkNativePassword(stored string, salt, reply []byte) bool {
	if stored == "" {
		return len(reply) == 0
	}
	if len(reply) != sha1.Size {
		return false
	}
	hash, err := hex.DecodeString(strings.TrimPrefix(stored, "*"))
	if err != nil || len(hash) != sha1.Size {
		return false
	}
	// reply = SHA1(password) XOR SHA1(salt + SHA1(SHA1(password)))
	h := sha1.New()
	h.Write(salt)
	h.Write(hash)
	mask := h.Sum(nil)
	stage1 := make([]byte, sha1.Size)
	for i := range stage1 {
		stage1[i] = reply[i] ^ mask[i]
	}
	cand := sha1.Sum(stage1)
	return hex.EncodeToString(cand[:]) == hex.EncodeToString(hash)
}

type callerID string

func (c callerID) Get() *querypb.VTGateCallerID {
	return &querypb.VTGateCallerID{Username: string(c)}
}

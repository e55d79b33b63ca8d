package live

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/go-sql-driver/mysql"

	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/secret"
)

// sqlDriverBadConn is database/sql's "connection is gone" sentinel.
var sqlDriverBadConn = driver.ErrBadConn

// Default timeouts used when ConnOptions leaves them zero.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultReadTimeout    = 60 * time.Second
	DefaultWriteTimeout   = 30 * time.Second
)

// ConnOptions tunes Open. The zero value is usable: default timeouts, TLS as
// the DSN says.
type ConnOptions struct {
	// ConnectTimeout bounds dialing and the handshake (the DSN's timeout=
	// parameter wins when set).
	ConnectTimeout time.Duration
	// ReadTimeout and WriteTimeout bound each network read/write (the DSN's
	// readTimeout= / writeTimeout= win when set). A statement whose result
	// takes longer to arrive fails with a timeout error.
	ReadTimeout, WriteTimeout time.Duration
	// TLS overrides the DSN's tls= parameter when not empty: "true",
	// "skip-verify", "preferred" or "false".
	TLS string
	// CAFile is a PEM file of CA certificates to verify the server with. It
	// implies TLS; it is registered with mysql.RegisterTLSConfig under a name
	// derived from the file's content.
	CAFile string
	// ServerName overrides the host name verified in the server certificate
	// (default: the DSN's host).
	ServerName string
}

// Open connects to the cluster at dsn (go-sql-driver form,
// user:password@tcp(host:port)/?param=value) and opens its first connection.
// Every connection of the returned pool runs with NO_BACKSLASH_ESCAPES off in
// its session and a UTF-8 client character set, so that quote.String's
// literals mean their value (session.go); Open refuses when that cannot be
// had. Every error it returns has passed through Redact: it never contains
// the password.
func Open(ctx context.Context, dsn string, o ConnOptions) (*sql.DB, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, &Error{Kind: KindDSN, Op: OpConnect,
			Msg:   fmt.Sprintf("live: the DSN %s is not valid: %s. Use the go-sql-driver form user:password@tcp(host:4000)/ (special characters in parameter values must be URL-escaped)", Redact(dsn), dsnProblem(err)),
			cause: errors.New(dsnProblem(err))}
	}
	if !slices.Contains(secret.Networks, cfg.Net) {
		// root:PASSWORDtcp(host)/: the driver would take the text before
		// '(' for a network and quote it in its "unknown network" error.
		return nil, &Error{Kind: KindDSN, Op: OpConnect,
			Msg:   fmt.Sprintf("live: the DSN %s is not valid: what comes before the address's '(' is not a network (tcp or unix); is the '@' between the password and tcp( missing? Use the go-sql-driver form user:password@tcp(host:4000)/", Redact(dsn)),
			cause: errors.New("the DSN names no network tiform dials")}
	}
	if err := checkCharset(dsn, cfg); err != nil {
		return nil, &Error{Kind: KindDSN, Op: OpConnect, Msg: "live: " + scrub(err.Error(), dsn), cause: scrubbed(err, dsn)}
	}
	// The driver's default logger prints to stderr; tiform reports errors itself.
	cfg.Logger = &mysql.NopLogger{}
	// tiform never loads local files (LOAD DATA LOCAL): a server may ask for
	// any file when allowAllFiles=true.
	cfg.AllowAllFiles = false
	if cfg.Timeout == 0 {
		cfg.Timeout = orDefault(o.ConnectTimeout, DefaultConnectTimeout)
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = orDefault(o.ReadTimeout, DefaultReadTimeout)
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = orDefault(o.WriteTimeout, DefaultWriteTimeout)
	}
	// Statements with arguments are interpolated client-side: one round trip,
	// and SHOW WARNINGS keeps referring to the statement just sent.
	cfg.InterpolateParams = true
	if err := applyTLS(cfg, o); err != nil {
		return nil, &Error{Kind: KindTLS, Op: OpConnect, Addr: cfg.Addr,
			Msg: fmt.Sprintf("live: TLS setup for %s: %s", cfg.Addr, scrub(err.Error(), dsn)), cause: scrubbed(err, dsn)}
	}
	if cfg.AllowCleartextPasswords && cfg.TLS == nil {
		return nil, &Error{Kind: KindDSN, Op: OpConnect, Addr: cfg.Addr,
			Msg: "live: the DSN sets allowCleartextPasswords=true without TLS: the password would cross the network in clear text (and any server at that address could ask for it). Add tls=true or pass --ca-file, or remove allowCleartextPasswords"}
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, Explain(err, OpConnect, dsn)
	}
	// Every connection the pool opens has its sql_mode checked before its
	// first statement holding a backslash (session.go).
	db := sql.OpenDB(sessionConnector{conn})
	if cfg.TLS != nil && cfg.TLSConfig != "preferred" { // preferred falls back to plain text
		secureDBs.Store(weak.Make(db), true)
	}
	// The connect timeout bounds the whole first connection: dial and MySQL
	// handshake. The driver's own timeout= covers only the dial, and the
	// handshake would otherwise wait for the read timeout on a port that
	// accepts TCP but never speaks MySQL. A completed handshake (the server's
	// greeting and its OK to the login) proves the server speaks MySQL and
	// takes the credentials: no statement follows; the connection goes back
	// to the pool for the first read.
	pctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	first, err := db.Conn(pctx)
	if err != nil {
		db.Close()
		return nil, Explain(err, OpConnect, dsn)
	}
	if err := first.Close(); err != nil {
		db.Close()
		return nil, Explain(err, OpConnect, dsn)
	}
	return db, nil
}

// secureDBs holds the pools Open made with TLS (weak keys: a closed pool is
// not kept alive).
var secureDBs sync.Map

// Secure reports whether db was opened by Open with TLS: every connection
// of the pool is encrypted, as TiDB wants for some changes
// (require_secure_transport = ON).
func Secure(db *sql.DB) bool {
	_, ok := secureDBs.Load(weak.Make(db))
	return ok
}

// dsnProblem is the driver's reason for rejecting a DSN when it is one of its
// fixed sentences ("invalid DSN: missing the slash …"); other reasons quote
// part of the DSN ("default addr for network 'app:pa' unknown" shows the
// start of a password holding a '/'), so they are not repeated.
func dsnProblem(err error) string {
	if msg := err.Error(); strings.HasPrefix(msg, "invalid DSN: ") && !strings.ContainsAny(msg, `'"`) {
		return strings.TrimPrefix(msg, "invalid DSN: ")
	}
	return "go-sql-driver cannot parse it (its message is not shown: it may quote part of the password)"
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// applyTLS merges o's TLS choices into cfg (the DSN's own tls= is kept unless
// o overrides it).
func applyTLS(cfg *mysql.Config, o ConnOptions) error {
	if o.TLS != "" {
		switch o.TLS {
		case "true", "skip-verify", "preferred", "false":
		default:
			return fmt.Errorf("unknown TLS mode %q (want true, skip-verify, preferred or false)", o.TLS)
		}
		cfg.TLSConfig = o.TLS
		cfg.TLS = nil
		cfg.AllowFallbackToPlaintext = false
		switch o.TLS {
		case "true":
			cfg.TLS = &tls.Config{}
		case "skip-verify":
			cfg.TLS = &tls.Config{InsecureSkipVerify: true}
		case "preferred":
			cfg.TLS = &tls.Config{InsecureSkipVerify: true}
			cfg.AllowFallbackToPlaintext = true
		}
	}
	if o.CAFile != "" {
		pem, err := input.ReadLinked(o.CAFile, input.Config) // system CA stores are links; the PEM is never printed
		if err != nil {
			return fmt.Errorf("read CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("CA file %s holds no PEM certificate", o.CAFile)
		}
		host, _, err := net.SplitHostPort(cfg.Addr)
		if err != nil {
			host = cfg.Addr
		}
		if o.ServerName != "" {
			host = o.ServerName
		}
		tc := &tls.Config{RootCAs: pool, ServerName: host, MinVersion: tls.VersionTLS12}
		sum := sha256.Sum256(append(pem, host...))
		name := "tiform-ca-" + hex.EncodeToString(sum[:8])
		if err := mysql.RegisterTLSConfig(name, tc); err != nil {
			return fmt.Errorf("register TLS config: %w", err)
		}
		cfg.TLSConfig = name
		cfg.TLS = tc
		cfg.AllowFallbackToPlaintext = false
	} else if o.ServerName != "" && cfg.TLS != nil {
		cfg.TLS = cfg.TLS.Clone()
		cfg.TLS.ServerName = o.ServerName
	}
	return nil
}

// Redact returns dsn with its password replaced by "*****", whatever the
// form of dsn (secret.RedactDSN: a malformed DSN, a URL, a text that cannot
// be parsed at all is hidden whole).
func Redact(dsn string) string { return secret.RedactDSN(dsn) }

// scrub replaces every occurrence of dsn's password (and of dsn itself) in
// text.
func scrub(text, dsn string) string {
	if dsn != "" {
		text = strings.ReplaceAll(text, dsn, Redact(dsn))
	}
	for _, pw := range secret.DSNSecrets(dsn) {
		text = strings.ReplaceAll(text, pw, secret.Mask)
	}
	return text
}

// scrubbed returns err when its text does not contain the password, else an
// error with the scrubbed text (losing the chain, on purpose).
func scrubbed(err error, dsn string) error {
	if err == nil {
		return nil
	}
	s := err.Error()
	if t := scrub(s, dsn); t != s {
		return errors.New(t)
	}
	return err
}

// ErrorKind classifies connection and statement failures for messages and
// exit decisions.
type ErrorKind int

const (
	KindOther           ErrorKind = iota
	KindDSN                       // the DSN cannot be parsed
	KindUnreachable               // dial failed, timeout, connection lost
	KindAuth                      // 1045: wrong user or password
	KindUnknownDatabase           // 1049
	KindPrivilege                 // 1227 / 1142 / 1044: a privilege is missing
	KindTLS                       // TLS setup or handshake failed
	KindHidden                    // 1146 or SEM: the table is invisible
)

// Op says what a statement was for; it selects the privilege named in a
// permission error.
type Op int

const (
	OpConnect            Op = iota
	OpReadConfig            // CLUSTER_CONFIG / SHOW CONFIG: CONFIG
	OpSetConfig             // SET CONFIG: CONFIG
	OpReadVariables         // SHOW GLOBAL VARIABLES: none beyond login
	OpSetGlobal             // SET GLOBAL: SUPER or SYSTEM_VARIABLES_ADMIN
	OpReadResourceGroups    // INFORMATION_SCHEMA.RESOURCE_GROUPS
	OpResourceGroupDDL      // CREATE/ALTER/DROP RESOURCE GROUP: SUPER or RESOURCE_GROUP_ADMIN
	OpReadUsers             // mysql.user: SELECT on mysql.user
	OpAlterUser             // ALTER USER … RESOURCE GROUP: CREATE USER (or SUPER)
	OpReadTopology          // VERSION(), CLUSTER_INFO
	OpReadWarnings          // SHOW WARNINGS after a read
	OpReadStatements        // statement summary tables: none (PROCESS to see every user's statements)
)

// Privilege returns the privilege op needs beyond logging in, as TiDB names
// it (https://docs.pingcap.com/tidb/stable/sql-statement-show-privileges).
func (op Op) Privilege() string {
	switch op {
	case OpReadConfig, OpSetConfig:
		return "CONFIG"
	case OpSetGlobal:
		return "SUPER or SYSTEM_VARIABLES_ADMIN"
	case OpResourceGroupDDL:
		return "SUPER or RESOURCE_GROUP_ADMIN"
	case OpReadResourceGroups:
		return "SUPER or RESOURCE_GROUP_ADMIN"
	case OpReadUsers:
		return "SELECT on mysql.user"
	case OpAlterUser:
		return "CREATE USER (or SUPER)"
	}
	return ""
}

func (op Op) what() string {
	switch op {
	case OpConnect:
		return "connect"
	case OpReadConfig:
		return "read component config (INFORMATION_SCHEMA.CLUSTER_CONFIG)"
	case OpSetConfig:
		return "change component config (SET CONFIG)"
	case OpReadVariables:
		return "read system variables"
	case OpSetGlobal:
		return "set a global system variable (SET GLOBAL)"
	case OpReadResourceGroups:
		return "read resource groups (INFORMATION_SCHEMA.RESOURCE_GROUPS)"
	case OpResourceGroupDDL:
		return "change resource groups"
	case OpReadUsers:
		return "read user bindings (mysql.user)"
	case OpAlterUser:
		return "bind a user to a resource group (ALTER USER)"
	case OpReadTopology:
		return "read the cluster topology (VERSION(), INFORMATION_SCHEMA.CLUSTER_INFO)"
	case OpReadWarnings:
		return "read the warnings of the previous read (SHOW WARNINGS)"
	case OpReadStatements:
		return "read statement statistics (INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY)"
	}
	return "run a statement"
}

// Error is a connection or statement failure explained for a person: Msg is
// one paragraph saying what failed and what to do. It never contains a
// password.
type Error struct {
	Kind ErrorKind
	Op   Op
	// Code is the MySQL error number, 0 when the failure was not a server error.
	Code uint16
	// Addr is the server address from the DSN, when known.
	Addr string
	// Privilege is the missing privilege for KindPrivilege.
	Privilege string
	Msg       string
	cause     error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the underlying error (already free of the password).
func (e *Error) Unwrap() error { return e.cause }

// Explain turns err, returned while doing op against the cluster named by dsn,
// into an *Error with a one-paragraph message. The result never contains the
// password of dsn. Explain(nil, …) is nil; an *Error is returned unchanged.
func Explain(err error, op Op, dsn string) error {
	if err == nil {
		return nil
	}
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	addr, user := "", ""
	if dsn != "" {
		if cfg, perr := mysql.ParseDSN(dsn); perr == nil {
			// Scrubbed one by one (a user name equal to the password is
			// hidden too); the message is then built from these and constant
			// text only, so that a password that happens to be a word of the
			// message ("wrong", "cluster") does not mangle it.
			addr, user = scrub(cfg.Addr, dsn), scrub(cfg.User, dsn)
		}
	}
	where := "the cluster"
	if addr != "" {
		where = "the cluster at " + addr
	}
	raw := Clip(secret.RedactDSNsIn(scrub(err.Error(), dsn)), MaxCellBytes)
	e := &Error{Kind: KindOther, Op: op, Addr: addr, cause: scrubbed(err, dsn)}
	var me *mysql.MySQLError
	var ne net.Error
	var ue x509.UnknownAuthorityError
	var he x509.HostnameError
	var ce *tls.CertificateVerificationError
	switch {
	case errors.As(err, &me):
		e.Code = me.Number
		switch me.Number {
		case 1045:
			e.Kind = KindAuth
			e.Msg = fmt.Sprintf("live: %s rejected the login of user %q: wrong user name or password (MySQL error 1045). Check the user and password in the DSN (from the cluster block, --dsn or TIFORM_DSN); tiform never prints the password.", where, user)
		case 1049:
			e.Kind = KindUnknownDatabase
			e.Msg = fmt.Sprintf("live: %s has no such database: %s (MySQL error 1049). tiform needs no database: end the DSN with \")/\" or name an existing one.", where, raw)
		case 1227, 1142, 1044:
			e.Kind = KindPrivilege
			e.Privilege = op.Privilege()
			need := e.Privilege
			if need == "" {
				need = "the privilege the server names"
			}
			who := "the connected user"
			if user != "" {
				who = fmt.Sprintf("user %q", user)
			}
			e.Msg = fmt.Sprintf("live: %s may not %s on %s: %s (MySQL error %d). Grant it %s, or connect as a user that has it.", who, op.what(), where, raw, me.Number, need)
		case 1146:
			e.Kind = KindHidden
			e.Msg = fmt.Sprintf("live: %s does not show the table needed to %s: %s (MySQL error 1146). On TiDB Cloud or with Security Enhanced Mode some INFORMATION_SCHEMA tables are hidden.", where, op.what(), raw)
		default:
			e.Msg = fmt.Sprintf("live: %s failed on %s: %s", op.what(), where, raw)
		}
	case errors.As(err, &ue), errors.As(err, &he), errors.As(err, &ce), errors.Is(err, mysql.ErrNoTLS), strings.Contains(raw, "tls:"):
		e.Kind = KindTLS
		e.Msg = fmt.Sprintf("live: TLS with %s failed: %s. Check tls= in the DSN (true, skip-verify, preferred) or pass the CA file that signed the server certificate.", where, raw)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		e.Kind = KindUnreachable
		raise := "raise the timeout (--timeout)"
		if op == OpConnect {
			raise = "raise the connect timeout (--connect-timeout, or timeout= in the DSN)"
		}
		e.Msg = fmt.Sprintf("live: %s did not answer in time while trying to %s: %s. Check that the address is right and reachable, or %s.", where, op.what(), raw, raise)
	case errors.As(err, &ne), errors.Is(err, mysql.ErrInvalidConn), errors.Is(err, sqlDriverBadConn):
		e.Kind = KindUnreachable
		if op == OpConnect {
			e.Msg = fmt.Sprintf("live: cannot reach %s: %s. Check the host and port in the DSN, that TiDB is running, and that no firewall is in the way.", where, raw)
		} else {
			e.Msg = fmt.Sprintf("live: lost the connection to %s while trying to %s: %s (closed by the server or the network, or no answer within the read timeout: raise it with readTimeout= in the DSN if the cluster is slow). Nothing after this point was read; run again.", where, op.what(), raw)
		}
	default:
		if op == OpConnect {
			e.Msg = fmt.Sprintf("live: cannot connect to %s: %s", where, raw)
		} else {
			e.Msg = fmt.Sprintf("live: %s failed on %s: %s", op.what(), where, raw)
		}
	}
	return e
}

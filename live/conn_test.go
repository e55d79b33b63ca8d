package live

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"root:s3cret@tcp(127.0.0.1:4000)/", "root:*****@tcp(127.0.0.1:4000)/"},
		{"root@tcp(127.0.0.1:4000)/", "root@tcp(127.0.0.1:4000)/"},
		{"root:@tcp(h:4000)/", "root:@tcp(h:4000)/"},
		{"u:p@ss:w/rd@tcp(h:4000)/db?tls=true", "u:*****@tcp(h:4000)/db?tls=true"},
		{"u:pw@tcp(h:4000)", "u:*****@tcp(h:4000)"}, // no slash: the driver rejects it, Redact still hides
		{"tcp(h:4000)/", "tcp(h:4000)/"},
		{"u:pw1@tcp(h:4000)/?loc=Asia/Tokyo", "u:*****@tcp(h:4000)/?loc=Asia/Tokyo"},
		{"u:pw1@tcp(h:4000)/?x=a@b/c", "u:*****@b/c"}, // over-redacts rather than leak
		{"u:pw1@tcp(h:4000)/?comment=pw1", "u:*****@tcp(h:4000)/?comment=*****"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExplainKinds(t *testing.T) {
	dsn := "admin:Hunter2Secret@tcp(10.0.0.1:4000)/"
	tests := []struct {
		name string
		err  error
		op   Op
		kind ErrorKind
		want []string
	}{
		{"auth", &mysql.MySQLError{Number: 1045, Message: "Access denied for user 'admin'@'10.0.0.9' (using password: YES)"}, OpConnect, KindAuth,
			[]string{"wrong user name or password", "1045", `"admin"`, "10.0.0.1:4000"}},
		{"unknown db", &mysql.MySQLError{Number: 1049, Message: "Unknown database 'nope'"}, OpConnect, KindUnknownDatabase,
			[]string{"Unknown database 'nope'", "1049", `")/"`}},
		{"config privilege", &mysql.MySQLError{Number: 1227, Message: "Access denied; you need (at least one of) the CONFIG privilege(s) for this operation"}, OpReadConfig, KindPrivilege,
			[]string{"Grant it CONFIG", "1227"}},
		{"set global privilege", &mysql.MySQLError{Number: 1227, Message: "Access denied"}, OpSetGlobal, KindPrivilege,
			[]string{"SUPER or SYSTEM_VARIABLES_ADMIN"}},
		{"resource group privilege", &mysql.MySQLError{Number: 1227, Message: "Access denied"}, OpResourceGroupDDL, KindPrivilege,
			[]string{"SUPER or RESOURCE_GROUP_ADMIN"}},
		{"table privilege", &mysql.MySQLError{Number: 1142, Message: "SELECT command denied to user 'admin'@'%' for table 'user'"}, OpReadUsers, KindPrivilege,
			[]string{"SELECT on mysql.user", "1142"}},
		{"hidden", &mysql.MySQLError{Number: 1146, Message: "Table 'information_schema.cluster_config' doesn't exist"}, OpReadConfig, KindHidden,
			[]string{"Security Enhanced Mode"}},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}, OpConnect, KindUnreachable,
			[]string{"cannot reach the cluster at 10.0.0.1:4000", "connection refused", "firewall"}},
		{"lost", mysql.ErrInvalidConn, OpReadConfig, KindUnreachable,
			[]string{"lost the connection", "Nothing after this point was read"}},
		{"deadline", context.DeadlineExceeded, OpConnect, KindUnreachable,
			[]string{"did not answer in time", "--connect-timeout"}},
		{"tls", mysql.ErrNoTLS, OpConnect, KindTLS, []string{"TLS with the cluster at 10.0.0.1:4000 failed"}},
		{"echoes password", errors.New("weird failure near Hunter2Secret"), OpConnect, KindOther, []string{"weird failure near *****"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Explain(tt.err, tt.op, dsn)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Explain returned %T", err)
			}
			if e.Kind != tt.kind {
				t.Errorf("kind = %d, want %d (%s)", e.Kind, tt.kind, e.Msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(e.Msg, w) {
					t.Errorf("message %q lacks %q", e.Msg, w)
				}
			}
			if strings.Contains(err.Error(), "Hunter2Secret") {
				t.Errorf("message contains the password: %s", err)
			}
			if u := errors.Unwrap(err); u != nil && strings.Contains(u.Error(), "Hunter2Secret") {
				t.Errorf("unwrapped error contains the password: %s", u)
			}
		})
	}
	// A password that is a word of tiform's own message does not mangle it;
	// a user name equal to the password is still hidden.
	auth := &mysql.MySQLError{Number: 1045, Message: "Access denied for user 'ro'@'10.0.0.9' (using password: YES)"}
	if msg := Explain(auth, OpConnect, "ro:wrong@tcp(10.0.0.1:4000)/").Error(); !strings.Contains(msg, "wrong user name or password") || !strings.Contains(msg, `"ro"`) {
		t.Errorf("message mangled by redaction: %s", msg)
	}
	if msg := Explain(auth, OpConnect, "ro:ro@tcp(10.0.0.1:4000)/").Error(); strings.Contains(msg, `"ro"`) || strings.Contains(msg, "'ro'") {
		t.Errorf("a user name equal to the password is shown: %s", msg)
	}
	if Explain(nil, OpConnect, dsn) != nil {
		t.Error("Explain(nil) != nil")
	}
}

// Open's failures that need no server: every one is an *Error without the
// password.
func TestOpenFailuresHidePassword(t *testing.T) {
	const pw = "Sup3r-S3cret"
	// A port with nothing listening.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	badCA := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(badCA, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dsn  string
		o    ConnOptions
		kind ErrorKind
	}{
		{"unreachable", "root:" + pw + "@tcp(" + closed + ")/", ConnOptions{ConnectTimeout: 2 * time.Second}, KindUnreachable},
		{"malformed DSN", "root:" + pw + "@tcp(" + closed + ")", ConnOptions{}, KindDSN},
		{"bad param", "root:" + pw + "@tcp(" + closed + ")/?parseTime=maybe" + pw, ConnOptions{}, KindDSN},
		{"bad TLS mode", "root:" + pw + "@tcp(" + closed + ")/", ConnOptions{TLS: "sometimes"}, KindTLS},
		{"missing CA file", "root:" + pw + "@tcp(" + closed + ")/", ConnOptions{CAFile: filepath.Join(t.TempDir(), "none.pem")}, KindTLS},
		{"CA file without PEM", "root:" + pw + "@tcp(" + closed + ")/", ConnOptions{CAFile: badCA}, KindTLS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(context.Background(), tt.dsn, tt.o)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("got %T %v, want kind %d", err, err, tt.kind)
			}
			if strings.Contains(err.Error(), pw) {
				t.Errorf("error contains the password: %s", err)
			}
			for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
				if strings.Contains(u.Error(), pw) {
					t.Errorf("wrapped error contains the password: %s", u)
				}
			}
		})
	}
}

func writeTestCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tiform test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestApplyTLS(t *testing.T) {
	ca := writeTestCA(t)
	tests := []struct {
		name     string
		dsn      string
		o        ConnOptions
		wantTLS  bool
		skip     bool
		fallback bool
		server   string
		withCA   bool
	}{
		{name: "plain", dsn: "u:p@tcp(db.example:4000)/"},
		{name: "DSN tls=true", dsn: "u:p@tcp(db.example:4000)/?tls=true", wantTLS: true, server: "db.example"},
		{name: "DSN skip-verify", dsn: "u:p@tcp(db.example:4000)/?tls=skip-verify", wantTLS: true, skip: true},
		{name: "option preferred", dsn: "u:p@tcp(db.example:4000)/", o: ConnOptions{TLS: "preferred"}, wantTLS: true, skip: true, fallback: true},
		{name: "option false overrides DSN", dsn: "u:p@tcp(db.example:4000)/?tls=true", o: ConnOptions{TLS: "false"}},
		{name: "CA file", dsn: "u:p@tcp(db.example:4000)/", o: ConnOptions{CAFile: ca}, wantTLS: true, server: "db.example", withCA: true},
		{name: "CA file with server name", dsn: "u:p@tcp(10.0.0.1:4000)/", o: ConnOptions{CAFile: ca, ServerName: "tidb.internal"}, wantTLS: true, server: "tidb.internal", withCA: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := mysql.ParseDSN(tt.dsn)
			if err != nil {
				t.Fatal(err)
			}
			if err := applyTLS(cfg, tt.o); err != nil {
				t.Fatal(err)
			}
			if (cfg.TLS != nil) != tt.wantTLS {
				t.Fatalf("TLS = %v, want %v", cfg.TLS != nil, tt.wantTLS)
			}
			if cfg.TLS == nil {
				return
			}
			if cfg.TLS.InsecureSkipVerify != tt.skip || cfg.AllowFallbackToPlaintext != tt.fallback {
				t.Errorf("skip=%v fallback=%v", cfg.TLS.InsecureSkipVerify, cfg.AllowFallbackToPlaintext)
			}
			if tt.server != "" && cfg.TLS.ServerName != tt.server {
				t.Errorf("ServerName = %q, want %q", cfg.TLS.ServerName, tt.server)
			}
			if (cfg.TLS.RootCAs != nil) != tt.withCA {
				t.Errorf("RootCAs set = %v", cfg.TLS.RootCAs != nil)
			}
			if tt.withCA && !strings.HasPrefix(cfg.TLSConfig, "tiform-ca-") {
				t.Errorf("CA config not registered: %q", cfg.TLSConfig)
			}
		})
	}
}

// A server that hangs up during the handshake gives an error (no hang), free
// of the password.
func TestOpenServerHangsUp(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, err = Open(context.Background(), "u:Pw-9xq@tcp("+l.Addr().String()+")/?tls=true", ConnOptions{ConnectTimeout: 2 * time.Second})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnreachable {
		t.Fatalf("err = %v, want an unreachable error", err)
	}
	if strings.Contains(err.Error(), "Pw-9xq") {
		t.Errorf("password in error: %s", err)
	}
}

// A port that accepts TCP but never speaks MySQL (a proxy, another service)
// fails within the connect timeout, not after the read timeout, with a
// message that points at the timeout.
func TestOpenSilentServerBoundedByConnectTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	held := make(chan net.Conn, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			select {
			case held <- c: // kept open, never answers
			default:
				c.Close()
			}
		}
	}()
	defer func() {
		l.Close()
		<-done
		close(held)
		for c := range held {
			c.Close()
		}
	}()
	_, err = Open(context.Background(), "u:Pw-7silent@tcp("+l.Addr().String()+")/",
		ConnOptions{ConnectTimeout: 200 * time.Millisecond, ReadTimeout: 3 * time.Second})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnreachable || !strings.Contains(e.Msg, "did not answer in time") {
		t.Fatalf("err = %v, want a did-not-answer-in-time error", err)
	}
	if strings.Contains(err.Error(), "Pw-7silent") {
		t.Errorf("password in error: %s", err)
	}
}

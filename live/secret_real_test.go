package live

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// What the real tidb-server shows of the secret variables when they are
// read, and what tiform keeps: the LDAP bind passwords read as ****** once
// set, in SHOW VARIABLES and SELECT @@ alike (pingcap/tidb
// pkg/sessionctx/variable/sysvar.go, MaskPwd); an inspection keeps only the
// concealed form of that, which equals any declared password and differs
// from an empty one. tidb_cloud_storage_uri cannot be set here (TiDB checks
// that the S3 bucket answers), so its redaction (ast.RedactURL) is tested
// in catalog against TiDB's code.
func TestSecretVariablesOnTheRealServer(t *testing.T) {
	r := tidbsimtest.StartReal(t, tidbsimtest.RealOptions{})
	const pw = "Real-ldap-Pw-9917"
	names := []string{"authentication_ldap_simple_bind_root_pwd", "authentication_ldap_sasl_bind_root_pwd"}
	for _, n := range names {
		r.Exec(t, "SET GLOBAL "+n+" = '"+pw+"'")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, q := range []string{
		"SELECT @@GLOBAL.authentication_ldap_simple_bind_root_pwd",
		"SELECT VARIABLE_VALUE FROM INFORMATION_SCHEMA.GLOBAL_VARIABLES WHERE VARIABLE_NAME = 'authentication_ldap_simple_bind_root_pwd'",
	} {
		var got sql.NullString
		if err := r.DB().QueryRowContext(ctx, q).Scan(&got); err != nil && err != sql.ErrNoRows {
			t.Fatalf("%s: %v", q, err)
		}
		if strings.Contains(got.String, pw) {
			t.Errorf("%s shows the password: TiDB no longer redacts it, and tiform's model of it (catalog serverRedaction) is wrong", q)
		}
	}
	db, err := Open(ctx, r.RootDSN(), ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, err := Inspect(ctx, db, Request{Variables: names})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		set := catalog.SettingFor(catalog.TargetVariable, "tidb", n)
		got := l.Variables[n]
		if !catalog.Concealed(got) || got != set.Conceal("******") {
			t.Errorf("%s kept as %q, want the concealed form of ******", n, got)
		}
		if !set.Equal("any-declared-password", got) || set.Equal("", got) {
			t.Errorf("%s: a set password must equal any declared one and differ from none", n)
		}
	}
}

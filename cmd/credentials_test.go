package cmd

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
)

// Credentials the cluster holds — an LDAP bind password (a secret
// variable) and TiKV's KMS secret access key (a key under the encryption
// master key) — are never written into any imported file nor printed in any
// view: import declares the password from a sensitive variable, plans and
// drift reports show "(sensitive)", snapshots hold only the concealed form.
// The emulator shows the password as TiDB does (******) and the KMS key in
// clear: what tiform keeps of them is what is tested.
func TestCredentialsNeverLeaveTheCluster(t *testing.T) {
	const (
		ldapPw  = "Ldap-Pw-grep-7731"
		kmsKey  = "Kms-Sk-grep-5519"
		newerPw = "Ldap-Pw-new-grep-4402"
	)
	srv := tidbsimtest.Start(t, tidbsim.Options{TiKV: 1, NewerConfig: []tidbsim.NewerConfigItem{
		{Type: "tikv", Name: "security.encryption.master-key.aws.secret-access-key", Kind: "string", Default: kmsKey},
	}})
	srv.Exec(t, "SET GLOBAL authentication_ldap_simple_bind_root_pwd = '"+ldapPw+"'")
	work := t.TempDir()
	t.Chdir(work)
	os.Mkdir(filepath.Join(work, "cfg"), 0o755)
	writeTestFile(t, filepath.Join(work, "cfg", "main.hcl"), `variable "ldap_pw" {
  sensitive = true
}
variables {
  authentication_ldap_simple_bind_root_pwd = var.ldap_pw
}
`)
	t.Setenv("TIFORM_DSN", srv.RootDSN())
	t.Setenv("TIFORM_VAR_ldap_pw", newerPw)
	t.Setenv("TIFORM_AUDIT_LOG", filepath.Join(work, "audit.log"))
	for _, args := range [][]string{
		{"import", "--out", "imported"},
		{"state", "pull", "--out", "snap.json"},
		{"state", "pull", "--out", "-"},
		{"import", "--from-snapshot", "snap.json", "--out", "from-snap"},
		{"plan", "--chdir", "cfg", "--verbose"},
		{"plan", "--chdir", "cfg", "--format", "json"},
		{"plan", "--chdir", "cfg", "--format", "markdown", "--out", "plan.tfplan"},
		{"plan", "--chdir", "cfg", "--drift", "--format", "json"},
		{"plan", "--chdir", "cfg", "--from-snapshot", "snap.json", "--drift"},
		{"show", "plan.tfplan", "--format", "json"},
		{"check", "--format", "json"},
		{"validate", "--chdir", "imported", "--show", "default"},
		{"apply", "--chdir", "cfg", "--auto-approve"},
		{"plan", "--chdir", "cfg", "--format", "json"},
	} {
		code, out := tiform(t, args...)
		if testing.Verbose() {
			t.Logf("%v: exit %d\n%s", args, code, out)
		}
		grepFor(t, strings.Join(args, " "), []byte(out), ldapPw, kmsKey, newerPw)
	}
	err := filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		grepFor(t, path, b, ldapPw, kmsKey, newerPw)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	main, err := os.ReadFile(filepath.Join(work, "imported", "main.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"variable \"authentication_ldap_simple_bind_root_pwd\" {\n  sensitive = true\n}",
		"authentication_ldap_simple_bind_root_pwd = var.authentication_ldap_simple_bind_root_pwd",
		"holds a credential, set on the cluster: tiform does not import it",
	} {
		if !bytes.Contains(main, []byte(want)) {
			t.Errorf("imported main.hcl lacks %q:\n%s", want, main)
		}
	}
	// A set password reads back only as TiDB's mask (MaskPwd), as on the
	// real server: tiform cannot tell the declared one from another, so
	// apply sends nothing for it (the plan's note says so) rather than
	// re-sending a credential on every apply.
	for _, e := range srv.QueryLog() {
		if strings.Contains(e.SQL, "authentication_ldap_simple_bind_root_pwd =") && strings.Contains(e.SQL, newerPw) {
			t.Errorf("apply re-sent the password although the cluster shows one set: %s", strings.ReplaceAll(e.SQL, newerPw, "<password>"))
		}
	}
	res, err := srv.NewSession("root").Exec("SELECT @@GLOBAL.authentication_ldap_simple_bind_root_pwd")
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0].S != "******" {
		t.Errorf("the cluster's password reads %v %v, want the mask", res, err)
	}
}

// grepFor fails when b holds any of secrets.
func grepFor(t *testing.T, where string, b []byte, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if i := bytes.Index(b, []byte(s)); i >= 0 {
			t.Errorf("%s holds %q: …%s…", where, s, b[max(0, i-80):min(len(b), i+len(s)+40)])
		}
	}
}

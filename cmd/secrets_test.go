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

// The secrets of the grep test: a DSN's password and a sensitive variable's
// value, distinctive enough that no other text contains them.
const (
	grepPassword  = "Pw-Zq9x-7kL2-grep"
	grepSensitive = "Sens-Uri-4f7Q-grep"
)

// grepRun is one tiform invocation of the grep test.
type grepRun struct {
	name string
	args []string
	env  map[string]string // set for this run only ("" unsets)
}

// TestNoSecretInAnyOutput runs every command (validate, plan and plan
// --drift, show, apply, check and check plan-cache, state pull, import,
// export tiup, fmt, catalog), in every format, on the success path and on
// the error paths (malformed DSNs, a DSN given as an argument or another
// flag's value or in a variable file with a syntax error, a configuration
// reading the DSN through env() and file(), a failed apply that writes a
// rollback plan), with a distinctive DSN
// password and sensitive value, and greps every byte written: stdout, stderr
// and every file under the working directory (plan files, snapshots, the
// audit log, rollback plans).
func TestNoSecretInAnyOutput(t *testing.T) {
	srv := tidbsimtest.Start(t, tidbsim.Options{
		NewerVariables: []tidbsim.NewerVariable{
			{Name: "x_storage_uri", Type: "string", Default: ""},
			{Name: "x_backup_uri", Type: "string", Default: ""},
		},
		// Fail the TiKV change so that apply stops after the sensitive
		// change and writes a rollback plan.
		Faults: tidbsim.Faults{FailStatements: []tidbsim.FailRule{{Match: "SET CONFIG tikv", Prefix: true, Code: 1105, Message: "injected failure"}}},
	})
	dsn := srv.AddUser(t, "app", grepPassword)
	work := t.TempDir()
	files := map[string]string{
		"cfg/main.hcl": `variable "uri" {
  sensitive = true
}
cluster "prod" {
  dsn = env("PROD_DSN")
  variables {
    x_storage_uri                       = var.uri
    tidb_enable_non_prepared_plan_cache = true
  }
  tikv {
    coprocessor {
      region-split-size = "200MiB"
    }
  }
}
`,
		"json/main.hcl":     "variable \"uri\" {\n  sensitive = true\n}\ncluster \"prod\" {\n  dsn = env(\"PROD_DSN\")\n  variables {\n    x_backup_uri = var.uri\n  }\n  tikv {\n    coprocessor {\n      region-split-size = \"200MiB\"\n    }\n  }\n}\n",
		"envread/main.hcl":  "variables {\n  tidb_opt_fix_control = env(\"PROD_DSN\")\n}\n",
		"fileread/main.hcl": "cluster \"prod\" {\n  dsn = trimspace(file(\"dsn.txt\"))\n  variables {\n    tidb_opt_fix_control = file(\"dsn.txt\")\n  }\n}\n",
		"fileread/dsn.txt":  dsn + "\n",
		"plain/main.hcl":    "variables {\n  tidb_enable_non_prepared_plan_cache = true\n}\n",
		// A variable file holding the DSN, with a syntax error on its line
		// (the diagnostic's source snippet), and one with a sensitive value
		// of the wrong type.
		"bad.tfvars":  "dsn = \"" + dsn + "\" oops\n",
		"bad2.tfvars": "uri = [\"s3://bucket/?secret=" + grepSensitive + "\"]\n",
		// A TiKV setting from a sensitive variable, for export tiup.
		"tiup/main.hcl": "variable \"uri\" {\n  sensitive = true\n}\ncluster \"prod\" {\n  dsn = env(\"PROD_DSN\")\n  tikv {\n    backup {\n      s3-uri = var.uri\n    }\n  }\n}\n",
	}
	for name, content := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	t.Setenv("PROD_DSN", dsn)
	t.Setenv("TIFORM_DSN", "")
	t.Setenv("TIFORM_VAR_uri", "s3://bucket/?secret="+grepSensitive)
	t.Setenv("TIFORM_AUDIT_LOG", filepath.Join(work, "audit", "audit.log"))
	t.Setenv("NO_COLOR", "1")

	addr := srv.Addr()
	runs := []grepRun{
		// The success path, every format.
		{name: "validate", args: []string{"validate", "--chdir", "cfg"}},
		{name: "validate json", args: []string{"validate", "--chdir", "cfg", "--format", "json"}},
		{name: "validate --show", args: []string{"validate", "--chdir", "cfg", "--show", "prod"}},
		{name: "validate --show json", args: []string{"validate", "--chdir", "cfg", "--show", "prod", "--format", "json"}},
		{name: "plan", args: []string{"plan", "--chdir", "cfg", "--verbose"}},
		{name: "plan json", args: []string{"plan", "--chdir", "cfg", "--format", "json"}},
		{name: "plan markdown", args: []string{"plan", "--chdir", "cfg", "--format", "markdown", "--out", "plan.tfplan"}},
		{name: "show", args: []string{"show", "plan.tfplan", "--verbose"}},
		{name: "show json", args: []string{"show", "plan.tfplan", "--format", "json"}},
		{name: "show markdown", args: []string{"show", "plan.tfplan", "--format", "markdown"}},
		{name: "apply saved (sensitive: refused)", args: []string{"apply", "plan.tfplan", "--chdir", "cfg"}},
		{name: "plan --drift", args: []string{"plan", "--chdir", "cfg", "--drift"}},
		{name: "plan --drift json", args: []string{"plan", "--chdir", "cfg", "--drift", "--format", "json"}},
		{name: "plan --drift markdown", args: []string{"plan", "--chdir", "cfg", "--drift", "--format", "markdown"}},
		{name: "export tiup", args: []string{"export", "tiup", "--chdir", "tiup"}},
		{name: "fmt --check --diff", args: []string{"fmt", "--check", "--diff", "--chdir", "cfg"}},
		{name: "catalog json", args: []string{"catalog", "--search", "region", "--format", "json"}},
		// import before apply sets the sensitive value on the cluster.
		{name: "import --dsn", args: []string{"import", "--dsn", dsn, "--cluster", "prod", "--out", "imported"}},
		{name: "check plan-cache", args: []string{"check", "plan-cache", "--dsn", dsn}},
		{name: "check", args: []string{"check", "--dsn", dsn}},
		{name: "check json", args: []string{"check", "--format", "json"}, env: map[string]string{"TIFORM_DSN": dsn}},
		{name: "state pull", args: []string{"state", "pull", "--chdir", "cfg", "--out", "snap.json"}},
		{name: "state pull to stdout", args: []string{"state", "pull", "--chdir", "cfg", "--out", "-"}},
		{name: "import from snapshot", args: []string{"import", "--from-snapshot", "snap.json", "--out", "imported-snap"}},
		{name: "plan from snapshot", args: []string{"plan", "--chdir", "cfg", "--from-snapshot", "snap.json", "--format", "json"}},
		{name: "check from snapshot", args: []string{"check", "--from-snapshot", "snap.json"}},
		{name: "apply (fails, writes a rollback plan)", args: []string{"apply", "--chdir", "cfg", "--auto-approve", "--verbose"}},
		{name: "show rollback", args: []string{"show", "cfg/rollback.tfplan", "--format", "json"}},
		{name: "apply --format json (fails)", args: []string{"apply", "--chdir", "json", "--auto-approve", "--format", "json"}},
		{name: "plain plan --out", args: []string{"plan", "--chdir", "plain", "--dsn", dsn, "--out", "plain.tfplan"}},
		{name: "plain apply saved", args: []string{"apply", "plain.tfplan", "--dsn", dsn}},
		{name: "apply markdown", args: []string{"apply", "--chdir", "plain", "--dsn", dsn, "--auto-approve", "--format", "markdown"}},
		{name: "apply json", args: []string{"apply", "--chdir", "plain", "--dsn", dsn, "--auto-approve", "--format", "json"}},
		// Malformed DSNs, wrong places.
		{name: "DSN without @", args: []string{"plan", "--chdir", "plain", "--dsn", "app:" + grepPassword}},
		{name: "DSN with / in the password", args: []string{"plan", "--chdir", "plain", "--dsn", "app:" + grepPassword + "/x@tcp(" + addr + ")"}},
		{name: "DSN URL form", args: []string{"plan", "--chdir", "plain", "--dsn", "mysql://app:" + grepPassword + "@" + addr + "/"}},
		{name: "DSN without @, password glued to the network", args: []string{"plan", "--chdir", "plain", "--dsn", "app:" + grepPassword + "tcp(" + addr + ")/"}},
		{name: "DSN without @, glued, json", args: []string{"plan", "--chdir", "plain", "--dsn", "app:" + grepPassword + "tcp(" + addr + ")/", "--format", "json"}},
		{name: "DSN without @, glued, markdown", args: []string{"plan", "--chdir", "plain", "--format", "markdown"}, env: map[string]string{"TIFORM_DSN": "app:" + grepPassword + "tcp(" + addr + ")/"}},
		{name: "DSN without @, glued, apply", args: []string{"apply", "--chdir", "plain", "--auto-approve", "--dsn", "app:" + grepPassword + "tcp(" + addr + ")/"}},
		{name: "DSN as import --out", args: []string{"import", "--dsn", dsn, "--out", dsn}},
		{name: "DSN as plan --out", args: []string{"plan", "--chdir", "plain", "--dsn", dsn, "--out", "app:" + grepPassword + "@tcp(h)/x.tfplan"}},
		{name: "DSN as state pull --out", args: []string{"state", "pull", "--chdir", "plain", "--dsn", dsn, "--out", dsn}},
		{name: "DSN as --audit-log", args: []string{"apply", "--chdir", "plain", "--dsn", dsn, "--auto-approve", "--audit-log", dsn}},
		{name: "DSN unreachable", args: []string{"plan", "--chdir", "plain", "--dsn", "app:" + grepPassword + "@tcp(127.0.0.1:1)/"}},
		{name: "DSN in TIFORM_DSN, malformed", args: []string{"plan", "--chdir", "plain"}, env: map[string]string{"TIFORM_DSN": "app:" + grepPassword + "@tcp(" + addr}},
		{name: "DSN as a positional argument", args: []string{"plan", "--chdir", "plain", dsn}},
		{name: "DSN as --chdir", args: []string{"validate", "--chdir", dsn}},
		{name: "DSN as --format", args: []string{"plan", "--chdir", "plain", "--format", dsn}},
		{name: "DSN in a --var-file, malformed", args: []string{"validate", "--chdir", "plain", "--var-file", "bad.tfvars"}},
		{name: "DSN in a --var-file, plan", args: []string{"plan", "--chdir", "plain", "--var-file", "bad.tfvars", "--dsn", dsn}},
		{name: "sensitive value of the wrong type in a --var-file", args: []string{"validate", "--chdir", "cfg", "--var-file", "bad2.tfvars"}},
		{name: "DSN as --var-file", args: []string{"validate", "--chdir", "plain", "--var-file", dsn}},
		{name: "DSN as a plan file", args: []string{"show", dsn}},
		{name: "DSN as --from-snapshot", args: []string{"check", "--from-snapshot", dsn}},
		// The configuration reaching for the DSN.
		{name: "env() of the DSN", args: []string{"plan", "--chdir", "envread", "--dsn", dsn, "--format", "json"}},
		{name: "env() of the DSN, allowed", args: []string{"plan", "--chdir", "envread", "--dsn", dsn, "--allow-env", "PROD_DSN"}},
		{name: "validate env() of the DSN, allowed", args: []string{"validate", "--chdir", "envread", "--allow-env", "PROD_DSN", "--format", "json"}},
		{name: "file() of the DSN", args: []string{"plan", "--chdir", "fileread", "--format", "markdown"}},
		{name: "validate --show file() of the DSN", args: []string{"validate", "--chdir", "fileread", "--show", "prod"}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			for k, v := range r.env {
				t.Setenv(k, v)
			}
			var out, errOut bytes.Buffer
			code := Main(r.args, strings.NewReader(""), &out, &errOut)
			for what, b := range map[string][]byte{"stdout": out.Bytes(), "stderr": errOut.Bytes()} {
				grepSecrets(t, r.name+" "+what, b)
			}
			if testing.Verbose() {
				t.Logf("exit %d\n%s%s", code, out.String(), errOut.String())
			}
		})
	}
	// Every file written: plan files, the snapshot, the audit log, rollback plans.
	want := map[string]bool{"imported/cluster-prod.hcl": false, "imported-snap/cluster-prod.hcl": false, "plan.tfplan": false, "snap.json": false, "audit/audit.log": false, "cfg/rollback.tfplan": false, "plain.tfplan": false, "json/rollback.tfplan": false}
	err := filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(work, path)
			grepSecrets(t, "the directory name "+rel, []byte(rel))
			return nil
		}
		rel, _ := filepath.Rel(work, path)
		grepSecrets(t, "the name of "+rel, []byte(rel)) // no secret in a file or directory name
		if _, ok := want[rel]; ok {
			want[rel] = true
		}
		if rel == "fileread/dsn.txt" || rel == "bad.tfvars" || rel == "bad2.tfvars" {
			return nil // the test's own input
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		grepSecrets(t, rel, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f, seen := range want {
		if !seen {
			t.Errorf("%s was not written: the test did not reach that path", f)
		}
	}
	// The sensitive value did reach the cluster: it was sent, not lost.
	res, err := srv.NewSession("root").Exec("SELECT @@GLOBAL.x_storage_uri")
	if err != nil || len(res.Rows) != 1 || !strings.Contains(res.Rows[0][0].S, grepSensitive) {
		t.Errorf("the sensitive value was not applied: %v %v", res, err)
	}
}

// grepSecrets fails when b holds the password, the sensitive value, or a
// distinctive half of either.
func grepSecrets(t *testing.T, where string, b []byte) {
	t.Helper()
	for _, s := range []string{grepPassword, grepSensitive, "Zq9x-7kL2", "4f7Q-grep"} {
		if i := bytes.Index(b, []byte(s)); i >= 0 {
			lo, hi := max(0, i-80), min(len(b), i+len(s)+40)
			t.Errorf("%s contains %q: …%s…", where, s, b[lo:hi])
		}
	}
}

// A value read from the cluster that holds the DSN's password (someone set a
// variable to it) is masked in every output, and no plan file or snapshot
// holding it is written.
func TestNoFileHoldsASecretReadFromTheCluster(t *testing.T) {
	c := tidbsimtest.Start(t, tidbsim.Options{
		NewerVariables: []tidbsim.NewerVariable{{Name: "x_note", Type: "string", Default: ""}},
	})
	dsn := c.AddUser(t, "app", grepPassword)
	c.Exec(t, "SET GLOBAL x_note = 'left here: "+grepPassword+"'")
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "main.hcl"), "variables {\n  x_note = \"tidied\"\n}\n")
	t.Setenv("TIFORM_DSN", dsn)
	t.Setenv("NO_COLOR", "1")
	for _, tc := range []struct {
		args []string
		file string
		want string
	}{
		{[]string{"plan", "--chdir", dir, "--out", filepath.Join(dir, "p.tfplan")}, "p.tfplan", "it would hold the password of a DSN in use"},
		{[]string{"state", "pull", "--chdir", dir, "--out", filepath.Join(dir, "s.json")}, "s.json", "it would hold the password of a DSN in use"},
	} {
		code, out := tiform(t, tc.args...)
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, want a refusal %q:\n%s", tc.args, code, tc.want, out)
		}
		grepSecrets(t, strings.Join(tc.args, " "), []byte(out))
		if _, err := os.Stat(filepath.Join(dir, tc.file)); err == nil {
			t.Errorf("%s was written", tc.file)
		}
	}
}

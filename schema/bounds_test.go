package schema

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tiform/tiform/diag"
)

// loadWithin loads dir and fails the test when Load does not return in time
// (a hang or an exhausted machine is what these tests guard against).
func loadWithin(t *testing.T, dir string, opts Options) string {
	t.Helper()
	type result struct {
		out    string
		failed bool
	}
	done := make(chan result, 1)
	go func() {
		_, diags := Load(dir, opts)
		var sb strings.Builder
		_ = diag.Write(&sb, diags, false)
		done <- result{sb.String(), diags.HasErrors()}
	}()
	select {
	case r := <-done:
		if !r.failed {
			t.Fatalf("want an error, the configuration loaded:\n%s", r.out)
		}
		return r.out
	case <-time.After(60 * time.Second):
		t.Fatal("Load did not return within a minute")
	}
	return ""
}

// Each bound ends loading with a clear error: no crash, no hang, no memory
// exhausted.
func TestBounds(t *testing.T) {
	doubling := "locals {\n  l0 = \"xxxxxxxxxxxxxxxx\"\n"
	for i := 1; i <= 64; i++ {
		doubling += "  l" + itoa(i) + " = \"${local.l" + itoa(i-1) + "}${local.l" + itoa(i-1) + "}\"\n"
	}
	doubling += "}\nvariables {\n  x_big = local.l64\n}\n"
	big := strings.Repeat("x", 1<<20-16)
	for _, tc := range []struct {
		name  string
		files map[string]string
		opts  Options
		want  string
	}{
		{"self-doubling locals", map[string]string{"main.hcl": doubling}, Options{}, "this expression's value would be too large"},
		{"a template repeating a large local", map[string]string{"main.hcl": "locals {\n  big = file(\"big.txt\")\n  many = \"" + strings.Repeat("${local.big}", 100) + "\"\n}\n", "big.txt": big},
			Options{}, "this expression's value would be too large (at most"},
		{"nested for expressions", map[string]string{"main.hcl": "locals {\n  l = [" + strings.Repeat("\"aaaaaaaaaa\",", 1000) + "]\n  x = [for a in local.l : [for b in local.l : [for c in local.l : c]]]\n}\n"},
			Options{}, "this expression's value would be too large"},
		{"format with a huge width", map[string]string{"main.hcl": "variables {\n  x = format(\"%0999999999d\", 1)\n}\n"}, Options{}, "format would build a value of up to"},
		{"replace inserting everywhere", map[string]string{"main.hcl": "locals {\n  big = file(\"big.txt\")\n  x = replace(local.big, \"\", local.big)\n}\n", "big.txt": big},
			Options{}, "replace would build a value of up to"},
		{"join with a large separator", map[string]string{"main.hcl": "locals {\n  big = file(\"big.txt\")\n  x = join(local.big, [" + strings.Repeat("\"a\",", 100) + "])\n}\n", "big.txt": big},
			Options{}, "join would build a value of up to"},
		{"the values in all", map[string]string{"main.hcl": manyLocals(8), "big.txt": strings.Repeat("y", 256<<10)}, Options{maxEval: 1 << 20}, "larger than 1 MiB in all"},
		{"deep brackets", map[string]string{"main.hcl": "x = " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"}, Options{}, "nested more than 128 levels deep"},
		{"deep blocks", map[string]string{"main.hcl": strings.Repeat("a {\n", 1000) + strings.Repeat("}\n", 1000)}, Options{}, "nested more than 128 levels deep"},
		{"a long operator chain", map[string]string{"main.hcl": "variables {\n  x = " + strings.Repeat("!", 5000) + "true\n}\n"}, Options{}, "nested more than 128 levels deep"},
		{"a conditional chain across lines", map[string]string{"main.hcl": "variables {\n  x = (" + strings.Repeat("true ?\n 1 :\n ", 1000) + "1)\n}\n"}, Options{}, "nested more than 128 levels deep"},
		{"a deep --var value", map[string]string{"main.hcl": "variable \"v\" {\n  type = list(any)\n}\n"},
			Options{Vars: map[string]string{"v": strings.Repeat("[", 10000) + strings.Repeat("]", 10000)}}, "--var v: value nested more than 128 levels deep"},
		{"a deep variable file", map[string]string{"main.hcl": "variable \"v\" {\n  type = any\n}\n", "deep.tfvars": "v = " + strings.Repeat("{a=", 10000) + "1" + strings.Repeat("}", 10000)},
			Options{VarFiles: []string{"deep.tfvars"}}, "nested more than 128 levels deep"},
		{"nested for expressions in a variable file", map[string]string{"main.hcl": "variable \"v\" {\n  type = any\n}\n",
			"for.tfvars": "v = [for a in [" + strings.Repeat("1,", 1000) + "] : [for b in [" + strings.Repeat("1,", 1000) + "] : [for c in [" + strings.Repeat("1,", 1000) + "] : c]]]\n"},
			Options{VarFiles: []string{"for.tfvars"}}, "this expression's value would be too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				writeFile(t, dir, name, content)
			}
			opts := tc.opts
			for i, vf := range opts.VarFiles {
				opts.VarFiles[i] = filepath.Join(dir, vf)
			}
			if out := loadWithin(t, dir, opts); !strings.Contains(out, tc.want) {
				t.Fatalf("want %q, got:\n%.2000s", tc.want, out)
			}
		})
	}
}

// manyLocals declares n locals of three times big.txt each.
func manyLocals(n int) string {
	var b strings.Builder
	b.WriteString("locals {\n")
	for i := 0; i < n; i++ {
		b.WriteString("  l" + itoa(i) + " = \"${file(\"big.txt\")}${file(\"big.txt\")}${file(\"big.txt\")}" + itoa(i) + "\"\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

// Configuration and variable files that are not regular files, or too
// large, are refused before a byte is parsed.
func TestInputFilesBounded(t *testing.T) {
	t.Run("a FIFO named main.hcl", func(t *testing.T) {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "main.hcl"), 0o600); err != nil {
			t.Skip(err)
		}
		if out := loadWithin(t, dir, Options{}); !strings.Contains(out, "not a regular file (a named pipe)") {
			t.Fatal(out)
		}
	})
	t.Run("main.hcl linked to /dev/zero", func(t *testing.T) {
		dir := t.TempDir()
		os.Symlink("/dev/zero", filepath.Join(dir, "main.hcl"))
		if out := loadWithin(t, dir, Options{}); !strings.Contains(out, "a symbolic link that leads out of the configuration directory") {
			t.Fatal(out)
		}
	})
	t.Run("/dev/zero as a variable file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "main.hcl", "variable \"v\" {\n  default = 1\n}\n")
		if out := loadWithin(t, dir, Options{VarFiles: []string{"/dev/zero"}}); !strings.Contains(out, "not a regular file (a character device)") {
			t.Fatal(out)
		}
	})
	t.Run("a configuration over the limit", func(t *testing.T) {
		t.Setenv("TIFORM_MAX_CONFIG_SIZE", "1KiB")
		dir := t.TempDir()
		writeFile(t, dir, "main.hcl", "# "+strings.Repeat("x", 2000)+"\n")
		if out := loadWithin(t, dir, Options{}); !strings.Contains(out, "the configuration file is 2.0 KiB, more than the limit of 1.0 KiB; if it is meant to be this large, raise the limit with TIFORM_MAX_CONFIG_SIZE=") {
			t.Fatal(out)
		}
	})
}

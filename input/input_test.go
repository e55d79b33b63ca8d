package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.hcl")
	os.WriteFile(small, []byte("x = 1\n"), 0o600)
	big := filepath.Join(dir, "big.hcl")
	os.WriteFile(big, make([]byte, 2<<10), 0o600)
	fifo := filepath.Join(dir, "fifo.hcl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tiny := Kind{What: "configuration file", Default: 1 << 10, Env: "TIFORM_TEST_MAX"}
	for _, tc := range []struct {
		name, path string
		want       string // "" = reads
	}{
		{"regular", small, ""},
		{"too large", big, "the configuration file is 2.0 KiB, more than the limit of 1.0 KiB; if it is meant to be this large, raise the limit with TIFORM_TEST_MAX="},
		{"a FIFO never blocks", fifo, "not a regular file (a named pipe)"},
		{"/dev/zero never ends", "/dev/zero", "not a regular file (a character device)"},
		{"a directory", dir, "not a regular file (a directory)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var err error
			go func() {
				_, err = ReadFile(tc.path, tiny)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("ReadFile did not return")
			}
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.path+": ") {
				t.Fatalf("err = %v, want %q naming the path", err, tc.want)
			}
		})
	}
	t.Setenv("TIFORM_TEST_MAX", "4KiB")
	if _, err := ReadFile(big, tiny); err != nil {
		t.Errorf("with the limit raised: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "16MiB": 16 << 20, " 2 GiB": 2 << 30, "512KiB": 512 << 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1TB", "x", "99999999999GiB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

// A file named on the command line is read through the root of its own
// directory: a link there that leads elsewhere is refused before its target
// is opened (a FIFO target would block, a secret would be read); a link to a
// file beside it is read.
func TestReadFileConfinedToItsDirectory(t *testing.T) {
	outside := t.TempDir()
	secretFile := filepath.Join(outside, "credentials")
	os.WriteFile(secretFile, []byte("aws_secret_access_key = s3cr3t\n"), 0o600)
	fifo := filepath.Join(outside, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "real.tfvars"), []byte("x = 1\n"), 0o600)
	os.Symlink(secretFile, filepath.Join(dir, "prod.tfvars"))
	os.Symlink(fifo, filepath.Join(dir, "fifo.tfvars"))
	os.Symlink("real.tfvars", filepath.Join(dir, "beside.tfvars"))
	os.Symlink("../"+filepath.Base(outside)+"/credentials", filepath.Join(dir, "up.tfvars"))
	for _, name := range []string{"prod.tfvars", "fifo.tfvars", "up.tfvars"} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(filepath.Join(dir, name), Config)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "a symbolic link that leads out of the directory that holds it") {
				t.Errorf("%s: err = %v, want a refusal of the link", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile did not return", name)
		}
	}
	if b, err := ReadFile(filepath.Join(dir, "beside.tfvars"), Config); err != nil || string(b) != "x = 1\n" {
		t.Errorf("a link to a file beside it: %q, %v", b, err)
	}
}

// Dir confines names to the directory: no absolute name, no "..", no link
// out; links inside are followed.
func TestDir(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cr3t"), 0o600)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	os.WriteFile(filepath.Join(dir, "sub", "a.hcl"), []byte("a = 1\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "b.hcl"), []byte("b = 1\n"), 0o600)
	os.Symlink("sub/a.hcl", filepath.Join(dir, "a.hcl"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "evil.hcl"))
	os.WriteFile(filepath.Join(dir, ".hidden.hcl"), nil, 0o600)
	d, err := OpenDir(dir, "the configuration directory")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	names, err := d.Names(".hcl")
	if err != nil || strings.Join(names, ",") != "a.hcl,b.hcl,evil.hcl" {
		t.Fatalf("Names = %v, %v", names, err)
	}
	if b, err := d.ReadFile("a.hcl", Config); err != nil || string(b) != "a = 1\n" {
		t.Errorf("a link inside: %q, %v", b, err)
	}
	for name, want := range map[string]string{
		"evil.hcl":                       "a symbolic link that leads out of the configuration directory",
		filepath.Join(outside, "secret"): "an absolute path",
		"../x":                           `a path with ".."`,
		"sub/../b.hcl":                   `a path with ".."`,
	} {
		b, err := d.ReadFile(name, Config)
		if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), want) || len(b) > 0 {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", name, b, err, want)
		}
	}
}

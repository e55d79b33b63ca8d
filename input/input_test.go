package input

import (
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

package files

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOpenAppend(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.log")
	f, err := OpenAppend(log)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one\n")
	f.Close()
	if st, _ := os.Stat(log); st.Mode().Perm() != Private {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), Private)
	}
	// An existing log readable by others is narrowed.
	os.Chmod(log, 0o644)
	f, err = OpenAppend(log)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("two\n")
	f.Close()
	if b, _ := os.ReadFile(log); string(b) != "one\ntwo\n" {
		t.Errorf("content %q", b)
	}
	if st, _ := os.Stat(log); st.Mode().Perm() != Private {
		t.Errorf("mode %v after reopening, want %v", st.Mode().Perm(), Private)
	}
	// A symbolic link where the log goes is refused, and its target untouched.
	target := filepath.Join(dir, "victim")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	link := filepath.Join(dir, "linked.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAppend(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("err = %v, want a refusal naming the link", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	// A dangling link is refused too (O_CREAT would create its target).
	dangling := filepath.Join(dir, "dangling.log")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if _, err := OpenAppend(dangling); err == nil {
		t.Error("a dangling link was followed")
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("the dangling link's target was created")
	}
	// Not a regular file.
	if _, err := OpenAppend(dir); err == nil {
		t.Error("a directory was opened")
	}
}

// Write replaces a symbolic link at path, never writing through it.
func TestWriteDoesNotFollowALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "victim")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	link := filepath.Join(dir, "rollback.tfplan")
	os.Symlink(target, link)
	if err := WriteBytes(link, []byte("plan"), Private); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("written through the link: %q", b)
	}
	st, err := os.Lstat(link)
	if err != nil || st.Mode()&os.ModeSymlink != 0 || st.Mode().Perm() != Private {
		t.Errorf("rollback.tfplan is %v, %v; want a regular file with mode %v", st.Mode(), err, Private)
	}
}

// A FIFO or a device where the audit log goes is refused at once: opening
// never waits for a reader.
func TestOpenAppendNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "audit.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, path := range []string{fifo, "/dev/null"} {
		done := make(chan error, 1)
		go func() {
			f, err := OpenAppend(path)
			if f != nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: err = %v, want a refusal", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: OpenAppend did not return", path)
		}
	}
}

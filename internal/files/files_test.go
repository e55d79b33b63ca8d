package files

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.tfplan")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(path, []byte("new"), Private); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "new" {
		t.Errorf("content %q", b)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != Private {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), Private)
	}
	assertOnly(t, dir, "plan.tfplan")
}

func TestWriteFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "snap.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("render failed half-way")
	err := Write(path, Private, func(w io.Writer) error {
		_, _ = w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the render's error", err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "old" {
		t.Errorf("the old file was touched: %q", b)
	}
	assertOnly(t, dir, "snap.json")
}

func TestWriteReplacesALinkNotItsTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := WriteBytes(link, []byte("new"), Private); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("wrote through the link: target is %q", b)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink != 0 {
		t.Error("the link is still a link")
	}
}

func TestWriteIntoAMissingDirectory(t *testing.T) {
	err := WriteBytes(filepath.Join(t.TempDir(), "nope", "x"), []byte("x"), Private)
	if err == nil {
		t.Fatal("no error")
	}
}

func TestMkdirPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := MkdirPrivate(dir); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); runtime.GOOS != "windows" && st.Mode().Perm() != PrivateDir {
		t.Errorf("mode %v", st.Mode().Perm())
	}
}

// assertOnly fails unless dir holds exactly names (no temporary file left).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Errorf("directory holds %v, want %v", got, names)
	}
}

func TestWriteErrorNamesThePath(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	path := filepath.Join(dir, "main.hcl")
	err := WriteBytes(path, []byte("x"), 0o644)
	if err == nil || err.Error() != "write "+path+": permission denied" {
		t.Errorf("err = %v", err)
	}
}

func TestMkdirUnderAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := Mkdir(filepath.Join(f, "sub"), 0o755)
	if err == nil || err.Error() != "create directory "+filepath.Join(f, "sub")+": not a directory" {
		t.Errorf("err = %v", err)
	}
}

// WriteAll writes every file or none: a file that cannot be written (a name
// too long for the file system) leaves no other file behind, and no
// temporary file.
func TestWriteAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	err := WriteAll(dir, []File{
		{Name: "baseline.hcl", Content: []byte("x = 1\n")},
		{Name: "cluster-" + strings.Repeat("a", 300) + ".hcl", Content: []byte("y = 1\n")},
	}, 0o644)
	if err == nil {
		t.Fatal("a 300-character name was written")
	}
	assertOnly(t, dir)
	if err := WriteAll(dir, []File{{Name: "a.hcl", Content: []byte("a")}, {Name: "b.hcl", Content: []byte("b")}}, 0o644); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, dir, "a.hcl", "b.hcl")
	if b, _ := os.ReadFile(filepath.Join(dir, "b.hcl")); string(b) != "b" {
		t.Errorf("b.hcl = %q", b)
	}
}

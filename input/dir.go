package input

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Confinement. Every file tiform reads is opened through an os.Root: the
// configuration's files through the configuration directory's (Dir), a file
// named on the command line through the root of the directory that holds it
// (ReadFile). os.Root resolves every component, symbolic links included,
// inside its directory, so a link planted in a pull request that points at
// the runner's files (~/.docker/config.json, /proc/self/environ) is refused
// before a byte of the target is read.

// ErrOutside is the error (errors.Is) for a path, or a symbolic link on the
// way, that leads out of the directory a file is confined to.
var ErrOutside = errors.New("leads out of the directory")

// outsideError is an ErrOutside in the words of the directory it leaves.
type outsideError struct{ msg string }

func (e *outsideError) Error() string { return e.msg }
func (e *outsideError) Unwrap() error { return ErrOutside }

func outside(format string, args ...any) error {
	return &outsideError{msg: fmt.Sprintf(format, args...)}
}

// Dir is a directory whose files are read confined to it: names are
// relative to it; an absolute name, a ".." component and a symbolic link
// that leads out are refused (ErrOutside). Close it when done.
type Dir struct {
	root *os.Root
	// What names the directory in messages ("the configuration directory").
	What string
}

// OpenDir opens path as a Dir named what in messages.
func OpenDir(path, what string) (*Dir, error) {
	if path == "" {
		path = "."
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Dir{root: r, What: what}, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Name is the directory's path as opened.
func (d *Dir) Name() string { return d.root.Name() }

// ReadFile reads name inside d as a k: a regular file within k's limit,
// never opened through a link out of d. Errors do not repeat name (the
// caller names the file as the user wrote it); one that leads out says so
// in d's words and wraps ErrOutside.
func (d *Dir) ReadFile(name string, k Kind) ([]byte, error) {
	if err := d.checkName(name); err != nil {
		return nil, err
	}
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, d.openError(err)
	}
	defer f.Close()
	return readOpened(f, "", k)
}

// Lstat describes name inside d without following a final symbolic link.
func (d *Dir) Lstat(name string) (fs.FileInfo, error) {
	if err := d.checkName(name); err != nil {
		return nil, err
	}
	st, err := d.root.Lstat(name)
	if err != nil {
		return nil, d.openError(err)
	}
	return st, nil
}

// Names lists the names of d's top-level entries that end in suffix and do
// not start with '.', sorted. Directories are left out; every other entry
// (a symbolic link too) is listed, for ReadFile to accept or refuse.
func (d *Dir) Names(suffix string) ([]string, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, d.openError(err)
	}
	defer f.Close()
	es, err := f.ReadDir(-1)
	if err != nil {
		return nil, d.openError(err)
	}
	var out []string
	for _, e := range es {
		if e.IsDir() || !strings.HasSuffix(e.Name(), suffix) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out, nil
}

// checkName refuses what os.Root would resolve inside d but a reader of the
// configuration would not expect to stay inside: an absolute name and a ".."
// component (a/../../x is refused by os.Root; a/../x is refused here too).
func (d *Dir) checkName(name string) error {
	if name == "" {
		return errors.New("the path is empty")
	}
	slashed := filepath.ToSlash(name)
	if filepath.IsAbs(name) || strings.HasPrefix(slashed, "/") || filepath.VolumeName(name) != "" {
		return outside("an absolute path: tiform reads only inside %s; write the path relative to it", d.What)
	}
	for _, part := range strings.Split(slashed, "/") {
		if part == ".." {
			return outside(`a path with "..": tiform reads only inside %s`, d.What)
		}
	}
	return nil
}

// openError turns os.Root's refusal of a path that escapes into ErrOutside
// in d's words, and strips the path from other errors.
func (d *Dir) openError(err error) error {
	if escapes(err) {
		return outside("a symbolic link that leads out of %s: tiform reads only inside it", d.What)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// escapes reports whether err is os.Root's refusal of a path that leaves
// the root (the standard library has no exported error for it).
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// ReadFile reads the file at path as a k: a regular file no larger than
// k.Limit(), opened through the root of the directory that holds it, so a
// symbolic link at path that leads out of that directory is refused
// (ErrOutside). Errors name the path.
//
// This is how every file named on the command line is read (a variable
// file, a saved plan, a snapshot, a previous drift report, a topology): the
// name is the operator's, but the file may sit in a checkout a pull request
// controls, where a link planted at that name would lead to the runner's
// files.
func ReadFile(path string, k Kind) ([]byte, error) {
	dir, base := filepath.Split(path)
	if base == "" || base == "." || base == ".." {
		return nil, fmt.Errorf("%s: not a regular file (a directory): a %s must be a plain file", path, k.What)
	}
	d, err := OpenDir(dir, "the directory that holds it")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer d.Close()
	b, err := d.ReadFile(base, k)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ReadLinked reads the file at path as a k, following symbolic links
// wherever they lead: only for a file whose content never reaches any
// output and that the operator names outside any checkout (a CA
// certificate: system CA stores are links into /usr/share). Errors name the
// path.
func ReadLinked(path string, k Kind) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpened(f, path, k)
}

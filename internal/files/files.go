// Package files owns how tiform writes every file it produces — plan files,
// rollback plans, snapshots, files `tiform fmt` rewrites — and the private
// directories they go in.
//
// Contract: a file is written atomically: into a temporary file in the same
// directory, flushed to disk (fsync), then renamed over the destination, and
// the directory is synced; a crash or a failed write leaves either the old
// file or the new one, never half of either, and no temporary file. A path
// that is a symbolic link is replaced, never written through (callers that
// mean the link's target resolve it first). Files that may hold cluster data
// are written with mode Private (0600); directories with PrivateDir (0700).
//
// It must not know what it writes: callers render the content.
package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

const (
	// Private is the mode of every file that may hold cluster data (plans,
	// rollback plans, snapshots, the audit log).
	Private fs.FileMode = 0o600
	// PrivateDir is the mode of the directories tiform creates for them.
	PrivateDir fs.FileMode = 0o700
)

// Write writes path atomically with mode perm: write renders the content
// into a temporary file next to path, which replaces path only when write,
// the flush and the close all succeeded.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return writeError(path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return writeError(path, err)
	}
	if err := tmp.Sync(); err != nil {
		return writeError(path, err)
	}
	if err := tmp.Close(); err != nil {
		return writeError(path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return writeError(path, err)
	}
	syncDir(dir)
	return nil
}

// writeError names path (not the temporary file) and what went wrong.
func writeError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("write %s: %w", path, err)
}

// WriteBytes is Write of data.
func WriteBytes(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// MkdirPrivate creates dir and its missing parents with mode PrivateDir,
// for files that may hold cluster data. An existing directory is left as it
// is.
func MkdirPrivate(dir string) error { return Mkdir(dir, PrivateDir) }

// Mkdir creates dir and its missing parents with mode perm (0755 for a
// configuration directory). An existing directory is left as it is.
func Mkdir(dir string, perm fs.FileMode) error {
	if err := os.MkdirAll(dir, perm); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	return nil
}

// syncDir makes the rename durable. Best effort: some systems cannot sync
// a directory, and the file itself is already on disk.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return
	}
}

// File is one file of WriteAll: its name inside the directory and content.
type File struct {
	Name    string
	Content []byte
}

// WriteAll writes every file into dir, or none of them: each is first
// written in full to a temporary file beside its destination (as Write
// does), and only when all are written are they renamed into place, in
// order. If any temporary file cannot be written, every temporary file is
// removed and nothing named in all was created or replaced. (A rename that
// fails after the others succeeded — the directory vanished — is reported
// with the names already in place.)
func WriteAll(dir string, all []File, perm fs.FileMode) (err error) {
	tmps := make([]string, 0, len(all))
	defer func() {
		if err != nil {
			for _, t := range tmps {
				os.Remove(t)
			}
		}
	}()
	for _, f := range all {
		path := filepath.Join(dir, f.Name)
		tmp, err := os.CreateTemp(dir, "."+f.Name+".tmp-*")
		if err != nil {
			return writeError(path, err)
		}
		tmps = append(tmps, tmp.Name())
		if _, err := tmp.Write(f.Content); err != nil {
			tmp.Close()
			return writeError(path, err)
		}
		if err := tmp.Chmod(perm); err != nil {
			tmp.Close()
			return writeError(path, err)
		}
		if err := tmp.Sync(); err != nil {
			tmp.Close()
			return writeError(path, err)
		}
		if err := tmp.Close(); err != nil {
			return writeError(path, err)
		}
	}
	for i, f := range all {
		if err := os.Rename(tmps[i], filepath.Join(dir, f.Name)); err != nil {
			var done []string
			for _, g := range all[:i] {
				done = append(done, g.Name)
			}
			tmps = tmps[i:]
			return fmt.Errorf("%w (already written: %v)", writeError(filepath.Join(dir, f.Name), err), done)
		}
	}
	tmps = nil
	syncDir(dir)
	return nil
}

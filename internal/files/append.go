package files

import (
	"errors"
	"fmt"
	"os"
)

// OpenAppend opens path for appending (the audit log), creating it with mode
// Private. It never follows a symbolic link at path: a link planted where the
// log goes (to a file the user may write, or to /dev/stdout) is refused, so
// that records are never appended to another file. path must be a regular
// file — a FIFO or a device is refused at once, never waited on (the open is
// non-blocking: a FIFO with no reader fails, one with a reader is then
// refused as not regular); one readable by others is narrowed to Private.
func OpenAppend(path string) (*os.File, error) {
	if oNoFollow == 0 {
		if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link: tiform does not append to a file through a link; remove it or name the file itself", path)
		}
	}
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() && st.Mode()&os.ModeSymlink == 0 {
		return nil, fmt.Errorf("%s is not a regular file (%s): the audit log must be a plain file", path, st.Mode().Type())
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|oNoFollow|oNonBlock, Private)
	if err != nil {
		if isLinkRefused(path, err) {
			return nil, fmt.Errorf("%s is a symbolic link: tiform does not append to a file through a link; remove it or name the file itself", path)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): the audit log must be a plain file", path, st.Mode().Type())
	}
	if st.Mode().Perm()&^Private != 0 {
		if err := f.Chmod(Private); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s is readable by others (%v) and cannot be made private: %w", path, st.Mode().Perm(), err)
		}
	}
	return f, nil
}

// isLinkRefused reports whether opening path failed because it is a
// symbolic link (O_NOFOLLOW gives ELOOP).
func isLinkRefused(path string, err error) bool {
	st, lerr := os.Lstat(path)
	return lerr == nil && st.Mode()&os.ModeSymlink != 0 && !errors.Is(err, os.ErrNotExist)
}

// OpenRead opens path, a file OpenAppend appends to, to read it back (the
// record of applied plans in the audit log): like OpenAppend, never through
// a symbolic link and never waiting on a FIFO; it must be a regular file. A
// missing file is an error wrapping os.ErrNotExist.
func OpenRead(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		if st.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link: tiform does not read its own records through a link; remove it or name the file itself", path)
		}
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow|oNonBlock, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, nil
}

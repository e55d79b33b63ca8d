//go:build unix

package files

import "syscall"

// oNoFollow makes open fail on a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW

// oNonBlock makes opening a FIFO fail at once instead of waiting for a
// reader.
const oNonBlock = syscall.O_NONBLOCK

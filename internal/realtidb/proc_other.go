//go:build !linux

package realtidb

import "syscall"

// childAttr: elsewhere the server is stopped by the test's cleanup only.
func childAttr() *syscall.SysProcAttr { return nil }

package realtidb

import "syscall"

// childAttr makes the kernel kill the server if the test process dies
// before its cleanup runs, so no server outlives its test binary.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

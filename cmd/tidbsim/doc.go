// Command tidbsim runs the TiDB cluster emulator of internal/tidbsim on a TCP
// address, for `make demo`, manual testing and end-to-end scripts. It prints
// exactly one line when ready and stops cleanly on SIGINT/SIGTERM.
//
//	tidbsim --addr 127.0.0.1:4000 --version v8.5.1 --tikv 3
//	tidbsim --seed cluster.json --down 127.0.0.1:20161 --latency 20ms
//
// It owns nothing but flag parsing; every behaviour lives in internal/tidbsim.
package main

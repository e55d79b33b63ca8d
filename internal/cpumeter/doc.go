// Package cpumeter reports, in a benchmark, the CPU time the whole process
// spent per operation (user + system time of every thread, from
// getrusage(RUSAGE_SELF)), as the metric "cpu-ms/op" next to the wall time
// `go test -bench` prints. On a shared machine wall time also measures the
// neighbours; CPU time measures the work. In benchmarks against the
// in-process emulator it includes the emulator's work.
//
// Contracts: imported by _test.go files only; it measures, it never fails a
// benchmark.
package cpumeter

package cpumeter

import (
	"testing"
	"time"
)

// Start begins measuring; the returned function, called after the
// benchmark's loop, reports the CPU time per operation since Start. Call
// Start after any setup (b.ResetTimer does not reset it).
func Start(b *testing.B) (stop func()) {
	var m Meter
	m.Start()
	return func() {
		m.Stop()
		m.Report(b)
	}
}

// Meter adds up the CPU time of the measured parts of a benchmark's loop,
// for loops that prepare each operation outside the timer (b.StopTimer).
type Meter struct {
	total, begin time.Duration
}

// Start starts a measured part.
func (m *Meter) Start() { m.begin = cpuTime() }

// Stop ends a measured part.
func (m *Meter) Stop() { m.total += cpuTime() - m.begin }

// Report reports the measured CPU time per operation as "cpu-ms/op".
func (m *Meter) Report(b *testing.B) {
	if b.N > 0 {
		b.ReportMetric(float64(m.total)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

package cpumeter

import (
	"testing"
	"time"
)

func TestCPUTimeGrows(t *testing.T) {
	begin := cpuTime()
	deadline := time.Now().Add(50 * time.Millisecond)
	n := 0
	for time.Now().Before(deadline) {
		n++
	}
	if got := cpuTime() - begin; got <= 0 {
		t.Errorf("50 ms of busy loop measured %v of CPU time", got)
	}
}

func BenchmarkBusy(b *testing.B) {
	stop := Start(b)
	for i := 0; i < b.N; i++ {
		x := 0
		for j := 0; j < 1000; j++ {
			x += j
		}
		_ = x
	}
	stop()
}

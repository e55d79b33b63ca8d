//go:build !unix

package cpumeter

import "time"

// cpuTime is unknown here: the metric reads 0.
func cpuTime() time.Duration { return 0 }
